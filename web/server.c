/*
 * server.c - HTTP on libmicrohttpd: [web] threads worker threads
 * (libmicrohttpd's thread pool, each polling its own connections with
 * epoll; one thread: its internal polling thread alone) answer their
 * connections' requests in turn, each worker from a struct web of its own
 * (its read-only database connection and its caches), taken at its first
 * request. Nothing of ours is shared between the workers but the guard
 * below, under its lock.
 *
 * Safety: only GET and HEAD (anything else is 405 with Allow); a request
 * with a body is 413; an HTTP/1.1 request without a Host header, or any
 * with several or one naming no host, is 400 (RFC 9112 section 3.2); paths longer than
 * ROUTE_PATH_MAX are 404; the request line and headers must fit in CONN_MEMORY bytes (libmicrohttpd
 * answers 414 or 431 otherwise). Every answer forbids scripts, frames and
 * outside resources (Content-Security-Policy) and content sniffing.
 *
 * Strangers who hold connections (slowloris: requests sent a header line
 * every few seconds; idle connections; floods from several addresses) are
 * kept to their share by a guard of our own, since libmicrohttpd's timeout
 * is an idle one that every byte resets: each connection is noted at its
 * accept (MHD_OPTION_NOTIFY_CONNECTION) with its address and start; a
 * request must be read, answered and sent within [web] request_timeout
 * seconds of that start (or of the previous answer on a kept-alive
 * connection), else a sweeping thread shuts its socket down (libmicrohttpd
 * then sees it end and closes it in its own thread: the socket is never
 * closed under it). One address (an IPv6 /64) holds at most
 * max_connections_per_address connections (more are refused at accept);
 * when max_connections are open, a new one drops the oldest connection of
 * the address that holds the most, so that nobody can fill the server and
 * keep it filled, and a visitor holding fewer connections than each
 * attacking address is not dropped because theirs come and go faster
 * than his page is answered (attackers with one connection on each of
 * many addresses still turn the oldest over, as before).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

#include "web.h"

#define CONN_MEMORY 16384 /* bytes per connection: the request's head must fit */
#define SWEEP_MS    250   /* how often the guard looks for requests past their time */

/* One address's connections, as guard_accept counts them. */
struct share {
    unsigned char key[16];
    int n;                  /* 0: the entry is free */
    struct guarded *oldest; /* its oldest connection that is noted */
};

/* A connection as the guard knows it. */
struct guarded {
    int used;
    int pending;           /* taken at the accept, its connection not yet noted */
    int dropped;           /* shut down, not yet closed by libmicrohttpd */
    int fd;                /* its socket, -1 when unknown */
    unsigned char key[16]; /* its address (IPv4) or /64 (IPv6) */
    long long start;       /* ms (monotonic) of its accept or its last answer */
};

struct web_server {
    struct MHD_Daemon *d;
    struct web *w; /* the first worker's: the settings */
    /* The workers' states, one each: the i-th thread to answer a request
     * takes workers[i] (next counts them) and keeps it (worker_web). */
    struct web **workers;
    int nworkers;
    atomic_int next;
    /* The guard: every connection open, under `lock` (the workers note
     * them, the sweeping thread drops the late ones). */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t sweeper;
    int stopping;
    struct guarded *conns; /* `slots` of them: twice max_connections */
    int slots;
    int live; /* used and not dropped */
    /* guard_accept's count of the connections by address, made afresh at
     * each accept: `nshares` entries (a power of two, at least twice
     * `slots`), open addressing on the address. */
    struct share *shares;
    unsigned nshares;
};

static const char csp[] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/* GET and HEAD are answered; every other method is refused (405). */
static int method_read(const char *method)
{
    return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

static void answer_not_allowed(const struct route *r, struct reply *out)
{
    pages_error(r, 405, "Method not allowed",
                "These pages are read-only: only GET and HEAD are answered.", out);
}

static void answer_db_failed(const struct route *r, struct reply *out)
{
    pages_error(r, 500, "Database error", "The record could not be read; try again shortly.", out);
}

/* /fighters/NAME: a redirect to the id's address (never kept: a name may
 * change hands), or the error page. (/api/fighters/NAME answers the
 * fighter's JSON itself, as any other address of the API.) */
static void answer_by_name(struct web *w, const struct route *r, const char *method,
                           struct reply *out)
{
    if (!method_read(method))
        return answer_not_allowed(r, out);
    if (web_begin(w) != 0)
        return answer_db_failed(r, out);
    pages_fighter_name(w, r, out);
    web_end(w);
}

/* The page or the JSON for r. */
static void render(struct web *w, const struct route *r, int api, int page, struct reply *out)
{
    if (api)
        api_render(w, r, page, out);
    else
        pages_render(w, r, page, out);
}

/* The answer kept for `key` into *out: 1, or 0 when there is none. */
static int answer_kept(const struct web *w, const char *key, struct reply *out)
{
    const struct web_kept *k = web_kept_find(w, key);

    if (!k)
        return 0;
    out->status = 200;
    out->type = k->type;
    out->refresh = k->refresh;
    out->len = k->len;
    out->shared = web_body_take(k->body);
    out->body = k->body->p;
    return 1;
}

void server_answer(struct web *w, const char *method, const char *path, const char *page_arg,
                   struct reply *out)
{
    struct route r;
    int page = 1;

    memset(out, 0, sizeof(*out));
    int found = route_parse(path, &r) == 0;
    int api = r.api; /* under /api: JSON, found or not */
    if (r.page == PAGE_FIGHTER_NAME)
        return answer_by_name(w, &r, method, out);
    if (!method_read(method))
        return answer_not_allowed(&r, out);
    if (!found)
        return render(w, &r, api, 1, out);
    /* Only the standings are paged: elsewhere page= (as every other query
     * argument) changes nothing, is not read, and is not in the key. */
    int paged = route_paged(&r);
    if (paged && route_page_number(page_arg, &page) != 0)
        return pages_error(&r, 400, "Bad request", "page= must be a number from 1 to 100000.", out);
    /* A page with no answer kept (on SQLite) begins its read transaction
     * first and reads data_version inside it: one read lock taken and let
     * go for the page (data_version's own transaction cost three more
     * system calls), and the version is that of the very snapshot the page
     * is read from. A page with an answer kept reads data_version alone,
     * as before (no BEGIN and COMMIT to run when the answer is sent), and
     * so does PostgreSQL (two round trips fewer for a kept answer). */
    char key[WEB_KEY_MAX];
    route_key(&r, page, key, sizeof(key));
    int early = !db_is_pg(w->db) && !web_kept_find(w, key);
    if (early && web_begin(w) != 0)
        return answer_db_failed(&r, out);
    if (web_check(w) != 0) {
        if (early)
            web_end(w);
        return answer_db_failed(&r, out);
    }
    /* Asked for before, and nothing changed since: the same answer. */
    if (answer_kept(w, key, out)) {
        if (early)
            web_end(w);
        return;
    }
    if (!early && web_begin(w) != 0)
        return answer_db_failed(&r, out);
    render(w, &r, api, page, out);
    web_end(w);
    if (out->status == 200)
        web_keep(w, key, out);
}

/* libmicrohttpd's MHD_UnescapeCallback, for the path and each query
 * argument: route_unescape. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    return route_unescape(s);
}

/* libmicrohttpd's MHD_OPTION_URI_LOG_CALLBACK, called with the request
 * target as sent, before any decoding: where it ends as a C string, for
 * raw_nul (the request's context until its first answer call). */
static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    return (void *)(uintptr_t)(uri + strlen(uri));
}

/* Whether the request target held a raw NUL byte: libmicrohttpd splits
 * the request line in place, so the target, as sent, ends just before
 * `version`; a NUL before that (`seen_end`, from uri_log) was the
 * client's. An answer that cannot tell (version elsewhere) says no. */
static int raw_nul(const void *seen_end, const char *url, const char *version)
{
    const char *end = seen_end;

    if (!end || !url || !version || version <= url || version - url > CONN_MEMORY)
        return 0;
    return end >= url && end < version - 1;
}

/* libmicrohttpd's MHD_ContentReaderFreeCallback for a shared body: the
 * response sent lets go of its use. */
static void body_sent(void *cls)
{
    web_body_drop(cls);
}

/* The response carrying out's body (handed over: freed or let go when
 * sent, or here on failure), or NULL. */
static struct MHD_Response *reply_response(struct reply *out)
{
    struct MHD_Response *resp;

    if (out->shared) {
        resp = MHD_create_response_from_buffer_with_free_callback_cls(out->len, out->body,
                                                                      body_sent, out->shared);
        if (!resp)
            web_body_drop(out->shared);
        return resp;
    }
    resp = MHD_create_response_from_buffer(out->len, out->body, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(out->body);
    return resp;
}

/* The struct web of the worker thread calling (libmicrohttpd's thread
 * pool runs each connection in one worker for its whole life): the next
 * one not taken, at the thread's first request; NULL past the last (never,
 * with as many as threads). */
static struct web *worker_web(struct web_server *s)
{
    static _Thread_local struct web *mine;
    static _Thread_local const struct web_server *of;

    if (of != s) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= s->nworkers)
            return NULL;
        mine = s->workers[i];
        of = s;
    }
    return mine;
}

/* The Host header lines of a request, and how many named no host. */
struct hosts {
    int n, bad;
};

/* libmicrohttpd's MHD_KeyValueIterator over the headers: counts the Host
 * lines into *cls (a struct hosts), and those holding a character no host
 * (uri-host [":" port], RFC 3986) has. */
static enum MHD_Result host_count(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    static const char host_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-._~%!$&'()*+,;=:[]";
    struct hosts *h = cls;

    (void)kind;
    if (strcasecmp(key, "Host") == 0) {
        h->n++;
        h->bad += value && value[strspn(value, host_chars)] != '\0';
    }
    return MHD_YES;
}

/* Why a request gets no page, whatever its address, as an error page in
 * *out: 400 for an HTTP/1.1 request without a Host header, or any with
 * several or one that names no host (RFC 9112 section 3.2; HTTP/1.0
 * needs none); 413 for a GET or HEAD with a body. 0 when there is none. */
static int request_refused(struct MHD_Connection *c, const char *url, const char *version,
                           int readonly, size_t upload_size, struct reply *out)
{
    const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    const char *chunked = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding");
    struct hosts hosts = {0, 0};
    struct route r;

    MHD_get_connection_values(c, MHD_HEADER_KIND, host_count, &hosts);
    route_parse(url, &r); /* its page's form (JSON under /api), if any */
    if (hosts.n == 0 && strcmp(version, MHD_HTTP_VERSION_1_0) != 0) {
        pages_error(&r, 400, "Bad Request",
                    "An HTTP/1.1 request names the host it is for: send one Host header.", out);
        return 1;
    }
    if (hosts.n > 1 || hosts.bad) {
        pages_error(&r, 400, "Bad Request",
                    hosts.n == 1 ? "The Host header names no host: send one Host header, the name "
                                   "or address of this server and its port."
                                 : "A request has one Host header, not several: send one.",
                    out);
        return 1;
    }
    if (readonly && ((length && strcmp(length, "0") != 0) || chunked || upload_size)) {
        pages_error(&r, 413, "Request too large", "A request to these pages carries no body.", out);
        return 1;
    }
    return 0;
}

/* libmicrohttpd's MHD_AccessHandlerCallback: its type is not ours to
 * change, so upload_data_size stays a pointer to non-const. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, // cppcheck-suppress constParameter
                              void **con_cls)
{
    static int started, started_nul;
    struct web *w = worker_web(cls);
    struct reply out;

    memset(&out, 0, sizeof(out));
    (void)upload_data;
    if (!w)
        return MHD_NO;

    int readonly = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (*con_cls != &started && *con_cls != &started_nul) {
        /* The first call: *con_cls is where uri_log saw the raw request
         * target end. */
        *con_cls = raw_nul(*con_cls, url, version) ? &started_nul : &started;
        /* The head is in: answer on the next call, once libmicrohttpd
         * knows there is no body (so the connection is kept alive). */
        if (readonly && !*upload_data_size &&
            !MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length") &&
            !MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding"))
            return MHD_YES;
    }
    if (*con_cls == &started_nul)
        /* A raw NUL in the path: no page's address (under /api, a JSON 404). */
        url = strncmp(url, "/api/", 5) == 0 ? "/api/\x7f" : "\x7f";
    if (!request_refused(c, url, version, readonly, *upload_data_size, &out))
        server_answer(w, method, url, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "page"),
                      &out);
    struct MHD_Response *resp = reply_response(&out);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", out.type);
    MHD_add_response_header(resp, "Cache-Control", "no-cache");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Content-Security-Policy", csp);
    if (out.status == 405)
        MHD_add_response_header(resp, "Allow", "GET, HEAD");
    if (out.location[0])
        MHD_add_response_header(resp, "Location", out.location);
    if (out.refresh > 0) {
        char v[16];
        snprintf(v, sizeof(v), "%d", out.refresh);
        MHD_add_response_header(resp, "Refresh", v);
    }
    enum MHD_Result rc = MHD_queue_response(c, (unsigned)out.status, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* ----------------------------------------------------------- the guard */

static long long now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The address a connection counts against: an IPv4 address, an IPv6 /64
 * (one host has a whole /64), an IPv4-mapped IPv6 address as its IPv4. */
static void address_key(const struct sockaddr *a, unsigned char key[16])
{
    memset(key, 0, 16);
    if (!a)
        return;
    if (a->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)(const void *)a)->sin_addr, 4);
    } else if (a->sa_family == AF_INET6) {
        const unsigned char *b = ((const struct sockaddr_in6 *)(const void *)a)->sin6_addr.s6_addr;
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(b, mapped, 12) == 0)
            memcpy(key, b + 12, 4);
        else
            memcpy(key, b, 8), key[15] = 6;
    }
}

/* Shuts a connection's socket down: libmicrohttpd reads its end and
 * closes it. Under the lock. */
static void guard_drop(struct web_server *s, struct guarded *g)
{
    if (g->fd >= 0)
        shutdown(g->fd, SHUT_RDWR);
    g->dropped = 1;
    s->live--;
}

/* The slot guard_accept took in this thread for the connection it let
 * in, which guard_note gives that connection: libmicrohttpd notes a
 * connection in the thread that accepted it, right after the accept
 * policy. Taking the slot at the accept, under the lock, keeps two workers
 * accepting at once from both finding room for one. */
static _Thread_local struct guarded *taken;

/* A free slot, or NULL. Under the lock. */
static struct guarded *guard_free(struct web_server *s)
{
    for (int i = 0; i < s->slots; i++)
        if (!s->conns[i].used)
            return &s->conns[i];
    return NULL;
}

/* The entry of s->shares for an address (free when the address has none
 * yet). Under the lock. */
static struct share *share_of(struct web_server *s, const unsigned char key[16])
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 16777619u;
    for (unsigned i = h & (s->nshares - 1);; i = (i + 1) & (s->nshares - 1))
        if (!s->shares[i].n || memcmp(s->shares[i].key, key, 16) == 0)
            return &s->shares[i];
}

/* Counts the live connections by address into s->shares, and gives the
 * one to drop when the server is full: the oldest noted connection of the
 * address holding the most (the older one between two such), so that a
 * visitor with one connection is the last to lose it however fast the
 * others come and go. Sets *mine to the count of `key`. Under the lock. */
static struct guarded *guard_count(struct web_server *s, const unsigned char key[16], int *mine)
{
    struct share *most = NULL;

    memset(s->shares, 0, s->nshares * sizeof(*s->shares));
    for (int i = 0; i < s->slots; i++) {
        struct guarded *g = &s->conns[i];
        if (!g->used || g->dropped)
            continue;
        struct share *e = share_of(s, g->key);
        memcpy(e->key, g->key, 16);
        e->n++;
        if (!g->pending && (!e->oldest || g->start < e->oldest->start))
            e->oldest = g;
        if (e->oldest && (!most || e->n > most->n ||
                          (e->n == most->n && e->oldest->start < most->oldest->start)))
            most = e;
    }
    *mine = share_of(s, key)->n;
    return most ? most->oldest : NULL;
}

/* libmicrohttpd's MHD_AcceptPolicyCallback, at each accept: refuses an
 * address past its share, and makes room when the server is full by
 * dropping a connection of the address that holds the most (guard_count);
 * the connection let in has its slot, taken here. */
static enum MHD_Result guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    struct web_server *s = cls;
    unsigned char key[16];
    int mine = 0;
    (void)addrlen;

    address_key(addr, key);
    pthread_mutex_lock(&s->lock);
    if (taken && taken->pending) { /* its connection failed before it was noted */
        memset(taken, 0, sizeof(*taken));
        s->live--;
    }
    taken = NULL;
    struct guarded *victim = guard_count(s, key, &mine);
    struct guarded *g = mine < s->w->cfg.max_connections_per_address ? guard_free(s) : NULL;
    if (g && s->live >= s->w->cfg.max_connections && victim)
        guard_drop(s, victim);
    if (g) {
        g->used = g->pending = 1;
        g->fd = -1;
        memcpy(g->key, key, 16);
        g->start = now_ms();
        s->live++;
        taken = g;
    }
    pthread_mutex_unlock(&s->lock);
    return g ? MHD_YES : MHD_NO;
}

/* Notes a new connection in the slot its accept took (in a free one when
 * none was: then it counts from now), *socket_context pointing to it
 * (left NULL when there is none: it is then not guarded, which the
 * slots' number, twice max_connections, keeps from happening). Under the
 * lock. */
static void guard_note(struct web_server *s, struct MHD_Connection *c, void **socket_context)
{
    struct guarded *g = taken && taken->pending ? taken : guard_free(s);

    taken = NULL;
    if (!g)
        return;
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    g->fd = fd ? fd->connect_fd : -1;
    if (!g->pending) {
        const union MHD_ConnectionInfo *addr =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        g->used = 1;
        address_key(addr ? addr->client_addr : NULL, g->key);
        g->start = now_ms();
        s->live++;
    }
    g->pending = 0;
    *socket_context = g;
}

/* libmicrohttpd's MHD_NotifyConnectionCallback: notes a connection at its
 * start, forgets it at its end. */
static void guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                         enum MHD_ConnectionNotificationCode code)
{
    struct web_server *s = cls;
    struct guarded *g = *socket_context;

    pthread_mutex_lock(&s->lock);
    if (code == MHD_CONNECTION_NOTIFY_CLOSED && g) {
        s->live -= !g->dropped;
        memset(g, 0, sizeof(*g));
        *socket_context = NULL;
    } else if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        guard_note(s, c, socket_context);
    }
    pthread_mutex_unlock(&s->lock);
}

/* libmicrohttpd's MHD_RequestCompletedCallback: an answer is sent, the
 * next request on the connection has its own time. */
static void guard_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                            enum MHD_RequestTerminationCode toe)
{
    struct web_server *s = cls;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    (void)con_cls;
    (void)toe;

    pthread_mutex_lock(&s->lock);
    struct guarded *g = info ? info->socket_context : NULL;
    if (g && g->used)
        g->start = now_ms();
    pthread_mutex_unlock(&s->lock);
}

/* The sweeping thread: every SWEEP_MS, drops the connections whose
 * request is past request_timeout, until server_stop. */
static void *guard_sweep(void *arg)
{
    struct web_server *s = arg;
    long long limit = (long long)s->w->cfg.request_timeout * 1000;

    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += SWEEP_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        int rc = pthread_cond_timedwait(&s->wake, &s->lock, &until);
        if (rc != 0 && rc != ETIMEDOUT)
            continue;
        long long now = now_ms();
        for (int i = 0; i < s->slots; i++) {
            struct guarded *g = &s->conns[i];
            if (g->used && !g->pending && !g->dropped && now - g->start >= limit)
                guard_drop(s, g);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

struct web_server *server_start(struct web *const *workers, int n, char *err, size_t errlen)
{
    struct web *w = workers[0];
    struct sockaddr_storage ss;
    socklen_t sslen;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;

    memset(&ss, 0, sizeof(ss));
    if (strchr(w->cfg.host, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)w->cfg.port);
        inet_pton(AF_INET6, w->cfg.host, &a->sin6_addr);
        sslen = sizeof(*a);
        flags |= MHD_USE_IPv6;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)w->cfg.port);
        inet_pton(AF_INET, w->cfg.host, &a->sin_addr);
        sslen = sizeof(*a);
    }
    (void)sslen;
    struct web_server *s = xcalloc(1, sizeof(*s));
    s->w = w;
    s->workers = xcalloc((size_t)n, sizeof(*s->workers));
    memcpy(s->workers, workers, (size_t)n * sizeof(*s->workers));
    s->nworkers = n;
    atomic_init(&s->next, 0);
    /* Room for the dropped ones libmicrohttpd has not closed yet. */
    s->slots = 2 * w->cfg.max_connections;
    s->conns = xcalloc((size_t)s->slots, sizeof(*s->conns));
    for (s->nshares = 64; s->nshares < 2u * (unsigned)s->slots; s->nshares *= 2)
        ;
    s->shares = xcalloc(s->nshares, sizeof(*s->shares));
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    /* libmicrohttpd shares its connection limit among the workers: each
     * gets room for all the slots, and the guard keeps the whole to them.
     * One worker is libmicrohttpd's internal polling thread alone. */
    s->d = MHD_start_daemon(
        flags, (uint16_t)w->cfg.port, guard_accept, s, handle, s, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&ss, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)(n > 1 ? n : 0),
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(s->slots * n), MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)w->cfg.request_timeout, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
        MHD_OPTION_NOTIFY_CONNECTION, guard_notify, s, MHD_OPTION_NOTIFY_COMPLETED, guard_completed,
        s, MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL, MHD_OPTION_URI_LOG_CALLBACK, uri_log, NULL,
        MHD_OPTION_END);
    if (s->d && pthread_create(&s->sweeper, NULL, guard_sweep, s) != 0) {
        MHD_stop_daemon(s->d);
        s->d = NULL;
    }
    if (!s->d) {
        snprintf(err, errlen,
                 "cannot listen on %s (is the port taken, or the address not this machine's?); "
                 "set another in [web] listen",
                 w->cfg.listen);
        pthread_mutex_destroy(&s->lock);
        pthread_cond_destroy(&s->wake);
        free(s->workers);
        free(s->conns);
        free(s->shares);
        free(s);
        return NULL;
    }
    return s;
}

void server_stop(struct web_server *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->sweeper, NULL);
    MHD_stop_daemon(s->d);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s->workers);
    free(s->conns);
    free(s->shares);
    free(s);
}
