/*
 * train.c - training (rules.md section 2): a boxer spends a training point
 * for +1 to an ability, to at most 25; a SUGAR RAY boxer trains once
 * between league turns (skill +1 or endurance +1d5), never as the
 * champion nor after a missed turn; a duellist never trains. The gain is
 * the ruleset's (its train function), drawn from a fresh seed.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"

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
static void ability_words(const struct ruleset *rs, struct str *out)
{
    char w[32];

    for (int k = 0; k < rs->nfields; k++)
        str_add(out, "%s%s",
                k == 0                 ? ""
                : k == rs->nfields - 1 ? " or "
                                       : ", ",
                ability_word(rs, k, w, sizeof(w)));
}

/* 1 if fighters of `rs` train at all (a duellist does not). */
static int trains(const struct ruleset *rs)
{
    return rs->train_points || rs->turn_training;
}

/* 1 if fighter `f` trains and has an ability called `word`. */
static int trains_in(const struct db_fighter *f, const char *word)
{
    const struct ruleset *rs = ruleset_get(f->sheet.rules);

    return trains(rs) && ability_of(rs, word) >= 0;
}

/* "train what?" and, for each ruleset that trains, its abilities. */
static void train_what(struct game *g, const struct game_caller *who)
{
    char list[160];
    struct str s;

    str_init_fixed(&s, list, sizeof(list));
    str_cat(&s, "train what?");
    for (int r = 0, shown = 0; r < RULES_COUNT; r++) {
        const struct ruleset *rs = ruleset_get((enum rules)r);
        char words[96];
        struct str w;
        if (!trains(rs))
            continue;
        str_init_fixed(&w, words, sizeof(words));
        ability_words(rs, &w);
        str_add(&s, "%s %s: %strain %s", shown++ ? ";" : "", rs->title, game_typed(g, who), words);
    }
    game_reply(who, "%s", list);
}

/* The caller's only active fighter that trains `word`, not busy. */
static int only_trainee(struct game *g, const struct game_caller *who, const char *word,
                        struct db_fighter *f)
{
    struct db_fighter mine[GAME_FIGHTERS_MAX];
    int n = 0, found = 0;

    if (game_my_fighters(g, who, mine, GAME_FIGHTERS_MAX, &n) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (trains_in(&mine[i], word)) {
            *f = mine[i];
            found++;
        }
    if (found == 1 && game_fighter_busy(g, f->id)) {
        game_reply(who, "%s is in a bout or a challenge; train after it", f->name);
        return -1;
    }
    if (found != 1) {
        if (found)
            game_reply(who, "which fighter? train %s <fighter>", CLIP(word, 20));
        else
            game_reply(who, "you have no fighter to train %s; create one first", CLIP(word, 20));
        return -1;
    }
    return 0;
}

/* Why fighter `f` may not train now under his ruleset's rules (a point
 * each, or once between league turns, not for the champion nor after a
 * missed turn), after a reply; 0 when he may. */
static int train_refused(struct game *g, const struct game_caller *who, const struct ruleset *rs,
                         const struct db_fighter *f)
{
    if (rs->train_points && f->training_points < 1) {
        game_reply(who, "%s has no training points; a win earns 1, a win inside the distance 2",
                   f->name);
        return -1;
    }
    if (!rs->turn_training)
        return 0;
    int64_t champ = 0;
    int defences;
    if (db_champion_get(g->db, rs->id, &champ, &defences) == DB_OK && champ == f->id) {
        game_reply(who,
                   "%s is the International Champion: no training, he spends his time partying",
                   f->name);
        return -1;
    }
    if (f->missed) {
        game_reply(who, "%s missed the last turn (no plan): no training until the next turn",
                   f->name);
        return -1;
    }
    if (f->trained) {
        game_reply(who, "%s has trained since the last turn already; once between turns", f->name);
        return -1;
    }
    return 0;
}

/* The ability of fighter `f`'s ruleset that `word` names, after the
 * checks that he trains at all and may now. */
static int ability_checked(struct game *g, const struct game_caller *who,
                           const struct db_fighter *f, const char *word)
{
    const struct ruleset *rs = ruleset_get(f->sheet.rules);
    char list[160];
    struct str s;

    if (!trains(rs)) {
        game_reply(who,
                   "%s is a %s: %s fighters do not train; their abilities are set when they are "
                   "created",
                   f->name, rs->fighter, rs->name);
        return -1;
    }
    int ability = ability_of(rs, word);
    if (ability < 0) {
        str_init_fixed(&s, list, sizeof(list));
        ability_words(rs, &s);
        game_reply(who, "%s is a %s fighter: train %s", f->name, rs->name, list);
        return -1;
    }
    return train_refused(g, who, rs, f) != 0 ? -1 : ability;
}

/* Says what training did to `f` (saved). */
static void trained(const struct game_caller *who, const struct db_fighter *f, int ability,
                    int gain)
{
    const struct ruleset *rs = ruleset_get(f->sheet.rules);
    char sheet[96], w[32];
    struct str s;

    if (rs->train_points) {
        game_reply(who, "%s's %s is now %d (%d training point%s left)", f->name,
                   rs->fields[ability].key, sheet_field_get(&f->sheet, ability), f->training_points,
                   f->training_points == 1 ? "" : "s");
        return;
    }
    str_init_fixed(&s, sheet, sizeof(sheet));
    game_sheet_text(&f->sheet, &s);
    game_reply(who, "%s trains %s: +%d, now %s", f->name, ability_word(rs, ability, w, sizeof(w)),
               gain, sheet);
}

int game_train(struct game *g, const struct game_caller *who, const char *word, const char *name)
{
    struct db_fighter f;
    int with = 0;

    /* The rulesets that train and have an ability of that name. */
    for (int r = 0; r < RULES_COUNT; r++)
        with +=
            trains(ruleset_get((enum rules)r)) && ability_of(ruleset_get((enum rules)r), word) >= 0;
    if (!with) {
        train_what(g, who);
        return -1;
    }
    if (name ? game_fighter_mine(g, who, name, &f) != 0 : only_trainee(g, who, word, &f) != 0)
        return -1;
    if (name && game_fighter_busy(g, f.id)) {
        game_reply(who, "%s is in a bout or a challenge; wait until it is over", f.name);
        return -1;
    }
    int ability = ability_checked(g, who, &f, word);
    if (ability < 0)
        return -1;
    const struct ruleset *rs = ruleset_get(f.sheet.rules);
    struct rng r;
    rng_seed(&r, g->io.seed(g->io.ctx), 0);
    int was = sheet_field_get(&f.sheet, ability);
    int gain = rs->train(&f.sheet, ability, &r);
    if (!gain) {
        game_reply(who, "%s's %s is %d, the most; train another ability", f.name,
                   rs->fields[ability].key, was);
        return -1;
    }
    if (rs->train_points)
        f.training_points--;
    if (rs->turn_training)
        f.trained = 1;
    if (db_fighter_save(g->db, &f) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "train %s: %s", f.name, db_errmsg(g->db));
        game_reply(who, "sorry, I could not save that (%s); nothing changed", db_why(g->db));
        return -1;
    }
    trained(who, &f, ability, gain);
    return 0;
}
