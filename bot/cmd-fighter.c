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

int bot_fighter_find(struct cmd_ctx *ctx, const char *name, struct db_fighter *f)
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
        reply(ctx, "there is no fighter %s; %sfighters <account> lists a player's fighters", name,
              cmd_typed(ctx));
        return -1;
    }
    if (rc != DB_OK) {
        log_msg(LOG_ERROR, "fighter %s: %s", name, db_errmsg(ctx->bot->db));
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    return 0;
}

int bot_fighter_mine(struct cmd_ctx *ctx, const char *name, struct db_fighter *f)
{
    if (bot_fighter_find(ctx, name, f) != 0)
        return -1;
    if (f->account_id != ctx->account_id) {
        reply(ctx, "%s belongs to %s, not to you", f->name, f->owner);
        return -1;
    }
    if (f->retired) {
        reply(ctx, "%s is retired", f->name);
        return -1;
    }
    return 0;
}

/* Like bot_fighter_mine, and the fighter is in no bout or challenge. */
static int own_fighter(struct cmd_ctx *ctx, const char *name, struct db_fighter *f)
{
    if (bot_fighter_mine(ctx, name, f) != 0)
        return -1;
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

/* How many, in words, for "give the five abilities". */
static const char *count_word(int n)
{
    static const char *const words[] = {"no",   "one", "two",   "three", "four",
                                        "five", "six", "seven", "eight"};

    return n >= 0 && n < (int)(sizeof(words) / sizeof(words[0])) ? words[n] : "all the";
}

/* The sheet of a new fighter of ruleset `rs` from the player's `stats`
 * (key=value words, or "" when he gave none): the ruleset's fixed start,
 * or the abilities he spread as its rules say. Replies and returns -1 when
 * they do not. */
static int new_sheet(struct cmd_ctx *ctx, const struct ruleset *rs, const char *name,
                     const char *stats, struct sheet *s)
{
    struct parse_error err;
    char shown[96];

    if (rs->start) {
        if (stats[0]) {
            struct db_fighter start = {.sheet = *rs->start};
            sheet_text(&start, shown, sizeof(shown));
            reply(ctx, "a new %s %s starts at %s: give no numbers, just create %s rules=%s",
                  rs->title, rs->fighter, shown, name, rs->name);
            return -1;
        }
        *s = *rs->start;
        return 0;
    }
    if (!stats[0]) {
        reply(ctx, "give the %s abilities, %d points in all, each %d to %d: e.g. %screate %s %s",
              count_word(rs->nfields), rs->new_points, rs->new_lo, rs->new_hi, cmd_typed(ctx), name,
              grammar_get(rs->id)->create_example);
        return -1;
    }
    if (sheet_parse(rs->id, stats, s, &err) != 0) {
        reply(ctx, "%s", err.reason);
        return -1;
    }
    for (int k = 0; k < rs->kit_slots; k++) {
        int item, cond;
        sheet_kit_get(s, k, &item, &cond);
        if (item) {
            reply(ctx,
                  "a new %s starts with nothing: create %s with the abilities only, then "
                  "%sequip %s <slot=item>...",
                  rs->fighter, name, cmd_typed(ctx), name);
            return -1;
        }
    }
    int sum = 0;
    for (int k = 0; k < rs->nfields; k++) {
        int v = sheet_field_get(s, k);
        if (v < rs->new_lo || v > rs->new_hi) {
            reply(ctx, "%s=%d: a new %s's abilities are each %d to %d", rs->fields[k].key, v,
                  rs->fighter, rs->new_lo, rs->new_hi);
            return -1;
        }
        sum += v;
    }
    if (sum != rs->new_points) {
        reply(ctx, "the abilities add up to %d; spread exactly %d points", sum, rs->new_points);
        return -1;
    }
    return 0;
}

static int cmd_create(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->argv[0];
    const struct ruleset *rs = ruleset_get(RULES_BOXING);
    char stats[256] = "", key[DB_NAME_MAX];
    size_t len = 0;
    struct db_fighter f;

    if (!name_valid(name)) {
        reply(ctx, "a fighter's name has 2 to 20 letters, digits, _ - ', starting with a letter");
        return -1;
    }
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        if (strncasecmp(a, "rules=", 6) == 0) {
            rs = ruleset_find(a + 6);
            if (!rs) {
                reply(ctx, "%s is not a ruleset: use %s",
                      strcasecmp(a + 6, "duel") == 0 ? "duel is not available yet, and it" : "that",
                      rules_list((char[128]){0}, 128, "rules=", ", ", " or "));
                return -1;
            }
            continue;
        }
        len += (size_t)snprintf(stats + len, sizeof(stats) - len, "%s%s", len ? " " : "", a);
        if (len >= sizeof(stats)) {
            reply(ctx, "too long; a sheet is a few key=N words, e.g. %s",
                  grammar_get(rs->id)->create_example);
            return -1;
        }
    }
    memset(&f, 0, sizeof(f));
    if (new_sheet(ctx, rs, name, stats, &f.sheet) != 0)
        return -1;

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

/* `help create`: what each ruleset's abilities do. */
static void create_help(struct cmd_ctx *ctx)
{
    for (int r = 0; r < RULES_COUNT; r++)
        if (grammar_get((enum rules)r)->sheet_help)
            reply(ctx, "%s", grammar_get((enum rules)r)->sheet_help);
}

const struct cmd_entry cmd_create_entry = {
    .name = "create",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 7,
    .usage = "<name> [rules=boxing] str=N spd=N agl=N tgh=N hgt=N",
    .help = "creates a fighter: boxing spreads 60 points over the five abilities, each 5 to 20; "
            "rules=sugarray needs no numbers; rules=duel spreads 56 over str, dex, con and int, "
            "each 1 to 23",
    .exec = cmd_create,
    .help_more = create_help,
};

static void fighter_show(struct cmd_ctx *ctx, const struct db_fighter *f)
{
    char sheet[96], page[CONFIG_STR_MAX + 48];

    sheet_text(f, sheet, sizeof(sheet));
    reply(ctx, "%s (%s, %s)%s: %s; record %d-%d-%d, %d by KO%s", f->name,
          ruleset_get(f->sheet.rules)->name, f->owner, f->retired ? ", retired" : "", sheet,
          f->wins, f->losses, f->draws, f->kos,
          cmd_page(ctx, page, sizeof(page), "/fighters/%lld", (long long)f->id));
    char kit[400];
    if (render_kit(&f->sheet, kit, sizeof(kit)) > 0)
        reply(ctx, "%s carries: %s", f->name, kit);
    if (ruleset_get(f->sheet.rules)->train_points && f->training_points > 0 && !f->retired &&
        f->account_id == ctx->account_id)
        reply(ctx, "%s has %d training point%s: train <ability> %s", f->name, f->training_points,
              f->training_points == 1 ? "" : "s", f->name);
}

static int cmd_fighter(struct cmd_ctx *ctx)
{
    struct db_fighter f;

    if (ctx->argc == 1) {
        if (bot_fighter_find(ctx, ctx->argv[0], &f) != 0)
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
        reply(ctx, "you have no fighter yet: %screate <name> str=12 spd=12 agl=12 tgh=12 hgt=12",
              cmd_typed(ctx));
        return -1;
    }
    if (n > 1) {
        reply(ctx, "you have %d fighters; say fighter <name>, or fighters to list them", n);
        return -1;
    }
    fighter_show(ctx, &mine[0]);
    return 0;
}

const struct cmd_entry cmd_fighter_entry = {
    .name = "fighter",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[name]",
    .help = "shows a fighter's sheet and record (yours when you have one)",
    .exec = cmd_fighter,
};

static int cmd_fighters(struct cmd_ctx *ctx)
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

const struct cmd_entry cmd_fighters_entry = {
    .name = "fighters",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[account]",
    .help = "lists a player's fighters (yours by default)",
    .exec = cmd_fighters,
};

/* The ability `word` names in ruleset `rs` (its key or its label, any
 * case: "str", "end", "endurance"), or -1. */
static int ability_of(const struct ruleset *rs, const char *word)
{
    for (int k = 0; k < rs->nfields; k++)
        if (strcasecmp(rs->fields[k].key, word) == 0 || strcasecmp(rs->fields[k].label, word) == 0)
            return k;
    return -1;
}

/* An ability's name as `train` shows it: its label in lower case. */
static const char *ability_word(const struct ruleset *rs, int k, char *buf, size_t len)
{
    size_t i = 0;

    for (const char *p = rs->fields[k].label; *p && i + 1 < len; p++)
        buf[i++] = (char)tolower((unsigned char)*p);
    buf[i] = '\0';
    return buf;
}

/* "str, spd, agl, tgh or hgt": what `train` takes in ruleset `rs`. */
static void ability_words(const struct ruleset *rs, const char *sep, char *buf, size_t len)
{
    size_t at = 0;
    char w[32];

    buf[0] = '\0';
    for (int k = 0; k < rs->nfields && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s",
                               k == 0                 ? ""
                               : k == rs->nfields - 1 ? " or "
                                                      : sep,
                               ability_word(rs, k, w, sizeof(w)));
}

/* 1 if fighters of `rs` train at all (a duellist does not). */
static int trains(const struct ruleset *rs)
{
    return rs->train_points || rs->turn_training;
}

/* Why fighter `f` may not train now under his ruleset's rules (a point
 * each, or once between league turns, not for the champion nor after a
 * missed turn: rules.md section 2), after a reply; 0 when he may. */
static int train_refused(struct cmd_ctx *ctx, const struct ruleset *rs, const struct db_fighter *f)
{
    if (rs->train_points && f->training_points < 1) {
        reply(ctx, "%s has no training points; a win earns 1, a win inside the distance 2",
              f->name);
        return -1;
    }
    if (!rs->turn_training)
        return 0;
    int64_t champ = 0;
    int defences;
    if (db_champion_get(ctx->bot->db, rs->id, &champ, &defences) == DB_OK && champ == f->id) {
        reply(ctx, "%s is the International Champion: no training, he spends his time partying",
              f->name);
        return -1;
    }
    if (f->missed) {
        reply(ctx, "%s missed the last turn (no plan): no training until the next turn", f->name);
        return -1;
    }
    if (f->trained) {
        reply(ctx, "%s has trained since the last turn already; once between turns", f->name);
        return -1;
    }
    return 0;
}

static int cmd_train(struct cmd_ctx *ctx)
{
    const char *word = ctx->argv[0];
    struct db_fighter f;
    char list[160], w[32];
    int ability = -1, rulesets_with = 0;

    /* The rulesets that train and have an ability of that name. */
    for (int r = 0; r < RULES_COUNT; r++)
        rulesets_with +=
            trains(ruleset_get((enum rules)r)) && ability_of(ruleset_get((enum rules)r), word) >= 0;
    if (!rulesets_with) {
        size_t at = (size_t)snprintf(list, sizeof(list), "train what?");
        for (int r = 0, shown = 0; r < RULES_COUNT && at < sizeof(list); r++) {
            const struct ruleset *rs = ruleset_get((enum rules)r);
            char words[96];
            if (!trains(rs))
                continue;
            ability_words(rs, ", ", words, sizeof(words));
            at += (size_t)snprintf(list + at, sizeof(list) - at, "%s %s: %strain %s",
                                   shown++ ? ";" : "", rs->title, cmd_typed(ctx), words);
        }
        reply(ctx, "%s", list);
        return -1;
    }
    if (ctx->argc == 2) {
        if (own_fighter(ctx, ctx->argv[1], &f) != 0)
            return -1;
    } else {
        /* His only active fighter of a ruleset with that ability. */
        struct db_fighter mine[FIGHTERS_PER_OWNER];
        int n = 0, found = 0;
        if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, mine, FIGHTERS_PER_OWNER, &n) !=
            DB_OK) {
            reply(ctx, "sorry, I could not look that up (database error)");
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (trains(ruleset_get(mine[i].sheet.rules)) &&
                ability_of(ruleset_get(mine[i].sheet.rules), word) >= 0) {
                f = mine[i];
                found++;
            }
        if (found == 1 && ctx->bot->game && game_fighter_busy(ctx->bot->game, f.id)) {
            reply(ctx, "%s is in a bout or a challenge; train after it", f.name);
            return -1;
        }
        if (found != 1) {
            reply(ctx,
                  found ? "which fighter? train %s <fighter>"
                        : "you have no fighter to train %s; create one first",
                  CLIP(word, 20));
            return -1;
        }
    }
    const struct ruleset *rs = ruleset_get(f.sheet.rules);
    if (!trains(rs)) {
        reply(ctx,
              "%s is a %s: %s fighters do not train; their abilities are set when they are "
              "created",
              f.name, rs->fighter, rs->name);
        return -1;
    }
    ability = ability_of(rs, word);
    if (ability < 0) {
        ability_words(rs, ", ", list, sizeof(list));
        reply(ctx, "%s is a %s fighter: train %s", f.name, rs->name, list);
        return -1;
    }
    if (train_refused(ctx, rs, &f) != 0)
        return -1;
    struct rng r;
    rng_seed(&r, bot_seed(), 0);
    int was = sheet_field_get(&f.sheet, ability);
    int gain = rs->train(&f.sheet, ability, &r);
    if (!gain) {
        reply(ctx, "%s's %s is %d, the most; train another ability", f.name,
              rs->fields[ability].key, was);
        return -1;
    }
    if (rs->train_points)
        f.training_points--;
    if (rs->turn_training)
        f.trained = 1;
    if (db_fighter_save(ctx->bot->db, &f) != DB_OK) {
        log_msg(LOG_ERROR, "train %s: %s", f.name, db_errmsg(ctx->bot->db));
        reply(ctx, "sorry, I could not save that (database error); nothing changed");
        return -1;
    }
    if (rs->train_points) {
        reply(ctx, "%s's %s is now %d (%d training point%s left)", f.name, rs->fields[ability].key,
              sheet_field_get(&f.sheet, ability), f.training_points,
              f.training_points == 1 ? "" : "s");
    } else {
        char sheet[96];
        sheet_text(&f, sheet, sizeof(sheet));
        reply(ctx, "%s trains %s: +%d, now %s", f.name, ability_word(rs, ability, w, sizeof(w)),
              gain, sheet);
    }
    return 0;
}

const struct cmd_entry cmd_train_entry = {
    .name = "train",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 2,
    .usage = "<str|spd|agl|tgh|hgt|skill|endurance> [fighter]",
    .help = "boxing: spends a training point for +1 to an ability (at most 25); SUGAR RAY: once "
            "between league turns, skill +1 or endurance +1d5",
    .exec = cmd_train,
};

static int cmd_retire(struct cmd_ctx *ctx)
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

const struct cmd_entry cmd_retire_entry = {
    .name = "retire",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 1,
    .usage = "<fighter>",
    .help = "retires one of your fighters for good",
    .exec = cmd_retire,
};
