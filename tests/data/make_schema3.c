/* make_schema3.c - how tests/data/schema3.db was made: a schema-3 database
 * written by the Ringside of commit 0e50685, the last before reports were
 * derived (every round's commentary and report stored): finished and live
 * exhibitions in both rulesets and a league turn of each ruleset.
 * tests/check_game.c migrates a copy and replays it word for word.
 *
 * It builds against that commit's tree, not this one:
 *   git worktree add /tmp/old 0e50685 && make -C /tmp/old build/ringside
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -I/tmp/old/engine -I/tmp/old/parse \
 *      -I/tmp/old/db -I/tmp/old/bot -o make_schema3 tests/data/make_schema3.c \
 *      $(ls /tmp/old/build/obj/{db,bot,engine,parse}/*.o | grep -v main.o) \
 *      -lsqlite3 -linih -lcrypt -lircclient -lpcre2-8 -lm
 *   ./make_schema3 schema3.db && sqlite3 schema3.db 'PRAGMA journal_mode=DELETE' */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static struct bot bot;

static void run(const char *nick, const char *chan, const char *text)
{
    char line[OUTQ_LINE_MAX];

    bot.now += 3;
    cmd_dispatch(&bot, nick, chan, text);
    while (outq_pop(bot.q, bot.now + 1e6, line))
        ;
}

static void player(const char *nick, const char *create)
{
    char line[160];

    users_join(bot.users, nick, 0);
    snprintf(line, sizeof(line), "register %s-pw1", nick);
    run(nick, NULL, line);
    run(nick, NULL, create);
}

int main(int argc, char **argv)
{
    char err[256];

    if (argc != 2)
        return 2;
    config_defaults(&bot.cfg);
    bot.cfg.rounds = 6;
    bot.cfg.nadmins = 1;
    snprintf(bot.cfg.admins[0], sizeof(bot.cfg.admins[0]), "boss");
    bot.db = db_open(argv[1], err, sizeof(err));
    if (!bot.db) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    bot.q = outq_new(100000, 100000, 1000);
    bot.users = users_new();
    bot.bouts = bouts_new(&bot, err, sizeof(err));
    bot.cm = CASEMAP_RFC1459;
    snprintf(bot.nick, sizeof(bot.nick), "ringside");
    snprintf(bot.chan[0], sizeof(bot.chan[0]), "#ringside");
    bot.chan_in[0] = 1;
    bot.now = 1000;
    log_set_level(LOG_ERROR);

    /* A finished boxing exhibition (bout 1), a finished SUGAR RAY one (2). */
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", "#ringside", "!challenge bob");
    run("bob", "#ringside", "!accept");
    const char *oa[] = {"5/5/10 (ring)",   "4H/8/8 (inside)", "6/6/8",
                        "3/5/12 (clinch)", "5B/7!/8 (cut)",   "7/7/6 (allout)"};
    const char *ob[] = {"4H/6/10", "5/5/10 (counter)", "6/6/8 (feint)",
                        "5/6/9",   "4/5/11 (outside)", "5/5/10"};
    for (int r = 0; r < 6 && bouts_live(bot.bouts); r++) {
        run("alice", NULL, oa[r]);
        run("bob", NULL, ob[r]);
    }
    player("mill", "create Miller rules=sugarray");
    player("murf", "create Murphy rules=sugarray");
    run("mill", "#ringside", "!challenge murf rules=sugarray");
    run("murf", "#ringside", "!accept");
    const char *sa[] = {"6/0", "3/3", "3/4", "2/5", "5/2"};
    const char *sb[] = {"3/3", "4/2", "2/4", "6/0", "3/3"};
    for (int r = 0; r < 5 && bouts_live(bot.bouts); r++) {
        run("mill", NULL, sa[r]);
        run("murf", NULL, sb[r]);
    }
    /* A live boxing bout (3), two rounds fought, round 3's order of one
     * side stored. */
    player("cora", "create Duran str=12 spd=12 agl=12 tgh=12 hgt=12");
    player("dave", "create Hagler str=12 spd=13 agl=12 tgh=11 hgt=12");
    run("cora", "#ringside", "!challenge dave");
    run("dave", "#ringside", "!accept");
    run("cora", NULL, "5/5/10");
    run("dave", NULL, "6/6/8 (inside)");
    run("cora", NULL, "4/6/10 (ring)");
    run("dave", NULL, "5/5/10");
    run("cora", NULL, "6H/7/7");

    /* League turns from plans: six boxers, six SUGAR RAY boxers. */
    static const char *const plans[] = {"5/5/10 (ring); 4) 4H/8/8 (inside)",
                                        "6/6/8; if opp = weak then 8/8/4 (allout)",
                                        "3/5/12 (clinch); if endurance_percent < 40 then 5/5/10"};
    for (int i = 0; i < 6; i++) {
        char nick[16], line[160];
        snprintf(nick, sizeof(nick), "lb%d", i);
        snprintf(line, sizeof(line), "create Lbox%d str=%d spd=12 agl=%d tgh=12 hgt=12", i,
                 10 + i % 4, 14 - i % 4);
        player(nick, line);
        snprintf(line, sizeof(line), "plan set %s", plans[i % 3]);
        run(nick, NULL, line);
        snprintf(nick, sizeof(nick), "ls%d", i);
        snprintf(line, sizeof(line), "create Lsug%d rules=sugarray", i);
        player(nick, line);
        snprintf(line, sizeof(line), "plan set %s", i % 2 ? "1) 6/0; 3) 3/3" : "4/2");
        run(nick, NULL, line);
    }
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
    int n;
    if (league_turn(&bot, RULES_BOXING, 4242, lines, &n, err, sizeof(err)) != 0 ||
        league_turn(&bot, RULES_SUGARRAY, 4343, lines, &n, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("live: %d, schema %d\n", bouts_live(bot.bouts), db_schema_version(bot.db));
    bouts_free(bot.bouts);
    users_free(bot.users);
    outq_free(bot.q);
    db_close(bot.db);
    return 0;
}
