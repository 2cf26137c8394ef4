/*
 * fighter.c - a player's fighters and the rules about them: names,
 * creation, training, retirement, league pauses, a look at one fighter or
 * at a player's, his league and the champion; and the admin's edit of a
 * fighter (`set`), audited.
 *
 * Fighter names are unique across rulesets, compared folded. A new boxer
 * spreads exactly 60 points over five abilities, each 5 to 20; training
 * raises one ability by 1 per point, to at most 25. A new SUGAR RAY boxer
 * starts at skill 10 and endurance 20. Every refusal is one line saying why
 * and changes nothing.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define FIGHTER_NAME_MIN 2
#define FIGHTER_NAME_MAX 20
#define PAUSE_MAX        52
#define STATS_MAX        256 /* the key=N words of `create`, joined */
#define MY_FIGHTERS_MAX  16
#define NAME_RULE        "2 to 20 letters A-Z, digits, _ - ', starting with a letter"

/* ------------------------------------------------------------- helpers */

const char *game_typed(const struct game *g, const struct game_caller *who)
{
    return who->channel ? g->cfg.prefix : "";
}

const char *game_page(const struct game *g, char *buf, size_t len, const char *fmt, ...)
{
    struct str s;
    va_list ap;

    str_init_fixed(&s, buf, len);
    if (!g->cfg.base_url[0])
        return buf;
    str_add(&s, " - %s", g->cfg.base_url);
    va_start(ap, fmt);
    str_vadd(&s, fmt, ap);
    va_end(ap);
    return buf;
}

void game_name_key(char *dst, const char *name, size_t len)
{
    size_t i = 0;

    if (len == 0)
        return;
    /* RFC 1459 folding, whatever the server says: []\~ are the upper case
     * of {}|^, so no two keys differ by them (bot/text.c's irc_casefold). */
    for (; i + 1 < len && name[i]; i++) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'A' && c <= 'Z') || c == '[' || c == ']' || c == '\\')
            c = (unsigned char)(c + 32);
        else if (c == '~')
            c = '^';
        dst[i] = (char)c;
    }
    dst[i] = '\0';
}

/* 1 if `c` may be in a name after its first letter besides letters and
 * digits. */
static int name_char(char c)
{
    return c && strchr("_-'", c) != NULL;
}

int game_name_valid(const char *s)
{
    size_t n = strlen(s);

    if (n < FIGHTER_NAME_MIN || n > FIGHTER_NAME_MAX || !isalpha((unsigned char)s[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !name_char(s[i]))
            return 0;
    return 1;
}

/* The plain letters of the Latin-1 letter U+00C0 + i (UTF-8 C3 80+i), for
 * the name a player meant: "Zoë" is "Zoe"; "" for the two signs (× ÷). */
static const char *const latin1_plain[64] = {
    "A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I",  "I",
    "D", "N", "O", "O", "O", "O", "O",  "",  "O", "U", "U", "U", "U", "Y", "Th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",
    "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "y"};

/* How many bytes the UTF-8 character at s takes (1 for a byte that starts
 * none, or whose sequence is cut or malformed). */
static size_t utf8_len(const char *s)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 1;

    if (c >= 0xF5)
        n = 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

/* The name `s` written with plain letters only (accents taken off, other
 * characters left out), into out; how many characters were left out. */
static int name_plain(const char *s, struct str *out)
{
    int dropped = 0;

    for (size_t i = 0; s[i]; i += utf8_len(s + i)) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80 && (isalnum(c) || name_char(s[i])))
            str_add(out, "%c", s[i]);
        else if (c == 0xC3 && utf8_len(s + i) == 2)
            str_cat(out, latin1_plain[(unsigned char)s[i + 1] - 0x80]);
        else
            dropped++;
    }
    return dropped;
}

/* Says what is wrong with the first character of `s` that no name may
 * have ('ë', '.', a byte that is not UTF-8) into out; 0 if there is none. */
static int name_bad_char(const char *s, struct str *out)
{
    for (size_t i = 0; s[i]; i += utf8_len(s + i)) {
        unsigned char c = (unsigned char)s[i];
        size_t n = utf8_len(s + i);
        if (c >= 0x80 && n == 1)
            str_add(out, "a byte that is not UTF-8 (0x%02X) is not allowed", c);
        else if (c >= 0x80 || c < 0x20 || c == 0x7F)
            str_add(out, "'%s' is not allowed", text_clip((char[8]){0}, 8, s + i, n));
        else if (!isalnum(c) && !name_char(s[i]))
            str_add(out, "'%c' is not allowed", s[i]);
        else
            continue;
        return 1;
    }
    return 0;
}

int game_name_why(const char *s, struct str *out)
{
    size_t n = strlen(s);

    if (game_name_valid(s))
        return 0;
    str_add(out, "\"%s%s\" is not a fighter's name: ", CLIP(s, 24), n > 24 ? "..." : "");
    if (name_bad_char(s, out)) {
        struct str plain;
        str_init(&plain);
        int dropped = name_plain(s, &plain);
        str_add(out, " (names are %s)", NAME_RULE);
        /* "MrT" for "Mr.T", but no "nnn" for "%n%n%n": a suggestion
         * keeps most of what he typed. */
        if (plain.p && game_name_valid(plain.p) && (size_t)dropped * 4 <= n)
            str_add(out, "; try %s", plain.p);
        str_free(&plain);
    } else if (n > FIGHTER_NAME_MAX) {
        str_add(out, "it is %zu characters, at most %d", n, FIGHTER_NAME_MAX);
    } else if (n < FIGHTER_NAME_MIN) {
        str_add(out, "it is %zu character%s, at least %d", n, n == 1 ? "" : "s", FIGHTER_NAME_MIN);
    } else {
        str_add(out, "it starts with '%c'; names are %s", s[0], NAME_RULE);
    }
    return -1;
}

int game_fighter_find(struct game *g, const struct game_caller *who, const char *name,
                      struct db_fighter *f)
{
    char key[DB_NAME_MAX];

    if (!game_name_valid(name)) {
        struct str why;
        str_init(&why);
        game_name_why(name, &why);
        game_reply(who, "%s", why.p);
        str_free(&why);
        return -1;
    }
    game_name_key(key, name, sizeof(key));
    int rc = db_fighter_get(g->db, key, f);
    if (rc == DB_NOTFOUND) {
        game_reply(who, "there is no fighter %s; %sfighters <account> lists a player's fighters",
                   name, game_typed(g, who));
        return -1;
    }
    if (rc != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "fighter %s: %s", name, db_errmsg(g->db));
        game_reply(who, "sorry, I could not look that up (%s)", db_why(g->db));
        return -1;
    }
    return 0;
}

int game_fighter_owned(const struct game_caller *who, const struct db_fighter *f)
{
    if (f->account_id != who->account_id) {
        game_reply(who, "%s belongs to %s, not to you", f->name, f->owner);
        return -1;
    }
    if (f->retired) {
        game_reply(who, "%s is retired", f->name);
        return -1;
    }
    return 0;
}

int game_fighter_mine(struct game *g, const struct game_caller *who, const char *name,
                      struct db_fighter *f)
{
    if (game_fighter_find(g, who, name, f) != 0)
        return -1;
    return game_fighter_owned(who, f);
}

/* The fighter `name` names, loose: any stored name (no check of its
 * form), "there is no fighter X" otherwise (league, pause, set). */
static int fighter_named(struct game *g, const struct game_caller *who, const char *name,
                         struct db_fighter *f)
{
    char key[DB_NAME_MAX];

    if (strlen(name) >= DB_NAME_MAX) {
        game_reply(who, "there is no fighter %s", CLIP(name, 31));
        return -1;
    }
    game_name_key(key, name, sizeof(key));
    if (db_fighter_get(g->db, key, f) != DB_OK) {
        game_reply(who, "there is no fighter %s", name);
        return -1;
    }
    return 0;
}

int game_my_fighters(struct game *g, const struct game_caller *who, struct db_fighter *out, int max,
                     int *n)
{
    *n = 0;
    if (db_fighter_list(g->db, who->account_id, 0, out, max, n) != DB_OK) {
        game_reply(who, "sorry, I could not look that up (%s)", db_why(g->db));
        return -1;
    }
    return 0;
}

int game_account_find(struct game *g, const char *name, struct db_account *acc)
{
    char key[DB_NAME_MAX], network[DB_NETWORK_MAX];
    const char *at = strrchr(name, '@');
    size_t n = at ? (size_t)(at - name) : strlen(name);

    if (n == 0 || n >= DB_NAME_MAX || (at && (!at[1] || strlen(at + 1) >= DB_NETWORK_MAX)))
        return -1;
    snprintf(key, sizeof(key), "%.*s", (int)n, name);
    game_name_key(key, key, sizeof(key));
    /* Network names are lower case (bot/config.c checks them). */
    game_name_key(network, at ? at + 1 : db_network(g->db), sizeof(network));
    return db_account_get_on(g->db, network, key, acc) == DB_OK ? 0 : -1;
}

/* name, or name@network when `network` is another than the bot's. */
static const char *who_name(const struct game *g, const char *name, const char *network, char *buf,
                            size_t len)
{
    if (!network[0] || strcmp(network, db_network(g->db)) == 0)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "%s@%s", name, network);
    return buf;
}

const char *game_account_name(const struct game *g, const struct db_account *acc, char *buf,
                              size_t len)
{
    return who_name(g, acc->name, acc->network, buf, len);
}

const char *game_owner_name(const struct game *g, const struct db_fighter *f, char *buf, size_t len)
{
    return who_name(g, f->owner, f->owner_network, buf, len);
}

int game_account_here(struct game *g, const struct game_caller *who, const struct db_account *acc,
                      const char *doing)
{
    char name[GAME_WHO_MAX];
    const char *mine = db_network(g->db);

    if (strcmp(acc->network, mine) == 0)
        return 0;
    /* Two networks' bots share the world on PostgreSQL only: a bout
     * between their players is run by this one and relayed (db/notify.c). */
    game_account_name(g, acc, name, sizeof(name));
    if (strcmp(doing, "challenge") == 0 && db_is_pg(g->db)) {
        if (db_network_running(g->db, acc->network))
            return 0;
        game_reply(who,
                   "%s plays on %s, and no bot of %s is running: he would not hear of it; "
                   "challenge him once it is back",
                   name, acc->network[0] ? acc->network : "no network",
                   acc->network[0] ? acc->network : "that network");
        return -1;
    }
    if (strcmp(doing, "challenge") == 0)
        game_reply(who,
                   "%s plays on %s, and bouts between two networks need PostgreSQL (this "
                   "bot's database is SQLite): challenge a player of %s, or join %s and "
                   "challenge %s there",
                   name, acc->network[0] ? acc->network : "no network",
                   mine[0] ? mine : "this network", acc->network[0] ? acc->network : "that network",
                   acc->name);
    else
        game_reply(who, "%s plays on %s: only the bot of %s can %s him", name,
                   acc->network[0] ? acc->network : "no network",
                   acc->network[0] ? acc->network : "that network", doing);
    return -1;
}

void game_sheet_text(const struct sheet *s, struct str *out)
{
    const struct ruleset *rs = ruleset_get(s->rules);

    for (int k = 0; k < rs->nfields; k++)
        str_add(out, "%s%s %d", k ? rs->field_sep : "", rs->fields[k].label, sheet_field_get(s, k));
}

/* game_sheet_text into a fixed buffer of the caller's. */
static const char *sheet_in(const struct sheet *s, char *buf, size_t len)
{
    struct str t;

    str_init_fixed(&t, buf, len);
    game_sheet_text(s, &t);
    return buf;
}

/* --------------------------------------------------------------- create */

/* How many, in words, for "give the five abilities". */
static const char *count_word(int n)
{
    static const char *const words[] = {"no",   "one", "two",   "three", "four",
                                        "five", "six", "seven", "eight"};

    return n >= 0 && n < (int)(sizeof(words) / sizeof(words[0])) ? words[n] : "all the";
}

/* A new fighter of a ruleset with a fixed start: no numbers taken. */
static int start_sheet(struct game *g, const struct game_caller *who, const struct ruleset *rs,
                       const char *name, const char *stats, struct sheet *s)
{
    char shown[96];

    (void)g;
    if (stats[0]) {
        game_reply(who, "a new %s %s starts at %s: give no numbers, just create %s rules=%s",
                   rs->title, rs->fighter, sheet_in(rs->start, shown, sizeof(shown)), name,
                   rs->name);
        return -1;
    }
    *s = *rs->start;
    return 0;
}

/* The abilities a player spread in sheet `s` (each within the ruleset's
 * bounds: sheet_parse_new saw to it) adding up to its points, and nothing
 * carried. */
static int spread_checked(struct game *g, const struct game_caller *who, const struct ruleset *rs,
                          const char *name, const struct sheet *s)
{
    for (int k = 0; k < rs->kit_slots; k++) {
        int item, cond;
        sheet_kit_get(s, k, &item, &cond);
        if (item) {
            game_reply(who,
                       "a new %s starts with nothing: create %s with the abilities only, then "
                       "%sequip %s <slot=item>...",
                       rs->fighter, name, game_typed(g, who), name);
            return -1;
        }
    }
    int sum = 0;
    for (int k = 0; k < rs->nfields; k++)
        sum += sheet_field_get(s, k);
    if (sum != rs->new_points) {
        game_reply(who, "the abilities add up to %d; spread exactly %d points", sum,
                   rs->new_points);
        return -1;
    }
    return 0;
}

/* The sheet of a new fighter of ruleset `rs` from the player's `stats`
 * (key=value words, or "" when he gave none): the ruleset's fixed start,
 * or the abilities he spread as its rules say. */
static int new_sheet(struct game *g, const struct game_caller *who, const struct ruleset *rs,
                     const char *name, const char *stats, struct sheet *s)
{
    struct parse_error err;

    if (rs->start)
        return start_sheet(g, who, rs, name, stats, s);
    if (!stats[0]) {
        game_reply(who,
                   "give the %s abilities, %d points in all, each %d to %d: e.g. %screate %s %s",
                   count_word(rs->nfields), rs->new_points, rs->new_lo, rs->new_hi,
                   game_typed(g, who), name, grammar_get(rs->id)->create_example);
        return -1;
    }
    if (sheet_parse_new(rs->id, stats, s, &err) != 0) {
        game_reply(who, "%s", err.reason);
        return -1;
    }
    return spread_checked(g, who, rs, name, s);
}

/* The words of `create` after the name: rules=NAME picks the ruleset, the
 * rest are the sheet's key=N words, joined into stats. */
static int create_words(struct game *g, const struct game_caller *who, const char *name,
                        const char *const *words, int n, const struct ruleset **rs,
                        struct str *stats)
{
    for (int i = 0; i < n; i++) {
        const char *a = words[i];
        if (strncasecmp(a, "rules=", 6) == 0) {
            *rs = ruleset_find(a + 6);
            if (!*rs) {
                game_reply(who, "%s is not a ruleset: use %s",
                           strcasecmp(a + 6, "duel") == 0 ? "duel is not available yet, and it"
                                                          : "that",
                           rules_list((char[128]){0}, 128, "rules=", ", ", " or "));
                return -1;
            }
            continue;
        }
        if (ruleset_find(a)) {
            game_reply(who, "a ruleset is said rules=%s, e.g. %screate %s rules=%s ...",
                       ruleset_find(a)->name, game_typed(g, who), name, ruleset_find(a)->name);
            return -1;
        }
        str_add(stats, "%s%s", stats->len ? " " : "", a);
        if (str_cut_short(stats)) {
            game_reply(who, "too long; a sheet is a few key=N words, e.g. %s",
                       grammar_get((*rs)->id)->create_example);
            return -1;
        }
    }
    return 0;
}

/* The fighters an account may create in a day (UTC): a fighter retired
 * before he ever fought leaves no row (game_retire), so without this a
 * player could create and retire without end, each pair costing the
 * database a write and the web pages a fresh read. */
#define CREATES_PER_DAY 20

/* The refusal of a create that found `rc` storing fighter `name`. */
static void create_refused(struct game *g, const struct game_caller *who, const char *name, int rc,
                           int64_t now)
{
    switch (rc) {
    case DB_NOTFOUND: /* db_account_made: the day's creations are used up */
        game_reply(who,
                   "you have created %d fighters today, the most in a day; create %s after "
                   "00:00 UTC (in %s), or use one you have",
                   CREATES_PER_DAY, name, game_until_midnight((char[32]){0}, 32, now));
        break;
    case DB_EXISTS:
        game_reply(who, "there is a fighter called %s already; choose another name", name);
        break;
    default:
        game_log(g, GAME_LOG_ERROR, "create %s: %s", name, db_errmsg(g->db));
        game_reply(who, "sorry, I could not create it (%s)", db_why(g->db));
        break;
    }
}

/* Stores new fighter *f under `name`, within the owner's limits: his
 * active fighters, and his creations of the day, counted in the same
 * transaction as the fighter's row (a name taken counts none). */
static int create_store(struct game *g, const struct game_caller *who, const char *name,
                        struct db_fighter *f)
{
    struct db_fighter mine[GAME_FIGHTERS_MAX];
    char key[DB_NAME_MAX];
    int n = 0;

    if (db_fighter_list(g->db, who->account_id, 0, mine, GAME_FIGHTERS_MAX, &n) != DB_OK) {
        game_reply(who, "sorry, I could not create it (%s)", db_why(g->db));
        return -1;
    }
    if (n >= GAME_FIGHTERS_MAX) {
        game_reply(who, "you have %d active fighters, the most; retire one first", n);
        return -1;
    }
    snprintf(f->name, sizeof(f->name), "%s", name);
    f->account_id = who->account_id;
    f->created = game_wall(g);
    game_name_key(key, name, sizeof(key));
    int rc = db_begin(g->db);
    if (rc == DB_OK)
        rc = db_account_made(g->db, who->account_id, f->created / DAY_SECONDS, CREATES_PER_DAY);
    if (rc == DB_OK)
        rc = db_fighter_create(g->db, key, f);
    if (rc == DB_OK)
        rc = db_commit(g->db);
    if (rc == DB_OK)
        return 0;
    create_refused(g, who, name, rc, f->created);
    db_rollback(g->db); /* harmless when BEGIN itself failed */
    return -1;
}

/* 1 if words[i] reads as more of a fighter's name: a word without '='
 * that starts with a letter, neither a ruleset's name ("boxing": rules=
 * forgotten) nor a key whose number follows ("str 12"). */
static int name_part(const char *const *words, int n, int i)
{
    unsigned char c = (unsigned char)words[i][0];

    if (strchr(words[i], '=') || !(isalpha(c) || c >= 0x80) || ruleset_find(words[i]))
        return 0;
    return i + 1 >= n || !isdigit((unsigned char)words[i + 1][0]);
}

/* `create Iron Mike str=..`: the words right after the name that read as
 * more of it (name_part). 0 if there are none; else -1 after saying a name is one word, with
 * the command as it should have been. */
static int create_one_word(struct game *g, const struct game_caller *who, const char *name,
                           const char *const *words, int n)
{
    struct str joined, rest;
    int parts = 0;

    str_init(&joined);
    str_init(&rest);
    str_cat(&joined, name);
    while (parts < n && name_part(words, n, parts))
        str_add(&joined, "_%s", words[parts++]);
    for (int i = parts; i < n; i++)
        str_add(&rest, " %s", words[i]);
    if (parts) {
        struct str plain;
        str_init(&plain);
        for (const char *c = joined.p; *c; c++)
            if (*c != '_')
                str_add(&plain, "%c", *c);
        game_reply(who, "a fighter's name is one word: write %s or %s, e.g. %screate %s%s",
                   CLIP(joined.p, 40), CLIP(plain.p, 40), game_typed(g, who), CLIP(joined.p, 40),
                   rest.len ? CLIP(rest.p, 120) : " ...");
        str_free(&plain);
    }
    str_free(&joined);
    str_free(&rest);
    return parts ? -1 : 0;
}

int game_create(struct game *g, const struct game_caller *who, const char *name,
                const char *const *words, int n)
{
    const struct ruleset *rs = ruleset_get(RULES_BOXING);
    char stats[STATS_MAX], sheet[96];
    struct db_fighter f;
    struct str st;

    if (create_one_word(g, who, name, words, n) != 0)
        return -1;
    if (!game_name_valid(name)) {
        struct str why;
        str_init(&why);
        game_name_why(name, &why);
        game_reply(who, "%s", why.p);
        str_free(&why);
        return -1;
    }
    str_init_fixed(&st, stats, sizeof(stats));
    if (create_words(g, who, name, words, n, &rs, &st) != 0)
        return -1;
    memset(&f, 0, sizeof(f));
    if (new_sheet(g, who, rs, name, stats, &f.sheet) != 0 || create_store(g, who, name, &f) != 0)
        return -1;
    game_log(g, GAME_LOG_INFO, "%s created %s fighter %s", who->account, rs->name, name);
    game_reply(who, "%s (%s) is ready: %s", name, rs->name,
               sheet_in(&f.sheet, sheet, sizeof(sheet)));
    return 0;
}

/* ---------------------------------------------------------- who is who */

/* One fighter's sheet, record, equipment and, to his owner, training. */
static void fighter_show(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    char sheet[96], page[320], kit[400], wins[160], rating[64], owner[GAME_WHO_MAX];
    struct render_corner c;

    render_corner_fill(&c, f);
    render_wins(&c, 1, wins, sizeof(wins));
    game_rating_text(g, f, rating, sizeof(rating));
    game_reply(who, "%s (%s, %s)%s: %s; record %d-%d-%d, %s; %s%s", f->name,
               ruleset_get(f->sheet.rules)->name, game_owner_name(g, f, owner, sizeof(owner)),
               f->retired ? ", retired" : "", sheet_in(&f->sheet, sheet, sizeof(sheet)), f->wins,
               f->losses, f->draws, wins, rating,
               game_page(g, page, sizeof(page), "/fighters/%lld", (long long)f->id));
    struct str cups;
    str_init(&cups);
    if (game_tournament_wins(g, f->id, &cups) >
        0) /* tournaments: "won the Spring Cup (boxing, 8)" */
        game_reply(who, "%s %s.", f->name, cups.p);
    str_free(&cups);
    if (render_kit(&f->sheet, kit, sizeof(kit)) > 0)
        game_reply(who, "%s carries: %s", f->name, kit);
    if (ruleset_get(f->sheet.rules)->train_points && f->training_points > 0 && !f->retired &&
        f->account_id == who->account_id)
        game_reply(who, "%s has %d training point%s: train <ability> %s", f->name,
                   f->training_points, f->training_points == 1 ? "" : "s", f->name);
}

int game_fighter_show(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    struct db_fighter mine[GAME_FIGHTERS_MAX];
    int n = 0;

    if (f) {
        fighter_show(g, who, f);
        return 0;
    }
    if (!who->account) {
        game_reply(who, "which fighter? fighter <name> (or identify to see yours)");
        return -1;
    }
    if (game_my_fighters(g, who, mine, GAME_FIGHTERS_MAX, &n) != 0)
        return -1;
    if (n == 0) {
        game_reply(who,
                   "you have no fighter yet: %screate <name> str=12 spd=12 agl=12 tgh=12 hgt=12",
                   game_typed(g, who));
        return -1;
    }
    if (n > 1) {
        game_reply(who, "you have %d fighters; say fighter <name>, or fighters to list them", n);
        return -1;
    }
    fighter_show(g, who, &mine[0]);
    return 0;
}

int game_fighters(struct game *g, const struct game_caller *who, const char *account)
{
    const char *name = account ? account : who->account;
    struct db_fighter list[GAME_FIGHTERS_MAX];
    struct db_account acc;
    char text[400], whose[GAME_WHO_MAX];
    struct str s;
    int n = 0;

    if (!name) {
        game_reply(who, "whose fighters? fighters <account> (or identify to see yours)");
        return -1;
    }
    if (game_account_find(g, name, &acc) != 0) {
        game_reply(who, "there is no account %s", CLIP(name, 31));
        return -1;
    }
    if (db_fighter_list(g->db, acc.id, 0, list, GAME_FIGHTERS_MAX, &n) != DB_OK) {
        game_reply(who, "sorry, I could not look that up (%s)", db_why(g->db));
        return -1;
    }
    if (n == 0) {
        game_reply(who, "%s has no active fighters",
                   game_account_name(g, &acc, whose, sizeof(whose)));
        return 0;
    }
    str_init_fixed(&s, text, sizeof(text));
    for (int i = 0; i < n; i++)
        str_add(&s, "%s%s (%s, %d-%d-%d)", i ? ", " : "", list[i].name,
                ruleset_get(list[i].sheet.rules)->name, list[i].wins, list[i].losses,
                list[i].draws);
    game_reply(who, "%s's fighters: %s", game_account_name(g, &acc, whose, sizeof(whose)), text);
    return 0;
}

/* ---------------------------------------------------------------- retire */

/* Takes fighter f off for good in one transaction: out of tournament
 * `tour` first when not 0 (one still open), then deleted with his plan
 * when he never fought (nothing refers to him; *removed 1), else marked
 * retired with his record kept. DB_OK or the failure's status. */
static int retire_store(struct game *g, const struct db_fighter *f, int64_t tour, int *removed)
{
    int rc = db_begin(g->db);

    *removed = 0;
    if (rc == DB_OK && tour)
        rc = db_tournament_leave(g->db, tour, f->id);
    /* A record means bouts: no need to look for them. */
    if (rc == DB_OK && f->wins + f->losses + f->draws == 0) {
        rc = db_fighter_remove(g->db, f->id);
        *removed = rc == DB_OK;
        if (rc == DB_EXISTS)
            rc = DB_OK;
    }
    if (rc == DB_OK && !*removed)
        rc = db_fighter_retire(g->db, f->id);
    if (rc == DB_OK)
        rc = db_commit(g->db);
    if (rc != DB_OK) {
        db_rollback(g->db); /* harmless when BEGIN itself failed */
        *removed = 0;
    }
    return rc;
}

/* Whether f may retire as far as the tournaments go: 0 with *tour the
 * open one he leaves with it (0: none), or -1 after telling the caller
 * (still in one that has begun, or a database error). */
static int retire_tournament(struct game *g, const struct game_caller *who,
                             const struct db_fighter *f, struct db_tournament *t, int64_t *tour)
{
    int in = tournament_entered(g, f->id, t);

    *tour = in == 1 ? t->id : 0;
    if (in < 0)
        game_reply(who, "sorry, I could not retire %s (%s)", f->name, db_why(g->db));
    else if (in == 2)
        game_reply(who,
                   "%s is still in tournament #%lld (%s), which has begun; retire him once he is "
                   "out of it or it is over",
                   f->name, (long long)t->id, t->name);
    return in < 0 || in == 2 ? -1 : 0;
}

int game_retire(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    struct db_tournament t;
    char left[RENDER_LINE_MAX] = "";
    int64_t tour;
    int removed;

    if (game_fighter_owned(who, f) != 0)
        return -1;
    if (game_fighter_busy(g, f->id)) {
        game_reply(who, "%s is in a bout or a challenge; wait until it is over", f->name);
        return -1;
    }
    if (retire_tournament(g, who, f, &t, &tour) != 0)
        return -1;
    if (retire_store(g, f, tour, &removed) != DB_OK) {
        game_reply(who, "sorry, I could not retire %s (%s)", f->name, db_why(g->db));
        return -1;
    }
    game_log(g, GAME_LOG_INFO, "%s %s %s", who->account, removed ? "removed" : "retired", f->name);
    if (tour)
        snprintf(left, sizeof(left), "; he leaves tournament #%lld (%s)", (long long)t.id, t.name);
    if (removed)
        game_reply(who,
                   "%s never fought: removed rather than retired, and the name is free again%s",
                   f->name, left);
    else
        game_reply(who, "%s retires with a record of %d-%d-%d%s", f->name, f->wins, f->losses,
                   f->draws, left);
    return 0;
}

/* ------------------------------------------------------ leagues, pauses */

/* The fighter named `name`, or the caller's only one (NULL). */
static int some_fighter(struct game *g, const struct game_caller *who, const char *name,
                        struct db_fighter *f)
{
    struct db_fighter mine[MY_FIGHTERS_MAX];
    int n = 0;

    if (name)
        return fighter_named(g, who, name, f);
    if (!who->account ||
        db_fighter_list(g->db, who->account_id, 0, mine, MY_FIGHTERS_MAX, &n) != DB_OK || n != 1) {
        game_reply(who, "which fighter? give the fighter's name");
        return -1;
    }
    *f = mine[0];
    return 0;
}

int game_pause(struct game *g, const struct game_caller *who, const char *turns_word,
               const char *name)
{
    struct db_fighter f;
    char *end;
    long turns = strtol(turns_word, &end, 10);

    if (*end || turns < 0 || turns > PAUSE_MAX) {
        game_reply(who, "pause <turns> [fighter]: 0 to %d turns (0 ends a pause)", PAUSE_MAX);
        return -1;
    }
    if (some_fighter(g, who, name, &f) != 0)
        return -1;
    if (f.account_id != who->account_id) {
        char owner[GAME_WHO_MAX];
        game_reply(who, "%s belongs to %s, not to you", f.name,
                   game_owner_name(g, &f, owner, sizeof(owner)));
        return -1;
    }
    f.paused = (int)turns;
    if (db_fighter_save(g->db, &f) != DB_OK) {
        game_reply(who, "sorry, nothing changed (%s)", db_why(g->db));
        return -1;
    }
    if (turns == 1)
        game_reply(who, "%s sits out the next league turn", f.name);
    else if (turns)
        game_reply(who, "%s sits out the next %ld league turns", f.name, turns);
    else
        game_reply(who, "%s fights in the next league turn", f.name);
    return 0;
}

int game_league_of(struct game *g, const struct game_caller *who, const char *name)
{
    struct db_fighter f;
    int64_t champ = 0;
    int defences;

    if (some_fighter(g, who, name, &f) != 0)
        return -1;
    const char *rules = ruleset_get(f.sheet.rules)->name;
    if (db_champion_get(g->db, f.sheet.rules, &champ, &defences) == DB_OK && champ == f.id) {
        game_reply(who, "%s is the International Champion (%s), %d defence%s", f.name, rules,
                   defences, defences == 1 ? "" : "s");
        return 0;
    }
    game_reply(who, "%s is in %s (%s): record %d-%d-%d, gold record %d%s%s", f.name,
               league_name((enum league)f.league), rules, f.wins, f.losses, f.draws, f.gold_record,
               f.paused ? ", paused" : "",
               f.paused ? (f.paused == 1 ? " for 1 turn" : " for some turns") : "");
    return 0;
}

int game_champion(struct game *g, const struct game_caller *who, enum rules rules)
{
    struct db_fighter f;
    int64_t id;
    int defences;
    const char *name = ruleset_get(rules)->name;

    if (db_champion_get(g->db, rules, &id, &defences) != DB_OK ||
        db_fighter_get_id(g->db, id, &f) != DB_OK) {
        game_reply(who,
                   "the %s title is vacant: the two best of GOLD fight for it at the next turn",
                   name);
        return 0;
    }
    char owner[GAME_WHO_MAX];
    game_reply(who, "International Champion (%s): %s (%s), %d-%d-%d, %d successful defence%s", name,
               f.name, game_owner_name(g, &f, owner, sizeof(owner)), f.wins, f.losses, f.draws,
               defences, defences == 1 ? "" : "s");
    return 0;
}

int game_turn(struct game *g, const struct game_caller *who, enum rules rules, const char *channel)
{
    const char *name = ruleset_get(rules)->name;
    char what[64];

    game_log(g, GAME_LOG_INFO, "admin %s runs a %s league turn", who->account, name);
    snprintf(what, sizeof(what), "league turn of %s", name);
    db_audit(g->db, game_wall(g), who->account, what);
    return league_turn_announce(g, rules, channel, who->channel ? who->channel : who->nick);
}

int game_ban(struct game *g, const struct game_caller *who, const struct db_account *acc,
             int banned)
{
    if (game_account_here(g, who, acc, banned ? "ban" : "unban") != 0)
        return -1;
    if (acc->banned == banned) {
        game_reply(who, "%s is %s banned", acc->name, banned ? "already" : "not");
        return 0;
    }
    if (db_account_set_banned(g->db, acc->id, banned) != DB_OK) {
        game_reply(who, "sorry, I could not do that (%s)", db_why(g->db));
        return -1;
    }
    game_log(g, GAME_LOG_INFO, "admin %s %s %s", who->account, banned ? "banned" : "unbanned",
             acc->name);
    return 1;
}
