#ifndef ACTIVETASK_CLIBCRYPTO_SHIM_H
#define ACTIVETASK_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#endif
