/*
 * auth.c - passwords: yescrypt hashes through libcrypt (libxcrypt).
 *
 * A fresh salt comes from crypt_gensalt_rn with the OS's randomness; a hash
 * is checked by hashing the candidate with the stored setting and comparing
 * in constant time. Passwords are never logged or stored in clear.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <crypt.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int password_hash(const char *password, char *out, size_t len)
{
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    struct crypt_data *cd;
    int rc = -1;

    if (!crypt_gensalt_rn("$y$", 0, NULL, 0, salt, sizeof(salt)))
        return -1;
    cd = xmalloc(sizeof(*cd));
    memset(cd, 0, sizeof(*cd));
    const char *h = crypt_r(password, salt, cd);
    if (h && h[0] != '*' && strlen(h) < len) {
        memcpy(out, h, strlen(h) + 1);
        rc = 0;
    }
    explicit_bzero(cd, sizeof(*cd));
    free(cd);
    return rc;
}

int password_check(const char *password, const char *hash)
{
    struct crypt_data *cd = xmalloc(sizeof(*cd));
    int ok = 0;

    memset(cd, 0, sizeof(*cd));
    const char *h = crypt_r(password, hash, cd);
    if (h && h[0] != '*') {
        size_t n = strlen(hash);
        if (strlen(h) == n) {
            unsigned char diff = 0;
            for (size_t i = 0; i < n; i++)
                diff |= (unsigned char)(h[i] ^ hash[i]);
            ok = diff == 0;
        }
    }
    explicit_bzero(cd, sizeof(*cd));
    free(cd);
    return ok;
}
