/*
 * replay.c - `ringside-sim --replay DB BOUT`, `--report` and `--commentary`:
 * the game's own replay of a stored bout on a database file (opened read
 * only), with the simulator's exit statuses and error lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "game.h"
#include "report.h"

/* The bout number `text` ("12" or "#12"), or 0 after an error line. */
static long long bout_number(const char *text, const char *option)
{
    char *end;
    long long id = strtoll(text[0] == '#' ? text + 1 : text, &end, 10);

    if (*end || id <= 0) {
        fprintf(stderr,
                "ringside-sim: %s: \"%.30s\" is not a bout number; e.g. %s ringside.db 12\n",
                option, text, option);
        return 0;
    }
    return id;
}

int sim_derive(const char *path, const char *bout, const char *round, int report)
{
    const char *option = report ? "--report" : "--commentary";
    char err[256], *end;
    long long id = bout_number(bout, option);
    long r = 0;

    if (!id)
        return 2;
    if (round) {
        r = strtol(round, &end, 10);
        if (*end || r < 1 || r > BOUT_ROUNDS_MAX) {
            fprintf(stderr, "ringside-sim: %s: \"%.30s\" is not a round (1 to %d)\n", option, round,
                    BOUT_ROUNDS_MAX);
            return 2;
        }
    }
    struct db *db = db_open_readonly(path, err, sizeof(err));
    if (!db) {
        fprintf(stderr, "ringside-sim: %s: %s\n", option, err);
        return 2;
    }
    char *text = report ? bout_report(db, id, r ? (int)r : 1, (int)r, err, sizeof(err))
                        : bout_commentary(db, id, r ? (int)r : 1, (int)r, err, sizeof(err));
    db_close(db);
    if (!text) {
        fprintf(stderr, "ringside-sim: %s: %s\n", option, err);
        return 2;
    }
    int bad = text[0] && printf("%s\n", text) < 0;
    free(text);
    return fflush(stdout) == 0 && !bad ? 0 : 1;
}

int sim_replay(const char *path, const char *bout)
{
    char err[256];
    long long id = bout_number(bout, "--replay");

    if (!id)
        return 2;
    struct db *db = db_open_readonly(path, err, sizeof(err));
    if (!db) {
        fprintf(stderr, "ringside-sim: --replay: %s\n", err);
        return 2;
    }
    int rc = bout_replay(db, id, stdout);
    db_close(db);
    if (rc == 2)
        fprintf(stderr, "ringside-sim: --replay: bout %lld of %s cannot be replayed (see above)\n",
                id, path);
    return fflush(stdout) == 0 ? rc : 1;
}
