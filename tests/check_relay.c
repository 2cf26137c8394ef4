/* check_relay.c - the relay's queues in conn.c, without sockets: they
 * start small and grow as they fill, up to the bound that is their
 * back-pressure (CONN_BUF, 20 KiB), and nothing passed through them is
 * lost, cut or reordered on the way. */
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "tests.h"

#define BOUND 20480 /* conn.c's CONN_BUF */

/* A registered connection with no socket: the negotiation over (a server
 * that offered nothing), its own lines to the server taken away. */
static struct conn *registered(struct config *cfg)
{
    static const char welcome[] = ":srv CAP * LS :\r\n:srv 001 ringside :Welcome\r\n";
    char sink[4096];

    memset(cfg, 0, sizeof(*cfg));
    struct conn *c = conn_offline(cfg);
    ck_assert_uint_eq(conn_feed(c, welcome, strlen(welcome)), strlen(welcome));
    while (conn_take(c, 1, sink, sizeof(sink)) > 0)
        ;
    while (conn_take(c, 0, sink, sizeof(sink)) > 0)
        ;
    return c;
}

/* A line of `len` bytes (CR LF included) whose text is a count, so that a
 * lost or reordered byte shows. */
static char *numbered_line(size_t len, int seed)
{
    char *s = malloc(len + 1);
    int n = snprintf(s, len + 1, "PRIVMSG #r :%d ", seed);
    for (size_t i = (size_t)n; i < len - 2; i++)
        s[i] = (char)('a' + (i + (size_t)seed) % 26);
    s[len - 2] = '\r';
    s[len - 1] = '\n';
    s[len] = '\0';
    return s;
}

/* An 8 KiB tagged line (the longest IRCv3 allows with a message), fed a
 * byte at a time, reaches libircclient whole and without its tags. */
START_TEST(long_line_grows)
{
    struct config cfg;
    struct conn *c = registered(&cfg);
    size_t tags = 8000, body = 400;
    char *line = malloc(tags + body + 8);
    char *out = malloc(BOUND + 1);

    line[0] = '@';
    memset(line + 1, 'x', tags - 2);
    line[tags - 1] = ' ';
    char *plain = numbered_line(body, 7);
    memcpy(line + tags, plain, body + 1);
    for (size_t i = 0; line[i]; i++)
        ck_assert_uint_eq(conn_feed(c, line + i, 1), 1);
    size_t n = conn_take(c, 0, out, BOUND);
    out[n] = '\0';
    ck_assert_str_eq(out, plain);
    free(plain);
    free(line);
    free(out);
    conn_close(c);
}
END_TEST

/* Many lines fed at once: the queue to libircclient takes them up to its
 * bound, says how much it took, and gives them back in order; what it
 * refused goes in once room is made. */
START_TEST(bounded_and_in_order)
{
    struct config cfg;
    struct conn *c = registered(&cfg);
    struct str in, got;
    char *buf = malloc(BOUND + 1);

    str_init(&in);
    str_init(&got);
    for (int i = 0; in.len < 3 * BOUND; i++) {
        char *l = numbered_line(100 + (size_t)(i % 300), i);
        str_add(&in, "%s", l);
        free(l);
    }
    size_t fed = 0;
    int full = 0;
    while (fed < in.len) {
        size_t took = conn_feed(c, in.p + fed, in.len - fed);
        fed += took;
        if (fed < in.len)
            full = 1;
        size_t n = conn_take(c, 0, buf, BOUND);
        ck_assert_uint_le(n, BOUND);
        str_raw(&got, buf, n);
        ck_assert(took > 0 || n > 0);
    }
    size_t n;
    while ((n = conn_take(c, 0, buf, BOUND)) > 0)
        str_raw(&got, buf, n);
    ck_assert_int_eq(full, 1);
    ck_assert_uint_eq(got.len, in.len);
    ck_assert(memcmp(got.p, in.p, in.len) == 0);
    str_free(&in);
    str_free(&got);
    free(buf);
    conn_close(c);
}
END_TEST

/* A line longer than the bound ends the connection with a reason. */
START_TEST(too_long_refused)
{
    struct config cfg;
    struct conn *c = registered(&cfg);
    char *line = malloc(BOUND + 1);

    memset(line, 'y', BOUND);
    line[BOUND] = '\0';
    ck_assert_uint_eq(conn_feed(c, line, BOUND), BOUND);
    ck_assert_ptr_nonnull(conn_error(c));
    ck_assert_ptr_nonnull(strstr(conn_error(c), "longer than 20480 bytes"));
    free(line);
    conn_close(c);
}
END_TEST

Suite *relay_suite(void)
{
    Suite *s = suite_create("relay");
    TCase *tc = tcase_create("queues");

    tcase_add_test(tc, long_line_grows);
    tcase_add_test(tc, bounded_and_in_order);
    tcase_add_test(tc, too_long_refused);
    suite_add_tcase(s, tc);
    return s;
}
