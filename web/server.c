/*
 * server.c - HTTP on libmicrohttpd: one thread polls every connection
 * (epoll) and answers each request in turn from the one read-only
 * database connection, so nothing here is shared between threads but what
 * libmicrohttpd keeps.
 *
 * Safety: only GET and HEAD (anything else is 405 with Allow); a request
 * with a body is 413; paths longer than ROUTE_PATH_MAX are 404; the
 * request line and headers must fit in CONN_MEMORY bytes (libmicrohttpd
 * answers 414 or 431 otherwise); at most CONN_MAX connections, CONN_PER_IP
 * from one address, each closed after CONN_TIMEOUT idle seconds. Every
 * answer forbids scripts, frames and outside resources
 * (Content-Security-Policy) and content sniffing.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "web.h"

#define CONN_MAX     512
#define CONN_PER_IP  256
#define CONN_TIMEOUT 15    /* seconds */
#define CONN_MEMORY  16384 /* bytes per connection: the request's head must fit */

struct web_server {
    struct MHD_Daemon *d;
    struct web *w;
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

/* /fighters/NAME and /api/fighters/NAME: a redirect to the id's address
 * (never kept: a name may change hands), or the error as a page or as
 * JSON. */
static void answer_by_name(struct web *w, const struct route *r, const char *method, int api,
                           struct reply *out)
{
    if (!method_read(method))
        return answer_not_allowed(r, out);
    if (web_begin(w) != 0)
        return answer_db_failed(r, out);
    pages_fighter_name(w, r, out);
    web_end(w);
    if (api && out->status != 302) {
        int status = out->status;
        free(out->body);
        memset(out, 0, sizeof(*out));
        api_error(status, status == 404 ? "no fighter of that name" : "database error", out);
    }
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
    out->body = xmalloc(k->len + 1);
    memcpy(out->body, k->body, k->len + 1);
    return 1;
}

void server_answer(struct web *w, const char *method, const char *path, const char *page_arg,
                   struct reply *out)
{
    struct route r;
    int page = 1;

    memset(out, 0, sizeof(*out));
    int found = route_parse(path, &r) == 0;
    int api = r.page >= API_LIVE || (path && strncmp(path, "/api/", 5) == 0);
    if (r.page == PAGE_FIGHTER_NAME || r.page == API_FIGHTER_NAME)
        return answer_by_name(w, &r, method, api, out);
    if (!method_read(method))
        return answer_not_allowed(&r, out);
    if (!found)
        return render(w, &r, api, 1, out);
    if (route_page_number(page_arg, &page) != 0)
        return pages_error(&r, 400, "Bad request", "page= must be a number from 1 to 100000.", out);
    if (web_check(w) != 0)
        return answer_db_failed(&r, out);
    /* Asked for before, and nothing changed since: the same answer. */
    char key[WEB_KEY_MAX];
    snprintf(key, sizeof(key), "%s?%d", path, page);
    if (answer_kept(w, key, out))
        return;
    if (web_begin(w) != 0)
        return answer_db_failed(&r, out);
    render(w, &r, api, page, out);
    web_end(w);
    if (out->status == 200)
        web_keep(w, key, out->body, out->len, out->type, out->refresh);
}

/* libmicrohttpd's MHD_AccessHandlerCallback: its type is not ours to
 * change, so upload_data_size stays a pointer to non-const. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, // cppcheck-suppress constParameter
                              void **con_cls)
{
    static int started;
    struct web_server *s = cls;
    struct reply out;
    (void)version;

    memset(&out, 0, sizeof(out));
    (void)upload_data;

    int readonly = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!*con_cls && readonly && !*upload_data_size &&
        !MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length") &&
        !MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding")) {
        /* The head is in: answer on the next call, once libmicrohttpd
         * knows there is no body (so the connection is kept alive). */
        *con_cls = &started;
        return MHD_YES;
    }
    const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    const char *chunked = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding");
    if (readonly && ((length && strcmp(length, "0") != 0) || chunked || *upload_data_size)) {
        struct route r;
        route_parse("/", &r);
        pages_error(&r, 413, "Request too large", "A request to these pages carries no body.",
                    &out);
    } else {
        server_answer(s->w, method, url,
                      MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "page"), &out);
    }
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(out.len, out.body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(out.body);
        return MHD_NO;
    }
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

struct web_server *server_start(struct web *w, char *err, size_t errlen)
{
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
    struct web_server *s = xmalloc(sizeof(*s));
    s->w = w;
    s->d =
        MHD_start_daemon(flags, (uint16_t)w->cfg.port, NULL, NULL, handle, s, MHD_OPTION_SOCK_ADDR,
                         (struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_MAX,
                         MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)CONN_PER_IP,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY, MHD_OPTION_END);
    if (!s->d) {
        snprintf(err, errlen,
                 "cannot listen on %s (is the port taken, or the address not this machine's?); "
                 "set another in [web] listen",
                 w->cfg.listen);
        free(s);
        return NULL;
    }
    return s;
}

void server_stop(struct web_server *s)
{
    if (!s)
        return;
    MHD_stop_daemon(s->d);
    free(s);
}
