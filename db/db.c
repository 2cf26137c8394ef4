/*
 * db.c - the connection: opening, the schema migrations, the table of
 * prepared statements, and the helpers the other files of db/ share.
 *
 * Schema versions: PRAGMA user_version is the number of migrations applied.
 * Migration i (1-based) is migrations[i - 1]; it runs in its own BEGIN
 * IMMEDIATE transaction together with the bump of user_version, so a failed
 * migration leaves the file at the previous version, and a file is never at a
 * version in between. A file newer than this code is refused and not touched.
 * A migration, once released, is never edited: changes are new migrations
 * (which is also why the scripts spell out their numbers instead of using
 * the engine's constants).
 *
 * Statements: all are prepared in db_open() (SQLITE_PREPARE_PERSISTENT) and
 * finalized in db_close(); parameters are always bound. The only SQL built
 * at run time is "PRAGMA user_version = N" from the migration index (and
 * db_test_file runs the SQL its tests give it).
 *
 * Transactions: db_begin/db_commit/db_rollback, not nested; see db.h and
 * struct db for a transaction SQLite rolls back on its own.
 *
 * Backends (sql.h): the table's statements are run here, as in the other
 * files, through the statement layer. What stays SQLite's own is the
 * connection itself: opening and closing it, WAL and the pragmas, the
 * migrations' scripts (script_run, query_once), the file identity checks
 * (file_note, file_check), the autocommit tests of the transaction rules,
 * and the SQLite side of the layer (db_prepare, db_run, db_row,
 * db_column_text, db_column_name), which sql.c wraps.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"
#include "util.h"

/* How long a statement waits for another connection's lock (the bot sets
 * a shorter wait on its own connection: db_busy_timeout). */
#define DB_BUSY_MS 5000

/* ------------------------------------------------------------ migrations */

static const char *const migrations[] = {
    /* 1: accounts and fighters. A fighter's sheet lives in the columns of
     * its ruleset, the others are NULL; the CHECK on `rules` leaves duel's
     * columns and ranges to the migration that brings them. */
    "CREATE TABLE accounts ("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL UNIQUE CHECK (key <> ''),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  hash TEXT NOT NULL,"
    "  banned INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1)),"
    "  created INTEGER NOT NULL"
    ");"
    "CREATE TABLE fighters ("
    "  id INTEGER PRIMARY KEY,"
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  key TEXT NOT NULL UNIQUE CHECK (key <> ''),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  rules TEXT NOT NULL CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  str INTEGER, spd INTEGER, agl INTEGER, tgh INTEGER, hgt INTEGER,"
    "  skill INTEGER, endurance INTEGER,"
    "  wins INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),"
    "  losses INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),"
    "  draws INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),"
    "  kos INTEGER NOT NULL DEFAULT 0 CHECK (kos >= 0),"
    "  training_points INTEGER NOT NULL DEFAULT 0 CHECK (training_points >= 0),"
    "  retired INTEGER NOT NULL DEFAULT 0 CHECK (retired IN (0, 1)),"
    "  created INTEGER NOT NULL,"
    /* Boxing abilities are 1..25 for life (training stops at 25). SUGAR RAY
     * has no ceiling: bouts and training raise skill and endurance without
     * one, and only the floor of 1 is kept by the rules. */
    "  CONSTRAINT sheet_fits_rules CHECK (CASE rules"
    "    WHEN 'boxing' THEN coalesce(str BETWEEN 1 AND 25 AND spd BETWEEN 1 AND 25"
    "        AND agl BETWEEN 1 AND 25 AND tgh BETWEEN 1 AND 25 AND hgt BETWEEN 1 AND 25, 0)"
    "      AND skill IS NULL AND endurance IS NULL"
    "    WHEN 'sugarray' THEN coalesce(skill >= 1 AND endurance >= 1, 0)"
    "      AND str IS NULL AND spd IS NULL AND agl IS NULL AND tgh IS NULL AND hgt IS NULL"
    "    ELSE 1 END)"
    ");"
    "CREATE INDEX fighters_account ON fighters(account_id);",

    /* 2: live bouts, their orders and rounds, fighters' plans, the admin
     * audit log. Enums are stored by name (the tables of names in bout.c
     * follow these lists, whatever the engine's numbering); `seed` is the
     * uint64 seed's bit pattern read as a signed 64-bit INTEGER. Rules as in
     * fighters, 'duel' included for the migration that brings it. A bout's
     * result columns are checked each on its own: how they go together is
     * the engine's and the bot's business (a forfeit has no method). */
    "CREATE TABLE bouts ("
    "  id INTEGER PRIMARY KEY,"
    "  rules TEXT NOT NULL CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  channel TEXT NOT NULL CHECK (channel <> ''),"
    "  rounds INTEGER NOT NULL CHECK (rounds >= 1),"
    "  seed INTEGER NOT NULL DEFAULT 0,"
    "  state TEXT NOT NULL CHECK (state IN ('challenge', 'live', 'over', 'cancelled')),"
    "  fighter_a INTEGER NOT NULL REFERENCES fighters(id),"
    "  fighter_b INTEGER NOT NULL REFERENCES fighters(id),"
    "  round INTEGER NOT NULL DEFAULT 0 CHECK (round BETWEEN 0 AND rounds),"
    "  winner INTEGER NOT NULL DEFAULT -1 CHECK (winner IN (-1, 0, 1)),"
    "  method TEXT NOT NULL DEFAULT 'none'"
    "    CHECK (method IN ('none', 'ko', 'tko', 'dq', 'decision', 'points', 'draw')),"
    "  drawn_by TEXT NOT NULL DEFAULT 'none'"
    "    CHECK (drawn_by IN ('none', 'ko', 'tko', 'dq', 'decision', 'points', 'draw')),"
    "  reason TEXT NOT NULL DEFAULT 'none' CHECK (reason IN ('none', 'endurance', 'fatigue',"
    "    'injury', 'aggravated', 'broken_jaw', 'eyes_shut', 'towel')),"
    "  decision TEXT NOT NULL DEFAULT 'none'"
    "    CHECK (decision IN ('none', 'unanimous', 'split', 'majority')),"
    "  created INTEGER NOT NULL,"
    "  started INTEGER NOT NULL DEFAULT 0,"
    "  ended INTEGER NOT NULL DEFAULT 0,"
    /* The sheets the bout began with, as the ruleset's numbers separated by
     * spaces (boxing: str spd agl tgh hgt; sugarray: skill endurance), so a
     * finished bout replays after the fighters changed. */
    "  sheet_a TEXT NOT NULL,"
    "  sheet_b TEXT NOT NULL,"
    "  CONSTRAINT two_fighters CHECK (fighter_a <> fighter_b)"
    ");"
    /* The bot lists bouts by state, oldest first: (state, created, rowid). */
    "CREATE INDEX bouts_state ON bouts(state, created);"
    /* A round's orders, one per side; small rows, so without rowid. */
    "CREATE TABLE orders ("
    "  bout INTEGER NOT NULL REFERENCES bouts(id),"
    "  round INTEGER NOT NULL CHECK (round >= 1),"
    "  side INTEGER NOT NULL CHECK (side IN (0, 1)),"
    "  text TEXT NOT NULL CHECK (text <> ''),"
    "  source TEXT NOT NULL CHECK (source IN ('player', 'plan', 'last', 'default')),"
    "  line INTEGER NOT NULL DEFAULT 0 CHECK (line >= 0),"
    "  CONSTRAINT line_of_plan CHECK (line = 0 OR source = 'plan'),"
    "  PRIMARY KEY (bout, round, side)"
    ") WITHOUT ROWID;"
    /* Reports run to kilobytes: a rowid table keeps them off the index. */
    "CREATE TABLE rounds ("
    "  bout INTEGER NOT NULL REFERENCES bouts(id),"
    "  round INTEGER NOT NULL CHECK (round >= 1),"
    "  summary TEXT NOT NULL,"
    "  report TEXT NOT NULL,"
    "  PRIMARY KEY (bout, round)"
    ");"
    "CREATE TABLE plans ("
    "  fighter INTEGER PRIMARY KEY REFERENCES fighters(id),"
    "  text TEXT NOT NULL CHECK (text <> ''),"
    "  updated INTEGER NOT NULL"
    ");"
    "CREATE TABLE audit ("
    "  id INTEGER PRIMARY KEY,"
    "  time INTEGER NOT NULL,"
    "  who TEXT NOT NULL CHECK (who <> ''),"
    "  what TEXT NOT NULL CHECK (what <> '')"
    ");",

    /* 3: leagues (seed 004, rules.md section 3). A fighter's league is
     * stored by name like the other enums; the fighters a file already holds
     * start in 'bronze' with nothing else. A bout's kind says what it counts
     * for: an exhibition has no turn and no league, a title bout a turn, a
     * league bout both (the CHECKs hold them together; column CHECKs, as
     * ALTER TABLE cannot add a table constraint). The champion of a
     * ruleset is one row, `fighter` NULL while the title is vacant; turns are
     * numbered per ruleset from 1. A turn lists the active fighters of a
     * ruleset by id: the index (rules, retired) keeps that off a table
     * scan, with the rowid as the order. */
    "ALTER TABLE fighters ADD COLUMN league TEXT NOT NULL DEFAULT 'bronze'"
    "  CHECK (league IN ('bronze', 'silver', 'gold'));"
    "ALTER TABLE fighters ADD COLUMN gold_record INTEGER NOT NULL DEFAULT 0"
    "  CHECK (gold_record >= 0);"
    "ALTER TABLE fighters ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused >= 0);"
    "ALTER TABLE fighters ADD COLUMN trained INTEGER NOT NULL DEFAULT 0"
    "  CHECK (trained IN (0, 1));"
    "ALTER TABLE fighters ADD COLUMN missed INTEGER NOT NULL DEFAULT 0"
    "  CHECK (missed IN (0, 1));"
    "CREATE INDEX fighters_rules ON fighters(rules, retired);"
    "ALTER TABLE bouts ADD COLUMN kind TEXT NOT NULL DEFAULT 'exhibition'"
    "  CHECK (kind IN ('exhibition', 'league', 'title'));"
    "ALTER TABLE bouts ADD COLUMN turn INTEGER NOT NULL DEFAULT 0"
    "  CHECK (CASE kind WHEN 'exhibition' THEN turn = 0 ELSE turn >= 1 END);"
    "ALTER TABLE bouts ADD COLUMN league TEXT"
    "  CHECK (CASE kind WHEN 'league' THEN coalesce(league IN ('bronze', 'silver', 'gold'), 0)"
    "    ELSE league IS NULL END);"
    /* The rounds of a bout whose commentary has gone out: a crash between
     * storing a round and saying it leaves said < round, and the bot says
     * it after the restart. Bouts stored before had been said. */
    "ALTER TABLE bouts ADD COLUMN said INTEGER NOT NULL DEFAULT 0 CHECK (said >= 0);"
    "UPDATE bouts SET said = round;"
    "CREATE TABLE champions ("
    "  rules TEXT PRIMARY KEY CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  fighter INTEGER REFERENCES fighters(id),"
    "  defences INTEGER NOT NULL DEFAULT 0 CHECK (defences >= 0),"
    "  since INTEGER NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE TABLE turns ("
    "  rules TEXT NOT NULL CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  number INTEGER NOT NULL CHECK (number >= 1),"
    "  ran_at INTEGER NOT NULL,"
    "  PRIMARY KEY (rules, number)"
    ") WITHOUT ROWID;",

    /* 4: reports are derived, not stored. A bout replays from its seed,
     * sheets and orders, so the texts of its rounds are rebuilt when asked;
     * what is stored instead is a digest of what the engine reported (the
     * uint64's bit pattern as a signed INTEGER, like the seed): with each
     * round of a live bout, and with each bout once over or as far as it
     * went. Rows stored before keep their texts (a replay compares them);
     * new rounds store empty texts and a digest, league bouts no round rows
     * at all. NULL: no digest (stored before this migration).
     *
     * Bouts and orders are the rows a league turn writes by the thousand,
     * so both tables are rebuilt with their CHECKs spelled as comparisons,
     * which SQLite tests in place, where an IN list opens a temporary b-tree
     * for every row written. Same columns, same rows, same rules. The new
     * tables are filled beside the old ones, with orders and rounds
     * referring to the new bouts; the old ones are dropped children first,
     * and renaming the new bouts to `bouts` renames it in those references
     * too. */
    "CREATE TABLE bouts4 ("
    "  id INTEGER PRIMARY KEY,"
    "  rules TEXT NOT NULL CHECK (rules = 'boxing' OR rules = 'sugarray' OR rules = 'duel'),"
    "  channel TEXT NOT NULL CHECK (channel <> ''),"
    "  rounds INTEGER NOT NULL CHECK (rounds >= 1),"
    "  seed INTEGER NOT NULL DEFAULT 0,"
    "  state TEXT NOT NULL CHECK (state = 'challenge' OR state = 'live' OR state = 'over'"
    "    OR state = 'cancelled'),"
    "  fighter_a INTEGER NOT NULL REFERENCES fighters(id),"
    "  fighter_b INTEGER NOT NULL REFERENCES fighters(id),"
    "  round INTEGER NOT NULL DEFAULT 0 CHECK (round BETWEEN 0 AND rounds),"
    "  winner INTEGER NOT NULL DEFAULT -1 CHECK (winner = -1 OR winner = 0 OR winner = 1),"
    "  method TEXT NOT NULL DEFAULT 'none' CHECK (method = 'none' OR method = 'ko'"
    "    OR method = 'tko' OR method = 'dq' OR method = 'decision' OR method = 'points'"
    "    OR method = 'draw'),"
    "  drawn_by TEXT NOT NULL DEFAULT 'none' CHECK (drawn_by = 'none' OR drawn_by = 'ko'"
    "    OR drawn_by = 'tko' OR drawn_by = 'dq' OR drawn_by = 'decision'"
    "    OR drawn_by = 'points' OR drawn_by = 'draw'),"
    "  reason TEXT NOT NULL DEFAULT 'none' CHECK (reason = 'none' OR reason = 'endurance'"
    "    OR reason = 'fatigue' OR reason = 'injury' OR reason = 'aggravated'"
    "    OR reason = 'broken_jaw' OR reason = 'eyes_shut' OR reason = 'towel'),"
    "  decision TEXT NOT NULL DEFAULT 'none' CHECK (decision = 'none'"
    "    OR decision = 'unanimous' OR decision = 'split' OR decision = 'majority'),"
    "  created INTEGER NOT NULL,"
    "  started INTEGER NOT NULL DEFAULT 0,"
    "  ended INTEGER NOT NULL DEFAULT 0,"
    "  sheet_a TEXT NOT NULL,"
    "  sheet_b TEXT NOT NULL,"
    "  kind TEXT NOT NULL DEFAULT 'exhibition' CHECK (kind = 'exhibition' OR kind = 'league'"
    "    OR kind = 'title'),"
    "  turn INTEGER NOT NULL DEFAULT 0"
    "    CHECK (CASE kind WHEN 'exhibition' THEN turn = 0 ELSE turn >= 1 END),"
    "  league TEXT CHECK (CASE kind WHEN 'league' THEN coalesce(league = 'bronze'"
    "    OR league = 'silver' OR league = 'gold', 0) ELSE league IS NULL END),"
    "  said INTEGER NOT NULL DEFAULT 0 CHECK (said >= 0),"
    "  digest INTEGER,"
    "  CONSTRAINT two_fighters CHECK (fighter_a <> fighter_b)"
    ");"
    "INSERT INTO bouts4 (id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round,"
    "  winner, method, drawn_by, reason, decision, created, started, ended, sheet_a, sheet_b,"
    "  kind, turn, league, said)"
    "  SELECT id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round, winner,"
    "  method, drawn_by, reason, decision, created, started, ended, sheet_a, sheet_b, kind,"
    "  turn, league, said FROM bouts;"
    "CREATE TABLE orders4 ("
    "  bout INTEGER NOT NULL REFERENCES bouts4(id),"
    "  round INTEGER NOT NULL CHECK (round >= 1),"
    "  side INTEGER NOT NULL CHECK (side = 0 OR side = 1),"
    "  text TEXT NOT NULL CHECK (text <> ''),"
    "  source TEXT NOT NULL CHECK (source = 'player' OR source = 'plan' OR source = 'last'"
    "    OR source = 'default'),"
    "  line INTEGER NOT NULL DEFAULT 0 CHECK (line >= 0),"
    "  CONSTRAINT line_of_plan CHECK (line = 0 OR source = 'plan'),"
    "  PRIMARY KEY (bout, round, side)"
    ") WITHOUT ROWID;"
    "INSERT INTO orders4 (bout, round, side, text, source, line)"
    "  SELECT bout, round, side, text, source, line FROM orders;"
    "CREATE TABLE rounds4 ("
    "  bout INTEGER NOT NULL REFERENCES bouts4(id),"
    "  round INTEGER NOT NULL CHECK (round >= 1),"
    "  summary TEXT NOT NULL,"
    "  report TEXT NOT NULL,"
    "  digest INTEGER,"
    "  PRIMARY KEY (bout, round)"
    ");"
    "INSERT INTO rounds4 (bout, round, summary, report)"
    "  SELECT bout, round, summary, report FROM rounds;"
    "DROP TABLE orders;"
    "DROP TABLE rounds;"
    "DROP TABLE bouts;"
    "ALTER TABLE bouts4 RENAME TO bouts;"
    "ALTER TABLE orders4 RENAME TO orders;"
    "ALTER TABLE rounds4 RENAME TO rounds;"
    "CREATE INDEX bouts_state ON bouts(state, created);",

    /* 5: burnt passwords. A password said in a channel was seen by
     * everyone there: when it was an account's password, the account is
     * marked `burnt` and identify refuses it until the account has a new
     * one (setting a hash clears the mark). Every password given away so
     * (the account's hash, or a fresh salted hash of what was said) is kept
     * under the account's key, which need not be registered yet (a
     * `register` said in a channel), so that neither register nor passwd
     * ever takes it as a new password. Hashes only, never the text; the
     * newest few per key (db/account.c prunes). */
    "ALTER TABLE accounts ADD COLUMN burnt INTEGER NOT NULL DEFAULT 0 CHECK (burnt IN (0, 1));"
    "CREATE TABLE burnt_passwords ("
    "  key TEXT NOT NULL CHECK (key <> ''),"
    "  hash TEXT NOT NULL CHECK (hash <> ''),"
    "  burnt INTEGER NOT NULL,"
    "  PRIMARY KEY (key, hash)"
    ") WITHOUT ROWID;",

    /* 6: duels (seed 003, rules.md section 4). A duellist's abilities
     * take three new columns beside str (int is a keyword: intel), NULL
     * for the other rulesets; his equipment is one text, the pieces he
     * carries with their conditions, "weapon=longsword:1000000
     * torso=leather:985000" (slot=item:condition in millionths of 100 %,
     * names as the engine's tables spell them: db/kit.c), '' for nothing
     * and for every fighter of the other rulesets. A bout's sheets carry the
     * same text after the abilities, so a duel replays with the equipment
     * it began with. */
    "ALTER TABLE fighters ADD COLUMN dex INTEGER CHECK (dex IS NULL OR dex BETWEEN 1 AND 23);"
    "ALTER TABLE fighters ADD COLUMN con INTEGER CHECK (con IS NULL OR con BETWEEN 1 AND 23);"
    "ALTER TABLE fighters ADD COLUMN intel INTEGER"
    "  CHECK (intel IS NULL OR intel BETWEEN 1 AND 23);"
    "ALTER TABLE fighters ADD COLUMN kit TEXT NOT NULL DEFAULT '';",

    /* 7: integrity. The database's own random id (`meta` key 'id', 32 hex
     * digits; made by the bot's first open, db_open_marked, so a migration
     * gives every file the same contents), which the bot also writes into a
     * marker file beside it: a marker without its database is a database lost,
     * never silently replaced by an empty one. And the league turns begun
     * and not yet committed: a row is committed before a turn's transaction
     * and deleted inside it, so a row left over is a turn that was killed
     * before its commit (its results, all in that transaction, were not
     * stored). */
    "CREATE TABLE meta ("
    "  key TEXT PRIMARY KEY CHECK (key <> ''),"
    "  value TEXT NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE TABLE turns_begun ("
    "  rules TEXT PRIMARY KEY CHECK (rules = 'boxing' OR rules = 'sugarray' OR rules = 'duel'),"
    "  begun INTEGER NOT NULL"
    ") WITHOUT ROWID;",
    /* 8: who may be an admin, and password guessing (issue 23). `admin`
     * marks an account the operator made or named from the command line
     * (ringside --add-admin): a name in [bot] admins alone no longer makes
     * whoever registers it first an admin. `failures` counts the wrong
     * passwords given for the account since its last login (the limiter
     * waits longer after each, and the owner hears of them at his next
     * login); `failed_at` and `failed_from` say when and from where the
     * last came (a host, or a nick when the host is hidden). Kept here so
     * that a restart does not reset the limit. */
    "ALTER TABLE accounts ADD COLUMN admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));"
    "ALTER TABLE accounts ADD COLUMN failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0);"
    "ALTER TABLE accounts ADD COLUMN failed_at INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN failed_from TEXT NOT NULL DEFAULT '';",
    /* 9: how the wins ended, kept apart (issue 24). From this migration on
     * `kos` counts knockouts only; `tkos` the referee's and the doctor's
     * stoppages; `towels` the wins whose loser's corner, by his plan,
     * threw in the towel (a duel's plan yielding); `dqs` the opponent's
     * disqualifications; `forfeits` the wins whose loser conceded by his
     * own word (the forfeit command, or a yield he ordered himself).
     * Older records cannot be split: their `kos` keep every KO, TKO and
     * towel counted before, as they were, and the new counts start at 0. */
    "ALTER TABLE fighters ADD COLUMN tkos INTEGER NOT NULL DEFAULT 0 CHECK (tkos >= 0);"
    "ALTER TABLE fighters ADD COLUMN towels INTEGER NOT NULL DEFAULT 0 CHECK (towels >= 0);"
    "ALTER TABLE fighters ADD COLUMN dqs INTEGER NOT NULL DEFAULT 0 CHECK (dqs >= 0);"
    "ALTER TABLE fighters ADD COLUMN forfeits INTEGER NOT NULL DEFAULT 0 CHECK (forfeits >= 0);",
    /* 10 (issue 24; 9 is the words' result counts, merged before it): the
     * results listed by when they ended (the web's latest results, a
     * title history), read from an index rather than by sorting every
     * finished bout: a second with 250,000 bouts, a fraction of a
     * millisecond with it. */
    "CREATE INDEX bouts_ended ON bouts(state, ended);",
    /* 11: ratings (issue 25). Each fighter's Glicko-2 rating per ruleset
     * (game/rating.c): a row once he has fought a bout that counts; with
     * none he is a newcomer at 1500 +- 350. `rating_history` keeps one row
     * per fighter per bout that moved it (the rating before and after),
     * written in the transaction that stores the result: the end of a bout
     * says it, said again after a crash, and the web pages chart it. */
    "CREATE TABLE ratings ("
    "  fighter INTEGER NOT NULL REFERENCES fighters(id),"
    "  rules TEXT NOT NULL CHECK (rules = 'boxing' OR rules = 'sugarray' OR rules = 'duel'),"
    "  rating REAL NOT NULL,"
    "  rd REAL NOT NULL CHECK (rd > 0),"
    "  vol REAL NOT NULL CHECK (vol > 0),"
    "  bouts INTEGER NOT NULL DEFAULT 0 CHECK (bouts >= 0),"
    "  updated INTEGER NOT NULL,"
    "  PRIMARY KEY (fighter, rules)"
    ") WITHOUT ROWID;"
    "CREATE INDEX ratings_top ON ratings(rules, rating DESC);"
    "CREATE TABLE rating_history ("
    "  bout INTEGER NOT NULL REFERENCES bouts(id),"
    "  fighter INTEGER NOT NULL REFERENCES fighters(id),"
    "  side INTEGER NOT NULL CHECK (side IN (0, 1)),"
    "  before REAL NOT NULL,"
    "  rating REAL NOT NULL,"
    "  rd REAL NOT NULL,"
    "  vol REAL NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  PRIMARY KEY (bout, side)"
    ") WITHOUT ROWID;"
    "CREATE INDEX rating_history_fighter ON rating_history(fighter, bout);",
    /* 12 (issue 25): knockout tournaments. A tournament, its entrants
     * with their seeds, and its bracket: one row per bracket bout, linking
     * to the bout fought (an ordinary exhibition bout: the link table
     * keeps bouts' kind as it was), a NULL fighter for a bye. `stage` is
     * the bracket rounds drawn, `said` those the channel heard. */
    "CREATE TABLE tournaments ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  rules TEXT NOT NULL CHECK (rules = 'boxing' OR rules = 'sugarray' OR rules = 'duel'),"
    "  size INTEGER NOT NULL CHECK (size = 4 OR size = 8 OR size = 16 OR size = 32),"
    "  rounds INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),"
    "  mode TEXT NOT NULL CHECK (mode = 'live' OR mode = 'plans'),"
    "  channel TEXT NOT NULL CHECK (channel <> ''),"
    "  state TEXT NOT NULL CHECK (state = 'open' OR state = 'running' OR state = 'over'),"
    "  stage INTEGER NOT NULL DEFAULT 0 CHECK (stage >= 0),"
    "  said INTEGER NOT NULL DEFAULT 0 CHECK (said >= 0),"
    "  winner INTEGER REFERENCES fighters(id),"
    "  created INTEGER NOT NULL,"
    "  started INTEGER NOT NULL DEFAULT 0,"
    "  ended INTEGER NOT NULL DEFAULT 0,"
    "  last INTEGER NOT NULL DEFAULT 0"
    ");"
    "CREATE TABLE tournament_entries ("
    "  tournament INTEGER NOT NULL REFERENCES tournaments(id),"
    "  fighter INTEGER NOT NULL REFERENCES fighters(id),"
    "  seed INTEGER NOT NULL DEFAULT 0 CHECK (seed >= 0),"
    "  joined INTEGER NOT NULL,"
    "  PRIMARY KEY (tournament, fighter)"
    ") WITHOUT ROWID;"
    "CREATE TABLE tournament_bouts ("
    "  tournament INTEGER NOT NULL REFERENCES tournaments(id),"
    "  stage INTEGER NOT NULL CHECK (stage >= 1),"
    "  slot INTEGER NOT NULL CHECK (slot >= 0),"
    "  fighter_a INTEGER REFERENCES fighters(id),"
    "  fighter_b INTEGER REFERENCES fighters(id),"
    "  bout INTEGER UNIQUE REFERENCES bouts(id),"
    "  winner INTEGER REFERENCES fighters(id),"
    "  PRIMARY KEY (tournament, stage, slot)"
    ") WITHOUT ROWID;",
    /* 13 (issue 25, seasons; 11 and 12 are the ratings' and the
     * tournaments'): each fighter's record of the season running, kept
     * beside his career record and moved with it by db_fighter_save (the
     * standings rank by it); season 1 is everything played so far, so it
     * starts as the career record. A season ended is a row of `seasons`
     * (started 0: since the beginning; turn_last: the number of its last
     * league turn, 0 before the first), with the final standings of each
     * league as they were (names copied: the archive stays as it was said)
     * and its hall of fame: each league's winner and the International
     * Champion ('champion'). */
    "ALTER TABLE fighters ADD COLUMN season_wins INTEGER NOT NULL DEFAULT 0"
    "  CHECK (season_wins >= 0);"
    "ALTER TABLE fighters ADD COLUMN season_losses INTEGER NOT NULL DEFAULT 0"
    "  CHECK (season_losses >= 0);"
    "ALTER TABLE fighters ADD COLUMN season_draws INTEGER NOT NULL DEFAULT 0"
    "  CHECK (season_draws >= 0);"
    "UPDATE fighters SET season_wins = wins, season_losses = losses, season_draws = draws;"
    "CREATE TABLE seasons ("
    "  rules TEXT NOT NULL CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  number INTEGER NOT NULL CHECK (number >= 1),"
    "  started INTEGER NOT NULL CHECK (started >= 0),"
    "  ended INTEGER NOT NULL CHECK (ended >= started),"
    "  turns INTEGER NOT NULL CHECK (turns >= 0),"
    "  turn_last INTEGER NOT NULL CHECK (turn_last >= 0),"
    "  PRIMARY KEY (rules, number)"
    ") WITHOUT ROWID;"
    "CREATE TABLE season_standings ("
    "  rules TEXT NOT NULL,"
    "  season INTEGER NOT NULL,"
    "  league TEXT NOT NULL CHECK (league IN ('bronze', 'silver', 'gold')),"
    "  position INTEGER NOT NULL CHECK (position >= 1),"
    "  fighter INTEGER NOT NULL REFERENCES fighters(id),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  owner TEXT NOT NULL,"
    "  wins INTEGER NOT NULL CHECK (wins >= 0),"
    "  losses INTEGER NOT NULL CHECK (losses >= 0),"
    "  draws INTEGER NOT NULL CHECK (draws >= 0),"
    "  gold_record INTEGER NOT NULL CHECK (gold_record >= 0),"
    "  moved INTEGER NOT NULL CHECK (moved IN (-1, 0, 1)),"
    "  PRIMARY KEY (rules, season, league, position),"
    "  FOREIGN KEY (rules, season) REFERENCES seasons(rules, number)"
    ") WITHOUT ROWID;"
    "CREATE TABLE hall_of_fame ("
    "  rules TEXT NOT NULL,"
    "  season INTEGER NOT NULL,"
    "  honour TEXT NOT NULL CHECK (honour IN ('bronze', 'silver', 'gold', 'champion')),"
    "  fighter INTEGER NOT NULL REFERENCES fighters(id),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  owner TEXT NOT NULL,"
    "  wins INTEGER NOT NULL CHECK (wins >= 0),"
    "  losses INTEGER NOT NULL CHECK (losses >= 0),"
    "  draws INTEGER NOT NULL CHECK (draws >= 0),"
    "  PRIMARY KEY (rules, season, honour),"
    "  FOREIGN KEY (rules, season) REFERENCES seasons(rules, number)"
    ") WITHOUT ROWID;",
    /* 14 (issue 26, predictions; numbered 14 at merge): one spectator's
     * call on one live bout. `side` is the fighter called (0, 1) or -1 for
     * a draw; `method` the method's word ("ko", "tko", "dq", "decision",
     * "points", "yield") or '' for none; `round` 0 for none. `closes` is
     * the round after which it could no longer change (the pages show it
     * once the bout has fought that many). `hits` is NULL until the bout
     * ends, then set once in the result's own transaction: bit 1 the
     * winner (or the draw), 2 the method, 4 the round; one point a bit. */
    "CREATE TABLE predictions ("
    "  bout INTEGER NOT NULL REFERENCES bouts(id),"
    "  account INTEGER NOT NULL REFERENCES accounts(id),"
    "  side INTEGER NOT NULL CHECK (side IN (-1, 0, 1)),"
    "  method TEXT NOT NULL DEFAULT '',"
    "  round INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),"
    "  closes INTEGER NOT NULL CHECK (closes >= 1),"
    "  made INTEGER NOT NULL,"
    "  hits INTEGER CHECK (hits BETWEEN 0 AND 7),"
    "  PRIMARY KEY (bout, account)"
    ");"
    "CREATE INDEX predictions_account ON predictions(account, hits);",
    /* 15 (issue 27): the channels the bot joined because an admin invited
     * it ([irc] join_on_invite), joined again after a restart; a channel
     * operator's !part removes its row. `invited_by` is the account that
     * invited it, `joined` the unix time. */
    "CREATE TABLE channels (name TEXT PRIMARY KEY NOT NULL CHECK (length(name) BETWEEN 2 AND 63),"
    " invited_by TEXT NOT NULL DEFAULT '', joined INTEGER NOT NULL DEFAULT 0);",
    /* 16 (issue 28): the orders of a bout fought all at once (a league or
     * title bout) in one row of `bout_orders`, instead of a row per round
     * and side in `orders`:
     * a turn wrote 24 order rows a bout, most of its time and of the file.
     * The text is the bout's orders by round then side, one a line ('\n'
     * between them): the source's mark ('p' player, '@' plan, 'l' last,
     * 'd' default), the plan line (0 for the others), a space and the
     * order's normal form; or '=' alone, the same as that side's order of
     * the round before (a plan repeats itself). db/bout.c reads it back into
     * the same struct db_order values. Live bouts still store each order as
     * it comes, in `orders`. The finished league and title bouts with a
     * whole set of orders (both sides, rounds 1 to the last; no text with a
     * line break, which no order's normal form has) are converted;
     * the group_concat is a window ordered by round and side, so the lines
     * come in that order. */
    "CREATE TABLE bout_orders ("
    "  bout INTEGER PRIMARY KEY REFERENCES bouts(id),"
    "  orders TEXT NOT NULL CHECK (orders <> '')"
    ");"
    "INSERT INTO bout_orders (bout, orders)"
    "  SELECT bout, entries FROM ("
    "    SELECT bout, round, side, group_concat(CASE WHEN entry = prev THEN '=' ELSE entry END,"
    "      char(10)) OVER (PARTITION BY bout ORDER BY round, side"
    "      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS entries"
    "    FROM ("
    "      SELECT bout, round, side, entry,"
    "        lag(entry) OVER (PARTITION BY bout, side ORDER BY round) AS prev"
    "      FROM ("
    "        SELECT o.bout, o.round, o.side, CASE o.source WHEN 'player' THEN 'p'"
    "          WHEN 'plan' THEN '@' WHEN 'last' THEN 'l' ELSE 'd' END || o.line || ' ' || o.text"
    "          AS entry"
    "        FROM orders o JOIN bouts b ON b.id = o.bout"
    "        WHERE b.state = 'over' AND b.kind <> 'exhibition' AND o.bout IN ("
    "          SELECT bout FROM orders GROUP BY bout"
    "          HAVING count(*) = 2 * max(round) AND max(instr(text, char(10))) = 0))))"
    "  WHERE round = 1 AND side = 0;"
    "DELETE FROM orders WHERE bout IN (SELECT bout FROM bout_orders);",
    /* 17 (issue 28, numbered 17 at merge): change stamps, so that a reader who keeps the
     * fighters and their ratings (ringside-web's standings) reads again
     * only the rows changed since it last looked: every statement that
     * writes a fighter's row (db_fighter_create, _save, _retire,
     * db_season_reset) sets its `changed` to one more than the highest of
     * the table, and so does every write of a rating (db_rating_put), in
     * the writer's transaction, so stamps only grow from commit to commit.
     * 0: not changed since this migration (the reader's first look reads
     * every row). A row written by any other hand (an UPDATE or INSERT
     * that leaves the stamp as it was, typed into sqlite3) is stamped by
     * the triggers, so that the pages follow it too; the statements set
     * it themselves because a trigger that fires costs a league turn's
     * 10,000 saves several times what they pay for one that does not. */
    "ALTER TABLE fighters ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX fighters_changed ON fighters(changed);"
    "ALTER TABLE ratings ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX ratings_changed ON ratings(changed);"
    "CREATE TRIGGER fighters_stamp_update AFTER UPDATE ON fighters"
    " WHEN new.changed = old.changed BEGIN"
    " UPDATE fighters SET changed = (SELECT max(changed) FROM fighters) + 1 WHERE id = new.id;"
    " END;"
    "CREATE TRIGGER fighters_stamp_insert AFTER INSERT ON fighters WHEN new.changed = 0 BEGIN"
    " UPDATE fighters SET changed = (SELECT max(changed) FROM fighters) + 1 WHERE id = new.id;"
    " END;"
    "CREATE TRIGGER ratings_stamp_update AFTER UPDATE ON ratings"
    " WHEN new.changed = old.changed BEGIN"
    " UPDATE ratings SET changed = (SELECT max(changed) FROM ratings) + 1"
    " WHERE fighter = new.fighter AND rules = new.rules;"
    " END;"
    "CREATE TRIGGER ratings_stamp_insert AFTER INSERT ON ratings WHEN new.changed = 0 BEGIN"
    " UPDATE ratings SET changed = (SELECT max(changed) FROM ratings) + 1"
    " WHERE fighter = new.fighter AND rules = new.rules;"
    " END;",
    /* 18 (issue 29): several bots, one world. An account belongs to the
     * network whose bot made it ('' for a bot without [bot] network, which
     * is every account made before): alice on libera and alice on oftc are
     * two players, so a key is unique within its network only. The burnt
     * passwords are kept per network alike. A bout is run by the bot of
     * its `network` (the one that created it): a bot resumes at start only
     * its own network's challenges and live bouts. Fighters, leagues,
     * ratings and champions stay shared.
     *
     * The UNIQUE of accounts.key cannot be dropped in place: the table is
     * rebuilt (same ids, same rows, `network` last, as PostgreSQL's ALTER
     * TABLE puts it). Fighters and predictions refer to accounts, so this
     * migration runs with foreign keys off, as SQLite's recipe for a
     * rebuild asks, and db.c's migrate() runs PRAGMA foreign_key_check
     * before its COMMIT (migration_rebuilds). */
    "CREATE TABLE accounts18 ("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL CHECK (key <> ''),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  hash TEXT NOT NULL,"
    "  banned INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1)),"
    "  created INTEGER NOT NULL,"
    "  burnt INTEGER NOT NULL DEFAULT 0 CHECK (burnt IN (0, 1)),"
    "  admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),"
    "  failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),"
    "  failed_at INTEGER NOT NULL DEFAULT 0,"
    "  failed_from TEXT NOT NULL DEFAULT '',"
    "  network TEXT NOT NULL DEFAULT '',"
    "  UNIQUE (network, key)"
    ");"
    "INSERT INTO accounts18 (id, key, name, hash, banned, created, burnt, admin, failures,"
    "  failed_at, failed_from)"
    "  SELECT id, key, name, hash, banned, created, burnt, admin, failures, failed_at,"
    "  failed_from FROM accounts;"
    "DROP TABLE accounts;"
    "ALTER TABLE accounts18 RENAME TO accounts;"
    /* The key's columns first, in its order: SQLite 3.40's integrity_check
     * reads a WITHOUT ROWID table whose key columns are not its first ones
     * wrongly ("NULL value in burnt_passwords.burnt"). db/ names columns
     * in every statement, so the order is PostgreSQL's business only. */
    "CREATE TABLE burnt18 ("
    "  network TEXT NOT NULL DEFAULT '',"
    "  key TEXT NOT NULL CHECK (key <> ''),"
    "  hash TEXT NOT NULL CHECK (hash <> ''),"
    "  burnt INTEGER NOT NULL,"
    "  PRIMARY KEY (network, key, hash)"
    ") WITHOUT ROWID;"
    "INSERT INTO burnt18 (key, hash, burnt) SELECT key, hash, burnt FROM burnt_passwords;"
    "DROP TABLE burnt_passwords;"
    "ALTER TABLE burnt18 RENAME TO burnt_passwords;"
    "ALTER TABLE bouts ADD COLUMN network TEXT NOT NULL DEFAULT '';",
    /* 19 (issue 29): several writers on one database. The change stamps
     * and the league's turn numbers are one more than the highest, read
     * by the writer; on PostgreSQL two writers of READ COMMITTED read the
     * same highest, so there this migration gives the stamps and the
     * numbers functions that take one advisory lock before they read it
     * (db/sql_pg.c's pg_migrations, schema_pg.sql). SQLite has one writer
     * at a time (BEGIN IMMEDIATE, and an autocommit statement holds the
     * write lock while it reads the highest): nothing to change. */
    "",
    /* 20 (issue 29): the relay table, where the bots of two networks
     * leave each other the lines and commands of a bout between their
     * players (db/notify.c): PostgreSQL only (schema_pg.sql, sql_pg.c's
     * pg_migrations). On SQLite one bot owns the file and relays nothing:
     * nothing to change. */
    "",
    /* 21 (session 39): how many fighters each account created on the
     * last day it created one (`made_day`: the unix time's day number,
     * `made`: the count that day), for game_create's daily cap. Kept on
     * the account because a fighter retired without ever having fought
     * is deleted (db_fighter_remove), so counting his rows would let
     * create and retire go round without end. */
    "ALTER TABLE accounts ADD COLUMN made_day INTEGER NOT NULL DEFAULT 0 CHECK (made_day >= 0);"
    "ALTER TABLE accounts ADD COLUMN made INTEGER NOT NULL DEFAULT 0 CHECK (made >= 0);",
    /* 22 (session 39): the nick each account was last identified under
     * ('' for none yet), written when its player identifies (or is seen
     * under a new nick while identified), so that a live bout's lines
     * after a restart, before he identifies again, reach that nick rather
     * than the account's name. */
    "ALTER TABLE accounts ADD COLUMN last_nick TEXT NOT NULL DEFAULT '';",
    /* 23 (session 39): how many challenges each account issued on the
     * last day it issued one (`challenges_day`: the unix time's day
     * number, `challenges`: the count that day), for game_challenge's
     * daily cap (a challenge withdrawn, declined or expired leaves a
     * cancelled bout row). Kept on the account, as migration 21's count:
     * a bout names fighters, not accounts, so counting the day's bouts
     * would join and scan them at every challenge. */
    "ALTER TABLE accounts ADD COLUMN challenges_day INTEGER NOT NULL DEFAULT 0"
    " CHECK (challenges_day >= 0);"
    "ALTER TABLE accounts ADD COLUMN challenges INTEGER NOT NULL DEFAULT 0"
    " CHECK (challenges >= 0);",
    /* 24 (session 39): a plans tournament's bouts, fought all at once and
     * told by the tournament's round lines, were stored as exhibitions
     * with nothing said (said 0), so every (re)connection said all their
     * rounds again (db_bout_unsaid); game/tournament.c now stores them as
     * said, and those stored before are marked so. A live tournament's
     * bouts are live bouts whose commentary counts as any other's. */
    "UPDATE bouts SET said = round WHERE said < round AND id IN"
    " (SELECT tb.bout FROM tournament_bouts tb JOIN tournaments t ON t.id = tb.tournament"
    " WHERE t.mode = 'plans');",
};

#define MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

/* ------------------------------------------------------------ statements */

/* Fighter statements share parameter numbers so one function binds the
 * state of a fighter for both INSERT and UPDATE: ?1 id, ?2 account_id, ?3
 * key, ?4 name, ?5 rules, ?6-?12 str spd agl tgh hgt skill endurance, ?13-?16
 * wins losses draws kos, ?17 training_points, ?18 retired, ?19 created, ?20
 * league, ?21 gold_record, ?22 paused, ?23 trained, ?24 missed, (migration 6)
 * ?25-?27 dex con intel, ?28 kit, (migration 9) ?29-?32 tkos towels dqs
 * forfeits; and (migration 13) a new fighter's season record is ?13-?15,
 * read as the last three columns; and
 * FIGHTER_COLUMNS reads them in that order (the owner's name third), then
 * (migration 18) the owner's network. */
#define FIGHTER_COLUMNS                                                                            \
    "f.id, f.account_id, a.name, f.name, f.rules, f.str, f.spd, f.agl, f.tgh, f.hgt, f.skill,"     \
    " f.endurance, f.wins, f.losses, f.draws, f.kos, f.training_points, f.retired, f.created,"     \
    " f.league, f.gold_record, f.paused, f.trained, f.missed, f.dex, f.con, f.intel, f.kit,"       \
    " f.tkos, f.towels, f.dqs, f.forfeits, f.season_wins, f.season_losses, f.season_draws,"        \
    " a.network FROM fighters f JOIN accounts a ON a.id = f.account_id"

/* A fighter's new change stamp (migration 17): one more than the highest,
 * through the stamp's index; every statement that writes a fighter's row
 * sets it (and STMT_RATING_PUT a rating's, alike). */
#define FIGHTER_STAMP DB_STAMP_FIGHTERS

/* Bout statements likewise: ?1 id, ?2 rules, ?3 channel, ?4 rounds, ?5
 * seed, ?6 state, ?7 fighter_a, ?8 fighter_b, ?9 round, ?10 winner, ?11
 * method, ?12 drawn_by, ?13 reason, ?14 decision, ?15 created, ?16 started,
 * ?17 ended, ?18 sheet_a, ?19 sheet_b, ?20 kind, ?21 turn, ?22 league, ?23
 * digest; and
 * BOUT_COLUMNS reads them in that order, from column 0. */
#define BOUT_COLUMNS                                                                               \
    "id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round, winner, method,"        \
    " drawn_by, reason, decision, created, started, ended, sheet_a, sheet_b, kind, turn, league,"  \
    " digest FROM bouts"

/* The season's count `col` moved by what a save adds to the career's
 * `career` (new value `p`), never below 0: a CASE, not SQLite's max(a, b),
 * which PostgreSQL spells greatest(). */
#define SEASON_MOVE(col, p, career)                                                                \
    " " col " = CASE WHEN " col " + " p " - " career " > 0 THEN " col " + " p " - " career         \
    " ELSE 0 END,"

/* What db_fighter_save writes but the league (see fighter_bind_state). */
/* clang-format off */
#define FIGHTER_SAVE_SET                                                                           \
    "str = ?6, spd = ?7, agl = ?8, tgh = ?9, hgt = ?10,"                                           \
    SEASON_MOVE("season_wins", "?13", "wins")                                                      \
    SEASON_MOVE("season_losses", "?14", "losses")                                                  \
    SEASON_MOVE("season_draws", "?15", "draws")                                                    \
    " skill = ?11, endurance = ?12, wins = ?13, losses = ?14, draws = ?15,"                        \
    " kos = ?16, training_points = ?17, gold_record = ?21,"                                        \
    " paused = ?22, trained = ?23, missed = ?24, dex = ?25, con = ?26,"                            \
    " intel = ?27, kit = ?28, tkos = ?29, towels = ?30, dqs = ?31, forfeits = ?32,"                \
    " changed = " FIGHTER_STAMP
/* clang-format on */

static const char *const stmt_sql[STMT_COUNT] = {
    /* Table-valued pragmas are evaluated when stepped, not when prepared. */
    [STMT_USER_VERSION] = "SELECT user_version FROM pragma_user_version",
    [STMT_JOURNAL_MODE] = "SELECT journal_mode FROM pragma_journal_mode",
    [STMT_FOREIGN_KEYS] = "SELECT foreign_keys FROM pragma_foreign_keys",

    /* The INSERTs whose id is read (an account's, a fighter's, a bout's)
     * do not end in RETURNING id here: on SQLite it fills a temporary
     * table for every row (about 8,000 instructions an INSERT, a tenth of
     * a league turn's), and SQLite has the id as the last insert rowid.
     * db_stmt_returns_id names them for the PostgreSQL backend, which adds
     * it and reads the column. */
    /* An account is looked up, made, burnt within the connection's
     * network (migration 18, db_network_set): the last parameter. */
    [STMT_ACCOUNT_INSERT] = "INSERT INTO accounts (key, name, hash, banned, created, network)"
                            " VALUES (?1, ?2, ?3, 0, ?4, ?5)",
    [STMT_ACCOUNT_GET] = "SELECT id, name, hash, banned, created, burnt, admin, failures,"
                         " failed_at, failed_from FROM accounts WHERE network = ?2 AND key = ?1",
    [STMT_ACCOUNT_SET_HASH] = "UPDATE accounts SET hash = ?2, burnt = 0 WHERE id = ?1",
    [STMT_ACCOUNT_SET_BANNED] = "UPDATE accounts SET banned = ?2 WHERE id = ?1",

    [STMT_FIGHTER_INSERT] =
        "INSERT INTO fighters (account_id, key, name, rules, str, spd, agl, tgh, hgt, skill,"
        " endurance, wins, losses, draws, kos, training_points, retired, created, league,"
        " gold_record, paused, trained, missed, dex, con, intel, kit, tkos, towels, dqs, forfeits,"
        " season_wins, season_losses, season_draws, changed)"
        " VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
        " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28,"
        " ?29, ?30, ?31, ?32, ?13, ?14, ?15, " FIGHTER_STAMP ")",
    [STMT_FIGHTER_GET] = "SELECT " FIGHTER_COLUMNS " WHERE f.key = ?1",
    [STMT_FIGHTER_LIST] = "SELECT " FIGHTER_COLUMNS " WHERE f.account_id = ?1"
                          " AND (?2 <> 0 OR f.retired = 0) ORDER BY f.created, f.id LIMIT ?3",
    /* The season's record (migration 13) moves with the career record:
     * whatever a save adds to wins, losses or draws (a bout's result,
     * wherever it was fought, or an admin's set) it adds to the season's
     * too, in the same statement, from the row as it was; a season's end
     * sets it to 0 (db_season_reset). */
    [STMT_FIGHTER_SAVE] = "UPDATE fighters SET league = ?20, " FIGHTER_SAVE_SET " WHERE id = ?1",
    /* The same for a fighter whose league is as stored: SQLite checks only
     * the CHECKs of the columns set, and league's IN list builds a
     * temporary b-tree for every row (a league turn saves thousands). */
    [STMT_FIGHTER_SAVE_LEAGUE_KEPT] = "UPDATE fighters SET " FIGHTER_SAVE_SET " WHERE id = ?1",
    [STMT_FIGHTER_RETIRE] =
        "UPDATE fighters SET retired = 1, changed = " FIGHTER_STAMP " WHERE id = ?1",
    [STMT_FIGHTER_GET_ID] = "SELECT " FIGHTER_COLUMNS " WHERE f.id = ?1",
    [STMT_FIGHTER_LIST_RULES] = "SELECT " FIGHTER_COLUMNS " WHERE f.rules = ?1 AND f.retired = 0"
                                " ORDER BY f.id LIMIT ?2",
    /* The fighters stamped after ?1 (migration 17), through the stamp's
     * index, and the highest stamp. */
    [STMT_FIGHTER_CHANGED] = "SELECT " FIGHTER_COLUMNS " WHERE f.changed > ?1",
    [STMT_FIGHTER_STAMP] = "SELECT coalesce(max(changed), 0) FROM fighters",

    [STMT_BEGIN] = "BEGIN IMMEDIATE",
    [STMT_COMMIT] = "COMMIT",
    [STMT_ROLLBACK] = "ROLLBACK",

    [STMT_BOUT_INSERT] =
        "INSERT INTO bouts (rules, channel, rounds, seed, state, fighter_a, fighter_b, round,"
        " winner, method, drawn_by, reason, decision, created, started, ended, sheet_a, sheet_b,"
        " kind, turn, league, digest, network)"
        " VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
        " ?18, ?19, ?20, ?21, ?22, ?23, ?24)",
    [STMT_BOUT_GET] = "SELECT " BOUT_COLUMNS " WHERE id = ?1",
    [STMT_BOUT_SAVE] = "UPDATE bouts SET seed = ?5, state = ?6, round = ?9, winner = ?10,"
                       " method = ?11, drawn_by = ?12, reason = ?13, decision = ?14,"
                       " started = ?16, ended = ?17, digest = ?23 WHERE id = ?1",
    /* ?3: a network's bouts only (a bot's connection), or NULL for all
     * (the pages'): migration 18. */
    [STMT_BOUT_LIST] = "SELECT " BOUT_COLUMNS " WHERE state = ?1"
                       " AND (CAST(?3 AS TEXT) IS NULL OR network = ?3)"
                       " ORDER BY created, id LIMIT ?2",

    /* The web pages: a fighter's bouts being fought, then those fought,
     * the last to end first; finished bouts, the last to end first, of
     * one ruleset and kind or any (NULL). By when they ended, not by
     * number: a bout challenged early may end after a whole league turn.
     * The id breaks ties (a turn's bouts end in the same second). */
    [STMT_BOUT_LIST_FIGHTER] = "SELECT " BOUT_COLUMNS " WHERE (fighter_a = ?1 OR fighter_b = ?1)"
                               " AND state IN ('live', 'over')"
                               " ORDER BY state = 'live' DESC, ended DESC, id DESC LIMIT ?2",
    /* CAST: PostgreSQL takes a parameter's type from its first use. */
    [STMT_BOUT_LIST_OVER] = "SELECT " BOUT_COLUMNS " WHERE state = 'over'"
                            " AND (CAST(?1 AS TEXT) IS NULL OR rules = ?1)"
                            " AND (CAST(?2 AS TEXT) IS NULL OR kind = ?2)"
                            " ORDER BY ended DESC, id DESC LIMIT ?3",
    /* Not the table-valued form: that one prepares "PRAGMA data_version"
     * again at every step (about twice the time); this one reads the
     * version when stepped, too. */
    [STMT_DATA_VERSION] = "PRAGMA data_version",
    [STMT_BEGIN_READ] = "BEGIN DEFERRED",

    [STMT_ORDER_PUT] = "INSERT INTO orders (bout, round, side, text, source, line)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (bout, round, side)"
                       " DO UPDATE SET text = excluded.text, source = excluded.source,"
                       " line = excluded.line",
    [STMT_ORDER_LIST] = "SELECT round, side, text, source, line FROM orders WHERE bout = ?1"
                        " ORDER BY round, side LIMIT ?2",
    /* Migration 16: a bout's orders in one row. */
    [STMT_ORDER_BOUT_PUT] = "INSERT INTO bout_orders (bout, orders) VALUES (?1, ?2)",
    [STMT_ORDER_BOUT_GET] = "SELECT orders FROM bout_orders WHERE bout = ?1",
    [STMT_ORDER_BOUT_DELETE] = "DELETE FROM bout_orders WHERE bout = ?1",
    /* A league turn's reads (issue 28). */
    [STMT_LEAGUE_COUNT] = "SELECT count(*) FROM fighters WHERE rules = ?1 AND retired = 0",
    /* By f.id, the order of the fighters' index: by p.fighter, the same,
     * SQLite sorted them again. */
    [STMT_LEAGUE_PLANS] =
        "SELECT p.fighter, p.text FROM plans p JOIN fighters f ON f.id = p.fighter"
        " WHERE f.rules = ?1 AND f.retired = 0 ORDER BY f.id",
    [STMT_ROUND_PUT] = "INSERT INTO rounds (bout, round, summary, report, digest)"
                       " VALUES (?1, ?2, '', '', ?3) ON CONFLICT (bout, round)"
                       " DO UPDATE SET summary = '', report = '', digest = excluded.digest",
    [STMT_ROUND_REPORT] = "SELECT report FROM rounds WHERE bout = ?1 AND round = ?2",
    [STMT_ROUND_DIGEST] = "SELECT digest FROM rounds WHERE bout = ?1 AND round = ?2",
    [STMT_BOUT_SAID] = "UPDATE bouts SET said = CASE WHEN said > ?2 THEN said ELSE ?2 END"
                       " WHERE id = ?1",
    [STMT_BOUT_UNSAID] = "SELECT id, said FROM bouts WHERE kind = 'exhibition' AND said < round"
                         " AND (CAST(?2 AS TEXT) IS NULL OR network = ?2) ORDER BY id LIMIT ?1",

    [STMT_PLAN_SET] = "INSERT INTO plans (fighter, text, updated) VALUES (?1, ?2, ?3)"
                      " ON CONFLICT (fighter) DO UPDATE SET text = excluded.text,"
                      " updated = excluded.updated",
    [STMT_PLAN_GET] = "SELECT text FROM plans WHERE fighter = ?1",
    [STMT_PLAN_CLEAR] = "DELETE FROM plans WHERE fighter = ?1",

    [STMT_AUDIT] = "INSERT INTO audit (time, who, what) VALUES (?1, ?2, ?3)",

    /* A new champion holds the title from `now`; the same one defending it
     * (or the title vacant again: NULL) keeps his date. In DO UPDATE the
     * table's name is the row as it was (a bare name is ambiguous on
     * PostgreSQL). */
    [STMT_CHAMPION_GET] = "SELECT fighter, defences FROM champions WHERE rules = ?1",
    [STMT_CHAMPION_SET] = "INSERT INTO champions (rules, fighter, defences, since)"
                          " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (rules) DO UPDATE SET"
                          " since = CASE WHEN champions.fighter IS NOT DISTINCT FROM"
                          " excluded.fighter THEN champions.since ELSE excluded.since END,"
                          " fighter = excluded.fighter, defences = excluded.defences",
    /* The next number is taken inside the INSERT, so two connections adding
     * a turn at once cannot get the same one (the second waits for the
     * write lock, then sees the first). */
    [STMT_TURN_ADD] = "INSERT INTO turns (rules, number, ran_at)"
                      " SELECT ?1, coalesce(max(number), 0) + 1, ?2 FROM turns WHERE rules = ?1"
                      " RETURNING number",
    [STMT_TURN_LAST] = "SELECT number, ran_at FROM turns WHERE rules = ?1"
                       " ORDER BY number DESC LIMIT 1",

    /* Burning an account's password keeps its hash as it is: the string
     * identify would compare with. A hash burnt twice keeps its first date. */
    [STMT_ACCOUNT_BURN] = "UPDATE accounts SET burnt = 1 WHERE network = ?2 AND key = ?1",
    [STMT_BURNT_ADD] = "INSERT INTO burnt_passwords (key, hash, burnt, network)"
                       " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (network, key, hash) DO NOTHING",
    [STMT_BURNT_ADD_CURRENT] = "INSERT INTO burnt_passwords (key, hash, burnt, network)"
                               " SELECT key, hash, ?2, network FROM accounts"
                               " WHERE network = ?3 AND key = ?1"
                               " ON CONFLICT (network, key, hash) DO NOTHING",
    [STMT_BURNT_PRUNE] = "DELETE FROM burnt_passwords WHERE network = ?3 AND key = ?1"
                         " AND hash NOT IN (SELECT hash FROM burnt_passwords"
                         " WHERE network = ?3 AND key = ?1 ORDER BY burnt DESC, hash LIMIT ?2)",
    [STMT_BURNT_LIST] = "SELECT hash FROM burnt_passwords WHERE network = ?3 AND key = ?1"
                        " ORDER BY burnt DESC, hash LIMIT ?2",
    /* A network's first bot on a database grown from a single bot's (every
     * account of no network): they become its own, and so do the burnt
     * passwords (db_network_claim). */
    [STMT_ACCOUNT_CLAIM] = "UPDATE accounts SET network = ?1 WHERE network = ''"
                           " AND NOT EXISTS (SELECT 1 FROM accounts WHERE network <> '')",
    [STMT_BURNT_CLAIM] = "UPDATE burnt_passwords SET network = ?1 WHERE network = ''",

    /* Migration 7. */
    [STMT_META_ID] = "SELECT value FROM meta WHERE key = 'id'",
    [STMT_META_ID_MAKE] = "INSERT INTO meta (key, value) VALUES ('id', lower(hex(randomblob(16))))"
                          " ON CONFLICT (key) DO NOTHING",
    [STMT_TURN_BEGUN] = "INSERT INTO turns_begun (rules, begun) VALUES (?1, ?2)"
                        " ON CONFLICT (rules) DO UPDATE SET begun = excluded.begun",
    [STMT_TURN_DONE] = "DELETE FROM turns_begun WHERE rules = ?1",
    [STMT_TURN_UNFINISHED] = "SELECT rules, begun FROM turns_begun ORDER BY rules LIMIT ?1",
    /* Migration 8. A failure is counted up to a bound, so that a long
     * attack never overflows it. */
    [STMT_ACCOUNT_SET_ADMIN] = "UPDATE accounts SET admin = ?2 WHERE id = ?1",
    [STMT_ACCOUNT_FAILED] = "UPDATE accounts SET failures = CASE WHEN failures < 1000000"
                            " THEN failures + 1 ELSE 1000000 END,"
                            " failed_at = ?2, failed_from = ?3 WHERE id = ?1",
    [STMT_ACCOUNT_FAILURES_CLEAR] = "UPDATE accounts SET failures = 0 WHERE id = ?1",
    /* Migration 11: ratings (db/rating.c). */
    [STMT_RATING_GET] = "SELECT rating, rd, vol, bouts FROM ratings WHERE fighter = ?1"
                        " AND rules = ?2",
    [STMT_RATING_PUT] = "INSERT INTO ratings (fighter, rules, rating, rd, vol, bouts, updated,"
                        " changed) VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6,"
                        " " DB_STAMP_RATINGS ")"
                        " ON CONFLICT (fighter, rules)"
                        " DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
                        " vol = excluded.vol, bouts = ratings.bouts + 1,"
                        " updated = excluded.updated,"
                        " changed = excluded.changed",
    /* The ratings stamped after ?1 (migration 17), and the highest stamp. */
    [STMT_RATING_CHANGED] = "SELECT fighter, rules, rating, rd, vol, bouts FROM ratings"
                            " WHERE changed > ?1",
    [STMT_RATING_STAMP] = "SELECT coalesce(max(changed), 0) FROM ratings",
    [STMT_RATING_HISTORY_PUT] = "INSERT INTO rating_history (bout, fighter, side, before, rating,"
                                " rd, vol, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    [STMT_RATING_HISTORY] = "SELECT bout, before, rating, rd, at FROM rating_history"
                            " WHERE fighter = ?1 ORDER BY bout DESC LIMIT ?2",
    [STMT_RATING_OF_BOUT] = "SELECT side, fighter, before, rating, rd FROM rating_history"
                            " WHERE bout = ?1 ORDER BY side",
    [STMT_RATING_TOP] = "SELECT r.fighter, f.name, r.rating, r.rd, r.bouts FROM ratings r"
                        " JOIN fighters f ON f.id = r.fighter WHERE r.rules = ?1"
                        " AND f.retired = 0 ORDER BY r.rating DESC, r.rd, f.id LIMIT ?2 OFFSET ?3",
    [STMT_RATING_COUNT] = "SELECT count(*) FROM ratings r JOIN fighters f ON f.id = r.fighter"
                          " WHERE r.rules = ?1 AND f.retired = 0",
    /* A league turn's ratings (db/rating.c): every rating of its ruleset
     * read once, each fighter's written once with his bouts counted. In
     * the table's own order (by fighter: `rules || ''` keeps SQLite off
     * ratings_top, whose order it sorted again, after a seek a row). */
    [STMT_RATING_EACH] = "SELECT fighter, rating, rd, vol, bouts FROM ratings"
                         " WHERE rules || '' = ?1 ORDER BY fighter",
    [STMT_RATING_SET] = "INSERT INTO ratings (fighter, rules, rating, rd, vol, bouts, updated,"
                        " changed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
                        " " DB_STAMP_RATINGS ")"
                        " ON CONFLICT (fighter, rules)"
                        " DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
                        " vol = excluded.vol, bouts = excluded.bouts, updated = excluded.updated,"
                        " changed = excluded.changed",
    [STMT_RATING_HISTORY_PUT2] = "INSERT INTO rating_history (bout, fighter, side, before, rating,"
                                 " rd, vol, at) VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, ?7),"
                                 " (?1, ?8, 1, ?9, ?10, ?11, ?12, ?7)",
};

/* ------------------------------------------------------------ enum names */

static const char *const league_names[] = {
    [LEAGUE_BRONZE] = "bronze",
    [LEAGUE_SILVER] = "silver",
    [LEAGUE_GOLD] = "gold",
};
_Static_assert(sizeof(league_names) / sizeof(league_names[0]) == LEAGUE_COUNT, "leagues");

const struct db_names db_leagues = {"league", league_names, LEAGUE_COUNT};

/* --------------------------------------------------------------- helpers */

int db_fail(struct db *db, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(db->err, sizeof(db->err), fmt, ap);
    va_end(ap);
    return DB_ERROR;
}

sqlite3_stmt *db_prepare(struct db *db, const char *sql)
{
    sqlite3_stmt *st = NULL;

    if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK) {
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

sqlite3_stmt *db_prepare_kept(struct db *db, const char *sql)
{
    for (int i = 0; i < db->nkept; i++)
        if (db->kept[i].sql == sql)
            return db->kept[i].st;
    sqlite3_stmt *st = db_prepare(db, sql);
    if (st && db->nkept < DB_KEPT_MAX) {
        db->kept[db->nkept].sql = sql;
        db->kept[db->nkept++].st = st;
    }
    return st;
}

void db_unprepare(struct db *db, sqlite3_stmt *st)
{
    for (int i = 0; i < db->nkept; i++)
        if (db->kept[i].st == st) {
            db_stmt_done(st);
            return;
        }
    sqlite3_finalize(st);
}

int db_text_check(struct db *db, const char *what, const char *s, size_t size)
{
    if (!s)
        return db_fail(db, "%s is missing", what);
    size_t n = strlen(s);
    if (n == 0)
        return db_fail(db, "%s is empty", what);
    if (n >= size)
        return db_fail(db, "%s is %zu bytes, the most is %zu", what, n, size - 1);
    return DB_OK;
}

int db_text_check_len(struct db *db, const char *what, const char *s, size_t size)
{
    if (!s)
        return db_fail(db, "%s is missing", what);
    size_t n = strlen(s);
    if (n >= size)
        return db_fail(db, "%s is %zu bytes, the most is %zu", what, n, size - 1);
    return DB_OK;
}

const char *db_rules_name(enum rules rules)
{
    const struct ruleset *rs = ruleset_get(rules);

    return rs ? rs->name : NULL;
}

int db_rules_find(const char *name)
{
    const struct ruleset *rs = name ? ruleset_find(name) : NULL;

    return rs && db_rules_name(rs->id) ? (int)rs->id : -1;
}

const char *db_name_of(const struct db_names *t, int value)
{
    return value >= 0 && value < t->count ? t->names[value] : NULL;
}

int db_column_name(struct db *db, sqlite3_stmt *st, int col, const struct db_names *t,
                   const char *row, int64_t id, int *out)
{
    const char *s = (const char *)sqlite3_column_text(st, col);

    if (s)
        for (int i = 0; i < t->count; i++)
            if (t->names[i] && strcmp(t->names[i], s) == 0) {
                *out = i;
                return DB_OK;
            }
    if (!s && sqlite3_errcode(db->conn) == SQLITE_NOMEM)
        return db_fail(db, "out of memory reading the %s of %s %" PRId64, t->what, row, id);
    return db_fail(db, "%s %" PRId64 " has %s '%s', which this ringside does not know", row, id,
                   t->what, s ? s : "NULL");
}

/* Notes which file the connection opened (its device and inode), for
 * db_gone; an in-memory database has none. */
static void file_note(struct db *db)
{
    const char *file = sqlite3_db_filename(db->conn, "main");
    struct stat sb;

    if (!file || !*file || strlen(file) >= sizeof(db->file) || stat(file, &sb) != 0)
        return;
    snprintf(db->file, sizeof(db->file), "%s", file);
    db->file_dev = (unsigned long long)sb.st_dev;
    db->file_ino = (unsigned long long)sb.st_ino;
    db->has_file = 1;
}

/* Before a write: is the path still the file the connection holds? SQLite
 * keeps writing to a file deleted under it (and to the old one when
 * another was moved in its place), so every write would be lost at the
 * next start. One stat of the path (microseconds) per write transaction.
 * DB_OK, or DB_ERROR with the message, for good once the file is gone. */
static int file_check(struct db *db)
{
    struct stat sb;

    if (!db->has_file)
        return DB_OK;
    if (!db->gone) {
        if (stat(db->file, &sb) == 0) {
            if ((unsigned long long)sb.st_dev == db->file_dev &&
                (unsigned long long)sb.st_ino == db->file_ino)
                return DB_OK;
        } else if (errno != ENOENT && errno != ENOTDIR) {
            return DB_OK; /* cannot tell (a permission): SQLite's own errors say */
        }
        db->gone = 1;
    }
    return db_fail(db,
                   "the database file %s is gone (deleted or replaced while ringside ran): "
                   "nothing more is stored; an operator must restore it and restart ringside",
                   db->file);
}

/* SQLite's code for another connection's lock, the wait spent. */
static int is_busy(int rc)
{
    return (rc & 0xff) == SQLITE_BUSY;
}

/* A statement while SQLite has rolled back the caller's transaction: refused
 * (see struct db). Returns nonzero, with the message, when so. */
static int txn_lost(struct db *db)
{
    if (!db->in_txn || !sqlite3_get_autocommit(db->conn))
        return 0;
    db_fail(db, "the transaction was rolled back after an earlier error; db_rollback ends it");
    return 1;
}

void db_stmt_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

int db_bind_failed(struct db *db, sqlite3_stmt *st)
{
    /* Not from sqlite3_errmsg(): a later successful bind clears it. */
    return db_fail(db, "cannot bind the parameters of: %s", sqlite3_sql(st));
}

/* ------------------------------------------------------- fault injection */

int db_fault_now(struct db *db)
{
    if (!db->fault_in || --db->fault_in > 0)
        return 0;
    /* What SQLite says of a failed read or write of the file. */
    db_fail(db, "disk I/O error (injected fault)");
    return 1;
}

void db_fault_after(struct db *db, long n)
{
    db->fault_in = n < 0 ? 0 : n + 1;
}

int db_fault_pending(const struct db *db)
{
    return db->fault_in != 0;
}

/* A write outside db_begin commits on its own: the file is checked first,
 * as db_begin does. */
static int autocommit_write(struct db *db, sqlite3_stmt *st)
{
    return !db->in_txn && st != db->st[STMT_BEGIN] && st != db->st[STMT_BEGIN_READ] &&
           st != db->st[STMT_COMMIT] && st != db->st[STMT_ROLLBACK];
}

int db_run(struct db *db, sqlite3_stmt *st, int bind_failed)
{
    int rc;

    if (autocommit_write(db, st)) {
        db->busy = 0;
        if (file_check(db) != DB_OK) {
            db_stmt_done(st);
            return SQLITE_READONLY;
        }
    }
    if (bind_failed) {
        db_bind_failed(db, st);
        rc = SQLITE_MISUSE;
    } else if (txn_lost(db)) {
        rc = SQLITE_ABORT_ROLLBACK;
    } else if (st != db->st[STMT_ROLLBACK] && db_fault_now(db)) {
        /* ROLLBACK is how a failure is cleaned up: never the failure. */
        rc = SQLITE_IOERR;
    } else {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW && !sqlite3_stmt_readonly(st)) {
            /* A write's RETURNING row: the write is done at the first
             * step, and the reset below ends the statement. */
            rc = SQLITE_DONE;
        } else if (rc == SQLITE_ROW) {
            db_fail(db, "a write returned rows: %s", sqlite3_sql(st));
            rc = SQLITE_MISUSE;
        } else if (rc != SQLITE_DONE) {
            db_fail(db, "%s", sqlite3_errmsg(db->conn));
            db->busy = is_busy(rc);
        }
    }
    db_stmt_done(st);
    return rc;
}

int db_row(struct db *db, sqlite3_stmt *st)
{
    if (txn_lost(db))
        return SQLITE_ABORT_ROLLBACK;
    if (db_fault_now(db))
        return SQLITE_IOERR;

    int rc = sqlite3_step(st);

    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
        db->busy = is_busy(rc);
    }
    return rc;
}

struct dbs *db_changed_query(struct db *db, enum db_stmt stamp, enum db_stmt changed, int64_t since,
                             int64_t *top)
{
    struct dbs *q = dbs_table(db, stamp);
    int rc = dbs_step(q);

    if (rc == DBS_ROW)
        *top = dbs_col_int64(q, 0);
    dbs_reset(q);
    if (rc != DBS_ROW)
        return NULL;
    q = dbs_table(db, changed);
    dbs_bind_int64(q, 1, since);
    return q;
}

struct dbs *db_changed_since(struct db *db, enum db_stmt stamp, enum db_stmt changed, int64_t since,
                             int64_t *top)
{
    struct dbs *q = db_changed_query(db, stamp, changed, since, top);

    /* On SQLite a failed bind is reported here, as before the layer (a
     * PostgreSQL statement has no sqlite3_stmt: its step reports it). */
    if (q && q->bad && q->lite) {
        db_bind_failed(db, q->lite);
        dbs_reset(q);
        return NULL;
    }
    return q;
}

int db_column_text(struct db *db, sqlite3_stmt *st, int col, char *dst, size_t size,
                   const char *what)
{
    const unsigned char *s = sqlite3_column_text(st, col);
    int n = sqlite3_column_bytes(st, col);

    if (size == 0)
        return db_fail(db, "no room for %s", what);
    if (!s) {
        if (sqlite3_errcode(db->conn) == SQLITE_NOMEM)
            return db_fail(db, "out of memory reading %s", what);
        return db_fail(db, "%s is NULL in the database", what);
    }
    if ((size_t)n >= size)
        return db_fail(db, "%s is %d bytes in the database, the most is %zu", what, n, size - 1);
    memcpy(dst, s, (size_t)n);
    dst[n] = '\0';
    return DB_OK;
}

/* Runs the one-row query `sql` once (at open only; its step counted by the
 * fault hook) and stores its first column as an int in *out or as text in
 * out_text (either may be NULL). Returns an SQLite code, with the message
 * in db->err; a query without a row gives SQLITE_DONE. */
static int query_once(struct db *db, const char *sql, int *out, char *out_text, size_t size)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL);

    if (rc != SQLITE_OK) {
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
        return rc;
    }
    if (db_fault_now(db))
        rc = SQLITE_IOERR;
    else if ((rc = sqlite3_step(st)) == SQLITE_DONE)
        db_fail(db, "%s returned no row", sql);
    else if (rc != SQLITE_ROW)
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
    if (rc == SQLITE_ROW) {
        if (out)
            *out = sqlite3_column_int(st, 0);
        if (out_text) {
            const unsigned char *s = sqlite3_column_text(st, 0);
            snprintf(out_text, size, "%s", s ? (const char *)s : "");
        }
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* The page cache while a connection opens (`open` 0) and after (1).
 * Opening reads the schema, and a new file is built by every migration,
 * each parsing the schema again between the pages it writes: with
 * SQLite's default cache those page buffers (4.3 KB each) end up between
 * the schema's many small allocations, and the holes they leave when the
 * cache is emptied can never go back to the system (about 80 KB of a
 * bot's heap, bench/peers_bench.py's bot.anon_kb). Ten pages are enough
 * for that work, which then reuses the same few buffers. A database with
 * rows to migrate migrates with the full cache (migrate), and every
 * connection has SQLite's default once open. Straight to SQLite: the
 * cache's size is no data, and a failure costs speed only. */
static void cache_pages(struct db *db, int open)
{
    sqlite3_exec(db->conn, open ? "PRAGMA cache_size = -2000" : "PRAGMA cache_size = 10", NULL,
                 NULL, NULL);
}

/* Runs every statement of `sql` in turn (at open only: the pragmas, the
 * migrations), each one a step for the fault hook, as sqlite3_exec would
 * without it. Returns SQLITE_OK, or the error code with its message in
 * db->err; the statements before the failed one stay done (a migration
 * runs inside its transaction, which the caller rolls back). */
static int script_run(struct db *db, const char *sql)
{
    while (*sql) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc = sqlite3_prepare_v2(db->conn, sql, -1, &st, &tail);
        if (rc != SQLITE_OK) {
            db_fail(db, "%s", sqlite3_errmsg(db->conn));
            return rc;
        }
        if (!st)
            return SQLITE_OK; /* only blanks and comments were left */
        if (db_fault_now(db)) {
            rc = SQLITE_IOERR;
        } else {
            while ((rc = sqlite3_step(st)) == SQLITE_ROW)
                ;
            if (rc != SQLITE_DONE)
                db_fail(db, "%s", sqlite3_errmsg(db->conn));
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return rc;
        sql = tail;
    }
    return SQLITE_OK;
}

/* ------------------------------------------------------------------ open */

/* "cannot open PATH: " before the message of what failed; DB_ERROR. */
static int open_failed(struct db *db, const char *path)
{
    char why[sizeof(db->err)];

    snprintf(why, sizeof(why), "%s", db->err);
    return db_fail(db, "cannot open %s: %s", path, why);
}

/* WAL, foreign keys, busy timeout. synchronous=NORMAL: in WAL mode a commit
 * has been written to the WAL file (the OS's page cache) when COMMIT returns
 * and is only fsync'd at checkpoints, so a crash of the process (kill -9)
 * loses nothing; only a power loss or kernel crash can lose the last
 * commits. That is what the product guarantees, without an fsync per
 * acknowledged order; FULL would add power-loss durability at that cost.
 *
 * temp_store=MEMORY: an upsert inside a transaction (db_order_put,
 * db_round_put) keeps a statement journal so it can be undone alone. With
 * temp files allowed, SQLite buffers that journal in one 64 KiB block,
 * allocated and freed for every statement (page faults each time: a league
 * turn of 10,000 bouts took 6 s instead of 1.4 s); in memory it grows by
 * 1 KiB. Nothing here needs temporary data on disk. */
static int connection_setup(struct db *db, const char *path)
{
    char mode[32];

    sqlite3_extended_result_codes(db->conn, 1);
    sqlite3_busy_timeout(db->conn, DB_BUSY_MS);
    cache_pages(db, 0);
    if (query_once(db, "PRAGMA journal_mode = WAL", NULL, mode, sizeof(mode)) != SQLITE_OK)
        return open_failed(db, path);
    /* An in-memory database (no file name) cannot use WAL, and needs not. */
    const char *file = sqlite3_db_filename(db->conn, "main");
    if (strcmp(mode, "wal") != 0 && file && file[0] != '\0')
        return db_fail(db, "cannot open %s: journal mode is %s, not wal", path, mode);
    if (script_run(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA "
                       "temp_store = MEMORY") != SQLITE_OK)
        return open_failed(db, path);
    return DB_OK;
}

static int version_read(struct db *db, const char *path, int *version)
{
    if (query_once(db, "PRAGMA user_version", version, NULL, 0) != SQLITE_OK)
        return open_failed(db, path);
    if (*version < 0 || *version > MIGRATIONS)
        return db_fail(db,
                       "%s has schema version %d, this ringside knows up to %d; upgrade ringside",
                       path, *version, MIGRATIONS);
    return DB_OK;
}

/* Whether migration `number` rebuilds a table others refer to (18:
 * accounts): it runs with foreign keys off, as SQLite's recipe for a
 * rebuild asks (dropping the old parent would otherwise fail, or cascade),
 * and must leave no reference dangling. */
static int migration_rebuilds(int number)
{
    return number == 18;
}

/* Runs migration `number`'s script and its version bump inside the open
 * transaction; a rebuild's references are checked before the caller's
 * COMMIT. SQLITE_OK, or an error with the message in db->err. */
static int migration_script(struct db *db, int number)
{
    char bump[64];
    int dangling = 0;

    snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", number);
    int rc = script_run(db, migrations[number - 1]);
    if (rc == SQLITE_OK && migration_rebuilds(number)) {
        rc = query_once(db, "SELECT count(*) FROM pragma_foreign_key_check", &dangling, NULL, 0);
        if (rc == SQLITE_OK && dangling > 0) {
            db_fail(db, "%d rows refer to rows that are gone", dangling);
            rc = SQLITE_CONSTRAINT;
        }
    }
    return rc == SQLITE_OK ? script_run(db, bump) : rc;
}

/* Migration `number` in its own transaction (the version read again under
 * the write lock: another process may have migrated meanwhile; *done says
 * whether the file is at `number` now). DB_OK or DB_ERROR. */
static int migration_apply(struct db *db, const char *path, int number, int *done)
{
    int version, rebuild = migration_rebuilds(number);
    char why[sizeof(db->err)];

    *done = 0;
    /* The pragma is a no-op inside a transaction: set before BEGIN. */
    if ((rebuild && script_run(db, "PRAGMA foreign_keys = OFF") != SQLITE_OK) ||
        script_run(db, "BEGIN IMMEDIATE") != SQLITE_OK)
        return open_failed(db, path);
    int rc = version_read(db, path, &version);
    if (rc == DB_OK && version == number - 1) {
        if (migration_script(db, number) != SQLITE_OK || script_run(db, "COMMIT") != SQLITE_OK) {
            /* ROLLBACK (uncounted by the fault hook) keeps db->err. */
            snprintf(why, sizeof(why), "%s", db->err);
            db_fail(db, "%s: migration %d failed: %s", path, number, why);
            rc = DB_ERROR;
        } else {
            *done = 1;
        }
    }
    if (!sqlite3_get_autocommit(db->conn))
        sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
    if (rebuild)
        sqlite3_exec(db->conn, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    return rc;
}

/* Applies the migrations the file lacks up to version `target` (MIGRATIONS
 * but in db_test_file), each in its own transaction. The version is read
 * again under the write lock, so two processes opening the same old file at
 * once do not both migrate it. *ran (when not NULL) says whether this
 * connection applied any. */
static int migrate(struct db *db, const char *path, int target, int *ran)
{
    int version, done;

    if (ran)
        *ran = 0;
    if (version_read(db, path, &version) != DB_OK)
        return DB_ERROR;
    if (version > target)
        return db_fail(db, "%s has schema version %d, past %d", path, version, target);
    if (version > 0 && version < target)
        cache_pages(db, 1); /* rows to copy: the full cache */
    while (version < target) {
        if (migration_apply(db, path, version + 1, &done) != DB_OK)
            return DB_ERROR;
        if (!done && version_read(db, path, &version) != DB_OK)
            return DB_ERROR;
        if (done && ran)
            *ran = 1;
        if (done)
            version++;
    }
    return DB_OK;
}

/* The statements a connection keeps from its open: the transactions'
 * (db_run tells them apart by their handle). */
static int statement_eager(int i)
{
    return i == STMT_BEGIN || i == STMT_BEGIN_READ || i == STMT_COMMIT || i == STMT_ROLLBACK;
}

/* Every statement of the table is prepared once at open, so that a wrong
 * one is found there, but only the transactions' are kept: the others are
 * prepared again at their first use (db_stmt_get). A bot uses fewer than
 * half of them, and each kept one holds about 7 KB of SQLite's memory
 * (520 KB for the table). */
static int statements_prepare(struct db *db, const char *path)
{
    for (int i = 0; i < STMT_COUNT; i++) {
        const char *tail = NULL;

        if (sqlite3_prepare_v3(db->conn, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &db->st[i],
                               &tail) != SQLITE_OK)
            return db_fail(db, "%s: cannot prepare statement %d: %s", path, i,
                           sqlite3_errmsg(db->conn));
        if (tail && tail[strspn(tail, " \t\n")] != '\0')
            return db_fail(db, "%s: statement %d holds more than one statement", path, i);
        if (!statement_eager(i)) {
            sqlite3_finalize(db->st[i]);
            db->st[i] = NULL;
        }
    }
    return DB_OK;
}

sqlite3_stmt *db_stmt_get(struct db *db, int which)
{
    if (!db->st[which] &&
        sqlite3_prepare_v3(db->conn, stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT, &db->st[which],
                           NULL) != SQLITE_OK) {
        db_fail(db, "cannot prepare statement %d: %s", which, sqlite3_errmsg(db->conn));
        db->st[which] = NULL;
    }
    return db->st[which];
}

/* Private files: the database holds password hashes, so a file this code
 * creates is 0600 (read and write for the bot's user only) whatever the
 * umask. The file is created here, empty, before SQLite opens it (SQLite
 * would make it 0644); SQLite gives the WAL and shared-memory files it
 * creates beside it the database file's mode, and private_sidecars() makes
 * sure of it. A file that already exists keeps the mode its owner gave it.
 * An in-memory database (":memory:" or "") has no file. Returns 1 if the
 * file was created; 0 if it existed or could not be created (SQLite's own
 * open then reports why). */
static int private_create(const char *path)
{
    if (!path || !*path || strcmp(path, ":memory:") == 0)
        return 0;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return 0;
    (void)fchmod(fd, 0600); /* open() took the umask off; put back 0600 */
    close(fd);
    return 1;
}

/* The WAL and shared-memory files of a database this code created: 0600 too
 * (whoever made them, they must not be readable by others). */
static void private_sidecars(const char *path)
{
    static const char *const suffix[] = {"-wal", "-shm"};
    char side[4096];

    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (snprintf(side, sizeof(side), "%s%s", path, suffix[i]) >= (int)sizeof(side))
            continue;
        if (lstat(side, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 0777) != 0600)
            (void)chmod(side, 0600);
    }
}

struct db *db_open(const char *path, char *errbuf, int errlen)
{
    return db_open_fault(path, -1, errbuf, errlen);
}

/* Once per process, before SQLite's first use: no memory statistics.
 * Debian's SQLite has no lookaside, so every statement's run allocates,
 * and with the statistics on every allocation and free takes a mutex
 * that is global to the process (about 4 % of a league turn). Nothing here
 * reads them (sqlite3_memory_used, a soft heap limit). Once SQLite is
 * initialised the call is refused and changes nothing.
 * No bulk page cache either: by default each connection's cache first
 * takes room for 20 pages (87 KB) in one allocation, and writes a link
 * into every one of them, so all of it is resident even when the cache
 * holds two pages, and none of it goes back (db_release_memory frees
 * pages into that block, not to the system): a seventh of the bot's
 * heap at rest (bench/peers_bench.py). Without it each page is its own
 * allocation, which sqlite3_db_release_memory frees. */
static void sqlite_config(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)NULL, 0, 0);
}

static void sqlite_config_once(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    pthread_once(&once, sqlite_config);
}

/* The writer's connection to `path` (`flags` SQLITE_OPEN_CREATE or 0), set
 * up: DB_OK, or DB_ERROR with the reason in db->err. NOMUTEX: the writer
 * (the bot, a tool) uses its connection from one thread, so SQLite's lock
 * around every call is only cost (4 % of a league turn); the web's threads
 * open their own (db_open_readonly). */
static int writer_open(struct db *db, const char *path, int flags)
{
    int rc =
        sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | flags, NULL);
    if (rc != SQLITE_OK)
        return db_fail(db, "cannot open %s: %s", path,
                       db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
    return connection_setup(db, path);
}

/* Opens the connection again after it migrated the file (a new file: all
 * of them). SQLite parses the schema again after every migration, and
 * frees each parse between the allocations of the next and the pages the
 * migration wrote: the holes, smaller than a page or straddling pages
 * still in use, stay resident and malloc_trim cannot give them back
 * (140 KiB of a new bot's anonymous memory, bench/peers_bench.py's
 * bot.anon_kb: 716 KiB against 576 on a file that already existed). A
 * connection opened on the migrated file parses the schema once, into
 * the space the closed one freed in one piece. An in-memory database
 * lives only in its connection: kept. The file is only read again, so
 * these are no steps for the fault hook. */
static int writer_reopen(struct db *db, const char *path)
{
    const char *file = sqlite3_db_filename(db->conn, "main");
    long fault = db->fault_in;

    /* Nothing is prepared yet, so the close cannot be refused. */
    if (!file || !*file || sqlite3_close(db->conn) != SQLITE_OK)
        return DB_OK;
    db->conn = NULL;
    xtrim(); /* the freed schema's pages: the new one is laid out anew */
    db->fault_in = 0;
    /* Without CREATE: a file removed meanwhile is an error, not a new one. */
    int rc = writer_open(db, path, 0);
    if (rc == DB_OK)
        rc = migrate(db, path, MIGRATIONS, NULL);
    db->fault_in = fault;
    return rc;
}

struct db *db_open_fault(const char *path, long fault, char *errbuf, int errlen)
{
    if (db_is_pg_uri(path))
        return db_open_pg(path, fault, 0, errbuf, errlen);
    struct db *db = xcalloc(1, sizeof(*db));
    int migrated = 0;

    sqlite_config_once();
    db_fault_after(db, fault);

    int created = private_create(path);
    if (writer_open(db, path, SQLITE_OPEN_CREATE) == DB_OK &&
        migrate(db, path, MIGRATIONS, &migrated) == DB_OK &&
        (!migrated || writer_reopen(db, path) == DB_OK) && statements_prepare(db, path) == DB_OK) {
        cache_pages(db, 1);
        if (created)
            private_sidecars(path);
        file_note(db);
        return db;
    }
    if (errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_close(db);
    return NULL;
}

struct db *db_open_readonly(const char *path, char *errbuf, int errlen)
{
    if (db_is_pg_uri(path))
        return db_open_pg(path, -1, 1, errbuf, errlen);
    struct db *db = xcalloc(1, sizeof(*db));
    int version = 0;

    sqlite_config_once();
    /* No CREATE, no migration, no pragma that writes: the file is only read,
     * even while the bot has it open. NOMUTEX: its readers (ringside-web's
     * one answering thread, the replay tools) use a connection from one
     * thread, so SQLite's lock around every call is only cost. */
    int rc = sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK)
        db_fail(db, "cannot open %s: %s", path,
                db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
    else {
        sqlite3_extended_result_codes(db->conn, 1);
        sqlite3_busy_timeout(db->conn, DB_BUSY_MS);
        if (version_read(db, path, &version) == DB_OK) {
            if (version < MIGRATIONS)
                db_fail(db,
                        "%s has schema version %d and this program reads version %d; start "
                        "this version's bot on it once (it migrates the file), then try again",
                        path, version, MIGRATIONS);
            else if (version != MIGRATIONS)
                db_fail(db,
                        "%s has schema version %d and this program reads version %d; use the "
                        "ringside that wrote it",
                        path, version, MIGRATIONS);
            else if (statements_prepare(db, path) == DB_OK)
                return db;
        }
    }
    if (errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_close(db);
    return NULL;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    if (db->backend == DB_BACKEND_PG) {
        db_pg_close(db);
        return;
    }
    for (int i = 0; i < STMT_COUNT; i++)
        sqlite3_finalize(db->st[i]);
    for (int i = 0; i < db->nkept; i++)
        sqlite3_finalize(db->kept[i].st);
    /* Every statement is finalized, so this closes (and, as the last
     * connection, checkpoints the WAL into the file). */
    sqlite3_close(db->conn);
    free(db);
}

int db_test_file(const char *path, int version, const char *sql, char *errbuf, int errlen)
{
    struct db *db = xcalloc(1, sizeof(*db));
    int status = DB_ERROR;

    int created = private_create(path);
    int rc = sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK)
        db_fail(db, "cannot open %s: %s", path,
                db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
    else if (version < 0 || version > MIGRATIONS)
        db_fail(db, "%s: no schema version %d", path, version);
    else if (connection_setup(db, path) == DB_OK && migrate(db, path, version, NULL) == DB_OK) {
        if (sql && sqlite3_exec(db->conn, sql, NULL, NULL, NULL) != SQLITE_OK)
            db_fail(db, "%s: %s", path, sqlite3_errmsg(db->conn));
        else
            status = DB_OK;
        if (created)
            private_sidecars(path);
    }
    if (status != DB_OK && errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_close(db); /* no statement was prepared: finalizing NULL is harmless */
    return status;
}

const char *db_stmt_text(int which)
{
    return which >= 0 && which < STMT_COUNT ? stmt_sql[which] : NULL;
}

int db_stmt_returns_id(int which)
{
    return which == STMT_ACCOUNT_INSERT || which == STMT_FIGHTER_INSERT ||
           which == STMT_BOUT_INSERT;
}

const char *db_errmsg(struct db *db)
{
    return db ? db->err : "no database";
}

/* ----------------------------------------------------------------- state */

int db_schema_latest(void)
{
    return MIGRATIONS;
}

/* Runs one of the pragma queries and returns its int, or -1. */
static int pragma_int(struct db *db, enum db_stmt id)
{
    struct dbs *q = dbs_table(db, id);
    int rc = dbs_step(q);
    int v = -1;

    if (rc == DBS_ROW)
        v = dbs_col_int(q, 0);
    else if (rc == DBS_DONE)
        db_fail(db, "statement %d returned no row", id);
    dbs_reset(q);
    return v;
}

int db_schema_version(struct db *db)
{
    return pragma_int(db, STMT_USER_VERSION);
}

long long db_data_version(struct db *db)
{
    struct dbs *q = dbs_table(db, STMT_DATA_VERSION);
    long long v = -1;

    if (dbs_step(q) == DBS_ROW)
        v = dbs_col_int64(q, 0);
    dbs_reset(q);
    return v;
}

int db_foreign_keys(struct db *db)
{
    int v = pragma_int(db, STMT_FOREIGN_KEYS);

    return v < 0 ? -1 : v != 0;
}

int db_journal_wal(struct db *db)
{
    struct dbs *q = dbs_table(db, STMT_JOURNAL_MODE);
    int rc = dbs_step(q);
    int v = -1;

    if (rc == DBS_ROW) {
        const char *mode = dbs_col_text(q, 0);
        v = mode && strcmp(mode, "wal") == 0;
    } else if (rc == DBS_DONE) {
        db_fail(db, "journal_mode returned no row");
    }
    dbs_reset(q);
    return v;
}

/* ---------------------------------------------------------- transactions */

int db_begin(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return db_pg_begin(db, 0);
    if (db->in_txn || !sqlite3_get_autocommit(db->conn))
        return db_fail(db, "db_begin: a transaction is already open (they do not nest)");
    db->busy = 0;
    if (file_check(db) != DB_OK)
        return DB_ERROR;
    if (dbs_run(dbs_table(db, STMT_BEGIN)) != DBS_DONE)
        return DB_ERROR;
    db->in_txn = 1;
    return DB_OK;
}

int db_read_begin(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return db_pg_begin(db, 1);
    if (db->in_txn || !sqlite3_get_autocommit(db->conn))
        return db_fail(db, "db_read_begin: a transaction is already open (they do not nest)");
    if (dbs_run(dbs_table(db, STMT_BEGIN_READ)) != DBS_DONE)
        return DB_ERROR;
    db->in_txn = 1;
    return DB_OK;
}

int db_read_end(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return db_pg_commit(db, 1);
    if (!db->in_txn)
        return db_fail(db, "db_read_end: no transaction is open");
    db->in_txn = 0;
    if (sqlite3_get_autocommit(db->conn))
        return DB_OK; /* SQLite ended it already (an error): nothing held */
    return dbs_run(dbs_table(db, STMT_COMMIT)) == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_commit(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return db_pg_commit(db, 0);
    if (!db->in_txn)
        return db_fail(db, "db_commit: no transaction is open");
    /* On failure the transaction is left to db_rollback, which then keeps
     * this message: the usual "if (... || db_commit() != DB_OK)
     * db_rollback()" reports why. */
    if (sqlite3_get_autocommit(db->conn))
        return db_fail(db, "db_commit: the transaction was rolled back after an earlier error");
    if (dbs_run(dbs_table(db, STMT_COMMIT)) != DBS_DONE)
        return DB_ERROR;
    db->in_txn = 0;
    return DB_OK;
}

int db_rollback(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return db_pg_rollback(db);
    if (!db->in_txn)
        return db_fail(db, "db_rollback: no transaction is open");
    db->in_txn = 0;
    /* SQLite may have rolled back already (see struct db), or COMMIT failed
     * and did: nothing to do, and db->err keeps what went wrong. */
    if (sqlite3_get_autocommit(db->conn))
        return DB_OK;
    return dbs_run(dbs_table(db, STMT_ROLLBACK)) == DBS_DONE ? DB_OK : DB_ERROR;
}
