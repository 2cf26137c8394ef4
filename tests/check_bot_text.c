/* check_bot_text.c - the bot's log (levels, one escaped line per message)
 * and the IRC text rules: case mappings, sanitizing, splitting long text on
 * spaces and UTF-8 boundaries, and channel names; the cleaning of
 * everything the bot says (valid UTF-8, no control from a user). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "tests.h"

/* Runs log_msg calls with stderr sent to a temporary file; returns what was
 * written (static buffer). */
static const char *capture_begin_end(int begin)
{
    static char out[4096];
    static int saved = -1;
    static FILE *tmp;

    if (begin) {
        fflush(stderr);
        tmp = tmpfile();
        ck_assert_ptr_nonnull(tmp);
        saved = dup(2);
        ck_assert_int_ge(saved, 0);
        ck_assert_int_ge(dup2(fileno(tmp), 2), 0);
        return NULL;
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, sizeof(out) - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
    return out;
}

START_TEST(test_log_level_parse)
{
    ck_assert_int_eq(log_level_parse("debug"), LOG_DEBUG);
    ck_assert_int_eq(log_level_parse("info"), LOG_INFO);
    ck_assert_int_eq(log_level_parse("warn"), LOG_WARN);
    ck_assert_int_eq(log_level_parse("error"), LOG_ERROR);
    ck_assert_int_eq(log_level_parse("WARN"), LOG_WARN);
    ck_assert_int_eq(log_level_parse("warning"), -1);
    ck_assert_int_eq(log_level_parse(""), -1);
    ck_assert_int_eq(log_level_parse(NULL), -1);
}
END_TEST

START_TEST(test_log_line_format)
{
    capture_begin_end(1);
    log_set_level(LOG_INFO);
    log_msg(LOG_DEBUG, "hidden %d", 1);
    log_msg(LOG_WARN, "nick %s said \"%s\"", "bob", "hi\r\nPRIVMSG #x :evil\x1b[2J");
    log_set_level(LOG_DEBUG);
    log_msg(LOG_DEBUG, "shown");
    log_set_level(LOG_INFO);
    const char *out = capture_begin_end(0);

    /* "YYYY-MM-DDTHH:MM:SSZ level message\n", twice. */
    ck_assert_msg(strstr(out, "hidden") == NULL, "%s", out);
    const char *nl = strchr(out, '\n');
    ck_assert_ptr_nonnull(nl);
    ck_assert_int_eq(out[4], '-');
    ck_assert_int_eq(out[10], 'T');
    ck_assert_int_eq(out[19], 'Z');
    ck_assert_int_eq(strncmp(out + 20, " warn nick bob said \"hi\\r\\nPRIVMSG #x :evil\\x1b[2J\"\n",
                             (size_t)(nl - out - 20 + 1)),
                     0);
    ck_assert_str_eq(nl + 22, "debug shown\n");
    ck_assert_int_eq(strlen(nl + 1), 21 + strlen("debug shown\n"));
}
END_TEST

START_TEST(test_log_long_message)
{
    char big[3000];

    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    capture_begin_end(1);
    log_msg(LOG_ERROR, "%s|end", big);
    const char *out = capture_begin_end(0);
    ck_assert_ptr_nonnull(strstr(out, " error xxx"));
    ck_assert_ptr_nonnull(strstr(out, "x|end\n"));
    ck_assert_int_eq(strlen(out), 21 + 6 + sizeof(big) - 1 + 5);
}
END_TEST

START_TEST(test_casemapping_parse)
{
    ck_assert_int_eq(irc_casemapping_parse("ascii"), CASEMAP_ASCII);
    ck_assert_int_eq(irc_casemapping_parse("rfc1459"), CASEMAP_RFC1459);
    ck_assert_int_eq(irc_casemapping_parse("strict-rfc1459"), CASEMAP_STRICT_RFC1459);
    ck_assert_int_eq(irc_casemapping_parse("rfc7613"), CASEMAP_RFC1459);
    ck_assert_int_eq(irc_casemapping_parse(""), CASEMAP_RFC1459);
    ck_assert_int_eq(irc_casemapping_parse(NULL), CASEMAP_RFC1459);
}
END_TEST

START_TEST(test_casefold_three_mappings)
{
    char out[64];
    const char *in = "Nick[]\\~^{}|Z09-_`";

    irc_casefold(CASEMAP_ASCII, out, in, sizeof(out));
    ck_assert_str_eq(out, "nick[]\\~^{}|z09-_`");
    irc_casefold(CASEMAP_RFC1459, out, in, sizeof(out));
    ck_assert_str_eq(out, "nick{}|^^{}|z09-_`");
    irc_casefold(CASEMAP_STRICT_RFC1459, out, in, sizeof(out));
    ck_assert_str_eq(out, "nick{}|~^{}|z09-_`");
    /* Bytes over 127 are left alone (no locale). */
    irc_casefold(CASEMAP_RFC1459, out, "\xc3\x89T\xc3\xa9", sizeof(out));
    ck_assert_str_eq(out, "\xc3\x89t\xc3\xa9");
}
END_TEST

START_TEST(test_casefold_bounds_and_in_place)
{
    char out[8];
    char buf[] = "ABC[D]";

    memset(out, '#', sizeof(out));
    irc_casefold(CASEMAP_ASCII, out, "ABCDEFGHIJ", 5);
    ck_assert_str_eq(out, "abcd");
    ck_assert_int_eq(out[5], '#');
    irc_casefold(CASEMAP_ASCII, out, "ABC", 1);
    ck_assert_str_eq(out, "");
    out[0] = 'q';
    irc_casefold(CASEMAP_ASCII, out, "ABC", 0); /* writes nothing */
    ck_assert_int_eq(out[0], 'q');
    irc_casefold(CASEMAP_RFC1459, buf, buf, sizeof(buf));
    ck_assert_str_eq(buf, "abc{d}");
}
END_TEST

START_TEST(test_casecmp)
{
    ck_assert_int_eq(irc_casecmp(CASEMAP_ASCII, "RingSide", "ringside"), 0);
    ck_assert_int_ne(irc_casecmp(CASEMAP_ASCII, "a[b]", "a{b}"), 0);
    ck_assert_int_eq(irc_casecmp(CASEMAP_RFC1459, "a[b]\\~", "A{B}|^"), 0);
    ck_assert_int_ne(irc_casecmp(CASEMAP_STRICT_RFC1459, "a~", "a^"), 0);
    ck_assert_int_eq(irc_casecmp(CASEMAP_STRICT_RFC1459, "A[\\]", "a{|}"), 0);
    ck_assert_int_lt(irc_casecmp(CASEMAP_ASCII, "abc", "abd"), 0);
    ck_assert_int_gt(irc_casecmp(CASEMAP_ASCII, "abcd", "ABC"), 0);
    ck_assert_int_lt(irc_casecmp(CASEMAP_ASCII, "", "a"), 0);
    ck_assert_int_gt(irc_casecmp(CASEMAP_ASCII, "\xc3", "a"), 0); /* unsigned bytes */
    ck_assert_int_eq(irc_casecmp(CASEMAP_RFC1459, "", ""), 0);
}
END_TEST

START_TEST(test_sanitize)
{
    char a[] = "one\r\ntwo\nthree\rfour";
    char b[] = "clean text \x02 bold \x01 ctcp";
    char c[] = "\r\n";
    char d[] = "";

    irc_sanitize(a);
    ck_assert_str_eq(a, "one  two three four");
    irc_sanitize(b);
    ck_assert_str_eq(b, "clean text \x02 bold \x01 ctcp");
    irc_sanitize(c);
    ck_assert_str_eq(c, "  ");
    irc_sanitize(d);
    ck_assert_str_eq(d, "");
}
END_TEST

START_TEST(test_split_ascii)
{
    const char *t = "the quick brown fox";
    size_t len = strlen(t);

    ck_assert_uint_eq(irc_split(t, len, 100), len);    /* fits */
    ck_assert_uint_eq(irc_split(t, len, len), len);    /* exact fit */
    ck_assert_uint_eq(irc_split(t, len, len - 1), 15); /* "the quick brown" */
    ck_assert_uint_eq(irc_split(t, len, 15), 15);      /* the space right at max */
    ck_assert_uint_eq(irc_split(t, len, 14), 9);       /* "the quick" */
    ck_assert_uint_eq(irc_split(t, len, 4), 3);        /* "the" */
    ck_assert_uint_eq(irc_split(t, len, 3), 3);        /* the space is at 3 */
    ck_assert_uint_eq(irc_split(t, len, 2), 2);        /* no space fits: cut */
    /* A sentence that ends in the second half of what fits ends the piece. */
    const char *s = "One two three. Four five six seven eight.";
    ck_assert_uint_eq(irc_split(s, strlen(s), 22), 14); /* "One two three.", not "... Four" */
    ck_assert_uint_eq(irc_split(s, strlen(s), 27), 14);
    ck_assert_uint_eq(irc_split(s, strlen(s), 28), 28); /* the end at 14 is too early */
    ck_assert_uint_eq(irc_split(s, strlen(s), 40), 34); /* no end fits: the last space */
    ck_assert_uint_eq(irc_split("", 0, 10), 0);
    ck_assert_uint_eq(irc_split("abc", 3, 0), 0);
}
END_TEST

START_TEST(test_split_no_spaces)
{
    char t[600];

    memset(t, 'a', sizeof(t) - 1);
    t[sizeof(t) - 1] = '\0';
    ck_assert_uint_eq(irc_split(t, 599, 400), 400);
    ck_assert_uint_eq(irc_split(t, 599, 599), 599);
    /* A leading space is no place to cut (it would give an empty piece). */
    t[0] = ' ';
    ck_assert_uint_eq(irc_split(t, 599, 400), 400);
}
END_TEST

START_TEST(test_split_utf8)
{
    /* "é" is 2 bytes, "€" 3, "𝄞" 4. */
    const char *e = "\xc3\xa9\xc3\xa9\xc3\xa9";
    const char *euro = "\xe2\x82\xac\xe2\x82\xac";
    const char *clef = "\xf0\x9d\x84\x9e\xf0\x9d\x84\x9e";

    ck_assert_uint_eq(irc_split(e, 6, 5), 4);
    ck_assert_uint_eq(irc_split(e, 6, 4), 4);
    ck_assert_uint_eq(irc_split(e, 6, 3), 2);
    ck_assert_uint_eq(irc_split(euro, 6, 5), 3);
    ck_assert_uint_eq(irc_split(euro, 6, 4), 3);
    ck_assert_uint_eq(irc_split(euro, 6, 3), 3);
    ck_assert_uint_eq(irc_split(clef, 8, 7), 4);
    ck_assert_uint_eq(irc_split(clef, 8, 5), 4);
    ck_assert_uint_eq(irc_split(clef, 8, 4), 4);
    /* A space still wins over a character boundary. */
    ck_assert_uint_eq(irc_split("ab \xe2\x82\xac\xe2\x82\xac", 9, 7), 2);
}
END_TEST

/* Every cut of every prefix of a mixed text lands on a character start. */
START_TEST(test_split_utf8_everywhere)
{
    const char *t = "a\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9ez\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e";
    size_t len = strlen(t);

    for (size_t max = 4; max <= len; max++) {
        size_t n = irc_split(t, len, max);
        REQUIRE(n > 0 && n <= max);
        REQUIRE(((unsigned char)t[n] & 0xc0) != 0x80 || n == len);
    }
}
END_TEST

START_TEST(test_split_invalid_utf8)
{
    char cont[64], leads[64];

    memset(cont, 0x80, sizeof(cont)); /* continuation bytes only */
    memset(leads, 0xf0, sizeof(leads));
    for (size_t max = 1; max < sizeof(cont); max++) {
        size_t n = irc_split(cont, sizeof(cont), max);
        REQUIRE(n > 0 && n <= max);
        n = irc_split(leads, sizeof(leads), max);
        REQUIRE(n > 0 && n <= max);
    }
    /* A truncated sequence then ASCII: still a piece, still in bounds. */
    ck_assert_uint_eq(irc_split("ab\xe2\x82xyz", 7, 4), 4);
    ck_assert_uint_eq(irc_split("\xe2\x82\xac", 3, 2), 2); /* max < 4: best effort */
    ck_assert_uint_eq(irc_split("a\x82\x82\x82\x82\x82", 6, 4), 4);
}
END_TEST

START_TEST(test_is_channel)
{
    ck_assert_int_eq(irc_is_channel("#ringside", "#&"), 1);
    ck_assert_int_eq(irc_is_channel("&local", "#&"), 1);
    ck_assert_int_eq(irc_is_channel("+modeless", "#&"), 0);
    ck_assert_int_eq(irc_is_channel("+modeless", "#&+"), 1);
    ck_assert_int_eq(irc_is_channel("bob", "#&"), 0);
    ck_assert_int_eq(irc_is_channel("", "#&"), 0);
    ck_assert_int_eq(irc_is_channel(NULL, "#&"), 0);
    ck_assert_int_eq(irc_is_channel("#x", NULL), 1); /* default CHANTYPES #& */
    ck_assert_int_eq(irc_is_channel("&x", ""), 1);
    ck_assert_int_eq(irc_is_channel("x", ""), 0);
}
END_TEST

/* text_utf8_clean into a fixed buffer; returns it. */
static const char *clean(char *buf, size_t len, const char *text, size_t n, const char *keep)
{
    struct str s;

    str_init_fixed(&s, buf, len);
    text_utf8_clean(&s, text, n, keep);
    return buf;
}

#define FFFD "\xef\xbf\xbd"

/* Valid UTF-8 without controls is copied unchanged; every byte of an invalid
 * sequence becomes U+FFFD, so `no command "\xe2\x82"` never goes raw. */
START_TEST(test_clean_invalid_utf8)
{
    char b[256];

    ck_assert_str_eq(clean(b, sizeof(b), "plain \xc3\xa9\xe2\x82\xac\xf0\x9f\xa5\x8a", 15, NULL),
                     "plain \xc3\xa9\xe2\x82\xac\xf0\x9f\xa5\x8a");
    ck_assert_str_eq(clean(b, sizeof(b), "no \"\xe2\x82\"", 7, NULL), "no \"" FFFD FFFD "\"");
    ck_assert_str_eq(clean(b, sizeof(b), "\xff\xfe", 2, NULL), FFFD FFFD);
    ck_assert_str_eq(clean(b, sizeof(b), "\xc0\xaf", 2, NULL), FFFD FFFD); /* overlong / */
    ck_assert_str_eq(clean(b, sizeof(b), "\xe0\x80\xaf", 3, NULL), FFFD FFFD FFFD);
    ck_assert_str_eq(clean(b, sizeof(b), "\xed\xa0\x80", 3, NULL), FFFD FFFD FFFD); /* surrogate */
    ck_assert_str_eq(clean(b, sizeof(b), "\xf4\x90\x80\x80", 4, NULL),
                     FFFD FFFD FFFD FFFD); /* past U+10FFFF */
    ck_assert_str_eq(clean(b, sizeof(b), "a\x80z", 3, NULL), "a" FFFD "z");
    ck_assert_str_eq(clean(b, sizeof(b), "\xe2\x82", 2, NULL), FFFD FFFD);     /* cut short */
    ck_assert_str_eq(clean(b, sizeof(b), "\xe2\x82\xac", 2, NULL), FFFD FFFD); /* len counts */
    ck_assert_str_eq(clean(b, sizeof(b), "\xf4\x8f\xbf\xbf", 4, NULL), "\xf4\x8f\xbf\xbf");
}
END_TEST

/* Controls: CR LF TAB a space; the bot's own formatting kept when asked;
 * every other C0, DEL, NUL and C1 control becomes U+FFFD. */
START_TEST(test_clean_controls)
{
    char b[256];

    ck_assert_str_eq(clean(b, sizeof(b), "a\rb\nc\td", 7, NULL), "a b c d");
    ck_assert_str_eq(clean(b, sizeof(b), "\002bold\002 \00304red\003\017", 15, "\002\003\017"),
                     "\002bold\002 \00304red\003\017");
    ck_assert_str_eq(clean(b, sizeof(b), "\002x\003", 3, NULL), FFFD "x" FFFD);
    ck_assert_str_eq(clean(b, sizeof(b), "\001\026\035\037\x7f", 5, "\002"),
                     FFFD FFFD FFFD FFFD FFFD);
    ck_assert_str_eq(clean(b, sizeof(b), "a\0b", 3, "\002"), "a" FFFD "b");
    ck_assert_str_eq(clean(b, sizeof(b), "\xc2\x85\xc2\x9b\xc2\xa0", 6, NULL),
                     FFFD FFFD "\xc2\xa0"); /* NEL and CSI go; NBSP stays */
}
END_TEST

/* Whatever the bytes, the result is valid UTF-8 with no foreign control:
 * every 1- and 2-byte input, and every 3-byte input from a set of bytes
 * around the edges. */
static int is_clean(const char *out)
{
    const unsigned char *t = (const unsigned char *)out;
    size_t len = strlen(out);
    struct str again;
    char buf[64];

    for (size_t i = 0; i < len; i++)
        if (t[i] < 0x20 || t[i] == 0x7f)
            return 0;
    /* Valid UTF-8 is a fixed point. */
    str_init_fixed(&again, buf, sizeof(buf));
    text_utf8_clean(&again, out, len, NULL);
    return strcmp(buf, out) == 0;
}

START_TEST(test_clean_every_short_input)
{
    static const unsigned char edge[] = {0x00, 0x01, 0x1f, 0x20, 0x7f, 0x80, 0x9f, 0xbf,
                                         0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0,
                                         0xf4, 0xf5, 0xff, 'a',  0x8f, 0x90, 0xa0};
    size_t ne = sizeof(edge);
    char in[4], b[64];
    int bad = 0;

    for (int x = 0; x < 65536; x++) {
        in[0] = (char)(x >> 8);
        in[1] = (char)x;
        bad += !is_clean(clean(b, sizeof(b), in, 1 + (x < 256 ? 0 : 1), NULL));
    }
    for (size_t i = 0; i < ne * ne * ne * ne; i++) {
        in[0] = (char)edge[i % ne];
        in[1] = (char)edge[i / ne % ne];
        in[2] = (char)edge[i / ne / ne % ne];
        in[3] = (char)edge[i / ne / ne / ne];
        bad += !is_clean(clean(b, sizeof(b), in, 4, NULL));
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* text_clip, which quotes a user's words back to him, writes each control
 * character as U+FFFD: a user cannot put bold, colour or reset into a reply. */
START_TEST(test_clip_controls)
{
    char b[32];

    ck_assert_str_eq(text_clip(b, sizeof(b),
                               "a\002b\003"
                               "4c\017",
                               31),
                     "a" FFFD "b" FFFD "4c" FFFD);
    ck_assert_str_eq(text_clip(b, sizeof(b), "a\002b", 3), "a"); /* U+FFFD does not fit */
    ck_assert_str_eq(text_clip(b, sizeof(b), "a\002b", 4), "a" FFFD);
    ck_assert_str_eq(text_clip(b, sizeof(b), "\x7f\x01", 6), FFFD FFFD);
    ck_assert_str_eq(text_clip(b, sizeof(b), "\002\xe2\x82\xac", 5), FFFD); /* € goes whole */
    ck_assert_str_eq(text_clip(b, sizeof(b), "\002\xe2\x82\xac", 6), FFFD "\xe2\x82\xac");
    ck_assert_str_eq(CLIP("x\xe2\x82\xac\xe2\x82\xac", 3), "x");
}
END_TEST

/* What servers say of logins, read as irc.c's handlers read it. */
START_TEST(test_parse_logins)
{
    const char *whox[] = {"me", "354", "bob", "bobacct"};
    const char *whox0[] = {"me", "354", "bob", "0"};
    const char *whox_other[] = {"me", "999", "bob", "bobacct"};
    const char *join[] = {"#r", "alice", "Alice A"};
    const char *join_none[] = {"#r", "*", "Alice A"};
    const char *account[] = {"*"};
    const char *account_in[] = {"carol"};
    const char *w330[] = {"me", "dave", "daveacct", "is logged in as"};
    struct users_seen seen;

    ck_assert_int_eq(users_parse_whox(whox, 4, "354", &seen), 1);
    ck_assert_str_eq(seen.nick, "bob");
    ck_assert_str_eq(seen.account, "bobacct");
    ck_assert_int_eq(users_parse_whox(whox0, 4, "354", &seen), 1);
    ck_assert_ptr_null(seen.account);
    ck_assert_int_eq(users_parse_whox(whox_other, 4, "354", &seen), 0);
    ck_assert_int_eq(users_parse_whox(whox, 3, "354", &seen), 0);
    ck_assert_int_eq(users_parse_join("alice", join, 3, &seen), 1);
    ck_assert_str_eq(seen.account, "alice");
    ck_assert_int_eq(users_parse_join("alice", join_none, 3, &seen), 1);
    ck_assert_ptr_null(seen.account);
    ck_assert_int_eq(users_parse_join("alice", join, 1, &seen), 0); /* a plain JOIN */
    ck_assert_int_eq(users_parse_join("", join, 3, &seen), 0);
    ck_assert_int_eq(users_parse_account("carol", account, 1, &seen), 1);
    ck_assert_ptr_null(seen.account);
    ck_assert_int_eq(users_parse_account("carol", account_in, 1, &seen), 1);
    ck_assert_str_eq(seen.account, "carol");
    ck_assert_int_eq(users_parse_account("carol", account, 0, &seen), 0);
    ck_assert_int_eq(users_parse_whoisaccount(w330, 4, &seen), 1);
    ck_assert_str_eq(seen.nick, "dave");
    ck_assert_str_eq(seen.account, "daveacct");
    ck_assert_int_eq(users_parse_whoisaccount(w330, 2, &seen), 0);

    char nick[8];
    users_origin_nick("alice!a@host", nick, sizeof(nick));
    ck_assert_str_eq(nick, "alice");
    users_origin_nick("averylongnick!a@host", nick, sizeof(nick));
    ck_assert_str_eq(nick, "averylo");
    users_origin_nick(NULL, nick, sizeof(nick));
    ck_assert_str_eq(nick, "");
}
END_TEST

/* Found by fuzz_accounts: a services account name too long for the bot was
 * cut to 31 bytes, and so taken for the (shorter) account of someone else.
 * It now stays too long (DB_NAME_MAX bytes), which accounts_resolve
 * refuses. */
START_TEST(test_long_services_account)
{
    struct users *u = users_new();
    const char *acc;
    char name[DB_NAME_MAX + 20];

    memset(name, 'a', sizeof(name) - 1);
    name[sizeof(name) - 1] = '\0';
    users_join(u, "mallory", 0);
    users_set_services(u, "mallory", name, 1.0);
    ck_assert_int_eq(users_services(u, "mallory", &acc, NULL), 1);
    ck_assert_uint_ge(strlen(acc), DB_NAME_MAX);
    name[DB_NAME_MAX - 1] = '\0'; /* the longest name that fits */
    users_set_services(u, "mallory", name, 2.0);
    ck_assert_int_eq(users_services(u, "mallory", &acc, NULL), 1);
    ck_assert_str_eq(acc, name);
    users_free(u);
}
END_TEST

/* What a connection (without sockets) passes to libircclient, and what it
 * sends the server, for the lines fed to it. */
static void conn_run(struct conn *c, const char *in, char *to_lib, char *to_server, size_t len)
{
    size_t n;

    ck_assert_uint_eq(conn_feed(c, in, strlen(in)), strlen(in));
    n = conn_take(c, 0, to_lib, len - 1);
    to_lib[n] = '\0';
    n = conn_take(c, 1, to_server, len - 1);
    to_server[n] = '\0';
}

/* Found by fuzz_conn: a CR inside a server's line went to libircclient as
 * it was, which may cut the line there while conn.c read it whole. It is
 * now a space; the tags go, the negotiation's lines stay here. */
START_TEST(test_conn_lines)
{
    struct config cfg;
    char lib[512], server[512];

    config_defaults(&cfg);
    struct conn *c = conn_offline(&cfg);
    conn_run(c, ":n!u@h PRIVMSG #r :a\rb\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, ":n!u@h PRIVMSG #r :a b\r\n");
    ck_assert_str_eq(server, "CAP LS 302\r\n");
    conn_run(c, "@time=x :srv CAP * LS :extended-join account-notify\r\n", lib, server,
             sizeof(lib));
    ck_assert_str_eq(lib, "");
    ck_assert_str_eq(server, "CAP REQ :extended-join account-notify\r\n");
    conn_run(c, ":srv CAP * ACK :extended-join\r\n:srv 005 me WHOX :are supported\r\n", lib, server,
             sizeof(lib));
    ck_assert_str_eq(lib, ":srv 005 me WHOX :are supported\r\n");
    ck_assert_str_eq(server, "CAP END\r\n");
    ck_assert_int_eq(conn_has_cap(c, "extended-join"), 1);
    ck_assert_int_eq(conn_has_cap(c, "account-notify"), 0);
    ck_assert_int_eq(conn_has_cap(c, "WHOX"), 1);
    /* "1ab" is no numeric (it was read as 001). */
    conn_run(c, ":srv 1ab me :x\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, ":srv 1ab me :x\r\n");
    ck_assert_ptr_null(conn_error(c));
    conn_close(c);
}
END_TEST

/* Found by fuzz_conn: a 903 (SASL success) with no login under way, or
 * without SASL configured, turned the "sasl" capability on, and the bot
 * then skipped its NickServ IDENTIFY believing itself logged in. */
START_TEST(test_conn_903_unasked)
{
    struct config cfg;
    char lib[512], server[512];

    config_defaults(&cfg);
    struct conn *c = conn_offline(&cfg);
    conn_run(c, ":srv 903 me :SASL authentication successful\r\n", lib, server, sizeof(lib));
    ck_assert_int_eq(conn_has_cap(c, "sasl"), 0);
    conn_close(c);
    cfg.sasl_mechanism = SASL_PLAIN;
    snprintf(cfg.sasl_password, sizeof(cfg.sasl_password), "pw");
    c = conn_offline(&cfg);
    conn_run(c, ":srv CAP * LS :sasl\r\n:srv 903 me :early\r\n", lib, server, sizeof(lib));
    ck_assert_int_eq(conn_has_cap(c, "sasl"), 0); /* asked for, not yet acknowledged */
    conn_run(c, ":srv CAP * ACK :sasl\r\nAUTHENTICATE +\r\n:srv 903 me :ok\r\n", lib, server,
             sizeof(lib));
    ck_assert_int_eq(conn_has_cap(c, "sasl"), 1);
    ck_assert_str_eq(lib, "");
    conn_close(c);
}
END_TEST

/* Found by fuzz_conn: with SASL not configured, a server acknowledging a
 * "sasl" never asked for started a login: AUTHENTICATE went out, and the
 * configured sasl_password with it. Now an ACK starts only what was asked. */
START_TEST(test_conn_sasl_unasked)
{
    struct config cfg;
    char lib[512], server[512];

    config_defaults(&cfg);
    snprintf(cfg.sasl_password, sizeof(cfg.sasl_password), "never-sent");
    struct conn *c = conn_offline(&cfg);
    conn_run(c, ":srv CAP * LS :sasl extended-join\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :extended-join\r\n");
    conn_run(c, ":srv CAP * ACK :sasl extended-join\r\nAUTHENTICATE +\r\n", lib, server,
             sizeof(lib));
    ck_assert_str_eq(server, "CAP END\r\n");
    ck_assert_int_eq(conn_has_cap(c, "extended-join"), 1);
    conn_close(c);
}
END_TEST

/* SASL PLAIN's payload is base64 encoded by conn.c itself (OpenSSL is
 * loaded for TLS only): "user NUL user NUL password", with each padding. */
START_TEST(test_conn_sasl_plain_base64)
{
    static const char *const cases[][2] = {
        {"p", "AUTHENTICATE Ym90AGJvdABw\r\n"},
        {"pw", "AUTHENTICATE Ym90AGJvdABwdw==\r\n"},
        {"pwd", "AUTHENTICATE Ym90AGJvdABwd2Q=\r\n"},
    };
    struct config cfg;
    char lib[512], server[512];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        config_defaults(&cfg);
        cfg.sasl_mechanism = SASL_PLAIN;
        snprintf(cfg.sasl_username, sizeof(cfg.sasl_username), "bot");
        snprintf(cfg.sasl_password, sizeof(cfg.sasl_password), "%s", cases[i][0]);
        struct conn *c = conn_offline(&cfg);
        conn_run(c, ":srv CAP * LS :sasl\r\n:srv CAP * ACK :sasl\r\n", lib, server, sizeof(lib));
        conn_run(c, "AUTHENTICATE +\r\n", lib, server, sizeof(lib));
        ck_assert_str_eq(server, cases[i][1]);
        conn_close(c);
    }
}
END_TEST

Suite *bot_text_suite(void)
{
    Suite *s = suite_create("bot_text");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_log_level_parse);
    tcase_add_test(tc, test_log_line_format);
    tcase_add_test(tc, test_log_long_message);
    tcase_add_test(tc, test_casemapping_parse);
    tcase_add_test(tc, test_casefold_three_mappings);
    tcase_add_test(tc, test_casefold_bounds_and_in_place);
    tcase_add_test(tc, test_casecmp);
    tcase_add_test(tc, test_sanitize);
    tcase_add_test(tc, test_split_ascii);
    tcase_add_test(tc, test_split_no_spaces);
    tcase_add_test(tc, test_split_utf8);
    tcase_add_test(tc, test_split_utf8_everywhere);
    tcase_add_test(tc, test_split_invalid_utf8);
    tcase_add_test(tc, test_is_channel);
    tcase_add_test(tc, test_clean_invalid_utf8);
    tcase_add_test(tc, test_clean_controls);
    tcase_add_test(tc, test_clean_every_short_input);
    tcase_add_test(tc, test_clip_controls);
    tcase_add_test(tc, test_parse_logins);
    tcase_add_test(tc, test_long_services_account);
    tcase_add_test(tc, test_conn_lines);
    tcase_add_test(tc, test_conn_903_unasked);
    tcase_add_test(tc, test_conn_sasl_unasked);
    tcase_add_test(tc, test_conn_sasl_plain_base64);
    suite_add_tcase(s, tc);
    return s;
}
