/*
 * conn.c - the bot's real connection to the IRC server: TCP, TLS
 * (OpenSSL), IRCv3 capability negotiation and SASL, relayed in-process to
 * libircclient.
 *
 * Debian's libircclient 1.9 has neither TLS nor CAP and reads no message
 * tags, yet it stays the IRC library. So each connection attempt opens a
 * listener on 127.0.0.1 (a port the kernel picks) and libircclient connects
 * to it; this module accepts exactly one connection, and only the one whose
 * peer address is libircclient's own socket (its local address, compared by
 * getsockname on the descriptor libircclient selects on): any other local
 * program that connects first is refused and the listener waits on. The
 * listener closes once libircclient is in, and libircclient's descriptor
 * is moved onto one end of a Unix socket pair (unix_swap): no plaintext
 * crosses anything another program could connect to or read, and a line
 * costs the kernel a local copy rather than a trip through TCP.
 *
 * On a plain server (no TLS, none of the capabilities below offered:
 * ngircd) the relay steps aside once the welcome is over and every byte
 * relayed has been read: the server's socket itself goes to libircclient
 * (splice), which then reads and writes it as it did before this module.
 *
 * Everything runs in the bot's one select loop (irc.c): conn_fds adds this
 * module's descriptors, conn_process moves bytes. The states:
 *
 *   CONNECTING (TCP, trying each address) -> HANDSHAKE (TLS only)
 *     -> UP: "CAP LS 302" is sent first, then libircclient's own lines
 *        (PASS, NICK, USER) follow; the server holds registration until
 *        CAP END, which goes when the negotiation is over: the
 *        capabilities wanted (sasl when configured, extended-join,
 *        account-notify) requested, and SASL finished (903), failed
 *        (902/904/905/906/908: a log line, and with sasl_required = yes the
 *        connection ends instead, so the bot never registers without it).
 *     -> DEAD (an error, conn_error says which): irc.c ends the session
 *        and retries with backoff. A certificate refused is DEAD, never a
 *        retry without TLS.
 *
 * From the server, every line is read here first: a CR inside it becomes
 * a space (this module and libircclient must see the same lines), message
 * tags are taken off, CAP, AUTHENTICATE and the SASL numerics (900-908) are consumed, and
 * everything else goes to libircclient unchanged. From libircclient, bytes
 * pass through unchanged: the output queue's pacing and delivery markers
 * are untouched. When the server is slow to take our lines this module
 * stops reading from libircclient, whose own buffer then fills as before.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "bot.h"
#include "tls.h"

#define CONN_BUF         20480 /* bytes: a tagged line may be 8191 + 512 */
#define CONN_SLOW        4096  /* bytes waiting for the server: stop reading libircclient */
#define SASL_CHUNK       400   /* bytes of base64 an AUTHENTICATE line carries */
#define TAGGED_RING      128   /* messages whose account libircclient has yet to read */
#define BATCH_OPEN_MAX   16    /* batches open at once that are remembered */
#define STS_UPGRADE_HOLD 300   /* s: an sts upgrade offered without a duration holds */
#define BYTES_FIRST      1024  /* bytes: a relay queue's first allocation */
#define READ_CHUNK       4096  /* bytes a read may bring at least, room made */

enum conn_state { ST_CONNECTING, ST_HANDSHAKE, ST_UP, ST_DEAD };
enum cap_state { CAP_LS, CAP_REQ, CAP_SASL, CAP_DONE };

/* A relay's queue of bytes (not text: lines pass through it whole or in
 * pieces): bounded by CONN_BUF, because the bound is the back-pressure (a
 * full queue stops the reading that fills it), but allocated as it fills,
 * from BYTES_FIRST: IRC lines are short, and four fixed queues were 80 KiB
 * of the bot's private memory. */
struct bytes {
    char *d;
    size_t n, cap;
};

struct conn {
    const struct config *cfg;
    enum conn_state state;
    enum cap_state cap;
    int lfd; /* the loopback listener, until libircclient is in */
    int cfd; /* libircclient's connection */
    int sfd; /* the server */
    unsigned short lport;
    struct addrinfo *addrs, *next_addr;
    const struct tls_lib *lib; /* OpenSSL, loaded for a TLS connection only */
    SSL_CTX *ctx;
    SSL *ssl;
    int ssl_want_write;        /* the last TLS call wants the socket writable */
    struct bytes srx, stx;     /* from and to the server */
    struct bytes crx, ctx_out; /* from and to libircclient */
    /* server_lines' room for a line and its parsed copy, grown to the
     * longest line yet (on the heap: two CONN_BUF arrays on the stack put
     * its callees 40 KB deeper, and those stack pages stay resident). */
    char *lines;
    size_t lines_cap;
    char offered_buf[1024];
    struct str offered; /* capabilities the server offered (CAP LS), over offered_buf */
    unsigned caps;      /* bit i: wanted[i] acknowledged */
    int sasl_in;
    int sasl_asked; /* "sasl" was in our CAP REQ: only then may an ACK start SASL */
    int tag_denied; /* ISUPPORT CLIENTTAGDENY refuses +draft/channel-context */
    int have_whox;  /* ISUPPORT WHOX (read here: libircclient keeps only its
                     * first dozen parameters) */
    char bot_mode;  /* ISUPPORT BOT=x: the user mode marking bots, or 0 */
    int eof;        /* the server closed: 1, then 2 once its last lines went on */
    char err[300];
    struct outq *q; /* told of a FAIL on a message it sent (conn_set_outq) */
    /* With account-tag: each PRIVMSG and NOTICE passed to libircclient,
     * oldest first, with the account its tag named ("" for none), until
     * libircclient's callback asks (conn_msg_account). */
    struct tagged {
        char nick[64];
        char account[DB_NAME_MAX + 1];
    } tagged[TAGGED_RING];
    int tag_head, tag_n;
    /* The open batches' references; playback: a history batch whose
     * messages were said before and are no commands now. */
    struct {
        char ref[32];
        int playback;
    } batches[BATCH_OPEN_MAX];
    int nbatches;
    int skew_told;       /* the server's clock compared with ours, logged once */
    struct multiline ml; /* draft/multiline's limits, as offered */
    /* TLS, the port and whether the certificate is checked: the
     * configuration's, or TLS on the port of an sts policy (sts.c). */
    int tls, port, verify;
    int sts;            /* TLS because of an sts policy */
    int upgrading;      /* ended to come back with TLS (sts) */
    char relay_seps[8]; /* draft/relaymsg: what marks a relayed nick */
    int welcomed;       /* the end of the MOTD (376 or 422): ISUPPORT is all in */
    int spliced;        /* libircclient reads and writes the server's socket itself */
    int fed;            /* bytes went to libircclient since conn_fed asked */
};

/* The capabilities asked for when offered, and their bits in c->caps. */
static const char *const wanted[] = {
    "extended-join", "account-notify",   "account-tag",    "server-time",
    "batch",         "standard-replies", "echo-message",   "labeled-response",
    "message-tags",  "draft/multiline",  "draft/relaymsg",
};
#define NWANTED ((int)(sizeof(wanted) / sizeof(wanted[0])))

/* ----------------------------------------------------------- helpers */

static void set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL, 0);

    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int fail(struct conn *c, const char *fmt, ...) BOT_PRINTF(2, 3);
static int fail(struct conn *c, const char *fmt, ...)
{
    if (c->state != ST_DEAD) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, sizeof(c->err), fmt, ap);
        va_end(ap);
        c->state = ST_DEAD;
    }
    return -1;
}

static void bytes_init(struct bytes *b)
{
    b->d = xmalloc(BYTES_FIRST);
    b->n = 0;
    b->cap = BYTES_FIRST;
}

/* Wipes (it may have held a SASL password) and frees the queue. */
static void bytes_free(struct bytes *b)
{
    if (b->d)
        explicit_bzero(b->d, b->cap);
    free(b->d);
    b->d = NULL;
    b->n = b->cap = 0;
}

/* The bytes more the queue may take before it is full. */
static size_t bytes_room(const struct bytes *b)
{
    return CONN_BUF - b->n;
}

/* Makes the allocation hold at least `want` bytes (at most CONN_BUF),
 * doubling; returns the bytes free in it. */
static size_t bytes_reserve(struct bytes *b, size_t want)
{
    if (want > CONN_BUF)
        want = CONN_BUF;
    if (b->cap < want) {
        size_t cap = b->cap;
        while (cap < want)
            cap *= 2;
        if (cap > CONN_BUF)
            cap = CONN_BUF;
        b->d = xrealloc(b->d, cap);
        b->cap = cap;
    }
    return b->cap - b->n;
}

/* Appends `len` bytes; -1 when the queue has no room. */
static int bytes_put(struct bytes *b, const char *p, size_t len)
{
    if (len > bytes_room(b))
        return -1;
    bytes_reserve(b, b->n + len);
    memcpy(b->d + b->n, p, len);
    b->n += len;
    return 0;
}

static void bytes_drop(struct bytes *b, size_t len)
{
    memmove(b->d, b->d + len, b->n - len);
    b->n -= len;
}

/* Queues one protocol line of our own to the server. */
static void send_line(struct conn *c, const char *line)
{
    if (bytes_put(&c->stx, line, strlen(line)) != 0 || bytes_put(&c->stx, "\r\n", 2) != 0)
        fail(c, "the server does not read what the bot sends");
}

#define SSL_WHY_MAX 160

/* Why OpenSSL's last call failed, in text[size] (SSL_WHY_MAX is enough);
 * returns text, or a constant when OpenSSL says nothing. */
static const char *ssl_reason(const struct conn *c, char *text, size_t size)
{
    unsigned long e = c->lib->ERR_get_error();

    if (!e)
        return "the connection closed during the TLS handshake";
    c->lib->ERR_error_string_n(e, text, size);
    c->lib->ERR_clear_error();
    return text;
}

/* --------------------------------------------------------- opening */

static int listen_loopback(struct conn *c)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);

    c->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->lfd < 0)
        return -1;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (bind(c->lfd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(c->lfd, 4) != 0 ||
        getsockname(c->lfd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    set_nonblock(c->lfd);
    c->lport = ntohs(a.sin_port);
    return 0;
}

/* Starts a TCP connection to the next address; -1 when none is left. */
static int connect_next(struct conn *c, const char *why)
{
    while (c->next_addr) {
        struct addrinfo *ai = c->next_addr;
        c->next_addr = ai->ai_next;
        c->sfd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (c->sfd < 0) {
            why = strerror(errno);
            continue;
        }
        set_nonblock(c->sfd);
        if (connect(c->sfd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS)
            return 0;
        why = strerror(errno);
        close(c->sfd);
        c->sfd = -1;
    }
    return fail(c, "cannot connect to %s:%d: %s", c->cfg->server, c->port,
                why ? why : "no address");
}

/* The TLS context for one attempt: the CAs, the client certificate. */
static int tls_setup(struct conn *c)
{
    const struct config *cfg = c->cfg;
    char why[SSL_WHY_MAX];

    c->lib = tls_lib_load(why, sizeof(why));
    if (!c->lib)
        return fail(c, "TLS: %s", why);
    c->ctx = c->lib->SSL_CTX_new(c->lib->TLS_client_method());
    if (!c->ctx)
        return fail(c, "TLS: %s", ssl_reason(c, why, sizeof(why)));
    c->lib->SSL_CTX_ctrl(c->ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    /* Read ahead: one read(2) takes a record's header and body together
     * (and what follows), instead of one for each and a third to hear
     * EAGAIN: server_read stops once OpenSSL holds nothing more. */
    c->lib->SSL_CTX_ctrl(c->ctx, SSL_CTRL_SET_READ_AHEAD, 1, NULL);
    if (c->verify) {
        c->lib->SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
        if (cfg->tls_ca_file[0]) {
            if (c->lib->SSL_CTX_load_verify_locations(c->ctx, cfg->tls_ca_file, NULL) != 1)
                return fail(c, "TLS: cannot read the CA certificates in tls_ca_file %s: %s",
                            cfg->tls_ca_file, ssl_reason(c, why, sizeof(why)));
        } else if (c->lib->SSL_CTX_set_default_verify_paths(c->ctx) != 1) {
            return fail(c, "TLS: cannot read the system's CA certificates: %s",
                        ssl_reason(c, why, sizeof(why)));
        }
    } else {
        c->lib->SSL_CTX_set_verify(c->ctx, SSL_VERIFY_NONE, NULL);
    }
    if (cfg->tls_cert_file[0]) {
        const char *key = cfg->tls_key_file[0] ? cfg->tls_key_file : cfg->tls_cert_file;
        if (c->lib->SSL_CTX_use_certificate_chain_file(c->ctx, cfg->tls_cert_file) != 1)
            return fail(c, "TLS: cannot read the client certificate tls_cert_file %s: %s",
                        cfg->tls_cert_file, ssl_reason(c, why, sizeof(why)));
        if (c->lib->SSL_CTX_use_PrivateKey_file(c->ctx, key, SSL_FILETYPE_PEM) != 1)
            return fail(c, "TLS: cannot read the client key %s: %s", key,
                        ssl_reason(c, why, sizeof(why)));
        if (c->lib->SSL_CTX_check_private_key(c->ctx) != 1)
            return fail(c, "TLS: the key %s does not belong to the certificate %s", key,
                        cfg->tls_cert_file);
    }
    c->ssl = c->lib->SSL_new(c->ctx);
    if (!c->ssl)
        return fail(c, "TLS: %s", ssl_reason(c, why, sizeof(why)));
    c->lib->SSL_ctrl(c->ssl, SSL_CTRL_MODE,
                     SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
    struct in6_addr any;
    int literal =
        inet_pton(AF_INET, cfg->server, &any) == 1 || inet_pton(AF_INET6, cfg->server, &any) == 1;
    if (!literal)
        c->lib->SSL_ctrl(c->ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
                         (void *)cfg->server); /* SNI: names only */
    if (c->verify) {
        X509_VERIFY_PARAM *p = c->lib->SSL_get0_param(c->ssl);
        c->lib->X509_VERIFY_PARAM_set_hostflags(p, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        int ok = literal ? c->lib->X509_VERIFY_PARAM_set1_ip_asc(p, cfg->server)
                         : c->lib->X509_VERIFY_PARAM_set1_host(p, cfg->server, 0);
        if (ok != 1)
            return fail(c, "TLS: cannot check the server's name %s", cfg->server);
    }
    return 0;
}

/* The connection's TLS and port: the configuration's, unless it says
 * plaintext and an sts policy for the server holds (sts_load): then TLS
 * on the policy's port, the certificate checked. */
static void sts_follow(struct conn *c)
{
    const struct config *cfg = c->cfg;

    c->tls = cfg->tls;
    c->port = cfg->port;
    c->verify = cfg->tls_verify;
    int port = cfg->tls ? 0 : sts_load(cfg->database, cfg->server, (long)time(NULL));
    if (!port)
        return;
    c->tls = c->verify = c->sts = 1;
    c->port = port;
    log_msg(LOG_INFO, "sts: %s asked for TLS (policy in %s.sts): connecting with TLS on port %d",
            cfg->server, cfg->database, port);
}

/* A connection with nothing open yet, in state CONNECTING. calloc: the
 * pages of its rings that are never used are never touched. */
static struct conn *conn_new(const struct config *cfg)
{
    struct conn *c = xcalloc(1, sizeof(*c));

    str_init_fixed(&c->offered, c->offered_buf, sizeof(c->offered_buf));
    c->cfg = cfg;
    c->lfd = c->cfd = c->sfd = -1;
    c->state = ST_CONNECTING;
    sts_follow(c);
    bytes_init(&c->srx);
    bytes_init(&c->stx);
    bytes_init(&c->crx);
    bytes_init(&c->ctx_out);
    return c;
}

struct conn *conn_open(const struct config *cfg)
{
    struct conn *c = conn_new(cfg);
    struct addrinfo hints;
    char port[8];

    if (listen_loopback(c) != 0) {
        fail(c, "cannot listen on 127.0.0.1 for libircclient: %s", strerror(errno));
        return c;
    }
    if (c->tls && tls_setup(c) != 0)
        return c;
    if (c->tls && !c->verify)
        log_msg(LOG_WARN,
                "tls_verify = no: the certificate of %s is not checked; anyone on the "
                "way can read and change the bot's traffic",
                cfg->server);
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof(port), "%d", c->port);
    int rc = getaddrinfo(cfg->server, port, &hints, &c->addrs);
    if (rc != 0) {
        fail(c, "cannot resolve %s: %s", cfg->server, gai_strerror(rc));
        return c;
    }
    c->next_addr = c->addrs;
    connect_next(c, NULL);
    return c;
}

void conn_close(struct conn *c)
{
    if (!c)
        return;
    if (c->ssl)
        c->lib->SSL_free(c->ssl);
    if (c->ctx)
        c->lib->SSL_CTX_free(c->ctx);
    if (c->addrs)
        freeaddrinfo(c->addrs);
    if (c->lfd >= 0)
        close(c->lfd);
    if (c->cfd >= 0)
        close(c->cfd);
    if (c->sfd >= 0)
        close(c->sfd);
    bytes_free(&c->srx);
    bytes_free(&c->stx);
    bytes_free(&c->crx);
    bytes_free(&c->ctx_out);
    if (c->lines)
        explicit_bzero(c->lines, c->lines_cap);
    free(c->lines);
    explicit_bzero(c, sizeof(*c));
    free(c);
}

unsigned short conn_port(const struct conn *c)
{
    return c->lport;
}

int conn_relayed(const struct conn *c, const char *nick)
{
    /* relay_seps first: only a server offering draft/relaymsg sets it,
     * and this is asked of every message heard. */
    return c->relay_seps[0] && conn_has_cap(c, "draft/relaymsg") && strpbrk(nick, c->relay_seps);
}

int conn_server_port(const struct conn *c)
{
    return c->port;
}

int conn_upgrading(const struct conn *c)
{
    return c->upgrading;
}

const char *conn_error(const struct conn *c)
{
    return c->state == ST_DEAD ? c->err : NULL;
}

int conn_has_cap(const struct conn *c, const char *name)
{
    for (int i = 0; i < NWANTED; i++)
        if (strcmp(name, wanted[i]) == 0)
            return (c->caps >> i) & 1;
    if (strcmp(name, "sasl") == 0)
        return c->sasl_in;
    if (strcmp(name, "WHOX") == 0)
        return c->have_whox;
    if (strcmp(name, "BOT") == 0)
        return (unsigned char)c->bot_mode;
    return 0;
}

/* ------------------------------------------------------ negotiation */

/* 1 if the space separated list `caps` (values after '=' allowed) holds
 * `name`; its value, if any, into val. */
static int cap_listed(const char *caps, const char *name, char *val, size_t vlen)
{
    size_t n = strlen(name);

    if (vlen)
        val[0] = '\0';
    for (const char *p = caps; *p;) {
        p += strspn(p, " ");
        size_t w = strcspn(p, " ");
        if (w >= n && strncmp(p, name, n) == 0 && (w == n || p[n] == '=')) {
            if (w > n && vlen)
                snprintf(val, vlen, "%.*s", (int)(w - n - 1), p + n + 1);
            return 1;
        }
        p += w;
    }
    return 0;
}

static void cap_end(struct conn *c)
{
    if (c->cap != CAP_DONE) {
        c->cap = CAP_DONE;
        send_line(c, "CAP END");
    }
}

static const char *mechanism(const struct config *cfg)
{
    return cfg->sasl_mechanism == SASL_EXTERNAL ? "EXTERNAL" : "PLAIN";
}

/* SASL did not log the bot in: a clear line, then either registration
 * without it or (sasl_required) no registration at all. */
static void sasl_failed(struct conn *c, const char *why)
{
    const struct config *cfg = c->cfg;

    if (cfg->sasl_required) {
        fail(c,
             "SASL %s login as %s failed (%s); sasl_required = yes, so the bot does not "
             "register without it",
             mechanism(cfg), cfg->sasl_username[0] ? cfg->sasl_username : cfg->nick, why);
        return;
    }
    log_msg(LOG_ERROR, "SASL %s login as %s failed (%s); registering without it%s", mechanism(cfg),
            cfg->sasl_username[0] ? cfg->sasl_username : cfg->nick, why,
            cfg->nickserv_password[0] ? " (NickServ IDENTIFY follows)" : "");
    cap_end(c);
}

/* Whether to ask for sasl, from what the server offered: 1 to ask, 0
 * not (the mechanism is none, or the server cannot: sasl_failed said so
 * and registration goes on without it), -1 when that failure ended the
 * connection (sasl_required). */
static int sasl_wanted(struct conn *c)
{
    const struct config *cfg = c->cfg;
    char mechs[256];

    if (cfg->sasl_mechanism == SASL_NONE)
        return 0;
    int listed = cap_listed(c->offered.p, "sasl", mechs, sizeof(mechs));
    for (char *p = mechs; *p; p++)
        if (*p == ',')
            *p = ' ';
    if (!listed) {
        sasl_failed(c, "the server offers no SASL");
        return c->state == ST_DEAD ? -1 : 0;
    }
    if (mechs[0] && !cap_listed(mechs, mechanism(cfg), NULL, 0)) {
        char why[320];
        snprintf(why, sizeof(why), "the server offers only %s", mechs);
        sasl_failed(c, why);
        return c->state == ST_DEAD ? -1 : 0;
    }
    return 1;
}

/* draft/multiline is worth asking for: offered with batch, and limits
 * that read (kept in c->ml); a bad value is logged and the cap not asked. */
static int multiline_offered(struct conn *c)
{
    char val[128], why[160];

    if (!cap_listed(c->offered.p, "draft/multiline", val, sizeof(val)) ||
        !cap_listed(c->offered.p, "batch", NULL, 0))
        return 0;
    if (multiline_limits(val, &c->ml, why, sizeof(why)) != 0) {
        log_msg(LOG_WARN, "the server's draft/multiline=%s is ignored: %s", CLIP(val, 60), why);
        return 0;
    }
    return 1;
}

/* The sts capability offered (sts.c): on plaintext, the policy stored and
 * the connection ended to come back with TLS on its port (1: nothing more
 * to negotiate here); on TLS the stored policy renewed for its duration
 * (0 drops it). A bad value is logged and ignored. */
static int sts_offer(struct conn *c)
{
    const struct config *cfg = c->cfg;
    char val[128], why[160];
    struct sts_policy p;

    if (!cap_listed(c->offered.p, "sts", val, sizeof(val)))
        return 0;
    if (sts_parse(val, &p, why, sizeof(why)) != 0 || (!c->tls && !p.port)) {
        log_msg(LOG_WARN, "the server's sts=%s is ignored: %s", CLIP(val, 60),
                why[0] ? why : "no port to upgrade to");
        return 0;
    }
    long now = (long)time(NULL);
    if (c->tls) {
        if (cfg->tls || p.duration < 0)
            return 0; /* TLS by configuration: no policy to keep */
        if (sts_store(cfg->database, cfg->server, c->port, now, p.duration, why, sizeof(why)))
            log_msg(LOG_WARN, "sts: the policy is not kept: %s", why);
        else if (p.duration == 0)
            log_msg(LOG_INFO,
                    "sts: %s dropped its policy (duration=0): plaintext again next "
                    "time",
                    cfg->server);
        else
            log_msg(LOG_INFO, "sts: %s's policy kept for %ld s", cfg->server, p.duration);
        return 0;
    }
    long keep = p.duration > 0 ? p.duration : STS_UPGRADE_HOLD;
    if (sts_store(cfg->database, cfg->server, p.port, now, keep, why, sizeof(why)) != 0) {
        fail(c,
             "sts: %s asks for TLS on port %d, and the policy cannot be kept (%s); "
             "trying again later",
             cfg->server, p.port, why);
        return 1;
    }
    c->upgrading = 1;
    log_msg(LOG_INFO, "sts: %s asks for TLS on port %d for %ld s: reconnecting with TLS",
            cfg->server, p.port, keep);
    fail(c, "sts: upgrading to TLS on port %d", p.port);
    return 1;
}

/* The server offered everything (the last CAP LS line): ask for what we
 * want that it has. */
static void cap_request(struct conn *c)
{
    char buf[300];
    struct str line;
    int sasl = sasl_wanted(c);

    if (sasl < 0)
        return;
    str_init_fixed(&line, buf, sizeof(buf));
    str_cat(&line, "CAP REQ :");
    size_t head = line.len;
    if (sasl)
        str_cat(&line, "sasl");
    c->sasl_asked = sasl;
    /* echo-message only with labeled-response: its echoes are then
     * labelled, confirmed and consumed; alone they would be noise. */
    int labels = cap_listed(c->offered.p, "labeled-response", NULL, 0);
    int multiline = multiline_offered(c);
    char seps[64];
    /* draft/relaymsg's value: the characters of a relayed nick ("/"). */
    if (cap_listed(c->offered.p, "draft/relaymsg", seps, sizeof(seps)))
        snprintf(c->relay_seps, sizeof(c->relay_seps), "%.7s", seps[0] ? seps : "/");
    for (int i = 0; i < NWANTED; i++)
        if (cap_listed(c->offered.p, wanted[i], NULL, 0) &&
            (labels || strcmp(wanted[i], "echo-message") != 0) &&
            (multiline || strcmp(wanted[i], "draft/multiline") != 0))
            str_add(&line, "%s%s", line.len > head ? " " : "", wanted[i]);
    if (line.len == head) {
        cap_end(c);
        return;
    }
    send_line(c, line.p);
    c->cap = CAP_REQ;
}

static void cap_acked(struct conn *c, const char *list, int on)
{
    for (const char *p = list; *p;) {
        p += strspn(p, " ");
        size_t w = strcspn(p, " ");
        int off = w > 0 && *p == '-';
        const char *name = p + off;
        size_t n = w - (size_t)off;
        int v = on && !off;
        for (int i = 0; i < NWANTED; i++)
            if (strlen(wanted[i]) == n && strncmp(name, wanted[i], n) == 0)
                c->caps = v ? c->caps | 1u << i : c->caps & ~(1u << i);
        if (n == 4 && strncmp(name, "sasl", n) == 0 && v && c->cap == CAP_REQ && c->sasl_asked)
            c->cap = CAP_SASL;
        p += w;
    }
}

/* Delivery confirmed by labelled echoes while both capabilities are on;
 * the channel-context client tag while message-tags is on and allowed. */
static void labels_follow(struct conn *c)
{
    if (!c->q)
        return;
    outq_set_labels(c->q, conn_has_cap(c, "echo-message") && conn_has_cap(c, "labeled-response"));
    outq_set_context_tag(c->q, conn_has_cap(c, "message-tags") && !c->tag_denied);
    int ml = conn_has_cap(c, "draft/multiline") && conn_has_cap(c, "batch") && c->ml.max_bytes;
    outq_set_multiline(c->q, ml ? &c->ml : NULL);
}

/* ISUPPORT CLIENTTAGDENY=<list>: the client tags the server drops, "*"
 * for all, "-name" for an exception to "*". Whether channel-context is. */
static int context_denied(const char *list)
{
    int all = 0, named = 0, exempt = 0;

    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 1 && *p == '*')
            all = 1;
        else if (n == 21 && strncmp(p, "draft/channel-context", n) == 0)
            named = 1;
        else if (n == 22 && strncmp(p, "-draft/channel-context", n) == 0)
            exempt = 1;
        p += n + (p[n] == ',');
    }
    return named || (all && !exempt);
}

/* Encodes in[len] in base64 (RFC 4648, with padding) into out, which holds
 * 4 * ((len + 2) / 3) + 1 bytes; returns the length written (without the
 * NUL). Here rather than OpenSSL's, which a plaintext connection with SASL
 * PLAIN would otherwise have to load. */
static int base64_encode(char *out, const unsigned char *in, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = out;

    for (size_t i = 0; i < len; i += 3) {
        unsigned long v = (unsigned long)in[i] << 16;
        if (i + 1 < len)
            v |= (unsigned long)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        *o++ = digits[(v >> 18) & 63];
        *o++ = digits[(v >> 12) & 63];
        *o++ = i + 1 < len ? digits[(v >> 6) & 63] : '=';
        *o++ = i + 2 < len ? digits[v & 63] : '=';
    }
    *o = '\0';
    return (int)(o - out);
}

/* The SASL payload for the server's "AUTHENTICATE +": PLAIN's
 * authzid NUL authcid NUL password in base64, 400 bytes a line (and "+"
 * after a last full line); EXTERNAL's empty answer. */
static void sasl_answer(struct conn *c)
{
    const struct config *cfg = c->cfg;

    if (cfg->sasl_mechanism == SASL_EXTERNAL) {
        send_line(c, "AUTHENTICATE +");
        return;
    }
    const char *user = cfg->sasl_username[0] ? cfg->sasl_username : cfg->nick;
    /* On the stack, never the heap: it is wiped once encoded. Each part
     * fits (the config's strings are shorter than CONFIG_STR_MAX). */
    char raw[CONFIG_STR_MAX * 3 + 3];
    struct str plain;
    str_init_fixed(&plain, raw, sizeof(raw));
    str_cat(&plain, user);
    str_ch(&plain, '\0');
    str_cat(&plain, user);
    str_ch(&plain, '\0');
    str_cat(&plain, cfg->sasl_password);
    char b64[sizeof(raw) * 4 / 3 + 8];
    int len = base64_encode(b64, (const unsigned char *)plain.p, plain.len);
    explicit_bzero(raw, sizeof(raw));
    char line[SASL_CHUNK + 16];
    int off = 0;
    do {
        int chunk = len - off > SASL_CHUNK ? SASL_CHUNK : len - off;
        snprintf(line, sizeof(line), "AUTHENTICATE %.*s", chunk, b64 + off);
        send_line(c, line);
        off += chunk;
        if (chunk == SASL_CHUNK && off == len)
            send_line(c, "AUTHENTICATE +");
    } while (off < len);
    explicit_bzero(b64, sizeof(b64));
    explicit_bzero(line, sizeof(line));
}

/* CAP from the server: LS (the offer, over one or more lines), ACK, NAK,
 * DEL. Always ours. */
static int cap_line(struct conn *c, const struct irc_msg *m)
{
    const char *sub = m->params[1];
    const char *last = m->params[m->nparams - 1];

    if (strcasecmp(sub, "LS") == 0 && c->cap == CAP_LS) {
        str_add(&c->offered, "%s%s", c->offered.len ? " " : "", last);
        /* "CAP * LS * :..." says more lines follow. */
        if (!(m->nparams >= 4 && strcmp(m->params[2], "*") == 0) && !sts_offer(c))
            cap_request(c);
    } else if (strcasecmp(sub, "ACK") == 0) {
        log_msg(LOG_INFO, "capabilities on: %s", CLIP(last, 300));
        cap_acked(c, last, 1);
        labels_follow(c);
        if (c->cap == CAP_SASL) {
            char line[64];
            snprintf(line, sizeof(line), "AUTHENTICATE %s", mechanism(c->cfg));
            send_line(c, line);
        } else if (c->cap == CAP_REQ) {
            cap_end(c);
        }
    } else if (strcasecmp(sub, "NAK") == 0) {
        if (c->cap == CAP_REQ && c->cfg->sasl_mechanism != SASL_NONE &&
            cap_listed(last, "sasl", NULL, 0))
            sasl_failed(c, "the server refused the sasl capability");
        if (c->state != ST_DEAD)
            cap_end(c);
    } else if (strcasecmp(sub, "DEL") == 0) {
        cap_acked(c, last, 0);
        labels_follow(c);
    }
    return 1;
}

/* The SASL numerics (900-908): ours, and how the login went. 0 for any
 * other numeric. */
static int sasl_numeric(struct conn *c, int num, const char *text)
{
    switch (num) {
    case 900:
        log_msg(LOG_INFO, "SASL: %s", CLIP(text, 200));
        return 1;
    case 901:
    case 907:
        return 1;
    case 903:
        if (c->cap != CAP_SASL)
            return 1; /* no login of ours under way: not ours to believe */
        c->sasl_in = 1;
        log_msg(LOG_INFO, "SASL %s login succeeded", mechanism(c->cfg));
        cap_end(c);
        return 1;
    case 902:
    case 904:
    case 905:
    case 906:
    case 908:
        if (c->cap == CAP_SASL) {
            char why[200];
            snprintf(why, sizeof(why), "%d: %s", num, CLIP(text, 150));
            sasl_failed(c, why);
        }
        return 1;
    default:
        return 0;
    }
}

/* A numeric reply: the end of the negotiation (001, 421 CAP), WHOX in
 * ISUPPORT, SASL's. 1 if ours, 0 to pass on. */
static int numeric_line(struct conn *c, int num, const struct irc_msg *m)
{
    switch (num) {
    case 1: { /* registered: whatever was left of the negotiation is over */
        int missed = c->cap != CAP_DONE && c->cfg->sasl_mechanism != SASL_NONE && !c->sasl_in;
        c->cap = CAP_DONE;
        if (missed)
            sasl_failed(c, "the server registered the bot without negotiating");
        return c->state == ST_DEAD;
    }
    case 5:
        for (int i = 1; i + 1 < m->nparams; i++) {
            if (strcmp(m->params[i], "WHOX") == 0)
                c->have_whox = 1;
            else if (strncmp(m->params[i], "BOT=", 4) == 0 && m->params[i][4] >= 'A' &&
                     m->params[i][4] <= 'z')
                c->bot_mode = m->params[i][4];
            if (strncmp(m->params[i], "CLIENTTAGDENY=", 14) == 0) {
                c->tag_denied = context_denied(m->params[i] + 14);
                labels_follow(c);
            }
        }
        return 0;
    case 376: /* the end of the MOTD, or 422: none; either way the last of
               * the welcome, every ISUPPORT line read */
    case 422:
        c->welcomed = 1;
        return 0;
    case 410: /* ERR_INVALIDCAPCMD */
        return 1;
    case 421: /* a server that knows no CAP: registration goes on */
        if (m->nparams >= 2 && strcasecmp(m->params[1], "CAP") == 0) {
            if (c->cfg->sasl_mechanism != SASL_NONE)
                sasl_failed(c, "the server knows no CAP command");
            c->cap = CAP_DONE;
            return 1;
        }
        return 0;
    default:
        return sasl_numeric(c, num, m->nparams ? m->params[m->nparams - 1] : "");
    }
}

/* ------------------------------------------------------ message tags */

/* Remembers the account tag of a PRIVMSG that libircclient is about to
 * read (its callback asks: conn_msg_account). A CTCP goes to another
 * callback that does not ask: not remembered. */
static void tag_message(struct conn *c, const struct irc_msg *m)
{
    char nick[64], user[64], host[64];

    if (!conn_has_cap(c, "account-tag") || !m->source || m->nparams < 2 ||
        strcasecmp(m->verb, "PRIVMSG") != 0 || m->params[1][0] == '\001')
        return;
    if (c->tag_n == TAGGED_RING) {
        /* libircclient is that far behind: forget them all (their
         * senders' accounts are then asked for the old way). */
        c->tag_n = 0;
        log_msg(LOG_DEBUG, "conn: account tags of %d messages forgotten", TAGGED_RING);
    }
    struct tagged *t = &c->tagged[(c->tag_head + c->tag_n++) % TAGGED_RING];
    irc_source_split(m->source, nick, user, host, sizeof(nick));
    snprintf(t->nick, sizeof(t->nick), "%s", nick);
    char acc[IRC_TAG_VALUE_MAX];
    if (!irc_msg_tag(m, "account", acc, sizeof(acc)) || strcmp(acc, "*") == 0)
        acc[0] = '\0';
    snprintf(t->account, sizeof(t->account), "%.*s", (int)sizeof(t->account) - 1, acc);
}

int conn_msg_account(struct conn *c, const char *nick, char *account, size_t len)
{
    while (c->tag_n) {
        struct tagged *t = &c->tagged[c->tag_head];
        c->tag_head = (c->tag_head + 1) % TAGGED_RING;
        c->tag_n--;
        if (strcmp(t->nick, nick) == 0) {
            snprintf(account, len, "%s", t->account);
            return 1;
        }
    }
    return 0;
}

/* A BATCH line: an open batch remembered (a history playback marked),
 * a closed one forgotten. Always ours. */
static int batch_line(struct conn *c, const struct irc_msg *m)
{
    struct irc_batch b;

    if (!irc_batch_parse(m, &b))
        return 1;
    if (b.open) {
        log_msg(LOG_DEBUG, "conn: batch %s (%s) opens", CLIP(b.ref, 31), CLIP(b.type, 40));
        if (c->nbatches == BATCH_OPEN_MAX)
            return 1;
        snprintf(c->batches[c->nbatches].ref, sizeof(c->batches[0].ref), "%.31s", b.ref);
        char label[32];
        /* The echo of a multiline batch the bot sent (its label): its
         * lines are the bot's own, no more to read than a playback's. */
        int echo = strcmp(b.type, "draft/multiline") == 0 &&
                   irc_msg_tag(m, "label", label, sizeof(label)) && strncmp(label, "rs", 2) == 0;
        c->batches[c->nbatches++].playback =
            echo || strstr(b.type, "chathistory") != NULL || strstr(b.type, "playback") != NULL;
        return 1;
    }
    for (int i = 0; i < c->nbatches; i++)
        if (strcmp(c->batches[i].ref, b.ref) == 0) {
            c->batches[i] = c->batches[--c->nbatches];
            break;
        }
    return 1;
}

/* 1 if m belongs to a history playback batch: said before, not to run. */
static int in_playback(const struct conn *c, const struct irc_msg *m)
{
    char ref[64];

    if (!c->nbatches || !irc_msg_tag(m, "batch", ref, sizeof(ref)))
        return 0;
    for (int i = 0; i < c->nbatches; i++)
        if (strcmp(c->batches[i].ref, ref) == 0)
            return c->batches[i].playback;
    return 0;
}

/* A standard reply (FAIL, WARN, NOTE): logged; a FAIL on a message the
 * bot sent tells the queue the line did not go. Always ours. */
static int std_line(struct conn *c, const struct irc_msg *m)
{
    struct irc_std r;

    if (!irc_std_reply(m, &r))
        return 1;
    char ctx[128] = "";
    for (int i = 0; i < r.ncontext && strlen(ctx) < 100; i++)
        snprintf(ctx + strlen(ctx), sizeof(ctx) - strlen(ctx), " %s", CLIP(r.context[i], 40));
    enum log_level lv = r.kind[0] == 'F' ? LOG_WARN : r.kind[0] == 'W' ? LOG_INFO : LOG_DEBUG;
    log_msg(lv, "the server says %s %s %s%s: %s", r.kind, CLIP(r.command, 20), CLIP(r.code, 40),
            ctx, CLIP(r.description, 200));
    if (r.kind[0] == 'F' && c->q &&
        (strcasecmp(r.command, "PRIVMSG") == 0 || strcasecmp(r.command, "NOTICE") == 0))
        outq_refused(c->q, r.ncontext ? r.context[0] : NULL);
    if (r.kind[0] == 'F' && c->q && strcasecmp(r.command, "BATCH") == 0 &&
        strncmp(r.code, "MULTILINE_", 10) == 0 && c->ml.max_bytes) {
        c->ml.max_bytes = 0; /* draft/multiline stays off on this connection */
        outq_batch_refused(c->q);
    }
    return 1;
}

/* The server's clock against ours, from the first server-time tag: a
 * debug line (times the server gives are then read knowing it). */
static void server_time(struct conn *c, const struct irc_msg *m)
{
    double t;

    if (c->skew_told || !irc_msg_time(m, &t))
        return;
    c->skew_told = 1;
    log_msg(LOG_DEBUG, "conn: the server's clock is %.1f s off ours", t - (double)time(NULL));
}

/* A reply to a line the queue labelled ("rsN"): confirms it (after the
 * line itself was read: a FAIL first marks its target). 1 if it is ours
 * alone: the echo of our own message, or the server's ACK. */
static int label_line(struct conn *c, const struct irc_msg *m)
{
    char label[32];

    if (!c->q || !m->tags || !irc_msg_tag(m, "label", label, sizeof(label)) ||
        strncmp(label, "rs", 2) != 0)
        return 0;
    outq_pong(c->q, label);
    return strcasecmp(m->verb, "PRIVMSG") == 0 || strcasecmp(m->verb, "NOTICE") == 0 ||
           strcasecmp(m->verb, "ACK") == 0;
}

/* A line to pass on, by its tags: 1 if it must not reach libircclient
 * (a message of a history playback). */
static int tagged_line(struct conn *c, const struct irc_msg *m)
{
    if (m->tags) {
        server_time(c, m);
        if (in_playback(c, m) &&
            (strcasecmp(m->verb, "PRIVMSG") == 0 || strcasecmp(m->verb, "NOTICE") == 0))
            return 1;
    }
    tag_message(c, m); /* untagged too: with account-tag, no account */
    return 0;
}

/* One line from the server: 1 if it was ours (consumed), 0 to pass on. */
static int negotiate(struct conn *c, const struct irc_msg *m)
{
    const char *v = m->verb;

    if (strcasecmp(v, "CAP") == 0 && m->nparams >= 2)
        return cap_line(c, m);
    if (strcasecmp(v, "AUTHENTICATE") == 0) {
        if (c->cap == CAP_SASL && m->nparams >= 1 && strcmp(m->params[0], "+") == 0)
            sasl_answer(c);
        return 1;
    }
    if (strlen(v) == 3 && strspn(v, "0123456789") == 3)
        return numeric_line(c, atoi(v), m);
    if (strcasecmp(v, "BATCH") == 0)
        return batch_line(c, m);
    if (strcasecmp(v, "FAIL") == 0 || strcasecmp(v, "WARN") == 0 || strcasecmp(v, "NOTE") == 0)
        return std_line(c, m);
    return 0;
}

/* Every whole line waiting from the server: ours consumed, the others
 * passed to libircclient without their tags. */
static void server_lines(struct conn *c)
{
    for (;;) {
        char *nl = memchr(c->srx.d, '\n', c->srx.n);
        if (!nl) {
            if (!bytes_room(&c->srx))
                fail(c, "the server sent a line longer than %d bytes", CONN_BUF);
            return;
        }
        size_t len = (size_t)(nl - c->srx.d);
        if (len + 2 > bytes_room(&c->ctx_out))
            return; /* libircclient is behind: the rest waits */
        if (2 * (len + 1) > c->lines_cap) {
            c->lines_cap = 2 * (len + 1) < 1024 ? 1024 : 2 * (len + 1);
            c->lines = xrealloc(c->lines, c->lines_cap);
        }
        char *line = c->lines, *copy = c->lines + len + 1;
        memcpy(line, c->srx.d, len);
        line[len] = '\0';
        bytes_drop(&c->srx, len + 1);
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        /* A CR inside is no line end here, but could be one to
         * libircclient: a space, so both read the same one line. */
        for (char *cr = memchr(line, '\r', len); cr;
             cr = memchr(cr, '\r', len - (size_t)(cr - line)))
            *cr = ' ';
        const char *plain = irc_msg_untagged(line);
        if (*plain == '@')
            continue; /* a second tag section: no IRC line */
        struct irc_msg m;
        memcpy(copy, line, len + 1);
        if (irc_msg_parse(copy, &m) != 0)
            continue;
        int ours = negotiate(c, &m);
        if (label_line(c, &m) || ours || tagged_line(c, &m))
            continue;
        bytes_put(&c->ctx_out, plain, strlen(plain));
        bytes_put(&c->ctx_out, "\r\n", 2);
        if (c->state == ST_DEAD)
            return;
    }
}

/* ---------------------------------------------------------- the wire */

static void up(struct conn *c)
{
    c->state = ST_UP;
    c->cap = CAP_LS;
    /* Before libircclient's PASS/NICK/USER: the server then holds the
     * registration until CAP END. */
    send_line(c, "CAP LS 302");
}

static void handshake(struct conn *c)
{
    c->lib->ERR_clear_error();
    int rc = c->lib->SSL_connect(c->ssl);
    if (rc == 1) {
        log_msg(LOG_INFO, "TLS with %s:%d: %s, %s%s", c->cfg->server, c->port,
                c->lib->SSL_get_version(c->ssl),
                c->lib->SSL_CIPHER_get_name(c->lib->SSL_get_current_cipher(c->ssl)),
                c->verify ? ", certificate verified" : ", certificate NOT verified");
        up(c);
        return;
    }
    int e = c->lib->SSL_get_error(c->ssl, rc);
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
        c->ssl_want_write = e == SSL_ERROR_WANT_WRITE;
        return;
    }
    long v = c->lib->SSL_get_verify_result(c->ssl);
    if (v != X509_V_OK) {
        fail(c,
             "TLS: the certificate of %s:%d is refused: %s (check tls_ca_file and the server "
             "name; never retried without TLS)",
             c->cfg->server, c->port, c->lib->X509_verify_cert_error_string(v));
    } else {
        char why[SSL_WHY_MAX];
        fail(c, "TLS handshake with %s:%d failed: %s", c->cfg->server, c->port,
             ssl_reason(c, why, sizeof(why)));
    }
}

static void tcp_connected(struct conn *c)
{
    int err = 0;
    socklen_t len = sizeof(err);

    if (getsockopt(c->sfd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        err = errno;
    if (err) {
        close(c->sfd);
        c->sfd = -1;
        connect_next(c, strerror(err));
        return;
    }
    if (c->tls) {
        c->lib->SSL_set_fd(c->ssl, c->sfd);
        c->state = ST_HANDSHAKE;
        handshake(c);
    } else {
        up(c);
    }
}

/* Reads what the server sent into srx. */
static void server_read(struct conn *c)
{
    for (;;) {
        if (!bytes_room(&c->srx))
            return;
        size_t room = bytes_reserve(&c->srx, c->srx.n + READ_CHUNK);
        ssize_t n;
        if (c->ssl) {
            c->lib->ERR_clear_error();
            int rc = c->lib->SSL_read(c->ssl, c->srx.d + c->srx.n, (int)room);
            if (rc <= 0) {
                int e = c->lib->SSL_get_error(c->ssl, rc);
                if (e == SSL_ERROR_WANT_READ)
                    return;
                if (e == SSL_ERROR_WANT_WRITE) {
                    c->ssl_want_write = 1;
                    return;
                }
                if (e == SSL_ERROR_ZERO_RETURN ||
                    (e == SSL_ERROR_SYSCALL && !c->lib->ERR_peek_error())) {
                    c->eof = 1;
                } else {
                    char why[SSL_WHY_MAX];
                    fail(c, "TLS: %s", ssl_reason(c, why, sizeof(why)));
                }
                return;
            }
            n = rc;
        } else {
            n = read(c->sfd, c->srx.d + c->srx.n, room);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            if (n == 0)
                c->eof = 1;
            else if (n < 0)
                fail(c, "%s", strerror(errno));
            if (n <= 0)
                return;
        }
        c->srx.n += (size_t)n;
        /* A short read took all there was: no second read to hear EAGAIN
         * (TLS reads on while OpenSSL holds bytes, decrypted or not yet). */
        if ((size_t)n < room && (!c->ssl || !c->lib->SSL_has_pending(c->ssl)))
            return;
    }
}

static void server_write(struct conn *c)
{
    while (c->stx.n) {
        ssize_t n;
        if (c->ssl) {
            c->lib->ERR_clear_error();
            int rc = c->lib->SSL_write(c->ssl, c->stx.d, (int)c->stx.n);
            if (rc <= 0) {
                int e = c->lib->SSL_get_error(c->ssl, rc);
                if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ) {
                    c->ssl_want_write = e == SSL_ERROR_WANT_WRITE;
                    return;
                }
                char why[SSL_WHY_MAX];
                fail(c, "TLS: %s", ssl_reason(c, why, sizeof(why)));
                return;
            }
            n = rc;
        } else {
            n = write(c->sfd, c->stx.d, c->stx.n);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            if (n < 0) {
                fail(c, "%s", strerror(errno));
                return;
            }
        }
        bytes_drop(&c->stx, (size_t)n);
    }
}

/* Puts one end of a Unix socket pair where libircclient's loopback TCP
 * socket was (dup2 onto `libfd`, keeping its file flags) and returns the
 * other end, closing `tcp`, our end of the loopback connection: every line
 * then crosses the kernel as a local copy instead of through its TCP stack
 * (half the CPU the relay costs a line, measured by bench/peers_bench.py),
 * and nothing is left that another program could connect to. libircclient
 * only sends and receives on the descriptor it knows. On any failure, the
 * TCP connection stays as it is: `tcp` is returned. */
static int unix_swap(int tcp, int libfd)
{
    int pair[2];
    int fl = fcntl(libfd, F_GETFL, 0);

    if (fl < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        return tcp;
    if (dup2(pair[0], libfd) < 0 || fcntl(libfd, F_SETFL, fl) != 0) {
        close(pair[0]);
        close(pair[1]);
        return tcp;
    }
    close(pair[0]);
    close(tcp);
    return pair[1];
}

/* Accepts libircclient's connection, and only its: the peer must be the
 * socket libircclient selects on (`libfd`); then moves it onto a Unix
 * socket pair (unix_swap). */
static void lib_accept(struct conn *c, int libfd)
{
    struct sockaddr_storage peer, mine;
    socklen_t plen = sizeof(peer), mlen = sizeof(mine);
    int fd = accept(c->lfd, (struct sockaddr *)&peer, &plen);

    if (fd < 0)
        return;
    memset(&mine, 0, sizeof(mine));
    if (libfd < 0 || getsockname(libfd, (struct sockaddr *)&mine, &mlen) != 0 || plen != mlen ||
        memcmp(&peer, &mine, plen) != 0) {
        log_msg(LOG_WARN, "refused a connection to the bot's loopback relay that was not "
                          "libircclient's own");
        close(fd);
        return;
    }
    c->cfd = unix_swap(fd, libfd);
    set_nonblock(c->cfd);
    close(c->lfd);
    c->lfd = -1;
}

static void lib_read(struct conn *c)
{
    for (;;) {
        if (!bytes_room(&c->crx))
            return;
        size_t room = bytes_reserve(&c->crx, c->crx.n + READ_CHUNK);
        ssize_t n = read(c->cfd, c->crx.d + c->crx.n, room);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (n <= 0) {
            fail(c, "libircclient closed its connection");
            return;
        }
        c->crx.n += (size_t)n;
        if ((size_t)n < room)
            return; /* all there was */
    }
}

static void lib_write(struct conn *c)
{
    while (c->ctx_out.n) {
        ssize_t n = write(c->cfd, c->ctx_out.d, c->ctx_out.n);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (n < 0) {
            fail(c, "libircclient's connection: %s", strerror(errno));
            return;
        }
        bytes_drop(&c->ctx_out, (size_t)n);
        c->fed = 1;
    }
}

static void add_fd(int fd, fd_set *set, int *maxfd)
{
    FD_SET(fd, set);
    if (fd > *maxfd)
        *maxfd = fd;
}

void conn_fds(struct conn *c, fd_set *r, fd_set *w, int *maxfd)
{
    if (c->state == ST_DEAD || c->spliced)
        return;
    if (c->lfd >= 0)
        add_fd(c->lfd, r, maxfd);
    if (c->cfd >= 0) {
        if (c->stx.n < CONN_SLOW && bytes_room(&c->crx))
            add_fd(c->cfd, r, maxfd);
        if (c->ctx_out.n)
            add_fd(c->cfd, w, maxfd);
    }
    if (c->sfd < 0)
        return;
    if (c->state == ST_CONNECTING) {
        add_fd(c->sfd, w, maxfd);
        return;
    }
    if (bytes_room(&c->srx) && !c->eof)
        add_fd(c->sfd, r, maxfd);
    if (c->stx.n || c->ssl_want_write)
        add_fd(c->sfd, w, maxfd);
}

int conn_busy(const struct conn *c)
{
    return c->state == ST_UP && c->ssl && c->lib->SSL_has_pending(c->ssl) && bytes_room(&c->srx);
}

/* Whether a read may bring something: the socket is readable, or (TLS)
 * OpenSSL holds bytes (decrypted, or read ahead and not yet) or waited for
 * the socket to be writable.
 * A read on every turn of the loop would cost a system call each time. */
static int server_readable(struct conn *c, fd_set *r, fd_set *w)
{
    if (c->sfd < 0)
        return 0;
    if (FD_ISSET(c->sfd, r))
        return 1;
    return c->ssl &&
           ((c->ssl_want_write && FD_ISSET(c->sfd, w)) || c->lib->SSL_has_pending(c->ssl));
}

/* The server's side, by state: the TCP connection made, the TLS
 * handshake going on, or what it sent read. */
static void server_step(struct conn *c, fd_set *r, fd_set *w)
{
    if (c->sfd >= 0 && c->state == ST_CONNECTING && FD_ISSET(c->sfd, w)) {
        tcp_connected(c);
    } else if (c->state == ST_HANDSHAKE && (FD_ISSET(c->sfd, r) || FD_ISSET(c->sfd, w))) {
        handshake(c);
    } else if (c->state == ST_UP && !c->eof && server_readable(c, r, w)) {
        c->ssl_want_write = 0;
        server_read(c);
    }
}

/* Once up: the server's lines to libircclient (ours taken out), and
 * libircclient's bytes to the server. */
static void relay(struct conn *c)
{
    server_lines(c);
    /* libircclient's lines go once our CAP LS is ahead of them. */
    size_t room = bytes_room(&c->stx);
    size_t n = c->crx.n < room ? c->crx.n : room;
    if (n && bytes_put(&c->stx, c->crx.d, n) == 0)
        bytes_drop(&c->crx, n);
    server_write(c);
}

/* Whether this module has nothing left to do on the server's lines: no
 * TLS, the welcome over (the negotiation done, every ISUPPORT line read),
 * and the server offered none of the capabilities that change lines or
 * that are read here (tags, batches, standard replies, echoes, labels, the
 * account lines), so none is on and none can come (ngircd). */
static int plain_server(const struct conn *c)
{
    if (c->ssl || c->caps || c->cap != CAP_DONE || !c->welcomed || c->eof || c->state != ST_UP)
        return 0;
    for (int i = 0; i < NWANTED; i++)
        if (cap_listed(c->offered.p, wanted[i], NULL, 0))
            return 0;
    return 1;
}

/* On a plain server, hands the server's socket to libircclient (dup2 onto
 * `libfd`, keeping its file flags) and leaves the relay: each line then
 * costs the bot one read or write instead of three, as before the relay
 * existed (bench/peers_bench.py). Only once every byte relayed either way
 * has been read by the other side (the four queues empty, nothing unread
 * in either socket of the pair), so nothing is lost or reordered. */
static void splice(struct conn *c, int libfd)
{
    int in_lib = 0, in_ours = 0;

    if (libfd < 0 || c->cfd < 0 || !plain_server(c) || c->srx.n || c->stx.n || c->crx.n ||
        c->ctx_out.n)
        return;
    if (ioctl(libfd, FIONREAD, &in_lib) != 0 || in_lib || ioctl(c->cfd, FIONREAD, &in_ours) != 0 ||
        in_ours)
        return;
    int fl = fcntl(libfd, F_GETFL, 0);
    if (fl < 0 || dup2(c->sfd, libfd) < 0)
        return;
    fcntl(libfd, F_SETFL, fl);
    close(c->sfd);
    close(c->cfd);
    c->sfd = c->cfd = -1;
    c->spliced = 1;
    log_msg(LOG_DEBUG, "a plain server: libircclient reads and writes its socket directly");
}

int conn_process(struct conn *c, fd_set *r, fd_set *w, int libfd)
{
    if (c->spliced)
        return 0;
    if (c->eof == 2)
        fail(c, "the server closed the connection");
    if (c->state == ST_DEAD)
        return -1;
    if (c->lfd >= 0 && FD_ISSET(c->lfd, r))
        lib_accept(c, libfd);
    server_step(c, r, w);
    /* libircclient's socket was writable: it has just sent what it held,
     * so that is read now rather than at the next turn of the loop (one
     * select(2) less for each batch of lines the bot sends). */
    if (c->cfd >= 0 && (FD_ISSET(c->cfd, r) || (libfd >= 0 && FD_ISSET(libfd, w))))
        lib_read(c);
    if (c->state == ST_UP)
        relay(c);
    if (c->cfd >= 0 && c->ctx_out.n)
        lib_write(c);
    /* The server's last lines (an ERROR saying why) reach libircclient
     * before the end is reported, at the next call. */
    if (c->eof == 1 && (c->cfd < 0 || (!c->ctx_out.n && !memchr(c->srx.d, '\n', c->srx.n))))
        c->eof = 2;
    if (c->state == ST_DEAD)
        return -1;
    splice(c, libfd);
    return 0;
}

void conn_settle(struct conn *c, int libfd)
{
    if (!c->spliced && c->state == ST_UP)
        splice(c, libfd);
}

void conn_pass(struct conn *c)
{
    if (c->spliced || c->state != ST_UP || c->cfd < 0)
        return;
    lib_read(c);
    relay(c);
}

int conn_fed(struct conn *c)
{
    int fed = c->fed;

    c->fed = 0;
    return fed;
}

/* ------------------------------------------------------ without sockets */

struct conn *conn_offline(const struct config *cfg)
{
    struct conn *c = conn_new(cfg);

    up(c);
    return c;
}

void conn_set_outq(struct conn *c, struct outq *q)
{
    c->q = q;
}

size_t conn_feed(struct conn *c, const char *data, size_t len)
{
    size_t room = bytes_room(&c->srx);

    if (len > room)
        len = room;
    bytes_put(&c->srx, data, len);
    if (c->state != ST_DEAD)
        server_lines(c);
    return len;
}

size_t conn_take(struct conn *c, int to_server, char *buf, size_t len)
{
    struct bytes *b = to_server ? &c->stx : &c->ctx_out;
    size_t n = b->n < len ? b->n : len;

    memcpy(buf, b->d, n);
    bytes_drop(b, n);
    return n;
}
