#ifndef ACTIVETASK_CLIBSSL_SHIM_H
#define ACTIVETASK_CLIBSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Macros Swift cannot call: one typed wrapper each. */
static inline int activetask_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}
static inline int activetask_general_names_count(const GENERAL_NAMES *names) {
    return sk_GENERAL_NAME_num(names);
}
static inline const GENERAL_NAME *activetask_general_names_at(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}
static inline void activetask_general_names_free(GENERAL_NAMES *names) {
    GENERAL_NAMES_free(names);
}
#endif
