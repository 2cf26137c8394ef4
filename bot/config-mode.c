/*
 * config-mode.c - is the configuration file private enough for the
 * passwords it holds?
 *
 * A key whose name ends in "password" (nickserv_password, server_password,
 * and any later one such as sasl_password: found by name, so a new secret
 * key needs no change here) with a value is a secret. A file holding one
 * should be readable by the bot's user only: mode 600, or 640 with a group
 * that is the bot's own (Debian's package: root:ringside 0640). The file is
 * read with inih, which config_load has already checked it against.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "bot.h"

struct secret_scan {
    char key[64]; /* the first secret key with a value; "" if none */
};

static int secret_handler(void *user, const char *section, const char *name, const char *value)
{
    struct secret_scan *s = user;
    static const char suffix[] = "password";
    size_t n = strlen(name), k = sizeof(suffix) - 1;

    (void)section;
    if (!s->key[0] && n >= k && strcasecmp(name + n - k, suffix) == 0 && value && *value)
        snprintf(s->key, sizeof(s->key), "%s", name);
    return 1;
}

int config_mode_check(const char *path, char *msg, size_t size)
{
    struct stat sb;
    struct secret_scan scan = {""};
    const char *who;

    if (msg && size)
        msg[0] = '\0';
    if (stat(path, &sb) != 0)
        return 0;
    if (sb.st_mode & S_IROTH)
        who = "every local user";
    else if ((sb.st_mode & S_IRGRP) && sb.st_gid != getegid())
        who = "its group";
    else
        return 0;
    if (ini_parse(path, secret_handler, &scan) < 0 || !scan.key[0])
        return 0;
    if (msg && size)
        snprintf(msg, size,
                 "%s holds %s and is readable by %s (mode %03o); make it private: chmod 600 %s "
                 "(or chmod 640 with the bot's own group)",
                 path, scan.key, who, (unsigned)(sb.st_mode & 0777), path);
    return 1;
}
