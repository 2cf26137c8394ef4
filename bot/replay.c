/*
 * replay.c - fights a stored bout again from its seed, its stored sheets
 * and its stored orders, and checks that every round's report and the
 * result are what the bot stored (`ringside-sim --replay`, and the tests
 * that kill the bot mid-bout).
 *
 * The reports are compared byte for byte: they hold every figure of the
 * round (abilities, punches, each judge's count, damage, endurance, the
 * events), so a match means the engine, fed the same inputs, did the same
 * thing. The commentary's wording is drawn from the flavour stream in the
 * same order as the bot does, so it is rebuilt too (and not compared: it is
 * not a fact of the fight).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "parse.h"

#define REPLAY_ORDERS (2 * BOXING_ROUNDS_MAX + 4)
#define REPLAY_REPORT DB_REPORT_MAX

static const char *const state_names[] = {"a challenge", "live", "over", "cancelled"};

/* Prints the first difference between two texts, line by line. */
static void first_difference(FILE *out, const char *want, const char *got)
{
    int line = 1;

    while (*want && *got) {
        size_t a = strcspn(want, "\n"), b = strcspn(got, "\n");
        if (a != b || memcmp(want, got, a) != 0) {
            fprintf(out, "  line %d stored:   %.*s\n  line %d replayed: %.*s\n", line, (int)a, want,
                    line, (int)b, got);
            return;
        }
        want += a + (want[a] == '\n');
        got += b + (got[b] == '\n');
        line++;
    }
    fprintf(out, "  one text is longer (line %d)\n", line);
}

int bout_replay(struct db *db, int64_t id, FILE *out)
{
    static struct db_order ords[REPLAY_ORDERS];
    static char stored[REPLAY_REPORT], again[REPLAY_REPORT];
    int n = 0, bad = 0;

    struct db_bout rec;
    struct render_corner corner[SIDES];
    int rc = db_bout_get(db, id, &rec);
    if (rc != DB_OK) {
        fprintf(out, "there is no bout %lld\n", (long long)id);
        return 2;
    }
    if (rec.state != DB_BOUT_LIVE && rec.state != DB_BOUT_OVER) {
        fprintf(out, "bout %lld is %s: nothing was fought\n", (long long)id,
                state_names[rec.state]);
        return 2;
    }
    for (int s = 0; s < SIDES; s++) {
        struct db_fighter f;
        if (db_fighter_get_id(db, rec.fighter[s], &f) != DB_OK) {
            fprintf(out, "fighter %lld of bout %lld is missing\n", (long long)rec.fighter[s],
                    (long long)id);
            return 2;
        }
        memset(&corner[s], 0, sizeof(corner[s]));
        snprintf(corner[s].name, sizeof(corner[s].name), "%s", f.name);
        snprintf(corner[s].owner, sizeof(corner[s].owner), "%s", f.owner);
        corner[s].sheet = rec.sheet[s];
    }
    struct bout b;
    struct bout_rng r;
    if (bout_init(&b, rec.rules, rec.sheet, rec.rounds) != 0 ||
        db_order_list(db, id, ords, REPLAY_ORDERS, &n) != DB_OK) {
        fprintf(out, "bout %lld cannot be set up again\n", (long long)id);
        return 1;
    }
    bout_rng_seed(&r, rec.seed);
    fprintf(out, "bout %lld: %s vs %s, %s, %d rounds, seed %llu, %d rounds stored\n", (long long)id,
            corner[0].name, corner[1].name, ruleset_get(rec.rules)->name, rec.rounds,
            (unsigned long long)rec.seed, rec.round);
    for (int round = 1; round <= rec.round; round++) {
        struct order o[SIDES];
        int got = 0;
        for (int k = 0; k < n; k++)
            if (ords[k].round == round &&
                bout_order_read(rec.rules, ords[k].text, &o[ords[k].side]) == 0)
                got |= 1 << ords[k].side;
        struct events evs;
        char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
        if (got != 3 || b.result.over || bout_round(&b, o, &r, &evs) != 0) {
            fprintf(out, "round %d: MISMATCH: its orders are missing or do not replay\n", round);
            bad++;
            break;
        }
        render_round(corner, &b, &evs, &r.flavour, lines);
        render_round_report(corner, &b, &evs, again, sizeof(again));
        if (db_round_report(db, id, round, stored, sizeof(stored)) != DB_OK) {
            fprintf(out, "round %d: MISMATCH: no stored report\n", round);
            bad++;
        } else if (strcmp(stored, again) != 0) {
            fprintf(out, "round %d: MISMATCH\n", round);
            first_difference(out, stored, again);
            bad++;
        } else {
            fprintf(out, "round %d: match\n", round);
        }
    }
    if (rec.state == DB_BOUT_OVER) {
        int same = b.result.over && b.result.winner == rec.winner &&
                   b.result.method == rec.method && b.result.reason == rec.reason &&
                   b.result.decision == rec.decision && b.result.round == rec.round;
        fprintf(out, "result: %s\n", same ? "match" : "MISMATCH");
        bad += !same;
    } else if (b.result.over) {
        fprintf(out, "result: MISMATCH: the replay ended the bout, the database says it is live\n");
        bad++;
    }
    fprintf(out, "%s\n",
            bad ? "replay differs from the stored bout" : "replay matches the stored bout");
    return bad ? 1 : 0;
}
