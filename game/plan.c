/*
 * plan.c - a player's stored fight plan: set, show, clear, check. The plan
 * fights the rounds he misses in a live bout and every bout of a league
 * turn; the language is parse/plan.c's (docs/plans.md). A plan is stored
 * only once it compiles, and its text is what the database keeps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define MY_FIGHTERS_MAX 16

int game_plan_get(struct game *g, int64_t fighter_id, struct str *out)
{
    char *text = xmalloc(DB_PLAN_MAX);
    int rc = db_plan_get(g->db, fighter_id, text, DB_PLAN_MAX);

    if (rc == DB_OK)
        str_cat(out, text);
    free(text);
    return rc == DB_OK ? 0 : rc == DB_NOTFOUND ? 1 : -1;
}

/* "Apollo and Bert" (his fighters' names) into out; "" for none. */
static void plan_names(const struct db_fighter *list, int have, struct str *out)
{
    for (int i = 0; i < have; i++)
        str_add(out, "%s%s", i == 0 ? "" : i + 1 < have ? ", " : " and ", list[i].name);
}

/* Refuses `word` when it names a fighter that is not one of the caller's
 * active ones (another's, or retired), saying whose it is and which
 * fighters are his. Returns 1 after that reply, 0 when word names none. */
static int plan_not_his(struct game *g, const struct game_caller *who, const char *word,
                        const struct db_fighter *list, int have)
{
    char key[DB_NAME_MAX];
    struct db_fighter other;
    struct str names;

    if (!game_name_valid(word))
        return 0;
    game_name_key(key, word, sizeof(key));
    if (db_fighter_get(g->db, key, &other) != DB_OK)
        return 0;
    str_init(&names);
    plan_names(list, have, &names);
    char owner[GAME_WHO_MAX];
    if (other.account_id != who->account_id)
        game_reply(who, "%s belongs to %s, not to you; %s%s", other.name,
                   game_owner_name(g, &other, owner, sizeof(owner)),
                   have ? "your fighters: " : "you have no fighter yet", names.p ? names.p : "");
    else
        game_reply(who, "%s is retired; %s%s", other.name,
                   have ? "your fighters: " : "you have no other fighter", names.p ? names.p : "");
    str_free(&names);
    return 1;
}

/* The fighter `plan` means: the one named first among `words` (his
 * fighters' names, any case), else the caller's only fighter. Returns how
 * many words the name took (1 or 0), or -1 after a reply. */
static int plan_fighter(struct game *g, const struct game_caller *who, const char *op,
                        const char *const *words, int n, struct db_fighter *f)
{
    struct db_fighter list[MY_FIGHTERS_MAX];
    int have = 0;

    if (game_my_fighters(g, who, list, MY_FIGHTERS_MAX, &have) != 0)
        return -1;
    if (n >= 1)
        for (int i = 0; i < have; i++)
            if (strcasecmp(list[i].name, words[0]) == 0) {
                *f = list[i];
                return 1;
            }
    if (n >= 1 && plan_not_his(g, who, words[0], list, have))
        return -1;
    if (have == 1) {
        *f = list[0];
        return 0;
    }
    if (have) {
        struct str names;
        str_init(&names);
        plan_names(list, have, &names);
        game_reply(who, "which fighter? yours are %s: e.g. plan %s %s ...", names.p, op,
                   list[0].name);
        str_free(&names);
    } else {
        game_reply(who, "you have no fighter yet: %screate <name> ... makes one",
                   game_typed(g, who));
    }
    return -1;
}

static int plan_show(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    struct str s;

    str_init(&s);
    int rc = game_plan_get(g, f->id, &s);
    if (rc == 1)
        game_reply(who, "%s has no plan: rounds you miss use your last orders", f->name);
    else if (rc < 0)
        game_reply(who, "sorry, I could not read it (%s)", db_why(g->db));
    else {
        for (char *p = s.p; *p; p++)
            if (*p == '\n')
                *p = ';';
        game_reply(who, "%s's plan: %s", f->name, s.p);
    }
    str_free(&s);
    return rc < 0 ? -1 : 0;
}

static int plan_clear(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    if (db_plan_clear(g->db, f->id) != DB_OK) {
        game_reply(who, "sorry, I could not clear it (%s)", db_why(g->db));
        return -1;
    }
    game_reply(who, "%s's plan is cleared", f->name);
    return 0;
}

/* Compiles plan `text` for `f`: its summary into `summary`, or -1 after
 * telling the caller the parser's error. */
static int plan_checked(const struct game_caller *who, const struct db_fighter *f, const char *text,
                        char *summary, size_t len)
{
    char reason[PARSE_REASON_MAX + 40];
    struct parse_error err;
    struct plan *p = plan_compile(f->sheet.rules, text, &err);

    if (!p) {
        parse_error_format(&err, reason, sizeof(reason));
        game_reply(who, "plan refused, nothing stored: %s", reason);
        return -1;
    }
    plan_summary(p, summary, len);
    plan_free(p);
    return 0;
}

/* `plan set` and `plan check`: the words are the plan's text. */
static int plan_put(struct game *g, const struct game_caller *who, enum game_plan_op op,
                    const char *opword, const struct db_fighter *f, const char *const *words, int n)
{
    char summary[512];
    struct str text;
    int rc = -1;

    if (n < 1) {
        game_reply(who, "give the plan's lines, separated by ;, e.g. plan %s 1) 5/5/10; 6) 4/6/10",
                   opword);
        return -1;
    }
    str_init(&text);
    for (int i = 0; i < n && text.len < DB_PLAN_MAX - 1; i++)
        str_add(&text, "%s%s", i ? " " : "", words[i]);
    if (text.len > DB_PLAN_MAX - 1)
        str_cut(&text, DB_PLAN_MAX - 1); /* as the stored text was cut before */
    if (plan_checked(who, f, text.p, summary, sizeof(summary)) != 0)
        goto out;
    if (op == GAME_PLAN_CHECK) {
        game_reply(who, "the plan is fine (not stored): %s", summary);
        rc = 0;
    } else if (db_plan_set(g->db, f->id, text.p, game_wall(g)) != DB_OK) {
        game_reply(who, "sorry, I could not store it (%s)", db_why(g->db));
    } else {
        game_reply(who, "%s's plan stored: %s", f->name, summary);
        rc = 0;
    }
out:
    str_free(&text);
    return rc;
}

int game_plan(struct game *g, const struct game_caller *who, enum game_plan_op op,
              const char *opword, const char *const *words, int n)
{
    struct db_fighter f;
    int at = plan_fighter(g, who, opword, words, n, &f);

    if (at < 0)
        return -1;
    switch (op) {
    case GAME_PLAN_SHOW:
        return plan_show(g, who, &f);
    case GAME_PLAN_CLEAR:
        return plan_clear(g, who, &f);
    default:
        return plan_put(g, who, op, opword, &f, words + at, n - at);
    }
}
