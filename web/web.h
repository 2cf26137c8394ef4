/*
 * web.h - ringside-web: the game's pages in a browser, read-only.
 *
 * A front door like sim/: it uses engine/, parse/, db/ and game/, never
 * bot/. It opens the bot's SQLite file read-only (db_open_readonly), so it
 * can never change or lose game data, and serves server-rendered HTML5
 * pages (no external assets, no JavaScript) and the same data as JSON
 * under /api/, on libmicrohttpd, with [web] threads worker threads: each
 * worker answers its connections' requests in turn, from a database
 * connection and caches of its own (a struct web each), every request in
 * one read transaction.
 *
 * The parts: escape.c (the escapes: every text a user chose goes through
 * HTML or JSON escaping on its way into a page's struct str), route.c
 * (paths to pages, the fuzzed parser), config.c (the [web] section of the bot's file), data.c
 * (what pages read, and the standings cache), pages.c and chart.c (HTML
 * and the SVG chart), api.c (JSON), server.c (HTTP) and main.c.
 */
#ifndef RINGSIDE_WEB_H
#define RINGSIDE_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "engine.h"
#include "game.h"
#include "util.h"

/* --------------------------------------------------------- escape.c */

/* Pages are built in a growable `struct str` (util.h); these append a
 * text a user chose to one, escaped. Raw str_add/str_cat are for our own
 * text only. */

/* Appends `text` (NULL: nothing) escaped for HTML text and attribute
 * values: & < > " ' as entities; control characters (IRC formatting among
 * them) dropped; bytes that are not UTF-8 as U+FFFD. */
void web_html(struct str *s, const char *text);
/* Appends `text` (NULL: "") as a JSON string, quotes included: " \ and
 * control characters escaped, < > & as \u003c.. (safe inside HTML too),
 * bytes that are not UTF-8 as U+FFFD. */
void web_json(struct str *s, const char *text);
/* Onto s, as web_html (web_owner_json: as web_json), the account `name`
 * of network `network` as the site of network `home` ([bot] network) names
 * it: plainly when it is of no network or of home, else name@network, as
 * the bot of home names another network's player (game_owner_name). */
void web_owner_html(struct str *s, const char *home, const char *name, const char *network);
void web_owner_json(struct str *s, const char *home, const char *name, const char *network);

/* Appends v in decimal, as "%lld" would (our own text: the pages' many
 * numbers, without printf's cost). */
void web_int(struct str *s, long long v);
/* Appends v as "%.1f" would, byte for byte (the chart's coordinates). */
void web_tenths(struct str *s, double v);
/* Appends a string literal of our own, its length known at compile time. */
#define WEB_LIT(s, text) str_raw((s), (text), sizeof(text) - 1)

/* ---------------------------------------------------------- route.c */

enum route_page {
    PAGE_NOT_FOUND,
    PAGE_HOME,         /* / */
    PAGE_LIVE,         /* /live */
    PAGE_STANDINGS,    /* /standings, /standings/RULES, /standings/RULES/LEAGUE */
    PAGE_CHAMPIONS,    /* /champions/RULES */
    PAGE_FIGHTER,      /* /fighters/ID */
    PAGE_BOUT,         /* /bouts/ID */
    PAGE_FIGHTER_NAME, /* /fighters/NAME: sends to /fighters/ID */
    /* Every page has its twin under /api/, in JSON (and nothing else). */
    API_LIVE,         /* /api/live */
    API_STANDINGS,    /* /api/standings, /api/standings/RULES, /api/standings/RULES/LEAGUE */
    API_FIGHTER,      /* /api/fighters/ID */
    API_BOUT,         /* /api/bouts/ID */
    API_FIGHTER_NAME, /* /api/fighters/NAME: the fighter's document itself */
    API_HOME,         /* /api */
    API_CHAMPIONS,    /* /api/champions/RULES */
    PAGE_RATINGS,     /* /ratings/RULES (web/rating.c) */
    API_RATINGS,      /* /api/ratings/RULES */
    /* Seasons (web/season.c). */
    PAGE_SEASON,     /* /seasons/RULES/N: a season's final standings */
    PAGE_HALLOFFAME, /* /halloffame */
    API_SEASON,      /* /api/seasons/RULES/N */
    API_HALLOFFAME,  /* /api/halloffame */
    PAGE_PUNDITS,    /* /pundits, /pundits/RULES (predictions: pundits.c) */
    API_PUNDITS,     /* /api/pundits, /api/pundits/RULES */
    /* Tournaments (web/tournament.c). */
    PAGE_TOURNAMENTS, /* /tournaments (and /tournaments/): open, running, past */
    PAGE_TOURNAMENT,  /* /tournaments/ID: the bracket, drawn */
    API_TOURNAMENTS,  /* /api/tournaments (and /api/tournaments/) */
    API_TOURNAMENT,   /* /api/tournaments/ID */
};

#define ROUTE_PATH_MAX 256 /* longer paths are not ours: 404 */

struct route {
    enum route_page page;
    int api;                /* the path is under /api: every answer is JSON */
    int rules;              /* enum rules, or -1 (standings of every ruleset) */
    int league;             /* enum league, or -1 (the standings' default) */
    int64_t id;             /* fighters and bouts, >= 1; a season's number */
    char name[DB_NAME_MAX]; /* a fighter's name, as written in the path */
    /* How far below the root the page is, as a relative link's prefix
     * ("", "../", "../../"), so that links work under any base path; "/"
     * for a path too long to be ours. */
    char root[3 * (ROUTE_PATH_MAX / 2) + 2];
};

/* Reads a request's path (as the server decoded it, without the query)
 * into *r. Returns 0, or -1 with r->page PAGE_NOT_FOUND for a path that
 * names nothing: unknown, a ruleset or league that does not exist, an id
 * that is not a number from 1 to 2^63 - 1, a trailing slash, a path
 * longer than ROUTE_PATH_MAX. Rulesets and leagues are written in lower
 * case ("boxing", "gold"). A fighter is named by his id, or by his name (a
 * letter, then letters, digits, _ - '), which only sends to the id's
 * address. */
int route_parse(const char *path, struct route *r);
/* Reads the `page` query argument (NULL: absent) into *page: 1 when
 * absent, else a number from 1 to 100000. Returns 0, or -1 when it is not
 * one. */
int route_page_number(const char *text, int *page);
/* Decodes %XX in s in place, for the path and each query argument (a '%'
 * not followed by two hex digits stays as it is). A text holding a control
 * byte (NUL, CR, LF..., sent raw or as %00, %0a...) or an escaped reserved
 * character (%2F, %3F...) becomes "\x7f" ("/api/\x7f" under /api/, whose
 * answers are JSON), which names no page and is no
 * page number: a path ends where it ends, never at a NUL, and "/bouts%2F1"
 * is not "/bouts/1", so that each page has one address. Returns the new
 * length. */
size_t route_unescape(char *s);
/* Whether the page of r reads its page number (the standings); the other
 * pages read no query argument. */
int route_paged(const struct route *r);
/* The cache key of a found route r at page `page`: what changes its
 * answer, and nothing else (the page number only where route_paged). */
void route_key(const struct route *r, int page, char *key, size_t len);

/* --------------------------------------------------------- config.c */

#define WEB_LISTEN_MAX 128
#define WEB_URL_MAX    200
#define WEB_PATH_MAX   1024
#define WEB_ERR_MAX    512

struct web_config {
    char listen[WEB_LISTEN_MAX]; /* "127.0.0.1:8080" */
    char host[WEB_LISTEN_MAX];   /* its address: an IPv4 or IPv6 literal */
    int port;                    /* and port, 1-65535 */
    char base_url[WEB_URL_MAX];  /* "" when unset */
    char database[WEB_PATH_MAX]; /* [bot] database */
    /* [bot] network: the site's own, whose players are named plainly
     * (another network's as name@network, as the bot names them); "" for
     * none. */
    char network[DB_NETWORK_MAX];
    /* What one stranger may hold (server.c): connections open at once in
     * all and from one address (an IPv6 /64 counts as one), and the
     * seconds a request may take from its connection's accept (or its
     * previous answer) to its answer sent, however slowly it dribbles. */
    int max_connections;             /* 1-10000, default WEB_CONN_MAX */
    int max_connections_per_address; /* 1-max_connections, default WEB_CONN_PER_ADDRESS */
    int request_timeout;             /* 1-300 seconds, default WEB_REQUEST_TIMEOUT */
    /* Worker threads answering requests (server.c), each with its own
     * database connection and caches: 1-WEB_THREADS_MAX, default the
     * number of online CPUs, at most WEB_THREADS_DEFAULT. */
    int threads;
};

#define WEB_CONN_MAX         256
#define WEB_CONN_PER_ADDRESS 16
#define WEB_REQUEST_TIMEOUT  10
#define WEB_THREADS_MAX      64
#define WEB_THREADS_DEFAULT  4

/* Reads the web server's settings from the bot's INI file `path`: [web]
 * listen (default 127.0.0.1:8080; "HOST:PORT", an IPv6 host in brackets),
 * base_url (an http:// or https:// address, or nothing),
 * max_connections, max_connections_per_address, request_timeout and
 * threads (whole numbers in their ranges above), and [bot]
 * database (default ringside.db) and network (default none). Other sections and keys are the bot's
 * and are not read here (the bot checks them). Returns 0, or -1 with
 * "FILE:LINE: reason" (or "FILE: reason") in err and *c untouched. */
int web_config_load(const char *path, struct web_config *c, char *err, size_t errlen);
/* The same from a text (for tests and the fuzzer); `name` is the file's
 * name in messages. */
int web_config_parse(const char *name, const char *text, struct web_config *c, char *err,
                     size_t errlen);

/* ----------------------------------------------------------- data.c */

#define WEB_PAGE_ROWS 100 /* standings rows a page */

/* A fighter as the standings keep him: his row, his rating in his ruleset
 * (a newcomer's while he has none), and whether he stands in his league's
 * list. */
struct web_fighter {
    struct db_fighter f;
    struct db_rating rating;
    int listed; /* in standings[f.sheet.rules][f.league] */
};

/* One league's standings as the cache keeps them: in standings order. */
struct web_standings {
    struct web_fighter **v;
    int n, cap;
};

/* Changed fighters read at once past which the lists are sorted afresh
 * rather than changed a fighter at a time. */
#define WEB_RESORT_MIN 64

/* An answer kept for the next request of the same address. */
#define WEB_KEEP_MAX   1024               /* answers kept, a power of two */
#define WEB_KEEP_BYTES (32 * 1024 * 1024) /* and their bytes, at most */
#define WEB_KEY_MAX    (ROUTE_PATH_MAX + 16)

/* An answer's text shared by the answers kept and the ones being sent
 * (not copied for either): freed when the last user lets it go. A body is
 * a worker's (its struct web keeps it, its connections send it), but
 * libmicrohttpd lets go of a response in whichever thread ends it (its
 * stop among them), so the count is atomic. */
struct web_body {
    char *p; /* NUL-terminated, from xmalloc */
    _Atomic int refs;
};

/* One more user of b; returns b. */
struct web_body *web_body_take(struct web_body *b);
/* One user fewer of b (NULL: nothing): the last one frees it. */
void web_body_drop(struct web_body *b);

struct web_kept {
    char key[WEB_KEY_MAX]; /* route_key's; "" for a free slot */
    struct web_body *body;
    size_t len;
    const char *type;
    int refresh;
};

#define WEB_BOUTS_MAX 200 /* bouts a page or a document lists, at most */

/* A worker's state: its database connection, read-only, its caches, and
 * the list of bouts of the answer being made. Each of the server's
 * threads has its own and never touches another's: nothing in it is
 * shared. */
struct web {
    struct db *db;
    struct web_config cfg;
    /* The bytes of answers this worker keeps, at most (the workers share
     * WEB_KEEP_BYTES); 0: WEB_KEEP_BYTES. */
    size_t keep_bytes_max;
    long long version; /* db_data_version the caches were read at */
    /* The standings (data.c): every fighter ever read, by id, and each
     * league's list; kept from request to request and brought up to date
     * with what changed (db_fighter_changed) once the file changed. */
    struct web_fighter **by_id; /* by_id[id], NULL for none */
    int64_t nid;                /* by_id's length */
    int64_t stamp;              /* the highest change stamp read: fighters */
    int64_t rating_stamp;       /* and ratings */
    int64_t gone;               /* db_fighter_gone when read: a move reads all again */
    int loaded;                 /* stamp and lists are read at all */
    int stale;                  /* the file changed since the last sync */
    int64_t champ[RULES_COUNT]; /* each ruleset's champion, 0: vacant */
    struct web_standings standings[RULES_COUNT][LEAGUE_COUNT];
    struct web_kept kept[WEB_KEEP_MAX];
    int nkept;
    size_t kept_bytes;
    /* The bouts the answer being made lists (the live ones, the latest
     * results, a fighter's): answers are made one at a time, so one list,
     * made with the server, serves them all, one use after another. */
    struct db_bout bouts[WEB_BOUTS_MAX];
};

/* Before a request: drops the caches when the file changed since they
 * were filled (another connection committed). Returns 0, or -1 (database
 * error). */
int web_check(struct web *w);
/* A request's reading: one read transaction, so a page reads the file as
 * of one moment. web_begin returns 0, or -1 (database error). */
int web_begin(struct web *w);
void web_end(struct web *w);
/* The answer kept for `key`, or NULL. */
const struct web_kept *web_kept_find(const struct web *w, const char *key);
struct reply;
/* Keeps a 200 answer for `key` (until the file changes): its body, out's,
 * is shared from then on (out->shared set, the reply one of its users),
 * not copied. Nothing kept (out unchanged) when the key is too long or
 * already kept, or the body too large. */
void web_keep(struct web *w, const char *key, struct reply *out);
/* The standings of a ruleset's league (the champion left out, as the game
 * ranks them, league_standing_cmp), from the cache, brought up to date
 * first when the file changed: the fighters stamped since (and the
 * champions) are read again and moved in their lists. Inside web_begin ..
 * web_end. NULL on a database error. */
const struct web_standings *web_standings(struct web *w, enum rules rules, int league);
/* The league a ruleset's standings open at when none is named: the highest
 * that has fighters (GOLD when none has). -1 on a database error. */
int web_league_default(struct web *w, enum rules rules);
/* Drops the answers kept; the standings are read again as they changed. */
void web_forget(struct web *w);
/* Frees every cache (at exit). */
void web_free(struct web *w);

/* -------------------------------------------- pages.c, api.c, chart.c */

/* An answer: status, content type, body (allocated). */
struct reply {
    int status;
    const char *type;
    char *body;              /* xmalloc'd, the reply's own; or shared's text */
    struct web_body *shared; /* when set, body is its text: one use, dropped when sent */
    size_t len;
    int refresh;       /* seconds for a live page's Refresh, 0: none */
    char location[64]; /* a redirect's (302) Location, relative; else "" */
};

/* The page (or JSON) for route `r` and page number `page`, into *out.
 * Every text a user chose is escaped. Unknown ids give a 404 page. */
void pages_render(struct web *w, const struct route *r, int page, struct reply *out);
void api_render(struct web *w, const struct route *r, int page, struct reply *out);
/* The page frame pages.c draws every page in (web/tournament.c, season.c):
 * the head with its title and a Refresh of `refresh` seconds (0: none),
 * the foot, and the answer made of the text. */
void pages_head(struct str *b, const struct route *r, const char *title, int refresh);
void pages_foot(struct str *b);
void pages_finish(struct str *b, int status, int refresh, struct reply *out);
/* The tournaments' pages and JSON (tournament.c), for their four routes. */
void web_tournament_render(struct web *w, const struct route *r, struct reply *out);
/* {"error": message} with that status. */
void api_error(int status, const char *message, struct reply *out);
/* A fighter named in the address: a redirect (302) to his id's address,
 * or a 404 page. */
void pages_fighter_name(struct web *w, const struct route *r, struct reply *out);
/* A page with a status and a one-line message (404, 405, 400, 500); under
 * /api (r->api) the same as JSON: api_error(status, message). */
void pages_error(const struct route *r, int status, const char *title, const char *message,
                 struct reply *out);
/* For the pages made in other files (season.c): the end of one (the
 * footer) with b made the 200 answer; its head is pages_head's. */
void pages_end(struct str *b, struct reply *out);
/* The seasons' pages (season.c): PAGE_SEASON and PAGE_HALLOFFAME, and their
 * JSON, API_SEASON and API_HALLOFFAME. */
void season_pages(struct web *w, const struct route *r, struct reply *out);
void season_api(struct web *w, const struct route *r, struct reply *out);
/* The SVG chart of a bout's meter round by round, with its marks. */
void chart_svg(struct str *b, const struct bout_view *v);

/* rating.c: the Glicko-2 ratings. rating_cell: a standings row's cell
 * ("1532 ± 180"); rating_json_fields: ,"rating":..,"rating_deviation":..
 * for a standings row. rating_section: a fighter page's rating card and
 * the SVG chart of his history (at most RATING_POINTS_MAX bouts);
 * rating_json_history: ,"rating":{..,"history":[..]} for his document.
 * rating_list_html and rating_list_json: page `page` of the ratings of
 * r->rules (/ratings/RULES and its /api twin). Those returning int give
 * 0, -1 on a database error, 1 (the lists) for a page past the last. */
#define RATING_POINTS_MAX 200
void rating_cell(struct str *b, const struct db_rating *r);
void rating_json_fields(struct str *b, const struct db_rating *r);
int rating_section(struct web *w, struct str *b, const struct route *r, const struct db_fighter *f);
int rating_json_history(struct web *w, struct str *b, const struct db_fighter *f);
int rating_list_html(struct web *w, struct str *b, const struct route *r, int page);
int rating_list_json(struct web *w, struct str *b, const struct route *r, int page);

/* Predictions (pundits.c). pundits_html and pundits_json: the pundits'
 * table of r->rules (-1: every ruleset), all time, as a page's body or a
 * JSON document; predictions_html and predictions_json: bout rec's
 * predictions once they are closed (the bout over, or past the round each
 * closed at), the HTML a section (nothing while they are secret), the JSON
 * ,"predictions":[...] (null while secret). Each 0, or -1 on a database
 * error. */
int pundits_html(struct web *w, const struct route *r, struct str *b);
int pundits_json(struct web *w, const struct route *r, struct str *b);
int predictions_html(struct web *w, const struct bout_view *v, struct str *b);
int predictions_json(struct web *w, const struct bout_view *v, struct str *b);

/* The date of a unix time, "2026-11-24 06:58 UTC" (UTC), into buf. */
const char *web_date(int64_t t, char *buf, size_t len);

/* ---------------------------------------------------------- server.c */

struct web_server;

/* Listens on w[0]->cfg's address and answers in n worker threads (n =
 * w[0]->cfg.threads), the i-th worker to answer a request from w[i] (each
 * its own database connection and caches) until server_stop. NULL with a
 * reason in err when it cannot (the address is taken...). */
struct web_server *server_start(struct web *const *w, int n, char *err, size_t errlen);
void server_stop(struct web_server *s);
/* The page for a request, whatever the method: what server.c sends
 * (and the tests and the benchmark call). method "GET" or "HEAD" (others
 * get 405), path decoded, page_arg the `page` query argument or NULL. */
void server_answer(struct web *w, const char *method, const char *path, const char *page_arg,
                   struct reply *out);

#endif
