/*
 * cmd-fighter.c - create, fighter, fighters, train, retire.
 *
 * Fighter names are unique across rulesets, compared folded. A new boxer
 * spreads exactly 60 points over five abilities, each 5 to 20; training
 * raises one ability by 1 per point, to at most 25. A new SUGAR RAY boxer
 * starts at skill 10 and endurance 20.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"
#include "parse.h"

#define FIGHTER_NAME_MIN   2
#define FIGHTER_NAME_MAX   20
#define FIGHTERS_PER_OWNER 10
#define NEW_BOXER_POINTS   60
#define NEW_ABILITY_MIN    5
#define NEW_ABILITY_MAX    20

/* A fighter name: a letter, then letters, digits, _ - ' (2 to 20). */
static int name_valid(const char *s)
{
    size_t n = strlen(s);

    if (n < FIGHTER_NAME_MIN || n > FIGHTER_NAME_MAX || !isalpha((unsigned char)s[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_-'", s[i]))
            return 0;
    return 1;
}

/* Looks up fighter `name`; replies and returns -1 when there is none. */
static int fighter_find(struct cmd_ctx *ctx, const char *name, struct db_fighter *f)
{
    char key[DB_NAME_MAX];

    if (!name_valid(name)) {
        reply(ctx, "\"%s\" is not a fighter's name; names have 2 to 20 letters, digits, _ - '",
              CLIP(name, 20));
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    int rc = db_fighter_get(ctx->bot->db, key, f);
    if (rc == DB_NOTFOUND) {
        reply(ctx, "there is no fighter %s; fighters <account> lists a player's fighters", name);
        return -1;
    }
    if (rc != DB_OK) {
        log_msg(LOG_ERROR, "fighter %s: %s", name, db_errmsg(ctx->bot->db));
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    return 0;
}

/* Like fighter_find, and the fighter must be the caller's and active. */
static int own_fighter(struct cmd_ctx *ctx, const char *name, struct db_fighter *f)
{
    if (fighter_find(ctx, name, f) != 0)
        return -1;
    if (f->account_id != ctx->account_id) {
        reply(ctx, "%s belongs to %s, not to you", f->name, f->owner);
        return -1;
    }
    if (f->retired) {
        reply(ctx, "%s is retired", f->name);
        return -1;
    }
    if (ctx->bot->game && game_fighter_busy(ctx->bot->game, f->id)) {
        reply(ctx, "%s is in a bout or a challenge; wait until it is over", f->name);
        return -1;
    }
    return 0;
}

/* The sheet as its ruleset shows it: "STR 14 SPD 12 ...", "skill 12,
 * endurance 21". */
static void sheet_text(const struct db_fighter *f, char *buf, size_t len)
{
    const struct ruleset *rs = ruleset_get(f->sheet.rules);
    size_t at = 0;

    buf[0] = '\0';
    for (int k = 0; k < rs->nfields && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s %d", k ? rs->field_sep : "",
                               rs->fields[k].label, sheet_field_get(&f->sheet, k));
}

int cmd_create(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->argv[0];
    const struct ruleset *rs = ruleset_get(RULES_BOXING);
    char stats[256] = "", key[DB_NAME_MAX];
    size_t len = 0;
    struct db_fighter f;
    struct parse_error err;

    if (!name_valid(name)) {
        reply(ctx, "a fighter's name has 2 to 20 letters, digits, _ - ', starting with a letter");
        return -1;
    }
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        if (strncasecmp(a, "rules=", 6) == 0) {
            rs = ruleset_find(a + 6);
            if (!rs) {
                reply(ctx, "%s is not a ruleset: %s",
                      strcasecmp(a + 6, "duel") == 0 ? "duel is not available yet, and it" : "that",
                      "use rules=boxing or rules=sugarray");
                return -1;
            }
            continue;
        }
        len += (size_t)snprintf(stats + len, sizeof(stats) - len, "%s%s", len ? " " : "", a);
        if (len >= sizeof(stats)) {
            reply(ctx, "too long; give str=N spd=N agl=N tgh=N hgt=N");
            return -1;
        }
    }
    memset(&f, 0, sizeof(f));
    if (rs->id == RULES_SUGARRAY) {
        if (stats[0]) {
            reply(ctx,
                  "a new SUGAR RAY boxer starts at skill 10 and endurance 20: give no "
                  "numbers, just create %s rules=sugarray",
                  name);
            return -1;
        }
        f.sheet.rules = RULES_SUGARRAY;
        f.sheet.u.sugarray = (struct sugarray_sheet){10, 20};
    } else {
        char reason[PARSE_REASON_MAX + 32];
        if (!stats[0]) {
            reply(ctx,
                  "give the five abilities, 60 points in all, each 5 to 20: e.g. create %s "
                  "str=12 spd=12 agl=12 tgh=12 hgt=12",
                  name);
            return -1;
        }
        if (sheet_parse(RULES_BOXING, stats, &f.sheet, &err) != 0) {
            snprintf(reason, sizeof(reason), "%s", err.reason);
            reply(ctx, "%s", reason);
            return -1;
        }
        const struct boxing_sheet *b = &f.sheet.u.boxing;
        const int v[5] = {b->str, b->spd, b->agl, b->tgh, b->hgt};
        static const char *const names[5] = {"str", "spd", "agl", "tgh", "hgt"};
        int sum = 0;
        for (int i = 0; i < 5; i++) {
            if (v[i] < NEW_ABILITY_MIN || v[i] > NEW_ABILITY_MAX) {
                reply(ctx, "%s=%d: a new boxer's abilities are each %d to %d", names[i], v[i],
                      NEW_ABILITY_MIN, NEW_ABILITY_MAX);
                return -1;
            }
            sum += v[i];
        }
        if (sum != NEW_BOXER_POINTS) {
            reply(ctx, "the abilities add up to %d; spread exactly %d points", sum,
                  NEW_BOXER_POINTS);
            return -1;
        }
    }

    struct db_fighter mine[FIGHTERS_PER_OWNER];
    int n = 0;
    if (db_fighter_list(bot->db, ctx->account_id, 0, mine, FIGHTERS_PER_OWNER, &n) != DB_OK) {
        reply(ctx, "sorry, I could not create it (database error)");
        return -1;
    }
    if (n >= FIGHTERS_PER_OWNER) {
        reply(ctx, "you have %d active fighters, the most; retire one first", n);
        return -1;
    }
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.account_id = ctx->account_id;
    f.created = (int64_t)time(NULL);
    bot_name_key(key, name, sizeof(key));
    switch (db_fighter_create(bot->db, key, &f)) {
    case DB_OK:
        break;
    case DB_EXISTS:
        reply(ctx, "there is a fighter called %s already; choose another name", name);
        return -1;
    default:
        log_msg(LOG_ERROR, "create %s: %s", name, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not create it (database error)");
        return -1;
    }
    char sheet[96];
    sheet_text(&f, sheet, sizeof(sheet));
    log_msg(LOG_INFO, "%s created %s fighter %s", ctx->account, rs->name, name);
    reply(ctx, "%s (%s) is ready: %s", name, rs->name, sheet);
    return 0;
}

static void fighter_show(struct cmd_ctx *ctx, const struct db_fighter *f)
{
    char sheet[96];

    sheet_text(f, sheet, sizeof(sheet));
    reply(ctx, "%s (%s, %s)%s: %s; record %d-%d-%d, %d by KO%s", f->name,
          ruleset_get(f->sheet.rules)->name, f->owner, f->retired ? ", retired" : "", sheet,
          f->wins, f->losses, f->draws, f->kos, "");
    if (f->sheet.rules == RULES_BOXING && f->training_points > 0 && !f->retired &&
        f->account_id == ctx->account_id)
        reply(ctx, "%s has %d training point%s: train <ability> %s", f->name, f->training_points,
              f->training_points == 1 ? "" : "s", f->name);
}

int cmd_fighter(struct cmd_ctx *ctx)
{
    struct db_fighter f;

    if (ctx->argc == 1) {
        if (fighter_find(ctx, ctx->argv[0], &f) != 0)
            return -1;
        fighter_show(ctx, &f);
        return 0;
    }
    if (!ctx->account) {
        reply(ctx, "which fighter? fighter <name> (or identify to see yours)");
        return -1;
    }
    struct db_fighter mine[FIGHTERS_PER_OWNER];
    int n = 0;
    if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, mine, FIGHTERS_PER_OWNER, &n) != DB_OK) {
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    if (n == 0) {
        reply(ctx, "you have no fighter yet: create <name> str=12 spd=12 agl=12 tgh=12 hgt=12");
        return -1;
    }
    if (n > 1) {
        reply(ctx, "you have %d fighters; say fighter <name>, or fighters to list them", n);
        return -1;
    }
    fighter_show(ctx, &mine[0]);
    return 0;
}

int cmd_fighters(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char key[DB_NAME_MAX];
    const char *who = ctx->argc == 1 ? ctx->argv[0] : ctx->account;

    if (!who) {
        reply(ctx, "whose fighters? fighters <account> (or identify to see yours)");
        return -1;
    }
    if (strlen(who) >= DB_NAME_MAX ||
        db_account_get(bot->db, (bot_name_key(key, who, sizeof(key)), key), &acc) != DB_OK) {
        reply(ctx, "there is no account %s", CLIP(who, 31));
        return -1;
    }
    struct db_fighter list[FIGHTERS_PER_OWNER];
    int n = 0;
    if (db_fighter_list(bot->db, acc.id, 0, list, FIGHTERS_PER_OWNER, &n) != DB_OK) {
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    if (n == 0) {
        reply(ctx, "%s has no active fighters", acc.name);
        return 0;
    }
    char text[400];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof(text); i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s (%s, %d-%d-%d)",
                                i ? ", " : "", list[i].name, ruleset_get(list[i].sheet.rules)->name,
                                list[i].wins, list[i].losses, list[i].draws);
    reply(ctx, "%s's fighters: %s", acc.name, text);
    return 0;
}

/* SUGAR RAY training: once between league turns, not for the champion,
 * nor after a missed turn (rules.md section 2). */
static int train_sugarray(struct cmd_ctx *ctx)
{
    struct db_fighter list[FIGHTERS_PER_OWNER], f;
    int n = 0, found = 0;
    int skill = strcasecmp(ctx->argv[0], "skill") == 0;

    if (ctx->argc == 2) {
        if (own_fighter(ctx, ctx->argv[1], &f) != 0)
            return -1;
        found = 1;
    } else {
        if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, list, FIGHTERS_PER_OWNER, &n) !=
            DB_OK) {
            reply(ctx, "sorry, I could not look that up (database error)");
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (list[i].sheet.rules == RULES_SUGARRAY) {
                f = list[i];
                found++;
            }
        if (found != 1) {
            reply(ctx,
                  found ? "which boxer? train %s <fighter>"
                        : "you have no SUGAR RAY boxer; create one: create <name> "
                          "rules=sugarray%.0s",
                  ctx->argv[0]);
            return -1;
        }
        if (ctx->bot->game && game_fighter_busy(ctx->bot->game, f.id)) {
            reply(ctx, "%s is in a bout or a challenge; train after it", f.name);
            return -1;
        }
    }
    if (f.sheet.rules != RULES_SUGARRAY) {
        reply(ctx, "%s is a boxing fighter: train str, spd, agl, tgh or hgt", f.name);
        return -1;
    }
    int64_t champ = 0;
    int defences;
    if (db_champion_get(ctx->bot->db, RULES_SUGARRAY, &champ, &defences) == DB_OK &&
        champ == f.id) {
        reply(ctx, "%s is the International Champion: no training, he spends his time partying",
              f.name);
        return -1;
    }
    if (f.missed) {
        reply(ctx, "%s missed the last turn (no plan): no training until the next turn", f.name);
        return -1;
    }
    if (f.trained) {
        reply(ctx, "%s has trained since the last turn already; once between turns", f.name);
        return -1;
    }
    struct rng r;
    rng_seed(&r, bot_seed(), 0);
    int gain = sugarray_train(&f.sheet.u.sugarray, skill ? TRAIN_SKILL : TRAIN_ENDURANCE, &r);
    f.trained = 1;
    if (db_fighter_save(ctx->bot->db, &f) != DB_OK) {
        reply(ctx, "sorry, I could not save that (database error); nothing changed");
        return -1;
    }
    reply(ctx, "%s trains %s: +%d, now skill %d, endurance %d", f.name,
          skill ? "skill" : "endurance", gain, f.sheet.u.sugarray.skill,
          f.sheet.u.sugarray.endurance);
    return 0;
}

int cmd_train(struct cmd_ctx *ctx)
{
    static const char *const names[5] = {"str", "spd", "agl", "tgh", "hgt"};
    struct db_fighter f;
    int which = -1;

    for (int i = 0; i < 5; i++)
        if (strcasecmp(ctx->argv[0], names[i]) == 0)
            which = i;
    if (strcasecmp(ctx->argv[0], "skill") == 0 || strcasecmp(ctx->argv[0], "endurance") == 0)
        return train_sugarray(ctx);
    if (which < 0) {
        reply(ctx, "train what? boxing: train str, spd, agl, tgh or hgt; SUGAR RAY: train skill "
                   "or train endurance");
        return -1;
    }
    if (ctx->argc == 2) {
        if (own_fighter(ctx, ctx->argv[1], &f) != 0)
            return -1;
    } else {
        struct db_fighter mine[FIGHTERS_PER_OWNER];
        int n = 0, boxers = 0;
        if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, mine, FIGHTERS_PER_OWNER, &n) !=
            DB_OK) {
            reply(ctx, "sorry, I could not look that up (database error)");
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (mine[i].sheet.rules == RULES_BOXING) {
                f = mine[i];
                boxers++;
            }
        if (boxers == 1 && ctx->bot->game && game_fighter_busy(ctx->bot->game, f.id)) {
            reply(ctx, "%s is in a bout or a challenge; train after it", f.name);
            return -1;
        }
        if (boxers != 1) {
            reply(ctx,
                  boxers ? "which boxer? train %s <fighter>"
                         : "you have no boxer to train; create one first%.0s",
                  names[which]);
            return -1;
        }
    }
    if (f.sheet.rules != RULES_BOXING) {
        reply(ctx, "%s is a %s fighter; training abilities is for boxing fighters", f.name,
              ruleset_get(f.sheet.rules)->name);
        return -1;
    }
    if (f.training_points < 1) {
        reply(ctx, "%s has no training points; a win earns 1, a win inside the distance 2", f.name);
        return -1;
    }
    struct boxing_sheet *b = &f.sheet.u.boxing;
    int *v[5] = {&b->str, &b->spd, &b->agl, &b->tgh, &b->hgt};
    if (*v[which] >= BOXING_ABILITY_MAX) {
        reply(ctx, "%s's %s is %d, the most; train another ability", f.name, names[which],
              *v[which]);
        return -1;
    }
    (*v[which])++;
    f.training_points--;
    if (db_fighter_save(ctx->bot->db, &f) != DB_OK) {
        log_msg(LOG_ERROR, "train %s: %s", f.name, db_errmsg(ctx->bot->db));
        reply(ctx, "sorry, I could not save that (database error); nothing changed");
        return -1;
    }
    reply(ctx, "%s's %s is now %d (%d training point%s left)", f.name, names[which], *v[which],
          f.training_points, f.training_points == 1 ? "" : "s");
    return 0;
}

int cmd_retire(struct cmd_ctx *ctx)
{
    struct db_fighter f;

    if (own_fighter(ctx, ctx->argv[0], &f) != 0)
        return -1;
    if (db_fighter_retire(ctx->bot->db, f.id) != DB_OK) {
        reply(ctx, "sorry, I could not retire %s (database error)", f.name);
        return -1;
    }
    log_msg(LOG_INFO, "%s retired %s", ctx->account, f.name);
    reply(ctx, "%s retires with a record of %d-%d-%d", f.name, f.wins, f.losses, f.draws);
    return 0;
}
