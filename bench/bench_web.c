/*
 * bench_web.c - ringside-bench-web HOST PORT PATH CONNECTIONS SECONDS
 * [FIRST LAST] [-w DB EVERY]: an HTTP/1.1 client for the web figures
 * (bench/web_bench.sh).
 * It keeps CONNECTIONS keep-alive connections busy with GET PATH for
 * SECONDS, each sending its next request when the last answer is in, and
 * prints one line: "REQUESTS_PER_SEC MEDIAN_MS P99_MS ERRORS", the latency
 * of each request being from its first byte sent to its last byte read. A
 * status other than 200 counts as an error. With FIRST and LAST, PATH ends
 * with a number's place: request k asks for PATH followed by FIRST + k,
 * once each up to LAST (so none was asked before), whatever SECONDS.
 * Without them, a PATH ending with "page=" is each connection's own page:
 * connection i asks for PATH followed by i + 1, every time.
 *
 * With -w, the client also writes to the database file DB, as the bot
 * does while the pages are read: before request k when k is a multiple of
 * EVERY, one of the last 10,000 fighters wins a bout (his record saved
 * through db/ as the bot saves it, committed before the request is sent),
 * so no answer kept from before the write may be sent again. With -w and FIRST
 * LAST, the numbers go round from FIRST to LAST again until SECONDS have
 * passed (EVERY being LAST - FIRST + 1: one write before each round, so
 * that within a round no page was asked for before, and none since the
 * file last changed). With several connections, the write that starts a
 * round is made only once every request of the round before is answered
 * (the connections whose turn it is wait meanwhile): a page of the round
 * before rendered after the write would be kept, and answered from what
 * was kept when the next round asks for it. With a write before every
 * request (EVERY 1) on several connections, PATH should end with "page=":
 * were they all asking for one page, one rendered after the last write
 * would be kept, and answered to another connection's request sent after
 * that same write (about one request in ten, measured): with a page each,
 * a page was last asked for by its own connection, answered before its
 * next write.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "db.h"

#define CONN_MAX   64
#define SAMPLE_MAX (4 * 1024 * 1024)
#define BUF_MAX    (4 * 1024 * 1024)

struct conn {
    int fd;
    double sent;
    int waiting; /* its next request waits for a write (run_send) */
    char *buf;
    size_t len;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int dial(const char *host, int port)
{
    struct sockaddr_in a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    if (fd < 0 || inet_pton(AF_INET, host, &a.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        perror("bench_web: connect");
        exit(1);
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

/* The length of a whole response at the start of buf (head and
 * Content-Length bytes of body), or 0 while incomplete; *status its code. */
static size_t response_len(const char *buf, size_t len, int *status)
{
    const char *end = NULL;

    for (size_t i = 3; i < len; i++)
        if (memcmp(buf + i - 3, "\r\n\r\n", 4) == 0) {
            end = buf + i + 1;
            break;
        }
    if (!end)
        return 0;
    *status = atoi(buf + 9);
    size_t body = 0;
    for (const char *p = buf; p < end; p++)
        if ((p == buf || p[-1] == '\n') && strncasecmp(p, "Content-Length:", 15) == 0)
            body = strtoul(p + 15, NULL, 10);
    size_t whole = (size_t)(end - buf) + body;
    return whole <= len ? whole : 0;
}

/* The database written to before requests (-w): the bot's own writes,
 * through db/ (a fighter's save, as a bout's end makes it). */
struct writer {
    struct db *db;
    int64_t last; /* the highest fighter id */
    long every;
};

static void writer_open(struct writer *wr, const char *path, long every)
{
    char err[256];

    wr->db = db_open(path, err, sizeof(err));
    if (!wr->db) {
        fprintf(stderr, "bench_web: %s\n", err);
        exit(1);
    }
    /* The fighters' ids run from 1 without a gap (none is ever deleted):
     * the highest is found by halving. */
    struct db_fighter f;
    int64_t lo = 0, hi = 1;
    while (db_fighter_get_id(wr->db, hi, &f) == DB_OK)
        lo = hi, hi *= 2;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (db_fighter_get_id(wr->db, mid, &f) == DB_OK)
            lo = mid;
        else
            hi = mid;
    }
    wr->last = lo;
    wr->every = every;
}

/* The write before request k, when one is due: a win for one of the last
 * WRITE_SPREAD fighters (a different one each time), saved as a bout's
 * end saves it (his career and season records, and his change stamp). */
#define WRITE_SPREAD 10000

static void writer_run(struct writer *wr, long k)
{
    if (!wr->db || k % wr->every != 0)
        return;
    int64_t spread = wr->last < WRITE_SPREAD ? wr->last : WRITE_SPREAD;
    int64_t id = wr->last - (k / wr->every) * 7919 % spread;
    struct db_fighter f;
    if (db_fighter_get_id(wr->db, id, &f) != DB_OK) {
        fprintf(stderr, "bench_web: fighter %lld: %s\n", (long long)id, db_errmsg(wr->db));
        exit(1);
    }
    f.wins++;
    if (db_fighter_save(wr->db, &f) != DB_OK) {
        fprintf(stderr, "bench_web: the write failed: %s\n", db_errmsg(wr->db));
        exit(1);
    }
}

/* The request for PATH (followed by `number` when it is not -1). */
static int request(char *buf, size_t len, const char *path, const char *host, long number)
{
    if (number < 0)
        return snprintf(buf, len, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, host);
    return snprintf(buf, len, "GET %s%ld HTTP/1.1\r\nHost: %s\r\n\r\n", path, number, host);
}

/* Whether PATH ends with "page=": each connection then asks for its own
 * page, connection i for page i + 1. */
static int path_paged(const char *path)
{
    size_t n = strlen(path);

    return n >= 5 && strcmp(path + n - 5, "page=") == 0;
}

/* The run: CONNECTIONS connections, the requests sent so far and the
 * numbers they ask for. */
struct run {
    struct conn c[CONN_MAX];
    int nconn;
    const char *host, *path;
    long first, last, next; /* numbered paths: the next number asked for */
    int ids, cycle;         /* numbered paths; going round (-w) */
    int paged;              /* a page a connection (PATH ends with "page=") */
    long k;                 /* requests sent */
    int inflight;           /* requests sent and not yet answered */
    struct writer wr;
};

/* Sends connection i's next request (the write before it first, when one
 * is due). Going round numbered paths, the write that starts a round
 * waits while requests of the round before are still in flight on other
 * connections, until they are all answered (the connection is left
 * `waiting`, sent by run_release): every page of a round must be rendered
 * before the write, or one rendered after it would be kept and answered
 * again from what was kept in the next round. */
static void run_send(struct run *r, int i)
{
    char req[1024];

    if (r->cycle && r->k % r->wr.every == 0 && r->inflight > 0) {
        r->c[i].waiting = 1;
        return;
    }
    r->c[i].waiting = 0;
    writer_run(&r->wr, r->k++);
    long number = r->ids ? r->next++ : r->paged ? i + 1 : -1;
    int reqlen = request(req, sizeof(req), r->path, r->host, number);
    if (r->cycle && r->next > r->last)
        r->next = r->first;
    r->c[i].sent = now_s();
    if (write(r->c[i].fd, req, (size_t)reqlen) != reqlen) {
        perror("bench_web: write");
        exit(1);
    }
    r->inflight++;
}

/* Sends the requests of the connections left waiting for a write, once
 * nothing is in flight (the first of them makes the write, the others
 * follow: their numbers are the round's next ones). */
static void run_release(struct run *r)
{
    for (int i = 0; i < r->nconn; i++)
        if (r->c[i].fd >= 0 && r->c[i].waiting)
            run_send(r, i);
}

int main(int argc, char **argv)
{
    static struct run r;
    struct pollfd pf[CONN_MAX];

    if (argc >= 9 && strcmp(argv[argc - 3], "-w") == 0) {
        writer_open(&r.wr, argv[argc - 2], atol(argv[argc - 1]));
        argc -= 3;
    }
    if ((argc != 6 && argc != 8) || (r.wr.db && r.wr.every < 1)) {
        fprintf(stderr, "usage: ringside-bench-web HOST PORT PATH CONNECTIONS SECONDS [FIRST LAST]"
                        " [-w DB EVERY]\n");
        return 2;
    }
    r.first = argc == 8 ? atol(argv[6]) : 0, r.last = argc == 8 ? atol(argv[7]) : -1;
    r.next = r.first;
    r.ids = r.last >= r.first, r.cycle = r.ids && r.wr.db;
    r.paged = !r.ids && path_paged(argv[3]);
    r.host = argv[1], r.path = argv[3];
    int port = atoi(argv[2]);
    r.nconn = atoi(argv[4]);
    double seconds = atof(argv[5]);
    if (r.nconn < 1 || r.nconn > CONN_MAX || port < 1 || seconds <= 0) {
        fprintf(stderr, "bench_web: bad arguments\n");
        return 2;
    }
    double *lat = malloc(SAMPLE_MAX * sizeof(double));
    long n = 0, errors = 0;

    for (int i = 0; i < r.nconn; i++) {
        r.c[i].fd = dial(r.host, port);
        r.c[i].buf = malloc(BUF_MAX);
    }
    for (int i = 0; i < r.nconn; i++)
        run_send(&r, i);
    double start = now_s(), stop = start + seconds;
    int running = r.nconn;
    while (running > 0) {
        for (int i = 0; i < r.nconn; i++) {
            pf[i].fd = r.c[i].fd;
            pf[i].events = r.c[i].fd >= 0 && !r.c[i].waiting ? POLLIN : 0;
        }
        if (poll(pf, (nfds_t)r.nconn, 5000) <= 0) {
            fprintf(stderr, "bench_web: no answer for 5 s\n");
            return 1;
        }
        for (int i = 0; i < r.nconn; i++) {
            struct conn *c = &r.c[i];
            if (c->fd < 0 || c->waiting || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(c->fd, c->buf + c->len, BUF_MAX - c->len);
            if (got <= 0) {
                fprintf(stderr, "bench_web: connection closed\n");
                return 1;
            }
            c->len += (size_t)got;
            int status = 0;
            size_t whole = response_len(c->buf, c->len, &status);
            if (!whole)
                continue;
            double t = now_s();
            if (n < SAMPLE_MAX)
                lat[n++] = (t - c->sent) * 1000;
            errors += status != 200;
            memmove(c->buf, c->buf + whole, c->len - whole);
            c->len -= whole;
            r.inflight--;
            if (r.ids && !r.cycle ? r.next > r.last : t >= stop) {
                close(c->fd);
                c->fd = -1;
                running--;
            } else {
                run_send(&r, i);
            }
            run_release(&r);
        }
    }
    double elapsed = now_s() - start;
    qsort(lat, (size_t)n, sizeof(double), cmp_double);
    printf("%.0f %.3f %.3f %ld\n", n / elapsed, n ? lat[n / 2] : 0.0,
           n ? lat[(size_t)((double)(n - 1) * 0.99)] : 0.0, errors);
    return 0;
}
