#ifndef ACTIVETASK_CLIBCRYPTO_SHIM_H
#define ACTIVETASK_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/cms.h>

/* STACK_OF(X509)'s functions and BIO_flush are macros, which Swift cannot call: one typed
   wrapper each. */
static inline STACK_OF(X509) *activetask_x509_stack_new(void) {
    return sk_X509_new_null();
}
static inline int activetask_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}
/* Frees the stack only; the certificates are freed by their owner. */
static inline void activetask_x509_stack_free(STACK_OF(X509) *stack) {
    sk_X509_free(stack);
}
static inline int activetask_bio_flush(BIO *bio) {
    return BIO_flush(bio);
}
#endif
