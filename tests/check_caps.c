/* check_caps.c - the IRCv3 capabilities of the connection layer (conn.c,
 * ircline.c), without sockets: which are asked for when offered, the
 * account tag of each message handed on to its callback, server-time,
 * batches (a netjoin passes, a history playback runs no command), and
 * standard replies (logged; a FAIL on a message slows its target). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
    /* A reply's marker waits for a quiet spell of 2 s. */
    ck_assert_int_eq(outq_pop(q, 5, line), 0);
    ck_assert_int_eq(outq_pop(q, 7, line), 1);
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

/* draft/multiline's value: max-bytes required, max-lines optional, other
 * keys skipped; anything else refused with why. */
START_TEST(test_caps_multiline_limits)
{
    struct multiline m;
    char err[160];

    ck_assert_int_eq(multiline_limits("max-bytes=4096", &m, err, sizeof(err)), 0);
    ck_assert_uint_eq(m.max_bytes, 4096);
    ck_assert_int_eq(m.max_lines, 0);
    ck_assert_int_eq(multiline_limits("max-lines=24,future,max-bytes=40", &m, err, sizeof(err)), 0);
    ck_assert_uint_eq(m.max_bytes, 40);
    ck_assert_int_eq(m.max_lines, 24);
    static const struct {
        const char *value, *why;
    } bad[] = {
        {"", "max-bytes is missing"},
        {"max-lines=5", "max-bytes is missing"},
        {"max-bytes", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=0", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=-4", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=4k", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=99999999999999999999", "max-bytes is not a whole number from 1 to 1000000"},
        {"max-bytes=100,max-lines=x", "max-lines is not a whole number from 1 to 1000000"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(multiline_limits(bad[i].value, &m, err, sizeof(err)), -1);
        ck_assert_str_eq(err, bad[i].why);
        ck_assert_uint_eq(m.max_bytes, 0);
    }
}
END_TEST

/* The splitter: lines into one batch while max-bytes (a line break
 * counting one) and max-lines allow; concat never first, never empty. */
START_TEST(test_caps_multiline_split)
{
    struct multiline m = {20, 3};
    struct multiline_batch b = {0, 0};

    ck_assert_int_eq(multiline_add(&m, &b, 10, 1), 1); /* first: a line, whatever it continues */
    ck_assert_int_eq(multiline_add(&m, &b, 5, 1), 2);  /* 15 bytes */
    ck_assert_int_eq(multiline_add(&m, &b, 0, 1), 0);  /* an empty concat line: never */
    ck_assert_int_eq(multiline_add(&m, &b, 5, 0), 0);  /* 15 + 1 + 5 > 20 */
    ck_assert_int_eq(multiline_add(&m, &b, 4, 0), 1);  /* 20 */
    ck_assert_uint_eq(b.bytes, 20);
    ck_assert_int_eq(b.lines, 3);
    struct multiline_batch c = {0, 0};
    ck_assert_int_eq(multiline_add(&m, &c, 21, 0), 0); /* one line too long for any batch */
    struct multiline n = {1000, 0};                    /* no max-lines */
    struct multiline_batch d = {0, 0};
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(multiline_add(&n, &d, 8, 0), 1);
    ck_assert_int_eq(multiline_add(&n, &d, 200, 0), 0); /* 900 + 1 + 200 */
    struct multiline off = {0, 0};
    ck_assert_int_eq(multiline_add(&off, &b, 1, 0), 0);
}
END_TEST

/* A connection that asked for draft/multiline (with batch, labels), its
 * queue q told of it. */
static struct conn *multiline_conn(const struct config *cfg, struct outq *q, const char *value)
{
    char lib[1024], server[1024], offer[300];
    struct conn *c = conn_offline(cfg);

    conn_set_outq(c, q);
    snprintf(offer, sizeof(offer),
             ":srv CAP * LS :batch echo-message labeled-response draft/multiline=%s\r\n", value);
    run(c, offer, lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :batch echo-message labeled-response "
                             "draft/multiline\r\n");
    log_begin();
    run(c, ":srv CAP * ACK :batch echo-message labeled-response draft/multiline\r\n", lib, server,
        sizeof(lib));
    log_end();
    ck_assert_int_eq(conn_has_cap(c, "draft/multiline"), 1);
    return c;
}

/* Pops one line into out as it goes on the wire (its tags, a space, the
 * line); "" when none may go at `now`. */
static const char *wire(struct outq *q, double now, char *out, size_t len)
{
    char line[OUTQ_LINE_MAX];

    if (!outq_pop(q, now, line)) {
        out[0] = '\0';
        return out;
    }
    const char *tags = outq_popped_tags(q);
    snprintf(out, len, "%s%s%s", tags, *tags ? " " : "", line);
    return out;
}

/* A report to one nick goes as a batch: the label on BATCH +, each line
 * tagged, a line cut to fit 512 bytes joined back by the concat tag (its
 * space restored), every line paid for; the echo confirms all of it and
 * none of it reaches libircclient. A channel, a single line, and a server
 * without the capability: plain lines as before. */
START_TEST(test_caps_multiline_batch)
{
    struct config cfg;
    char lib[1024], server[512], out[1200], words[600];

    config_defaults(&cfg);
    struct outq *q = outq_new(4, 1);
    outq_set_markers(q, 1);
    struct conn *c = multiline_conn(&cfg, q, "max-bytes=4096,max-lines=24");
    /* 45 words of 9 bytes and a space: cut once, at a space */
    words[0] = '\0';
    for (int i = 0; i < 45; i++)
        strcat(words, i ? " word-word" : "word-word");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, "Report of bout 7");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, words);
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, "Round 1: even");
    unsigned long mark = outq_mark(q);
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@label=rs1 BATCH +ml1 draft/multiline alice");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@batch=ml1 PRIVMSG alice :Report of bout 7");
    /* 38 words fit 512 bytes; the 7 left go on after the space. */
    char first[600], rest[700];
    snprintf(first, sizeof(first), "@batch=ml1 PRIVMSG alice :%.379s", words);
    snprintf(rest, sizeof(rest), "@batch=ml1;draft/multiline-concat PRIVMSG alice : %s",
             words + 380);
    ck_assert_int_eq(strlen(words + 380), 69);
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), first);
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), rest);
    /* Four tokens spent: the next line waits for the bucket. */
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "");
    ck_assert_str_eq(wire(q, 1, out, sizeof(out)), "@batch=ml1 PRIVMSG alice :Round 1: even");
    ck_assert_str_eq(wire(q, 1.5, out, sizeof(out)), "");
    ck_assert_str_eq(wire(q, 2, out, sizeof(out)), "BATCH -ml1");
    ck_assert_str_eq(wire(q, 9, out, sizeof(out)), ""); /* no PING marker */
    ck_assert(!outq_delivered(q, mark));
    run(c,
        "@label=rs1 :ringside!r@h BATCH +e1 draft/multiline alice\r\n"
        "@batch=e1 :ringside!r@h PRIVMSG alice :Report of bout 7\r\n"
        "@batch=e1 :ringside!r@h PRIVMSG alice :Round 1: even\r\n"
        ":ringside!r@h BATCH -e1\r\n",
        lib, server, sizeof(lib));
    ck_assert_str_eq(lib, "");
    ck_assert(outq_delivered(q, mark));
    /* To a channel, or a single line: plain. */
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "#ring", NULL, "one");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "#ring", NULL, "two");
    ck_assert_str_eq(wire(q, 20, out, sizeof(out)), "@label=rs2 PRIVMSG #ring :one");
    ck_assert_str_eq(wire(q, 30, out, sizeof(out)), "@label=rs3 PRIVMSG #ring :two");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "bob", NULL, "alone");
    ck_assert_str_eq(wire(q, 40, out, sizeof(out)), "@label=rs4 NOTICE bob :alone");
    /* Past max-lines: several batches. */
    outq_set_multiline(q, &(struct multiline){4096, 2});
    for (int i = 0; i < 3; i++)
        outq_msg(q, OUTQ_BULK, "NOTICE", "bob", NULL, "line");
    ck_assert_str_eq(wire(q, 50, out, sizeof(out)), "@label=rs5 BATCH +ml2 draft/multiline bob");
    ck_assert_str_eq(wire(q, 50, out, sizeof(out)), "@batch=ml2 NOTICE bob :line");
    ck_assert_str_eq(wire(q, 50, out, sizeof(out)), "@batch=ml2 NOTICE bob :line");
    ck_assert_str_eq(wire(q, 50, out, sizeof(out)), "BATCH -ml2");
    ck_assert_str_eq(wire(q, 60, out, sizeof(out)), "@label=rs6 NOTICE bob :line");
    /* The bucket's bound (3 + 4 s at 1 line/s, less BATCH -: 6 lines) is
     * passed to keep a cut message whole. */
    outq_set_multiline(q, &(struct multiline){4096, 0});
    for (int i = 0; i < 5; i++)
        outq_msg(q, OUTQ_BULK, "NOTICE", "bob", NULL, "line");
    outq_msg(q, OUTQ_BULK, "NOTICE", "bob", NULL, words);
    ck_assert_str_eq(wire(q, 100, out, sizeof(out)), "@label=rs7 BATCH +ml3 draft/multiline bob");
    int lines = 0, concat = 0;
    for (double t = 100; t < 120 && strncmp(out, "BATCH -", 7) != 0; t += 0.5)
        if (*wire(q, t, out, sizeof(out)) == '@') {
            lines++;
            concat += strstr(out, "draft/multiline-concat") != NULL;
        }
    ck_assert_str_eq(out, "BATCH -ml3");
    ck_assert_int_eq(lines, 7);
    ck_assert_int_eq(concat, 1);
    /* The capability withdrawn: plain lines. */
    log_begin();
    run(c, ":srv CAP ringside DEL :draft/multiline\r\n", lib, server, sizeof(lib));
    log_end();
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, "a");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, "b");
    ck_assert_str_eq(wire(q, 170, out, sizeof(out)), "@label=rs8 PRIVMSG alice :a");
    ck_assert_str_eq(wire(q, 180, out, sizeof(out)), "@label=rs9 PRIVMSG alice :b");
    conn_close(c);
    outq_free(q);
}
END_TEST

/* A batch the server refuses (FAIL BATCH MULTILINE_...): its lines go
 * again, plain, before the label confirms anything; no batch after. */
START_TEST(test_caps_multiline_refused)
{
    struct config cfg;
    char lib[1024], server[512], out[600];

    config_defaults(&cfg);
    struct outq *q = outq_new(4, 1);
    outq_set_markers(q, 1);
    struct conn *c = multiline_conn(&cfg, q, "max-bytes=4096");
    run(c, ":srv CAP * ACK :standard-replies\r\n", lib, server, sizeof(lib));
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "one");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "two");
    unsigned long mark = outq_mark(q);
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@label=rs1 BATCH +ml1 draft/multiline alice");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@batch=ml1 PRIVMSG alice :one");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@batch=ml1 PRIVMSG alice :two");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "BATCH -ml1");
    log_begin();
    run(c, "@label=rs1 :srv FAIL BATCH MULTILINE_MAX_BYTES 4096 :too long\r\n", lib, server,
        sizeof(lib));
    const char *log = log_end();
    ck_assert_ptr_nonnull(strstr(log, "outq: the server refused a multiline batch; its 2 lines go "
                                      "again, plain, and no more batches on this connection"));
    ck_assert(!outq_delivered(q, mark));
    ck_assert_str_eq(wire(q, 5, out, sizeof(out)), "@label=rs2 PRIVMSG alice :one");
    ck_assert_str_eq(wire(q, 5, out, sizeof(out)), "@label=rs3 PRIVMSG alice :two");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "three");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "four");
    ck_assert_str_eq(wire(q, 10, out, sizeof(out)), "@label=rs4 PRIVMSG alice :three");
    conn_close(c);
    outq_free(q);
}
END_TEST

/* Not asked for: without batch, or with a value that does not read (the
 * log says why). A connection lost in the middle of a batch sends its
 * lines again, plain. */
START_TEST(test_caps_multiline_fallback)
{
    struct config cfg;
    char lib[1024], server[512], out[600];

    config_defaults(&cfg);
    struct conn *c = conn_offline(&cfg);
    run(c, ":srv CAP * LS :draft/multiline=max-bytes=4096\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP END\r\n");
    conn_close(c);
    c = conn_offline(&cfg);
    log_begin();
    run(c, ":srv CAP * LS :batch draft/multiline=max-lines=4\r\n", lib, server, sizeof(lib));
    const char *log = log_end();
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :batch\r\n");
    ck_assert_ptr_nonnull(
        strstr(log, "the server's draft/multiline=max-lines=4 is ignored: max-bytes is missing"));
    conn_close(c);

    struct outq *q = outq_new(4, 1);
    outq_set_markers(q, 1);
    outq_set_multiline(q, &(struct multiline){4096, 0});
    for (int i = 0; i < 3; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, i ? "next" : "first");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "BATCH +ml1 draft/multiline alice");
    ck_assert_str_eq(wire(q, 0, out, sizeof(out)), "@batch=ml1 PRIVMSG alice :first");
    log_begin();
    outq_disconnected(q);
    log_end();
    outq_set_multiline(q, NULL);
    ck_assert_str_eq(wire(q, 10, out, sizeof(out)), "PRIVMSG alice :first");
    ck_assert_str_eq(wire(q, 10, out, sizeof(out)), "PRIVMSG alice :next");
    ck_assert_str_eq(wire(q, 10, out, sizeof(out)), "PRIVMSG alice :next");
    outq_free(q);
}
END_TEST

/* sts's value: port and duration, in any order, preload and unknown keys
 * skipped; a bad number refused with why. */
START_TEST(test_caps_sts_parse)
{
    struct sts_policy p;
    char err[160];

    ck_assert_int_eq(sts_parse("port=6697,duration=300", &p, err, sizeof(err)), 0);
    ck_assert_int_eq(p.port, 6697);
    ck_assert_int_eq(p.duration, 300);
    ck_assert_int_eq(sts_parse("duration=0,preload,future=x", &p, err, sizeof(err)), 0);
    ck_assert_int_eq(p.port, 0);
    ck_assert_int_eq(p.duration, 0);
    ck_assert_int_eq(p.preload, 1);
    ck_assert_int_eq(sts_parse("port=6697", &p, err, sizeof(err)), 0);
    ck_assert_int_eq(p.duration, -1);
    ck_assert_int_eq(sts_parse("duration=999999999999", &p, err, sizeof(err)), 0);
    ck_assert_int_eq(p.duration, 315360000);
    static const struct {
        const char *value, *why;
    } bad[] = {
        {"port=0", "port=0 is no port from 1 to 65535"},
        {"port=65536,duration=1", "port=65536 is no port from 1 to 65535"},
        {"port=", "port= is no port from 1 to 65535"},
        {"port", "port= is no port from 1 to 65535"},
        {"port=66x", "port=66x is no port from 1 to 65535"},
        {"duration=-1", "duration=-1 is no number of seconds"},
        {"port=1,duration=1e3", "duration=1e3 is no number of seconds"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(sts_parse(bad[i].value, &p, err, sizeof(err)), -1);
        ck_assert_str_eq(err, bad[i].why);
    }
}
END_TEST

/* The policy beside the database: kept for its duration, for its host
 * only, dropped by duration 0; no file for an in-memory database. */
START_TEST(test_caps_sts_store)
{
    char dir[] = "/tmp/ringside-sts-XXXXXX", db[300], file[320], err[200], text[100];

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(db, sizeof(db), "%s/ringside.db", dir);
    snprintf(file, sizeof(file), "%s.sts", db);
    ck_assert_int_eq(sts_load(db, "irc.example", 1000), 0);
    ck_assert_int_eq(sts_store(db, "irc.example", 6697, 1000, 60, err, sizeof(err)), 0);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
    fclose(f);
    ck_assert_str_eq(text, "irc.example 6697 1060\n");
    ck_assert_int_eq(sts_load(db, "irc.example", 1059), 6697);
    ck_assert_int_eq(sts_load(db, "IRC.Example", 1059), 6697);
    ck_assert_int_eq(sts_load(db, "irc.example", 1060), 0); /* expired */
    ck_assert_int_eq(sts_load(db, "other.example", 1000), 0);
    ck_assert_int_eq(sts_store(db, "irc.example", 6697, 2000, 0, err, sizeof(err)), 0);
    ck_assert_int_eq(access(file, F_OK), -1);
    ck_assert_int_eq(sts_store(db, "irc.example", 6697, 2000, 0, err, sizeof(err)), 0);
    ck_assert_int_eq(sts_store(":memory:", "irc.example", 6697, 1, 60, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "no database file to keep it beside");
    ck_assert_int_eq(sts_store(db, "irc example", 6697, 1, 60, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "the server name is too long or holds a blank; no policy is kept");
    ck_assert_int_eq(sts_load(":memory:", "irc.example", 1), 0);
    /* A file that does not read: no policy. */
    f = fopen(file, "w");
    fputs("irc.example sixsixnine 99999999999\n", f);
    fclose(f);
    ck_assert_int_eq(sts_load(db, "irc.example", 1), 0);
    unlink(file);
    rmdir(dir);
}
END_TEST

/* On plaintext, sts=port=P: the policy kept, no registration, the
 * connection over to come back with TLS; a bad value logged and ignored. */
START_TEST(test_caps_sts_offer)
{
    struct config cfg;
    char lib[1024], server[512], dir[] = "/tmp/ringside-sts-XXXXXX";

    config_defaults(&cfg);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cfg.database, sizeof(cfg.database), "%s/r.db", dir);
    snprintf(cfg.server, sizeof(cfg.server), "irc.example");
    struct conn *c = conn_offline(&cfg);
    log_begin();
    run(c, ":srv CAP * LS :batch sts=port=6697,duration=86400\r\n", lib, server, sizeof(lib));
    const char *log = log_end();
    ck_assert_str_eq(server, "CAP LS 302\r\n");
    ck_assert_ptr_nonnull(strstr(log, "sts: irc.example asks for TLS on port 6697 for 86400 s: "
                                      "reconnecting with TLS"));
    ck_assert_int_eq(conn_upgrading(c), 1);
    ck_assert_str_eq(conn_error(c), "sts: upgrading to TLS on port 6697");
    ck_assert_int_eq(sts_load(cfg.database, "irc.example", (long)time(NULL)), 6697);
    conn_close(c);
    char file[320], err[200];
    snprintf(file, sizeof(file), "%s.sts", cfg.database);
    unlink(file);
    c = conn_offline(&cfg);
    log_begin();
    run(c, ":srv CAP * LS :batch sts=duration=5\r\n", lib, server, sizeof(lib));
    log = log_end();
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :batch\r\n");
    ck_assert_ptr_nonnull(
        strstr(log, "the server's sts=duration=5 is ignored: no port to upgrade to"));
    ck_assert_int_eq(conn_upgrading(c), 0);
    conn_close(c);
    c = conn_offline(&cfg);
    log_begin();
    run(c, ":srv CAP * LS :sts=port=99999\r\n", lib, server, sizeof(lib));
    log = log_end();
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP END\r\n");
    ck_assert_ptr_nonnull(strstr(
        log, "the server's sts=port=99999 is ignored: port=99999 is no port from 1 to 65535"));
    conn_close(c);
    /* Back on TLS by the policy: an offer renews it, duration=0 drops it. */
    ck_assert_int_eq(
        sts_store(cfg.database, "irc.example", 6697, (long)time(NULL), 60, err, sizeof(err)), 0);
    log_begin();
    c = conn_offline(&cfg);
    run(c, ":srv CAP * LS :sts=duration=1000,port=6697\r\n", lib, server, sizeof(lib));
    log = log_end();
    ck_assert_ptr_nonnull(strstr(log, "sts: irc.example asked for TLS (policy in "));
    ck_assert_ptr_nonnull(strstr(log, "sts: irc.example's policy kept for 1000 s"));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP END\r\n");
    ck_assert_int_eq(conn_server_port(c), 6697);
    long now = (long)time(NULL);
    ck_assert_int_eq(sts_load(cfg.database, "irc.example", now + 990), 6697);
    conn_close(c);
    log_begin();
    c = conn_offline(&cfg);
    run(c, ":srv CAP * LS :sts=duration=0\r\n", lib, server, sizeof(lib));
    log = log_end();
    ck_assert_ptr_nonnull(strstr(log, "sts: irc.example dropped its policy (duration=0): "
                                      "plaintext again next time"));
    ck_assert_int_eq(sts_load(cfg.database, "irc.example", now), 0);
    conn_close(c);
    rmdir(dir);
}
END_TEST

/* draft/relaymsg: asked for when offered; a nick with one of its
 * separators is a relayed one, only while the capability is on. */
START_TEST(test_caps_relaymsg)
{
    struct config cfg;
    char lib[1024], server[512];

    config_defaults(&cfg);
    struct conn *c = conn_offline(&cfg);
    ck_assert_int_eq(conn_relayed(c, "alice/d"), 0);
    run(c, ":srv CAP * LS :draft/relaymsg=/|\r\n", lib, server, sizeof(lib));
    ck_assert_str_eq(server, "CAP LS 302\r\nCAP REQ :draft/relaymsg\r\n");
    ck_assert_int_eq(conn_relayed(c, "alice/d"), 0); /* not acknowledged yet */
    log_begin();
    run(c, ":srv CAP * ACK :draft/relaymsg\r\n", lib, server, sizeof(lib));
    log_end();
    ck_assert_int_eq(conn_relayed(c, "alice/d"), 1);
    ck_assert_int_eq(conn_relayed(c, "bob|m"), 1);
    ck_assert_int_eq(conn_relayed(c, "alice"), 0);
    run(c, ":srv CAP * DEL :draft/relaymsg\r\n", lib, server, sizeof(lib));
    ck_assert_int_eq(conn_relayed(c, "alice/d"), 0);
    conn_close(c);
    c = conn_offline(&cfg); /* no value: "/" */
    run(c, ":srv CAP * LS :draft/relaymsg\r\n", lib, server, sizeof(lib));
    log_begin();
    run(c, ":srv CAP * ACK :draft/relaymsg\r\n", lib, server, sizeof(lib));
    log_end();
    ck_assert_int_eq(conn_relayed(c, "alice/d"), 1);
    ck_assert_int_eq(conn_relayed(c, "bob|m"), 0);
    conn_close(c);
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
    tcase_add_test(tc, test_caps_multiline_limits);
    tcase_add_test(tc, test_caps_multiline_split);
    tcase_add_test(tc, test_caps_multiline_batch);
    tcase_add_test(tc, test_caps_multiline_fallback);
    tcase_add_test(tc, test_caps_multiline_refused);
    tcase_add_test(tc, test_caps_sts_parse);
    tcase_add_test(tc, test_caps_sts_store);
    tcase_add_test(tc, test_caps_sts_offer);
    tcase_add_test(tc, test_caps_relaymsg);
    suite_add_tcase(s, tc);
    return s;
}
