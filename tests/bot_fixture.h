/* bot_fixture.h - a whole bot without a connection, for the tests that run
 * commands through bot/ (check_cmd.c, check_policy.c, check_tables.c): a
 * database in a temporary directory, an output queue, the users, the game
 * on the bot's own io, and the channel #ringside joined. Each test file
 * keeps its own struct bot and directory and calls these from its Check
 * fixture. */
#ifndef RINGSIDE_BOT_FIXTURE_H
#define RINGSIDE_BOT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "test_db.h"
#include "tests.h"

/* Opens b with its defaults; `tag` names the directory made in /tmp
 * (into dir, 64 bytes); the queue sends `burst` lines at once and `rate`
 * a second. */
static inline void bot_fixture_open(struct bot *b, char dir[64], const char *tag, int burst,
                                    double rate)
{
    char path[128], err[256];

    memset(b, 0, sizeof(*b));
    config_defaults(&b->cfg);
    snprintf(dir, 64, "/tmp/ringside-%s-XXXXXX", tag);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    b->db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(b->db != NULL, "%s", err);
    b->q = outq_new(burst, rate);
    b->users = users_new();
    b->cm = CASEMAP_RFC1459;
    snprintf(b->nick, sizeof(b->nick), "ringside");
    snprintf(b->chantypes, sizeof(b->chantypes), "#&");
    snprintf(b->chan[0], sizeof(b->chan[0]), "#ringside");
    b->chan_in[0] = 1;
    b->now = 1000;
    log_set_level(LOG_ERROR);
    /* The game is there whenever commands run, as in the bot. */
    struct game_io io;
    struct game_config gc;
    bot_game_io(b, &io);
    bot_game_config(&b->cfg, &gc);
    b->game = game_new(b->db, &io, &gc, err, sizeof(err));
    ck_assert_msg(b->game != NULL, "%s", err);
}

/* Frees what bot_fixture_open made and removes dir. */
static inline void bot_fixture_close(struct bot *b, const char *dir)
{
    char cmd[128];

    if (b->game)
        game_free(b->game);
    chanops_free(b);
    users_free(b->users);
    outq_free(b->q);
    snprintf(cmd, sizeof(cmd), "%s/ringside.db", dir);
    test_db_close(b->db, cmd);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Empties b's queue from time `from` on, a second a line: the lines it
 * sent, each followed by '\n', into out (size bytes; what does not fit is
 * left out). Returns out. */
static inline const char *bot_fixture_drain(struct bot *b, double from, char *out, size_t size)
{
    char line[OUTQ_LINE_MAX];
    size_t len = 0;

    out[0] = '\0';
    for (double t = from; outq_len(b->q) > 0; t += 1)
        if (outq_pop(b->q, t, line) && len < size - 1)
            len += (size_t)snprintf(out + len, size - len, "%s\n", line);
    return out;
}

#endif
