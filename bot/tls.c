/*
 * tls.c - OpenSSL loaded at run time (dlopen), for conn.c's TLS.
 *
 * Invariants: the library is the one whose headers the bot was built
 * with (its soname from OPENSSL_VERSION_MAJOR); it is opened once, on the
 * first TLS connection, and never closed (OpenSSL cleans up at exit); a
 * symbol missing makes the whole table unusable rather than half of it.
 * The table's types are checked against OpenSSL's own declarations at
 * compile time (TLS_FN), so a call through it is as typed as a direct one.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "tls.h"

#if defined(OPENSSL_VERSION_MAJOR) && OPENSSL_VERSION_MAJOR >= 3
#define TLS_STR2(x) #x
#define TLS_STR(x)  TLS_STR2(x)
#define TLS_SONAME  "libssl.so." TLS_STR(OPENSSL_VERSION_MAJOR)
#else
#define TLS_SONAME "libssl.so.1.1"
#endif

/* One entry of the table: its name, where it goes, and (unevaluated) an
 * assignment of OpenSSL's declared function to the field, which fails to
 * compile when the two types differ. */
#define TLS_FN(name)                                                                               \
    {                                                                                              \
#name, offsetof(struct tls_lib, name), sizeof(((struct tls_lib *)0)->name = name)          \
    }

static const struct tls_fn {
    const char *name;
    size_t off;
    size_t size;
} tls_fns[] = {
    TLS_FN(TLS_client_method),
    TLS_FN(SSL_CTX_new),
    TLS_FN(SSL_CTX_free),
    TLS_FN(SSL_CTX_ctrl),
    TLS_FN(SSL_CTX_set_verify),
    TLS_FN(SSL_CTX_load_verify_locations),
    TLS_FN(SSL_CTX_set_default_verify_paths),
    TLS_FN(SSL_CTX_use_certificate_chain_file),
    TLS_FN(SSL_CTX_use_PrivateKey_file),
    TLS_FN(SSL_CTX_check_private_key),
    TLS_FN(SSL_new),
    TLS_FN(SSL_free),
    TLS_FN(SSL_ctrl),
    TLS_FN(SSL_get0_param),
    TLS_FN(X509_VERIFY_PARAM_set_hostflags),
    TLS_FN(X509_VERIFY_PARAM_set1_host),
    TLS_FN(X509_VERIFY_PARAM_set1_ip_asc),
    TLS_FN(SSL_set_fd),
    TLS_FN(SSL_connect),
    TLS_FN(SSL_read),
    TLS_FN(SSL_write),
    TLS_FN(SSL_has_pending),
    TLS_FN(SSL_get_error),
    TLS_FN(SSL_get_verify_result),
    TLS_FN(SSL_get_version),
    TLS_FN(SSL_get_current_cipher),
    TLS_FN(SSL_CIPHER_get_name),
    TLS_FN(X509_verify_cert_error_string),
    TLS_FN(ERR_get_error),
    TLS_FN(ERR_peek_error),
    TLS_FN(ERR_clear_error),
    TLS_FN(ERR_error_string_n),
};

static struct tls_lib tls_table;
static int tls_loaded;

const struct tls_lib *tls_lib_load(char *err, size_t size)
{
    if (tls_loaded)
        return &tls_table;
    void *h = dlopen(TLS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, size,
                 "cannot load OpenSSL (%s): %s; install OpenSSL's library (Debian: libssl3)",
                 TLS_SONAME, why ? why : "not found");
        return NULL;
    }
    struct tls_lib t;
    for (size_t i = 0; i < sizeof(tls_fns) / sizeof(tls_fns[0]); i++) {
        void *p = dlsym(h, tls_fns[i].name);
        if (!p) {
            snprintf(err, size, "cannot load OpenSSL (%s): it has no %s", TLS_SONAME,
                     tls_fns[i].name);
            return NULL; /* h stays open: dlclose of OpenSSL is not safe */
        }
        /* POSIX: a function's address comes back from dlsym as a void *. */
        memcpy((char *)&t + tls_fns[i].off, &p, sizeof(p));
    }
    tls_table = t;
    tls_loaded = 1;
    return &tls_table;
}
