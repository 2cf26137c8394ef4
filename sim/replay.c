/*
 * replay.c - `ringside-sim --replay DB BOUT`: the bot's own bout_replay on
 * a database file, with the simulator's exit statuses and error lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bot.h"
#include "report.h"

int sim_replay(const char *path, const char *bout)
{
    char err[256], *end;
    long long id = strtoll(bout[0] == '#' ? bout + 1 : bout, &end, 10);

    if (*end || id <= 0) {
        fprintf(stderr,
                "ringside-sim: --replay: \"%.30s\" is not a bout number; e.g. --replay "
                "ringside.db 12\n",
                bout);
        return 2;
    }
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
