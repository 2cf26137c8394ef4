/* check_caps.c - the IRCv3 capabilities of the connection layer (conn.c,
 * ircline.c), without sockets: which are asked for when offered, the
 * account tag of each message handed on to its callback, server-time,
 * batches (a netjoin passes, a history playback runs no command), and
 * standard replies (logged; a FAIL on a message slows its target). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "tests.h"

static int log_saved = -1;
static FILE *log_tmp;

/* stderr into a temporary file until log_end, which returns it. */
static void log_begin(void)
{
    fflush(stderr);
    log_tmp = tmpfile();
    ck_assert_ptr_nonnull(log_tmp);
    log_saved = dup(2);
    ck_assert_int_ge(log_saved, 0);
    ck_assert_int_ge(dup2(fileno(log_tmp), 2), 0);
}

static const char *log_end(void)
{
    static char out[4096];

    fflush(stderr);
    dup2(log_saved, 2);
    close(log_saved);
    rewind(log_tmp);
    size_t n = fread(out, 1, sizeof(out) - 1, log_tmp);
    out[n] = '\0';
    fclose(log_tmp);
    return out;
}

/* What the connection passes to libircclient and sends the server for
 * the lines fed to it. */
static void run(struct conn *c, const char *in, char *to_lib, char *to_server, size_t len)
{
    size_t n;

    ck_assert_uint_eq(conn_feed(c, in, strlen(in)), strlen(in));
    n = conn_take(c, 0, to_lib, len - 1);
    to_lib[n] = '\0';
    n = conn_take(c, 1, to_server, len - 1);
    to_server[n] = '\0';
}

static const char *neg_log; /* what the last negotiation logged */

/* A connection through its negotiation with InspIRCd 3's offer (the
 * queue q, if any, told of FAILs and labels). */
static struct conn *negotiated_q(const struct config *cfg, const char *acked, struct outq *q)
{
    char lib[1024], server[1024], ack[512];
    struct conn *c = conn_offline(cfg);

    if (q)
        conn_set_outq(c, q);

    run(c,
        ":srv CAP * LS :account-notify account-tag away-notify batch cap-notify echo-message "
        "extended-join labeled-response message-tags server-time standard-replies sts\r\n",
        lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :extended-join account-notify account-tag "
                             "server-time batch standard-replies echo-message "
                             "labeled-response message-tags\r\n");
    snprintf(ack, sizeof(ack), ":srv CAP * ACK :%s\r\n", acked);
    log_begin();
    run(c, ack, lib, server, sizeof(lib));
    neg_log = log_end();
    ck_assert_str_eq(server, "CAP END\r\n");
    ck_assert_str_eq(lib, "");
    return c;
}

static struct conn *negotiated(const struct config *cfg, const char *acked)
{
    return negotiated_q(cfg, acked, NULL);
}

START_TEST(test_caps_requested_when_offered)
{
    struct config cfg;
    char lib[512], server[512];

    config_defaults(&cfg);
    struct conn *c = negotiated(&cfg, "extended-join account-notify account-tag server-time "
                                      "batch standard-replies");
    ck_assert_int_eq(conn_has_cap(c, "account-tag"), 1);
    ck_assert_int_eq(conn_has_cap(c, "server-time"), 1);
    ck_assert_int_eq(conn_has_cap(c, "batch"), 1);
    ck_assert_int_eq(conn_has_cap(c, "standard-replies"), 1);
    run(c, ":srv CAP me DEL :account-tag\r\n", lib, server, sizeof(lib));
    ck_assert_int_eq(conn_has_cap(c, "account-tag"), 0);
    conn_close(c);
    /* echo-message without labeled-response: not asked for. */
    c = conn_offline(&cfg);
    run(c, ":srv CAP * LS :echo-message batch\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :batch\r\n");
    conn_close(c);
    /* ngircd's offer: the request as before. */
    c = conn_offline(&cfg);
    run(c, ":srv CAP * LS :multi-prefix\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP END\r\n");
    ck_assert_int_eq(conn_has_cap(c, "account-tag"), 0);
    conn_close(c);
}
END_TEST

START_TEST(test_caps_account_tag)
{
    struct config cfg;
    char lib[1024], server[512], acc[64];

    config_defaults(&cfg);
    struct conn *c = negotiated(&cfg, "account-tag");
    run(c,
        "@time=2026-11-26T00:00:00.000Z;account=Alice :alice!a@h PRIVMSG #ring :!fight\r\n"
        "@account=Bob :bob!b@h PRIVMSG ringside :\001VERSION\001\r\n"
        ":carol!c@h PRIVMSG #ring :!standings\r\n"
        "@account=Dave :dave!d@h PRIVMSG ringside :hi\r\n"
        "@account=* :erin!e@h PRIVMSG ringside :hi\r\n",
        lib, server, sizeof(lib));
    ck_assert_str_eq(lib, ":alice!a@h PRIVMSG #ring :!fight\r\n"
                          ":bob!b@h PRIVMSG ringside :\001VERSION\001\r\n"
                          ":carol!c@h PRIVMSG #ring :!standings\r\n"
                          ":dave!d@h PRIVMSG ringside :hi\r\n"
                          ":erin!e@h PRIVMSG ringside :hi\r\n");
    ck_assert_int_eq(conn_msg_account(c, "alice", acc, sizeof(acc)), 1);
    ck_assert_str_eq(acc, "Alice");
    /* A CTCP has no entry; no tag: logged in nowhere. */
    ck_assert_int_eq(conn_msg_account(c, "carol", acc, sizeof(acc)), 1);
    ck_assert_str_eq(acc, "");
    /* Dave's message was passed over (libircclient did not report it):
     * forgotten on the way to erin's. */
    ck_assert_int_eq(conn_msg_account(c, "erin", acc, sizeof(acc)), 1);
    ck_assert_str_eq(acc, "");
    ck_assert_int_eq(conn_msg_account(c, "alice", acc, sizeof(acc)), 0);
    /* Found by fuzz_conn: a second tag section (a CR made a space between
     * them) reached libircclient starting with '@'. No IRC line: dropped. */
    run(c, "@a=b @account=x :n!u@h PRIVMSG #ring :hi\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, "");
    conn_close(c);
    /* Without the capability nothing is known. */
    c = negotiated(&cfg, "extended-join");
    run(c, "@account=Alice :alice!a@h PRIVMSG #ring :!fight\r\n", lib, server, sizeof(lib));
    ck_assert_int_eq(conn_msg_account(c, "alice", acc, sizeof(acc)), 0);
    conn_close(c);
}
END_TEST

START_TEST(test_caps_batch)
{
    struct config cfg;
    char lib[1024], server[512], acc[64];

    config_defaults(&cfg);
    struct conn *c = negotiated(&cfg, "account-tag batch server-time");
    log_begin();
    run(c,
        ":srv BATCH +nj1 netjoin irc.a irc.b\r\n"
        "@batch=nj1 :alice!a@h JOIN #ring\r\n"
        ":srv BATCH -nj1\r\n"
        ":srv BATCH +h1 chathistory #ring\r\n"
        "@batch=h1;account=Alice :alice!a@h PRIVMSG #ring :!fight bob\r\n"
        ":srv BATCH -h1\r\n"
        "@account=Alice :alice!a@h PRIVMSG #ring :!standings\r\n",
        lib, server, sizeof(lib));
    log_end();
    ck_assert_str_eq(lib, ":alice!a@h JOIN #ring\r\n"
                          ":alice!a@h PRIVMSG #ring :!standings\r\n");
    ck_assert_int_eq(conn_msg_account(c, "alice", acc, sizeof(acc)), 1);
    ck_assert_int_eq(conn_msg_account(c, "alice", acc, sizeof(acc)), 0);
    conn_close(c);
}
END_TEST

START_TEST(test_caps_standard_replies)
{
    struct config cfg;
    char lib[1024], server[512], line[600];

    config_defaults(&cfg);
    struct outq *q = outq_new(4, 1);
    struct conn *c = negotiated_q(&cfg, "standard-replies", q);
    log_begin();
    run(c,
        ":srv NOTE * SERVER_RESTART :in a minute\r\n"
        ":srv WARN REHASH CERTS_EXPIRED :certificates expire soon\r\n"
        ":srv FAIL PRIVMSG TOO_FAST #ring :slow down\r\n"
        ":srv FAIL NOTICE UNKNOWN :no context\r\n"
        ":srv FAIL broken\r\n",
        lib, server, sizeof(lib));
    const char *log = log_end();
    ck_assert_str_eq(lib, "");
    ck_assert_ptr_nonnull(strstr(log, "the server says WARN REHASH CERTS_EXPIRED: certificates "
                                      "expire soon"));
    ck_assert_ptr_nonnull(strstr(log, "the server says FAIL PRIVMSG TOO_FAST #ring: slow down"));
    ck_assert_ptr_nonnull(strstr(log, "the server throttled a line to #ring"));
    ck_assert_ptr_nonnull(strstr(log, "the server refused a message without saying to whom"));
    /* #ring is slowed: its second line waits. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "one");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "two");
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    conn_close(c);
    outq_free(q);
}
END_TEST

START_TEST(test_caps_parsers)
{
    double t;
    char line[256];
    struct irc_msg m;
    struct irc_std r;
    struct irc_batch b;

    ck_assert_int_eq(irc_time_parse("1970-01-01T00:00:00Z", &t), 0);
    ck_assert_double_eq(t, 0);
    ck_assert_int_eq(irc_time_parse("2026-11-26T01:02:03.250Z", &t), 0);
    ck_assert_double_eq_tol(t, 1795654923.25, 1e-6);
    ck_assert_int_eq(irc_time_parse("2024-02-29T23:59:60Z", &t), 0);
    ck_assert_int_eq(irc_time_parse("2026-11-26 01:02:03Z", &t), -1);
    ck_assert_int_eq(irc_time_parse("2026-13-26T01:02:03Z", &t), -1);
    ck_assert_int_eq(irc_time_parse("2026-11-26T01:02:03", &t), -1);
    ck_assert_int_eq(irc_time_parse("2026-11-26T01:02:03.Z", &t), -1);
    snprintf(line, sizeof(line), ":srv FAIL CHATHISTORY MESSAGE_ERROR the_given #c :broke");
    ck_assert_int_eq(irc_msg_parse(line, &m), 0);
    ck_assert_int_eq(irc_std_reply(&m, &r), 1);
    ck_assert_str_eq(r.kind, "FAIL");
    ck_assert_str_eq(r.command, "CHATHISTORY");
    ck_assert_str_eq(r.code, "MESSAGE_ERROR");
    ck_assert_int_eq(r.ncontext, 2);
    ck_assert_str_eq(r.context[1], "#c");
    ck_assert_str_eq(r.description, "broke");
    snprintf(line, sizeof(line), "BATCH +x");
    ck_assert_int_eq(irc_msg_parse(line, &m), 0);
    ck_assert_int_eq(irc_batch_parse(&m, &b), 0); /* no type */
    snprintf(line, sizeof(line), "@batch=o BATCH +x draft/multiline #c");
    ck_assert_int_eq(irc_msg_parse(line, &m), 0);
    ck_assert_int_eq(irc_batch_parse(&m, &b), 1);
    ck_assert_str_eq(b.ref, "x");
    ck_assert_str_eq(b.type, "draft/multiline");
    snprintf(line, sizeof(line), "BATCH -x");
    ck_assert_int_eq(irc_msg_parse(line, &m), 0);
    ck_assert_int_eq(irc_batch_parse(&m, &b), 1);
    ck_assert_int_eq(b.open, 0);
}
END_TEST

/* With echo-message and labeled-response, each message carries its own
 * label and the server's echo of it confirms it: no PING marker goes. */
START_TEST(test_caps_labels)
{
    struct config cfg;
    char lib[1024], server[512], line[OUTQ_LINE_MAX];

    config_defaults(&cfg);
    struct outq *q = outq_new(4, 1);
    outq_set_markers(q, 1);
    struct conn *c = negotiated_q(&cfg, "echo-message labeled-response", q);
    ck_assert_ptr_nonnull(strstr(neg_log, "outq: delivery confirmed by the server's echo"));
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "one");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "alice", NULL, "two");
    outq_raw(q, "WHO #ring");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "WHO #ring");
    ck_assert_str_eq(outq_popped_tags(q), "");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :one");
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs1");
    unsigned long mark = outq_mark(q);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "NOTICE alice :two");
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs2");
    /* The queue is dry: with markers, a PING would go now. */
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    ck_assert(!outq_delivered(q, mark));
    run(c, "@label=rs1 :ringside!r@h PRIVMSG #ring :one\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, "");           /* our own echo: not for libircclient */
    ck_assert(!outq_delivered(q, mark)); /* "two" is not confirmed yet */
    run(c, "@label=rs2 :ringside!r@h NOTICE alice :two\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, "");
    ck_assert(outq_delivered(q, mark));
    /* A labelled answer other than an echo confirms and passes on. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "nobody", NULL, "three");
    ck_assert_int_eq(outq_pop(q, 1, line), 1);
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs3");
    ck_assert_int_eq(outq_pop(q, 1, line), 0); /* no marker */
    mark = outq_mark(q);
    run(c, "@label=rs3 :srv 401 ringside nobody :No such nick\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(lib, ":srv 401 ringside nobody :No such nick\r\n");
    ck_assert(outq_delivered(q, mark));
    /* The capability withdrawn: markers again. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "four");
    log_begin();
    run(c, ":srv CAP ringside DEL :echo-message\r\n", lib, server, sizeof(lib));
    log_end();
    ck_assert_int_eq(outq_pop(q, 5, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :four");
    ck_assert_str_eq(outq_popped_tags(q), "");
    ck_assert_int_eq(outq_pop(q, 5, line), 1);
    ck_assert_str_eq(line, "PING :rs4");
    conn_close(c);
    outq_free(q);
}
END_TEST

/* A labelled FAIL on a message: the line goes again (read before its
 * label confirms the rest). */
START_TEST(test_caps_labelled_fail)
{
    struct config cfg;
    char lib[1024], server[512], line[OUTQ_LINE_MAX];

    config_defaults(&cfg);
    struct outq *q = outq_new(4, 1);
    outq_set_markers(q, 1);
    struct conn *c = negotiated_q(&cfg, "echo-message labeled-response standard-replies", q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "lost");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs1");
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    log_begin();
    run(c, "@label=rs1 :srv FAIL PRIVMSG TOO_FAST #ring :slow down\r\n", lib, server, sizeof(lib));
    const char *log = log_end();
    ck_assert_str_eq(lib, "");
    ck_assert_ptr_nonnull(strstr(log, "sending again a line the server dropped: PRIVMSG #ring"));
    ck_assert_int_eq(outq_pop(q, 10, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :lost");
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs2");
    conn_close(c);
    outq_free(q);
}
END_TEST

/* A private answer to a channel command names the channel in a client
 * tag, where message-tags is on and CLIENTTAGDENY lets it through. */
START_TEST(test_caps_channel_context)
{
    struct config cfg;
    char lib[1024], server[512], line[OUTQ_LINE_MAX];

    config_defaults(&cfg);
    struct outq *q = outq_new(8, 1);
    outq_set_markers(q, 1);
    struct conn *c = negotiated_q(&cfg, "echo-message labeled-response message-tags", q);
    outq_set_context(q, "#ring");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "your card");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "alice: sent in private");
    outq_set_context(q, NULL);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "private, asked in private");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG alice :your card");
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs1;+draft/channel-context=#ring");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs2"); /* to the channel itself */
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(outq_popped_tags(q), "@label=rs3");
    /* CLIENTTAGDENY: "*" refuses it, "-draft/channel-context" excepts it. */
    static const struct {
        const char *deny;
        int on;
    } cases[] = {
        {"*", 0},
        {"*,-draft/channel-context", 1},
        {"typing,draft/channel-context", 0},
        {"typing", 1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char isupport[200];
        snprintf(isupport, sizeof(isupport),
                 ":srv 005 ringside CLIENTTAGDENY=%s :are supported\r\n", cases[i].deny);
        run(c, isupport, lib, server, sizeof(lib));
        outq_set_context(q, "#ring");
        outq_msg(q, OUTQ_REPLY, "NOTICE", "alice", NULL, "x");
        outq_set_context(q, NULL);
        ck_assert_int_eq(outq_pop(q, 0, line), 1);
        ck_assert_int_eq(strstr(outq_popped_tags(q), "+draft/channel-context=#ring") != NULL,
                         cases[i].on);
    }
    conn_close(c);
    outq_free(q);
}
END_TEST

Suite *caps_suite(void)
{
    Suite *s = suite_create("caps");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_caps_requested_when_offered);
    tcase_add_test(tc, test_caps_account_tag);
    tcase_add_test(tc, test_caps_batch);
    tcase_add_test(tc, test_caps_standard_replies);
    tcase_add_test(tc, test_caps_parsers);
    tcase_add_test(tc, test_caps_labels);
    tcase_add_test(tc, test_caps_labelled_fail);
    tcase_add_test(tc, test_caps_channel_context);
    suite_add_tcase(s, tc);
    return s;
}
