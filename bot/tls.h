/*
 * tls.h - OpenSSL, loaded only when a connection needs TLS (tls.c).
 *
 * The bot is not linked to libssl and libcrypto: their relocations alone
 * are about 460 KiB of private memory (bench/peers_bench.py's
 * bot.private_kb), which a bot on a plaintext server never uses. conn.c
 * calls OpenSSL through this table; OpenSSL's headers still give it the
 * types and the constants.
 */
#ifndef RINGSIDE_TLS_H
#define RINGSIDE_TLS_H

#include <stddef.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/* The OpenSSL functions conn.c calls, each named as in OpenSSL (none of
 * them is a macro there: SSL_set_mode and the like go through SSL_ctrl). */
struct tls_lib {
    const SSL_METHOD *(*TLS_client_method)(void);
    SSL_CTX *(*SSL_CTX_new)(const SSL_METHOD *meth);
    void (*SSL_CTX_free)(SSL_CTX *ctx);
    long (*SSL_CTX_ctrl)(SSL_CTX *ctx, int cmd, long larg, void *parg);
    void (*SSL_CTX_set_verify)(SSL_CTX *ctx, int mode, SSL_verify_cb cb);
    int (*SSL_CTX_load_verify_locations)(SSL_CTX *ctx, const char *file, const char *path);
    int (*SSL_CTX_set_default_verify_paths)(SSL_CTX *ctx);
    int (*SSL_CTX_use_certificate_chain_file)(SSL_CTX *ctx, const char *file);
    int (*SSL_CTX_use_PrivateKey_file)(SSL_CTX *ctx, const char *file, int type);
    int (*SSL_CTX_check_private_key)(const SSL_CTX *ctx);
    SSL *(*SSL_new)(SSL_CTX *ctx);
    void (*SSL_free)(SSL *ssl);
    long (*SSL_ctrl)(SSL *ssl, int cmd, long larg, void *parg);
    X509_VERIFY_PARAM *(*SSL_get0_param)(SSL *ssl);
    void (*X509_VERIFY_PARAM_set_hostflags)(X509_VERIFY_PARAM *param, unsigned int flags);
    int (*X509_VERIFY_PARAM_set1_host)(X509_VERIFY_PARAM *param, const char *name, size_t namelen);
    int (*X509_VERIFY_PARAM_set1_ip_asc)(X509_VERIFY_PARAM *param, const char *ipasc);
    int (*SSL_set_fd)(SSL *ssl, int fd);
    int (*SSL_connect)(SSL *ssl);
    int (*SSL_read)(SSL *ssl, void *buf, int num);
    int (*SSL_write)(SSL *ssl, const void *buf, int num);
    int (*SSL_has_pending)(const SSL *ssl);
    int (*SSL_get_error)(const SSL *ssl, int ret);
    long (*SSL_get_verify_result)(const SSL *ssl);
    const char *(*SSL_get_version)(const SSL *ssl);
    const SSL_CIPHER *(*SSL_get_current_cipher)(const SSL *ssl);
    const char *(*SSL_CIPHER_get_name)(const SSL_CIPHER *cipher);
    const char *(*X509_verify_cert_error_string)(long n);
    unsigned long (*ERR_get_error)(void);
    unsigned long (*ERR_peek_error)(void);
    void (*ERR_clear_error)(void);
    void (*ERR_error_string_n)(unsigned long e, char *buf, size_t len);
};

/* OpenSSL's functions, libssl loaded (with libcrypto, which it needs) the
 * first time this is called and kept until the bot exits: the table, or
 * NULL with a one-line reason in err[size] (which library is missing and
 * why, so the operator knows to install it). */
const struct tls_lib *tls_lib_load(char *err, size_t size);

#endif
