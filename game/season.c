/*
 * season.c - seasons: a ruleset's leagues play a season of league turns
 * ([league] season_turns, or until an admin's `season end`); its end
 * archives the final standings of every league, puts each league's winner
 * and the International Champion into the hall of fame, promotes each
 * league's winner and relegates its last (docs/rules-notes.md, "Seasons"),
 * and starts the next season's records at zero. The career records, the
 * title and everything else carry on.
 *
 * The season running has no row: it is the one after the last ended
 * (db_season_last), and its record is each fighter's season_* columns,
 * which db_fighter_save moves with the career record. A season's end is
 * one transaction: a league turn's own when the turn ends it, an admin's
 * otherwise; killed before its commit, nothing of it happened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"

#define HALL_LINES    3         /* seasons halloffame says in lines, newest first */
#define HALL_READ_MAX 400       /* honours read for the answer */
#define STANDING_MAX  (1 << 14) /* archived rows read for the moves */

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* The season running: its number, the wall-clock time it began (0: since
 * the beginning) and the number of the last turn before it. */
struct season_now {
    int number;
    int64_t started;
    int turn_before;
    int turns; /* league turns played in it */
    int turn_last;
};

/* The season of `rules` running into *s: 0, or -1 on a database error. */
static int season_now(struct db *db, enum rules rules, struct season_now *s)
{
    struct db_season last;
    int rc = db_season_last(db, rules, &last);
    int64_t when;

    memset(s, 0, sizeof(*s));
    s->number = 1;
    if (rc == DB_OK) {
        s->number = last.number + 1;
        s->started = last.ended;
        s->turn_before = last.turn_last;
    } else if (rc != DB_NOTFOUND) {
        return -1;
    }
    rc = db_turn_last(db, rules, &s->turn_last, &when);
    if (rc == DB_NOTFOUND)
        s->turn_last = 0;
    else if (rc != DB_OK)
        return -1;
    s->turns = s->turn_last - s->turn_before;
    if (s->turns < 0)
        s->turns = 0;
    return 0;
}

int game_season_current(struct game *g, enum rules rules)
{
    struct season_now s;

    return season_now(g->db, rules, &s) != 0 ? -1 : s.number;
}

int game_season_span(struct game *g, enum rules rules, int n, int64_t *from, int64_t *to)
{
    struct season_now now;
    struct db_season s;

    if (season_now(g->db, rules, &now) != 0 || n < 1 || n > now.number)
        return -1;
    if (n == now.number) {
        *from = now.started;
        *to = 0;
        return 0;
    }
    if (db_season_get(g->db, rules, n, &s) != DB_OK)
        return -1;
    *from = s.started;
    *to = s.ended;
    return 0;
}

/* ------------------------------------------------------ a season's end */

/* One league's final table, its winner and moves, being stored. */
struct season_close {
    struct game *g;
    enum rules rules;
    struct season_now now;
    int64_t ended;
    int fought; /* fighters of the ruleset with a record this season */
};

static int fought_season(const struct db_fighter *f)
{
    return f->season_wins + f->season_losses + f->season_draws > 0;
}

/* An honour of fighter f into the hall of fame. */
static int honour_add(struct season_close *c, int honour, const struct db_fighter *f)
{
    struct db_honour h;

    memset(&h, 0, sizeof(h));
    h.rules = c->rules;
    h.season = c->now.number;
    h.honour = honour;
    h.fighter = f->id;
    snprintf(h.name, sizeof(h.name), "%s", f->name);
    snprintf(h.owner, sizeof(h.owner), "%s", f->owner);
    h.wins = f->season_wins;
    h.losses = f->season_losses;
    h.draws = f->season_draws;
    return db_honour_add(c->g->db, &h) == DB_OK ? 0 : -1;
}

/* League l's final table v[0..n) (read before any move: a fighter
 * relegated from GOLD is not SILVER's) stored, its winner honoured and
 * promoted and its last relegated, among those who fought this season
 * (GOLD's winner stays, BRONZE's last too). 0 or -1. */
static int close_league(struct season_close *c, int l, struct db_fighter *v, int n)
{
    struct db *db = c->g->db;
    int fought = 0;

    while (fought < n && fought_season(&v[fought]))
        fought++;
    c->fought += fought;
    for (int i = 0; i < n; i++) {
        struct db_season_row r;
        memset(&r, 0, sizeof(r));
        r.league = l;
        r.position = i + 1;
        r.fighter = v[i].id;
        snprintf(r.name, sizeof(r.name), "%s", v[i].name);
        snprintf(r.owner, sizeof(r.owner), "%s", v[i].owner);
        r.wins = v[i].season_wins;
        r.losses = v[i].season_losses;
        r.draws = v[i].season_draws;
        r.gold_record = v[i].gold_record;
        if (i == 0 && fought >= 1 && l < LEAGUE_GOLD)
            r.moved = 1;
        else if (i == fought - 1 && fought >= 2 && l > LEAGUE_BRONZE)
            r.moved = -1;
        if (db_season_standing_add(db, c->rules, c->now.number, &r) != DB_OK)
            return -1;
        if (i == 0 && fought >= 1 && honour_add(c, l, &v[i]) != 0)
            return -1;
        if (r.moved) {
            v[i].league += r.moved;
            if (db_fighter_save(db, &v[i]) != DB_OK)
                return -1;
        }
    }
    return 0;
}

/* Every league's final table, read first, then stored and moved. */
static int close_leagues(struct season_close *c)
{
    struct db_fighter *v[LEAGUE_COUNT] = {0};
    int n[LEAGUE_COUNT] = {0}, rc = 0;

    for (int l = 0; l < LEAGUE_COUNT && rc == 0; l++)
        if (!(v[l] = league_standings_db(c->g->db, c->rules, l, &n[l])))
            rc = -1;
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE && rc == 0; l--)
        rc = close_league(c, l, v[l], n[l]);
    for (int l = 0; l < LEAGUE_COUNT; l++)
        free(v[l]);
    return rc;
}

/* The champion into the hall of fame, when the title is held. */
static int close_champion(struct season_close *c)
{
    int64_t id = 0;
    int defences = 0;
    struct db_fighter f;
    int rc = db_champion_get(c->g->db, c->rules, &id, &defences);

    if (rc == DB_NOTFOUND)
        return 0;
    if (rc != DB_OK || db_fighter_get_id(c->g->db, id, &f) != DB_OK)
        return -1;
    c->fought += fought_season(&f);
    return honour_add(c, DB_HONOUR_CHAMPION, &f);
}

/* Ends the season of `rules` running, inside the caller's transaction:
 * the season stored, each league's final table (read before any move),
 * the hall of fame, the moves, and every record of the season at 0.
 * Returns its number; 0 when `need_play` and nobody fought in it and no
 * turn was played (nothing stored); -1 on a database error. */
static int season_close(struct game *g, enum rules rules, int need_play)
{
    struct season_close c = {.g = g, .rules = rules, .ended = game_wall(g)};
    struct db_season s;

    if (season_now(g->db, rules, &c.now) != 0)
        return -1;
    memset(&s, 0, sizeof(s));
    s.number = c.now.number;
    s.started = c.now.started;
    s.ended = c.ended < c.now.started ? c.now.started : c.ended;
    s.turns = c.now.turns;
    s.turn_last = c.now.turn_last;
    if (db_season_add(g->db, rules, &s) != DB_OK)
        return -1;
    if (close_leagues(&c) != 0 || close_champion(&c) != 0)
        return -1;
    if (need_play && c.fought == 0 && c.now.turns == 0)
        return 0;
    if (db_season_reset(g->db, rules) != DB_OK)
        return -1;
    return c.now.number;
}

int season_after_turn(struct game *g, enum rules rules)
{
    struct season_now now;

    g->season_ended[rules] = 0;
    if (g->cfg.season_turns <= 0)
        return 0;
    if (season_now(g->db, rules, &now) != 0)
        return -1;
    if (now.turns < g->cfg.season_turns)
        return 0;
    int n = season_close(g, rules, 0);
    if (n < 0)
        return -1;
    g->season_ended[rules] = n;
    return 0;
}

/* ------------------------------------------------------ what is said */

/* "Rocky (5-1-0)" of honour h onto s. */
static void honour_text(const struct db_honour *h, struct str *s)
{
    str_add(s, "%s (%d-%d-%d)", h->name, h->wins, h->losses, h->draws);
}

/* The honours of season `n` of `rules` among v[0..m), as "GOLD Rocky
 * (5-1-0), SILVER ...; International Champion: Apollo (2-0-0)" onto s. */
static void honours_text(const struct db_honour *v, int m, enum rules rules, int n, struct str *s)
{
    int any = 0, champ = 0;

    for (int i = 0; i < m; i++) {
        if (v[i].rules != rules || v[i].season != n)
            continue;
        if (v[i].honour == DB_HONOUR_CHAMPION) {
            str_cat(s, any ? "; International Champion: " : "International Champion: ");
            champ = 1;
        } else {
            str_add(s, "%s%s ", any ? ", " : "", league_name((enum league)v[i].honour));
        }
        honour_text(&v[i], s);
        any = 1;
    }
    if (!champ)
        str_cat(s, any ? "; the title is vacant" : "nobody fought; the title is vacant");
}

/* "up: Bob (to GOLD), Cy (to SILVER); down: Dan (to SILVER)" of the
 * archived season n onto s, or "nobody moved". */
static int moves_text(struct db *db, enum rules rules, int n, struct str *s)
{
    struct db_season_row *v = xmalloc(STANDING_MAX * sizeof(*v));
    int m = 0, said = 0;

    if (db_season_standings(db, rules, n, v, STANDING_MAX, &m) != DB_OK) {
        free(v);
        return -1;
    }
    for (int dir = 1; dir >= -1; dir -= 2) {
        int k = 0;
        for (int i = 0; i < m; i++) {
            if (v[i].moved != dir)
                continue;
            if (k++ == 0)
                str_cat(s, said ? "; " : "");
            str_add(s, "%s%s (to %s)", k == 1 ? (dir > 0 ? "up: " : "down: ") : ", ", v[i].name,
                    league_name((enum league)(v[i].league + dir)));
            said = 1;
        }
    }
    if (!said)
        str_cat(s, "nobody moved");
    free(v);
    return 0;
}

/* Says the end of season n of `rules` to `channel` and `target` (either
 * NULL): the winners, the moves, the next season, the archive's page. */
static void season_say(struct game *g, enum rules rules, int n, const char *channel,
                       const char *target)
{
    struct db_honour v[8];
    struct db_season s;
    char one[RENDER_LINE_MAX], two[RENDER_LINE_MAX], page[320];
    struct str a, b;
    int m = 0;

    str_init_fixed(&a, one, sizeof(one));
    str_init_fixed(&b, two, sizeof(two));
    if (db_season_get(g->db, rules, n, &s) != DB_OK ||
        db_honours(g->db, (int)rules, v, (int)(sizeof(v) / sizeof(v[0])), &m) != DB_OK ||
        moves_text(g->db, rules, n, &b) != 0) {
        game_log(g, GAME_LOG_WARN, "season %d of %s ended, but cannot be read: %s", n,
                 rules_name(rules), db_errmsg(g->db));
        return;
    }
    str_add(&a, "Season %d (%s) is over after %d league turn%s: ", n, rules_name(rules), s.turns,
            s.turns == 1 ? "" : "s");
    honours_text(v, m, rules, n, &a);
    str_cat(&a, ".");
    str_add(&b, ". Season %d begins: the season's records start at 0, careers carry on", n + 1);
    game_page(g, page, sizeof(page), "/seasons/%s/%d", rules_name(rules), n);
    str_cat(&b, page[0] ? page : ".");
    const char *lines[] = {one, two};
    for (int i = 0; i < 2; i++) {
        if (channel)
            game_say(g, GAME_CHATTER, channel, "%s", lines[i]);
        if (target)
            game_say(g, GAME_CHATTER, target, "%s", lines[i]);
    }
}

void season_announce(struct game *g, enum rules rules, const char *channel, const char *target)
{
    int n = g->season_ended[rules];

    g->season_ended[rules] = 0;
    if (n > 0)
        season_say(g, rules, n, channel, target);
}

/* ------------------------------------------------------ the commands */

int game_season_end(struct game *g, const struct game_caller *who, enum rules rules,
                    const char *channel)
{
    const char *name = rules_name(rules);
    int current = game_season_current(g, rules);
    char what[64];

    if (db_begin(g->db) != DB_OK) {
        game_reply(who, "sorry, the season could not end (%s); nothing changed", db_why(g->db));
        return -1;
    }
    int n = season_close(g, rules, 1);
    if (n > 0) {
        snprintf(what, sizeof(what), "season %d end of %s", n, name);
        if (db_audit(g->db, game_wall(g), who->account, what) != DB_OK)
            n = -1;
    }
    if (n <= 0 || db_commit(g->db) != DB_OK) {
        if (n == 0)
            game_reply(who,
                       "season %d (%s) has had no league turn and no bout yet: there is nothing "
                       "to close; %sseason rules=%s says where it stands",
                       current > 0 ? current : 1, name, game_typed(g, who), name);
        else
            game_reply(who, "sorry, the season could not end (%s); nothing changed", db_why(g->db));
        db_rollback(g->db);
        return -1;
    }
    game_log(g, GAME_LOG_INFO, "admin %s ended season %d of %s", who->account, n, name);
    const char *target = who->channel ? who->channel : who->nick;
    int elsewhere = target && (!channel || !g->io.same_name(g->io.ctx, channel, target));
    season_say(g, rules, n, channel, elsewhere ? target : NULL);
    return 0;
}

int game_season(struct game *g, const struct game_caller *who, enum rules rules)
{
    const char *name = rules_name(rules);
    struct season_now s;
    char page[320];

    if (season_now(g->db, rules, &s) != 0) {
        game_reply(who, "sorry, I could not read the season (%s)", db_why(g->db));
        return -1;
    }
    game_page(g, page, sizeof(page), "/standings/%s", name);
    if (g->cfg.season_turns > 0) {
        int left = g->cfg.season_turns - s.turns;
        if (left < 1)
            left = 1; /* the next turn ends it */
        game_reply(who,
                   "Season %d (%s): %d of %d league turns played, %d left; the standings rank "
                   "by the season's record%s",
                   s.number, name, s.turns, g->cfg.season_turns, left, page[0] ? page : ".");
    } else {
        game_reply(who,
                   "Season %d (%s): %d league turn%s played; it ends when an admin says "
                   "%sseason end rules=%s%s",
                   s.number, name, s.turns, s.turns == 1 ? "" : "s", game_typed(g, who), name,
                   page[0] ? page : ".");
    }
    return 0;
}

/* 1 when honours v[i] begins another season (of a ruleset) than v[i - 1]. */
static int season_first(const struct db_honour *v, int i)
{
    return i == 0 || v[i].season != v[i - 1].season || v[i].rules != v[i - 1].rules;
}

/* The hall of fame's lines of honours v[0..m) (by ruleset, the newest
 * season first): a line a season, at most `per_rules` of each ruleset and
 * HALL_LINES in all, the last with how many are left out and the page.
 * Returns the lines said. */
static int hall_lines(struct game *g, const struct game_caller *who, const struct db_honour *v,
                      int m, int per_rules)
{
    char text[RENDER_LINE_MAX], page[320];
    int seasons = 0, said = 0, shown = 0;

    for (int i = 0; i < m; i++)
        seasons += season_first(v, i);
    for (int i = 0; i < m; i++)
        if (season_first(v, i)) {
            shown = i == 0 || v[i].rules != v[i - 1].rules ? 1 : shown + 1;
            said += shown <= per_rules && said < HALL_LINES;
        }
    game_page(g, page, sizeof(page), "/halloffame");
    for (int i = 0, k = 0; i < m && k < said; i++) {
        if (!season_first(v, i))
            continue;
        shown = i == 0 || v[i].rules != v[i - 1].rules ? 1 : shown + 1;
        if (shown > per_rules)
            continue;
        struct str s;
        str_init_fixed(&s, text, sizeof(text));
        if (k == 0)
            str_cat(&s, "Hall of fame: ");
        str_add(&s, "season %d (%s): ", v[i].season, rules_name(v[i].rules));
        honours_text(v, m, v[i].rules, v[i].season, &s);
        if (++k == said && seasons > said)
            str_add(&s, "; %d other season%s", seasons - said, seasons - said == 1 ? "" : "s");
        str_cat(&s, k == said && page[0] ? page : ".");
        game_reply(who, "%s", text);
    }
    return said;
}

/* The honours of `rules` (or every ruleset: -1) into a new array
 * (free()) and their count in *m; NULL (said) on a database error. */
static struct db_honour *hall_read(struct game *g, const struct game_caller *who, int rules, int *m)
{
    struct db_honour *v = xmalloc(HALL_READ_MAX * sizeof(*v));

    if (db_honours(g->db, rules, v, HALL_READ_MAX, m) == DB_OK)
        return v;
    game_reply(who, "sorry, I could not read the hall of fame (%s)", db_why(g->db));
    free(v);
    return NULL;
}

int game_halloffame(struct game *g, const struct game_caller *who, enum rules rules)
{
    const char *name = rules_name(rules);
    int m = 0, current = game_season_current(g, rules);
    struct db_honour *v = hall_read(g, who, (int)rules, &m);

    if (!v)
        return -1;
    if (hall_lines(g, who, v, m, HALL_LINES) == 0)
        game_reply(who,
                   "no %s season has ended yet: season %d is the first; %sseason rules=%s says "
                   "how many turns are left",
                   name, current > 0 ? current : 1, game_typed(g, who), name);
    free(v);
    return 0;
}

int game_halloffame_all(struct game *g, const struct game_caller *who)
{
    int m = 0;
    struct db_honour *v = hall_read(g, who, -1, &m);

    if (!v)
        return -1;
    if (hall_lines(g, who, v, m, 1) == 0)
        game_reply(who,
                   "no season has ended yet in any ruleset; %sseason rules=NAME says how "
                   "many turns are left",
                   game_typed(g, who));
    free(v);
    return 0;
}
