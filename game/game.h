/*
 * game.h - the game without IRC: challenges, live bouts, league turns,
 * replays, and the commentary and reports that turn engine events into
 * English.
 *
 * Layers: game/ uses db/, parse/ and engine/ and nothing above them. It
 * reaches the outside world only through a `struct game_io` its user fills
 * in (say a line to a channel or a player, the clocks, a fresh seed, the
 * log): bot/ implements it over IRC, the tests with a fake clock and a list
 * of lines. A command's caller is a `struct game_caller`, through which the
 * game answers him.
 *
 * The database is the truth. A bout, its seed, every acknowledged order and
 * every resolved round are committed before the game says so; a live bout
 * is rebuilt at start-up by replaying its stored orders from its seed. The
 * reports of rounds are never stored: they are derived from the seed, the
 * start sheets and the orders whenever someone asks (game_report).
 */
#ifndef RINGSIDE_GAME_H
#define RINGSIDE_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "engine.h"
#include "util.h"

#if defined(__GNUC__)
#define GAME_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GAME_PRINTF(f, a)
#endif

/* Allocation (xmalloc and friends) and text building (`struct str`) are
 * util/util.h's, with the out-of-memory policy. */

/* Copies at most `max` bytes of `src` into dst (dstlen > max), never
 * cutting a UTF-8 character in two, each control character (C0, DEL)
 * written as U+FFFD (3 bytes), so that no formatting code a user typed
 * reaches a reply; returns dst. For quoting what a user typed back to him. */
char *text_clip(char *dst, size_t dstlen, const char *src, size_t max);
/* text_clip into a temporary that lives until the end of the enclosing
 * block: reply(ctx, "no fighter %s", CLIP(name, 20)). `n` is a constant. */
#define CLIP(s, n) text_clip((char[(n) + 1]){0}, (n) + 1, (s), (n))

/* ------------------------------------------------------ the outside */

/* How a line to a channel is meant: an answer to someone's command, or
 * commentary (which the output may pace behind answers, or drop in a
 * flood). Lines to a player are always answers. */
/* How a line is said, which decides when it goes out: GAME_LIVE is a live
 * bout's traffic (challenges, the tale of the tape, acknowledgements) and
 * GAME_ROUND its rounds (commentary, prompts: what game_connected says again
 * after a lost connection), first of all; GAME_REPLY and GAME_CHATTER
 * (announcements) next; GAME_BULK (long texts) when there is time. */
/* GAME_ASK is GAME_ROUND for a line that asks a player for his answer
 * about a round (a prompt, a reminder, the start call naming those who
 * hear it): his answer (io.answered) may confirm its delivery. Said only
 * through say_about (say hears GAME_ROUND). */
enum game_voice { GAME_REPLY, GAME_CHATTER, GAME_LIVE, GAME_ROUND, GAME_BULK, GAME_ASK };

enum game_log { GAME_LOG_DEBUG, GAME_LOG_INFO, GAME_LOG_WARN, GAME_LOG_ERROR };

/* What the game needs of the world. Every function is called with `ctx`. */
struct game_io {
    void *ctx;
    /* Says one line (no CR/LF) to `target`: a channel, or a player's nick. */
    void (*say)(void *ctx, enum game_voice voice, const char *target, const char *text);
    /* The nick the player of account `account_id` is identified under now,
     * or NULL (the game then uses the nick he was last identified under,
     * stored with his account, else the account's name). */
    const char *(*nick_of)(void *ctx, int64_t account_id);
    /* 1 if two channel or nick names are the same under the network's case
     * rules. */
    int (*same_name)(void *ctx, const char *a, const char *b);
    /* Monotonic seconds (deadlines), and unix time (what is stored). */
    double (*clock)(void *ctx);
    int64_t (*wall)(void *ctx);
    /* A fresh random seed for a bout or a league turn. */
    uint64_t (*seed)(void *ctx);
    /* A mark of everything said so far, and 1 once all of it up to `mark`
     * was delivered (the game then marks the commentary said). */
    unsigned long (*mark)(void *ctx);
    int (*delivered)(void *ctx, unsigned long mark);
    /* Optional (NULL: never): 1 while the line said last before `mark`
     * (the mark right after it) still waits to go out. An order's own
     * acknowledgement still waiting when its round is fought is dropped
     * (withdraw), and the next prompt says it instead. */
    int (*queued)(void *ctx, unsigned long mark);
    /* Optional (NULL: never): 1 if `nick` is in `channel` now. A player
     * who hears his bout's channel learns its end there (the result, the
     * records, the training points the bout earned): no private message
     * repeats it unless he has equipment to hear about (or the points had
     * no room there). */
    int (*hears)(void *ctx, const char *channel, const char *nick);
    void (*log)(void *ctx, enum game_log level, const char *text);
    /* Optional (NULL: never): 1 if the player of account `account` (its
     * name) is identified again by himself after a reconnection, as a
     * services account is; his prompts then do not ask him to identify. */
    int (*self_identifies)(void *ctx, const char *account);
    /* Optional (NULL: say, and nothing is withdrawn): says a line about
     * live bout `bout`, as say does. The output keeps a bout's lines in
     * order: a line to a player never passes a channel line about his
     * bout said before it. `round` > 0 marks a line that asks for (or
     * speaks of) round `round` before it is fought: a prompt, a reminder,
     * a duel's corner (only those said with GAME_ASK ask: a corner asks
     * nothing); 0 a line that stays true (commentary, the end); < 0
     * the commentary of round -round said again after a restart (true, as
     * 0: the bot relays it to a bout's other network only if missing). */
    void (*say_about)(void *ctx, enum game_voice voice, const char *target, const char *text,
                      int64_t bout, int round);
    /* Optional: round `round` of bout `bout` is fought (or the bout is
     * over): the lines said about it with a round from 1 to `round` that
     * have not gone out yet are dropped. */
    void (*withdraw)(void *ctx, int64_t bout, int round);
    /* Optional (NULL: no cut): the IRC lines `text` said to `target` takes
     * on the wire (a long message is cut). Words a message may go without
     * (the training points on a packed end) stay out of it when they would
     * cost a line. */
    size_t (*pieces)(void *ctx, const char *target, const char *text);
    /* Optional (NULL: never): 1 while the players of `network`, another
     * network than the game's, cannot be reached: no bot of that network
     * is on IRC and in its channel. A live bout treats such a player as
     * one who left: it waits for him as after a
     * (re)connection ([bout] rejoin_grace), once each time he goes. */
    int (*away)(void *ctx, const char *network);
    /* Optional (NULL: nothing): `nick` answered what asked him for round
     * `round` of bout `bout` (his orders for it are stored): the output
     * takes it as proof that the question, or what told him of it, was
     * delivered (bot/outq.c: outq_answered). */
    void (*answered)(void *ctx, const char *nick, int64_t bout, int round);
    /* Optional (NULL: nothing): a clock waits for the delivery of all that
     * was said up to `mark` (io.mark's: a question's clock, a duel's next
     * round), so the output confirms it as soon as it can; what no clock
     * waits for (the commentary io.delivered marks said) it may confirm at
     * leisure (bot/outq.c: outq_await). */
    void (*awaits)(void *ctx, unsigned long mark);
};

/* The settings of the game ([bout], [league] and the command prefix). */
struct game_config {
    int order_timeout;     /* seconds */
    int challenge_timeout; /* seconds */
    int rounds;            /* a boxing challenge's default */
    /* Seconds between the rounds of a live bout whose rounds need no
     * orders (a duel: [bout] duel_round_seconds), counted from when the
     * round before was delivered; 0 is taken as 4. */
    int auto_round_seconds;
    /* Seconds a live bout waits for its players after a (re)connection
     * ([bout] rejoin_grace): its clock starts once both are back
     * (identified) or when this has passed; 0: at once, as they are. */
    int rejoin_grace;
    long turn_interval; /* seconds; 0: league turns only by command */
    int season_turns;   /* league turns a season lasts; 0: until an admin ends it */
    char prefix[8];     /* how commands start in a channel, for hints */
    /* What the channel's lines carry besides words: GAME_FORMAT_PLAIN,
     * GAME_FORMAT_BOLD (fighter names in the tale of the tape and the
     * result in bold), GAME_FORMAT_COLOUR (and the result in colour). */
    int format;
    /* Where the web pages are ("https://ringside.example.org", no '/' at
     * the end), for the report's link to its bout's page; "" for none. */
    char base_url[256];
    /* The channel a challenge is said in ([irc] channels, the first), for
     * the hints given in private ("say !challenge <nick> in #ringside");
     * "" for "in a channel". */
    char channel[64];
    /* 1: exhibitions (live bouts between friends) move no rating
     * ([rating] exhibitions = no); 0, the default: they do. */
    int rating_skip_exhibitions;
    /* Predictions on a live bout close once this many rounds are fought
     * ([predict] closes_after); 0 is taken as 1. */
    int predict_closes_after;
    /* Tournaments ([tournament]): 1 if players may open one (open_by =
     * players), and the seconds between the bracket rounds of a plans
     * tournament (round_interval; 0: only by `tournament next`). */
    int tournament_open_by_players;
    long tournament_round_interval;
};
#define GAME_FORMAT_PLAIN  0
#define GAME_FORMAT_BOLD   1
#define GAME_FORMAT_COLOUR 2

/* Who runs a command, and how to answer him: answer(ctx, 0, text) answers
 * where he asked (the channel, or in private), with GAME_ANSWER_PRIVATE
 * always in private; GAME_ANSWER_LIVE marks it a live bout's traffic. */
#define GAME_ANSWER_PRIVATE 1
#define GAME_ANSWER_LIVE    2
struct game_caller {
    int64_t account_id; /* his identified account, or 0 */
    const char *account;
    const char *nick;
    const char *channel;                                  /* NULL: a private message */
    void (*answer)(void *ctx, int how, const char *text); /* GAME_ANSWER_* */
    void *ctx;
};

/* The rulesets by name, for messages and usage lines: each name with
 * `prefix` before it, `sep` between them and `last` before the last one
 * (rules_list(buf, len, "rules=", ", ", " or ") gives "rules=boxing or
 * rules=sugarray"). Returns buf. */
char *rules_list(char *buf, size_t len, const char *prefix, const char *sep, const char *last);
/* A time as people say it: "1 minute", "3 minutes", "90 seconds",
 * "1 second". Returns buf. */
char *game_duration(char *buf, size_t len, int seconds);
#define DURATION(s) game_duration((char[32]){0}, 32, (s))

/* Formats and sends one answer to the caller (see struct game_caller). */
void game_reply(const struct game_caller *who, const char *fmt, ...) GAME_PRINTF(2, 3);
void game_reply_private(const struct game_caller *who, const char *fmt, ...) GAME_PRINTF(2, 3);
/* An answer that is a live bout's traffic (an order's acknowledgement). */
void game_reply_live(const struct game_caller *who, const char *fmt, ...) GAME_PRINTF(2, 3);

/* ------------------------------------------------------- commentary */

/* render.c turns the engine's events into English, for the channel and for
 * reports. Wording is picked with the bout's flavour stream only, so it
 * never changes a fight, and the same bout always reads the same. */

#define RENDER_LINE_MAX    400
#define RENDER_ROUND_LINES 4
#define RENDER_RESULT_MAX  3

/* One corner of a bout. */
struct render_corner {
    char name[DB_NAME_MAX];  /* the fighter */
    char owner[DB_NAME_MAX]; /* his player's account */
    struct sheet sheet;
    int wins, losses, draws, kos;
    int tkos, towels, dqs, forfeits; /* how his other wins ended (struct db_fighter) */
    int conceded; /* he conceded this bout by his own word: the result is a forfeit */
};

/* The corner of fighter `f` (his name, owner, sheet and record). */
void render_corner_fill(struct render_corner *c, const struct db_fighter *f);
/* How c's wins ended, into buf (len bytes; like snprintf): "3 KOs, 1 TKO,
 * 2 towels, 1 DQ, 1 forfeit" (a duellist's towels are "yields"), the
 * counts that are not 0 only ("" for none). With `by`, as the fighter's
 * card says it: "3 by KO, 1 by TKO, ...", the KOs always. */
int render_wins(const struct render_corner *c, int by, char *buf, size_t len);
/* The tale of the tape, said when bout `id` starts: at most `max` lines
 * (2 or 3 are enough). Returns the count. */
int render_tape(const struct render_corner c[SIDES], enum rules rules, int rounds, int64_t id,
                char lines[][RENDER_LINE_MAX], int max);
/* The channel's commentary of the round `b` has just resolved, from its
 * events `evs`: at most RENDER_ROUND_LINES lines. Returns the count. */
int render_round(const struct render_corner c[SIDES], const struct bout *b,
                 const struct events *evs, struct rng *flavour,
                 char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX]);
/* The same round in full, as the web pages show it: the same as
 * render_round, but for a ruleset whose channel lines are short (the duel:
 * one line a round, and a line for each thing that changes the fight).
 * Draws from `flavour` exactly as render_round does. */
int render_round_full(const struct render_corner c[SIDES], const struct bout *b,
                      const struct events *evs, struct rng *flavour,
                      char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX]);
/* How a report writes its figures. RENDER_PLAIN is what people read:
 * punches whole (rounded to the nearest), damage, endurance and abilities
 * to one decimal, a conceded round said so. RENDER_SCHEMA3 is the text the
 * reports stored before schema 4 hold ("%.2f" throughout, a conceded round
 * with its empty cards), kept only so that a replay can compare them byte
 * for byte (bout_replay). Only the text differs, never a fact. */
enum render_form {
    RENDER_PLAIN,
    RENDER_SCHEMA3,
};

/* The full blow-by-blow of that round for `report`, lines separated by
 * '\n', its figures written as `form` says, into buf. Returns the length the
 * full text needs, like snprintf. */
int render_round_report(const struct render_corner c[SIDES], const struct bout *b,
                        const struct events *evs, enum render_form form, char *buf, size_t len);
/* 0 if event evs->ev[k] is not said on its own: a knockout the referee or
 * the doctor stopped first (the same fighter's TKO in the round is what
 * counts); else 1. */
int render_event_counts(const struct events *evs, int k);
/* One event of `b`'s bouts in the report's plain words (no flavour) and
 * figures (RENDER_PLAIN), e.g. "Duran is injured: a cut above the right eye
 * (level 2, 2.0 damage)."; `b` gives the injuries a doctor's stoppage
 * names. Like snprintf. */
int render_event(const struct render_corner c[SIDES], const struct bout *b, const struct event *e,
                 char *buf, size_t len);
/* The result of the finished bout `b` in plain words, without the
 * announcer's opening: "Rocky wins by KO in round 5!". Like snprintf. */
int render_result_text(const struct render_corner c[SIDES], const struct bout *b, char *buf,
                       size_t len);
/* The result of the finished bout `b`: boxing one line (KO, TKO and its
 * reason, DQ, a decision with the three cards and its kind, a draw);
 * sugarray the two classic report lines of seed 004. Returns the count. */
int render_result(const struct render_corner c[SIDES], const struct bout *b, struct rng *flavour,
                  char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX]);
/* The classic SUGAR RAY line of `side` (seed 004): "Murphy (12,21) 6/0
 * (15) 3/3 (14) ... PW". `tail` is appended (" PW", " KO", " TIE", ""). */
int render_sugarray_line(const struct render_corner c[SIDES], const struct bout *b, int side,
                         const char *tail, char *buf, size_t len);
/* 1 when the result lines of `rules` say who won in words (boxing's
 * announcer), 0 when they are the ruleset's classic lines (SUGAR RAY). */
int render_result_plain(enum rules rules);
/* The end of the finished bout `b` for the channel, after its result
 * lines: the plain result where those lines do not say who won (SUGAR
 * RAY's classic lines), what the bout changed in the sheets, and both
 * records after it. `before` are the corners as the bout began, `after` as
 * it left them. Like snprintf. */
int render_aftermath(const struct render_corner before[SIDES],
                     const struct render_corner after[SIDES], const struct bout *b, char *buf,
                     size_t len);
/* What side `side`'s corner sees before the next round of live bout `b`,
 * for his prompt: his endurance (and percent of the start), injuries,
 * knockdowns and warnings; how his opponent looks as a plan sees it, and
 * his visible injuries; the score. Nothing of the opponent's orders or
 * plan. Empty before round 1. Like snprintf. */
int render_corner_report(const struct render_corner c[SIDES], const struct bout *b, int side,
                         char *buf, size_t len);
/* The score so far of a live bout, one line for `score`. */
int render_score(const struct render_corner c[SIDES], const struct bout *b, char *buf, size_t len);

/* The equipment of sheet `s` in words, each piece with its condition,
 * and the encumbrance ("longsword 98.5%, plate helmet 100.0%, chainmail
 * shirt under leather armour 100.0%/92.5%; encumbrance 0.210"); "" for a
 * ruleset without equipment. Like snprintf. */
int render_kit(const struct sheet *s, char *buf, size_t len);
/* The same after a bout that began with `before`, the pieces it broke
 * first: "broken: leather shield; longsword 97.0%, ...". */
int render_kit_after(const struct sheet *before, const struct sheet *after, char *buf, size_t len);
/* The duel's armoury (rules.md section 4) for `armoury`, one line per
 * item: weapons (`weapons` set) and armour sets (`armour` set), each
 * with its STR requirement and figures. At most RENDER_ARMOURY_LINES
 * lines; returns the count. */
#define RENDER_ARMOURY_LINES 16
int render_armoury(int weapons, int armour, char lines[][RENDER_LINE_MAX]);
/* The piece in `slot` (enum duel_slot) of item `item` in words: "longsword",
 * "plate helmet", "chainmail shirt". Like snprintf. */
int render_duel_piece(int slot, int item, char *buf, size_t len);

/* The ways a bout of `rules` is won, as results name them, ending with
 * METHOD_NONE: boxing KO, TKO, DQ, decision; SUGAR RAY KO, points. */
const enum method *render_methods(enum rules rules);
/* What the web pages chart of each side round by round: its name for
 * `rules` ("endurance"; "" for no ruleset), and the value of `side` in
 * bout `b` now, with the value the bout started at in *start (0 and 0 for
 * no such side). */
const char *render_meter_name(enum rules rules);
double render_meter(const struct bout *b, int side, double *start);
/* The kinds of chart marks (1 << enum view_mark_kind) bouts of `rules`
 * make: what a chart's legend explains. */
unsigned render_mark_kinds(enum rules rules);
/* A piece of equipment in words, for the pages: the item `item` of slot
 * `slot` of ruleset `rules` ("plate helmet", "chainmail shirt"; the
 * ruleset's kit_item_name where its words have none). Like snprintf. */
int render_kit_piece(enum rules rules, int slot, int item, char *buf, size_t len);
/* What sheet `s`'s equipment weighs on him, in a few words ("encumbrance
 * 0.210"); "" for a ruleset without equipment. Like snprintf. */
int render_kit_note(const struct sheet *s, char *buf, size_t len);
/* A method as statistics name it: "KO", "TKO", "DQ", "decision",
 * "points", "draw"; "" for none. */
const char *render_method_name(enum method m);
/* How a win of `rules` by `m` for `reason` ended, for a list of results
 * and the JSON: render_method_name's word, but a towel (TKO_TOWEL) is
 * "towel", or in a ruleset whose corners yield (a duel) "yield", and
 * "forfeit" when the loser conceded by his own word (`conceded`: the
 * bout's orders tell it, record_bout_forfeit for a stored bout): the
 * results apart, as the records count them and the channel says them. */
const char *render_win_how(enum rules rules, enum method m, enum tko_reason reason, int conceded);
/* 1 if finished bout `bt` (as stored in `db`) was won by a forfeit: the
 * loser's towel or yield that ended it was his own order (the forfeit
 * command, or one he sent), not his plan's (record.c, as the records
 * counted it); 0 for any other end, a bout not over, or orders that cannot
 * be read. Reads the orders only for a bout ended by a towel. */
int record_bout_forfeit(struct db *db, const struct db_bout *bt);
/* How finished bout `bt` ended, as the web's lists and the JSON's `how`
 * say it: a win's render_win_how (record_bout_forfeit telling a forfeit),
 * a draw's render_method_name. */
const char *record_bout_how(struct db *db, const struct db_bout *bt);

/* ------------------------------------------------- stored bouts (replay.c) */

/* An order as the database keeps it: its normal form (order_format), or
 * "towel"; and back. bout_order_read returns 0, or -1 for a text that is
 * neither. */
void bout_order_text(const struct order *o, char *buf, size_t len);
int bout_order_read(enum rules rules, const char *text, struct order *o);
/* The forfeit order of `rules`: the corner throws in the towel. */
void bout_order_towel(enum rules rules, struct order *o);

/* The digest of a round: a 64-bit hash of everything the engine reported
 * (its events and the result so far), chained from the digest of the round
 * before (`prev`, 0 before round 1). Stored with each round and each
 * finished bout, so a replay proves it fought the same fight without
 * storing a report. */
uint64_t bout_digest(uint64_t prev, const struct bout *b, const struct events *evs);

/* Fights stored bout `id` again from its seed, stored sheets and orders and
 * writes to `out`, round by round, whether each round's digest (or, for
 * rounds stored before digests, its stored report) and the result match
 * what is stored. Returns 0 when all match, 1 when something differs, 2
 * when the bout cannot be replayed (not found, never fought). */
int bout_replay(struct db *db, int64_t id, FILE *out);

/* `ringside --migrate-to URI` (migrate.c): copies the SQLite database at
 * `path` (opened read-only: it must be at the latest schema) into the
 * empty PostgreSQL database `uri` (db_copy_to), saying on out one line per
 * table ("bouts: 1,234 rows"), then replays every bout fought from the
 * copy (bout_replay) and says so: "1,234 bouts replayed, every digest the
 * same". Returns 0 only then; 1 after a one-line reason on err
 * ("ringside: ...") when it refuses (nothing written) or fails, or after
 * the bouts that differ on out. */
int game_migrate_to(const char *path, const char *uri, FILE *out, FILE *err);

/* The report of stored bout `id`, rounds `from` to `to` (1-based,
 * inclusive; to = 0: every round fought), derived from its seed, sheets and
 * orders: the blow-by-blow of each round as render_round_report writes it,
 * lines separated by '\n'. Returns an allocated string (free()), or NULL
 * with a reason in err when the bout does not exist, has no round in that
 * range, or does not replay. */
char *bout_report(struct db *db, int64_t id, int from, int to, char *err, size_t errlen);

/* Stored bout `id` in one line, for a report asked in a channel: "Rocky
 * vs Apollo (boxing): Rocky wins by KO in round 5!", or "... (boxing),
 * live: 2 of 12 rounds fought", into buf (cut to fit). Returns 0, or -1
 * with err when the bout does not exist or does not replay. */
int bout_summary(struct db *db, int64_t id, char *buf, size_t len, char *err, size_t errlen);

/* The channel's commentary of rounds `from` to `to` of stored bout `id`,
 * exactly as said when they were fought (the flavour stream replays), with
 * the result lines after the last round of a finished bout; '\n' between
 * lines; "" for a league bout fought since schema 4, whose rounds nobody
 * heard. Allocated, or NULL with err. */
char *bout_commentary(struct db *db, int64_t id, int from, int to, char *err, size_t errlen);
/* The same, as the game says it again after a crash: a finished bout's end
 * (render_aftermath) follows its result, with the records as they stand. */
char *bout_commentary_again(struct db *db, int64_t id, int from, int to, char *err, size_t errlen);

/* ------------------------------------ printf's text, fast (render_fmt.c) */

/* Appends fmt's text to t, byte for byte what str_add writes, without
 * printf for the plain conversions (%d %i %u %s %c %% with l or ll, and
 * %.1f to %.3f): for the texts written by the thousand (reports, pages). */
void render_fmt(struct str *t, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* Appends v as "%lld" writes it. */
void render_int(struct str *t, long long v);
/* Appends x as "%.*f" with `decimals` writes it. */
void render_fixed(struct str *t, double x, int decimals);

/* ------------------------------------------------ the web pages (view.c) */

/* What a round leaves on the chart of a bout. */
enum view_mark_kind {
    VIEW_KNOCKDOWN,
    VIEW_INJURY,   /* a new injury or an aggravated one */
    VIEW_WARNING,  /* a warning, a foul, a penalty for holding */
    VIEW_STOPPAGE, /* a KO, a TKO, a disqualification (a duel: down, a yield) */
    VIEW_CRITICAL, /* a critical hit taken (duel) */
    VIEW_STUN,     /* stunned (duel) */
    VIEW_BREAK,    /* a piece of his equipment broke (duel) */
    VIEW_MARK_KINDS
};

#define VIEW_MARKS_MAX 16

struct view_mark {
    enum view_mark_kind kind;
    int side;                   /* the fighter it happened to */
    char text[RENDER_LINE_MAX]; /* in the report's plain words */
};

/* One round fought. */
struct view_round {
    int round;
    double meter[SIDES];      /* each side's meter (render_meter) after it */
    int judged;               /* 1 when the judges scored it: */
    int cards[JUDGES][SIDES]; /* each judge's points for each side */
    int nmarks;
    struct view_mark marks[VIEW_MARKS_MAX];
    int nlines; /* the commentary */
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char score[RENDER_LINE_MAX]; /* render_score after it */
    char *report;                /* the blow-by-blow (render_round_report) */
};

/* A stored bout as the web pages show it: the rounds resolved so far,
 * never the orders of the round to come nor anyone's plan. */
struct bout_view {
    struct db_bout rec;
    struct render_corner corner[SIDES]; /* names, owners, records now; sheets the bout began with */
    const char *meter_name;             /* what meter[] is: "endurance" */
    double meter_start[SIDES];
    unsigned mark_kinds; /* the marks the ruleset makes (1 << kind), for a legend */
    /* The equipment each side carries after the last round fought (the
     * start sheets' kit worn as the bout wore it; the same as the start
     * sheets for a ruleset without equipment or before round 1). */
    struct sheet kit_now[SIDES];
    int nrounds;
    struct view_round *round;     /* round[i] is round i + 1 */
    int over, winner;             /* the result once over (winner -1: a draw) */
    char result[RENDER_LINE_MAX]; /* render_result_text, "" before the end */
    int nresult;                  /* and the announcer's lines */
    char result_lines[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    /* The owners' networks ("" for none): the pages' name@network. */
    char owner_network[SIDES][DB_NETWORK_MAX];
};

/* Fights bout `id` again up to the last round stored and returns its view
 * (free with bout_view_free), or NULL with a reason in err: no such bout,
 * never fought (a challenge, a cancelled one), or it does not replay. */
struct bout_view *bout_view(struct db *db, int64_t id, char *err, size_t errlen);
/* Frees a view; NULL is harmless. */
void bout_view_free(struct bout_view *v);

/* -------------------------------------------- simulations (simulate.c) */

/* Many seeded bouts of two sheets, fought a few at a time: how a plan
 * fares against a sheet. Bout k (from 0) of a simulation seeded S is
 * seeded S+k (mod 2^64) and fought as a league bout is: the ruleset's
 * default rounds, and each round each side's order from his plan, or the
 * ruleset's default order when he has none. That is how `ringside-sim
 * --seed S --bouts N --plan-a ... --plan-b ...` fights them, so the figures
 * are the simulator's for the same sheets, plans and seed. */

#define SIM_BOUTS_MAX     10000 /* the `sim` command's most */
#define SIM_BOUTS_DEFAULT 1000

struct plan;
struct sim;

/* What a simulation counted so far. Side 0 is the first sheet; a win of
 * side 0 is a loss of side 1. */
struct sim_figures {
    long bouts; /* to fight */
    long done;  /* fought */
    long wins[SIDES];
    long draws;
    long method[SIDES][METHOD_DRAW + 1]; /* each side's wins by method */
    long rounds;                         /* rounds fought, all bouts */
};

/* Sets up `bouts` (>= 1) bouts of sheets s[] (one ruleset, legal) named
 * name[], seeded from `seed`; plan[i] (NULL: the default order every round)
 * becomes the simulation's, freed with it. how[i] says in the result where
 * side i's orders come from ("stored plan", "default orders"). Nothing is
 * fought yet. Returns NULL if the engine refuses the sheets. */
struct sim *sim_new(const char *const name[SIDES], const struct sheet s[SIDES],
                    struct plan *plan[SIDES], const char *const how[SIDES], long bouts,
                    uint64_t seed);
/* Fights at most `budget` more bouts. Returns how many are left to fight
 * (0: done), or -1 if the engine refused a round (a bug; the simulation
 * stops there). */
long sim_step(struct sim *s, long budget);
/* The figures so far. */
const struct sim_figures *sim_figures(const struct sim *s);
/* The result in one line, from side 0's point of view, e.g. "Rocky
 * (stored plan) vs Apollo (default orders), 1,000 bouts, seed 42: Rocky
 * wins 612 (KO 20%, TKO 5%, DQ 0%, decision 36%), loses 350 (...), draws
 * 38; 9.4 rounds on average." Like snprintf. */
int sim_text(const struct sim *s, char *buf, size_t len);
/* Frees the simulation and its plans; NULL is harmless. */
void sim_free(struct sim *s);

/* ------------------------------------------------------------ the game */

/* Challenges and live bouts at once, at most: the table grows as they
 * come (game/live.c), and this only bounds what a flood of challenges
 * could make it hold. */
#define BOUTS_MAX 100000

struct game;

/* Loads every challenge and live bout from `db` (replaying live ones).
 * `db` and `io` stay the caller's and must outlive the game. Returns NULL
 * with a reason in err if the database cannot be read or a stored bout
 * does not replay. */
struct game *game_new(struct db *db, const struct game_io *io, const struct game_config *cfg,
                      char *err, size_t errlen);
void game_free(struct game *g);
/* New settings (a configuration reload): they apply to the next deadline. */
void game_set_config(struct game *g, const struct game_config *cfg);
/* The bot (re)registered with the server: the channels hear what was not
 * said before a stop, and which bouts go on. With cfg.rejoin_grace, a live
 * bout whose players are not both identified (io.nick_of) waits for them:
 * its channel is told once until when, the players there are asked for
 * their orders, and its clock (a duel: its next round) starts once both
 * are back (game_player_back, or seen at a game_tick) or the grace has
 * passed. Challenges' deadlines start afresh. */
void game_connected(struct game *g);
/* The bot lost the server: until game_connected, game_player_back does
 * nothing (the next connection asks everyone afresh). */
void game_disconnected(struct game *g);
/* 1 between game_connected and game_disconnected. */
int game_online(const struct game *g);
/* The player of account `account_id` is back: identified by password or by
 * services. The nick he is identified under (io.nick_of) is stored with his
 * account (a write only when it is another than the one stored). Every live bout of his that waits
 * since the (re)connection goes on if his opponent is back too, and he is asked for his orders in
 * each of his bouts that waits for them and has not asked him since the (re)connection. Each
 * challenge to him he has not heard of (made while he was not identified) is told to him in
 * private, once: who, what, the time left, how to answer. Nothing while the game is not online. */
void game_player_back(struct game *g, int64_t account_id);
/* Appends to `out` "Waiting for your orders: bout #3 (Rocky vs Apollo,
 * round 2 of 3), bout #5 (...)." for the live bouts that wait for the
 * orders of account `account_id` (bouts that fight themselves do not).
 * Returns how many (0: nothing appended). */
int game_orders_waiting(const struct game *g, int64_t account_id, struct str *out);
/* Timers: challenges expire, reminders, rounds resolved at their deadline,
 * commentary marked said once delivered, and the league schedule (whose
 * bouts are recorded in and summaries said to `league_channel`, or
 * nowhere when NULL). Call often while connected; deadlines are suspended
 * otherwise. */
void game_tick(struct game *g, const char *league_channel);
/* The bot stops (its last marker answered, or not): the commentary the
 * output confirmed (io.delivered) is marked said now, so that a restart
 * does not say it again. */
void game_stop(struct game *g);
/* Seconds from now until game_tick has something to do (0: now), at most
 * GAME_TICK_IDLE_MAX: 1 while bouts or challenges are live (their clocks
 * go by the second), else until the league's or the tournaments' next
 * look at their schedules (when a league turn is scheduled or a
 * tournament may be open or running). Between two ticks the game changes only
 * through its commands and game_connected, after which the caller asks
 * again. */
#define GAME_TICK_IDLE_MAX 60.0
double game_tick_due(const struct game *g);
/* 1 if fighter `fighter_id` is in a challenge or a live bout. */
int game_fighter_busy(const struct game *g, int64_t fighter_id);
/* How many bouts are live. */
int game_live(const struct game *g);
/* 1 if account `account_id` has a fighter in a live bout. */
int game_account_live(const struct game *g, int64_t account_id);

/* The commands of the game. Each answers the caller (a result, or one line
 * saying what was wrong and how to do it right) and returns 0, or -1 when
 * nothing was done. Arguments are the caller's words, unchecked, but for
 * a bout number (int64_t bout), which game_bout_find resolved. */

/* `who` (identified, in a channel) challenges the player of account
 * opp_id (named opp_name) to a bout of `rules` with `rounds` (0: the
 * default), with his fighter `with` against `vs` (NULL: the first free).
 * The channel hears it; a challenged player not identified (io.nick_of)
 * is said to be told when he comes (game_player_back tells him), one
 * identified but not in that channel (io.hears) is told in private now. */
int game_challenge(struct game *g, const struct game_caller *who, int64_t opp_id,
                   const char *opp_name, enum rules rules, int rounds, const char *with,
                   const char *vs);
/* Answers to a challenge: the challenged accepts or declines, the
 * challenger withdraws. `other` names the other player (his account name
 * or nick; NULL: the only open challenge) and other_id is the account
 * identified under that nick (0 if none). */
enum game_answer { GAME_ACCEPT, GAME_DECLINE, GAME_WITHDRAW };
int game_answer(struct game *g, const struct game_caller *who, enum game_answer answer,
                const char *other, int64_t other_id);
/* The bout a command acts on, as it wants it (enum game_bout), from the
 * caller's word `word` ("#12" or "12"; NULL when he gave none): 0 with
 * *id set, or -1 after telling the caller what was wrong, word for word
 * as each command always has ("there is no live bout #9; ...", "you are in
 * 2 bouts; say which: ..."). The bot's dispatcher calls it in its target
 * stage, so the calls below take the bout it resolved. */
enum game_bout {
    GAME_BOUT_ANY,         /* `word` (required): any bout, live or finished (report) */
    GAME_BOUT_OPEN,        /* `word` (required): a live bout or a challenge (cancel) */
    GAME_BOUT_LIVE,        /* a live bout; no word: the only one live in the caller's
                            * channel, or anywhere in private (score) */
    GAME_BOUT_MINE,        /* one of the caller's live bouts; no word (or forfeit's
                            * answer, "yes" or "no"): his only one (forfeit) */
    GAME_BOUT_MINE_ORDERS, /* the same, but no word and several bouts is no refusal:
                            * 0 with *id 0, and game_order picks the bout by the
                            * orders' shape */
};
int game_bout_find(struct game *g, const struct game_caller *who, enum game_bout want,
                   const char *word, int64_t *id);
/* Orders `text` for the caller's live bout `bout`, stored before they are
 * acknowledged. */
int game_order_in(struct game *g, const struct game_caller *who, int64_t bout, const char *text);
/* The same for the bout the caller's word `bout` names, as
 * game_bout_find(GAME_BOUT_MINE_ORDERS): for orders sent without the
 * command word, and for callers without a dispatcher. With no bout named
 * (NULL) they go to his only live bout, or, when he has several, to the
 * one whose ruleset reads them (5/5/10 is boxing, 3/2 SUGAR RAY; duels
 * take none); only when several read them (or none) is he asked, with
 * his own bouts as the example ("you are in 2 boxing bouts; say which:
 * order #3 5/5/10 or order #7 5/5/10"). */
int game_order(struct game *g, const struct game_caller *who, const char *bout, const char *text);
/* 1 if `text` is an order one of account `account_id`'s live bouts reads
 * (one that takes orders: not a duel); else 0. Nothing is stored. */
int game_order_reads(struct game *g, int64_t account_id, const char *text);
/* The caller concedes his live bout `bout`. */
int game_forfeit(struct game *g, const struct game_caller *who, int64_t bout);
/* The caller asked to concede his live bout `bout` without confirming:
 * he is asked ("Forfeit bout #3 (Rocky vs Apollo)? ... Say forfeit yes
 * (or forfeit #3 yes) to confirm."; a duel says yield); nothing changes.
 * 0, or -1 after a refusal. */
int game_forfeit_ask(struct game *g, const struct game_caller *who, int64_t bout);
/* Lists the live bouts; the cards of live bout `bout`; the report of bout
 * `bout` (rounds `round` only, or every round when NULL), in private. */
int game_bouts(struct game *g, const struct game_caller *who);
int game_score(struct game *g, const struct game_caller *who, int64_t bout);
int game_report(struct game *g, const struct game_caller *who, int64_t bout, const char *round);
/* An admin cancels a live bout or a challenge (logged in the audit). */
int game_cancel(struct game *g, const struct game_caller *who, int64_t bout);

/* `sim`: the caller simulates bouts of his fighter `mine` against the
 * sheet of `his` (any fighter of the same ruleset), fought later by
 * game_sim_step, whose one line answers him. `bouts` (NULL: 1,000; 1 to
 * 10,000), `plan` (NULL: his stored plan, else the default orders),
 * `hisplan` (NULL: the default orders; his own stored plan is never read)
 * and `seed` (NULL: a fresh one) are the caller's words. One simulation at
 * a time per player, and one started per SIM_EVERY seconds; anything wrong
 * gets one line and starts nothing. */
#define SIM_EVERY      30.0 /* seconds */
#define SIM_JOBS_MAX   16   /* simulations waiting, everybody's */
#define SIM_RECENT_MAX 64   /* players who started one within SIM_EVERY */
int game_sim(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
             const struct db_fighter *his, const char *bouts, const char *plan, const char *hisplan,
             const char *seed);
/* Fights at most `budget` bouts of the waiting simulations, each in turn,
 * and says the result of each one finished to its player (his nick, else
 * his account's name). Returns the bouts fought. */
long game_sim_step(struct game *g, long budget);
/* How many simulations are waiting. */
int game_sims(const struct game *g);

/* ------------------------------------------------------------- leagues */

#define LEAGUE_SUMMARY_LINES 8

/* Runs a league turn of `rules` now, with the bout seeds drawn from `seed`;
 * its bouts are recorded as fought in `channel`. Every bout, the records,
 * moves, gold records, the title and the turn are written in one
 * transaction, or nothing is. On 0, lines[0..*n) is the channel's summary
 * (never one line per bout). On -1, err says why. */
int league_turn(struct game *g, enum rules rules, uint64_t seed, const char *channel,
                char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], int *n, char *err,
                size_t errlen);
/* Runs a turn with a fresh seed, its bouts recorded in `channel` (NULL:
 * "#league") and its summary said there, the league's news, and to
 * `target` too when that is elsewhere (an admin in private; NULL: nobody);
 * a failure is said to `target` alone, with its reason. Returns 0 or -1. */
int league_turn_announce(struct game *g, enum rules rules, const char *channel, const char *target);
/* At start-up: the league turns begun and not finished (killed before
 * their commit, which stored nothing of them) are logged, and said once
 * to the admins in the league channel at the next game_tick with one. */
void league_unfinished_report(struct game *g);
/* Every active fighter of `rules` in league `league` but the champion, in
 * standings order (those who fought before those who never did, then gold
 * record, then wins minus losses, then age). Returns
 * an allocated array (free()) and its length in *n, or NULL on a database
 * error. */
struct db_fighter *league_standings(struct game *g, enum rules rules, int league, int *n);
/* The same from a database alone (the web pages: no game runs there). */
struct db_fighter *league_standings_db(struct db *db, enum rules rules, int league, int *n);
/* The standings' order of two fighters of one league: < 0 when a ranks
 * above b, > 0 below, 0 only for the same fighter (for readers who keep
 * the standings sorted themselves: the web's, changed a fighter at a time). */
int league_standing_cmp(const struct db_fighter *a, const struct db_fighter *b);

/* One title bout of a ruleset, and what it did to the title. */
struct title_bout {
    struct db_bout bout;
    int64_t before; /* the champion going in, 0: vacant */
    int64_t after;  /* and coming out */
    int defence;    /* the champion kept it: his defence's number, else 0 */
};
/* The title bouts of `rules`, oldest first (a league turn's title bout
 * puts the champion, when there is one, on side 0): an allocated array
 * (free()) and its length in *n, or NULL on a database error. */
struct title_bout *league_title_history(struct db *db, enum rules rules, int *n);

/* ---- Seasons (season.c). A season of a ruleset lasts
 * game_config.season_turns league turns (0: until an admin ends it); its
 * end archives every league's final standings, puts each league's winner
 * and the International Champion into the hall of fame, promotes each
 * league's winner and relegates its last, and starts the season's records
 * (the standings' order) at 0; careers and ratings carry on. */
/* The number of the season of `rules` running (from 1), or -1 on a
 * database error. */
int game_season_current(struct game *g, enum rules rules);
/* The wall-clock span [*from, *to) of season n of `rules`: *from 0 for
 * the first (since the beginning), *to 0 while it runs. 0, or -1 when
 * there is no such season (yet) or on a database error. */
int game_season_span(struct game *g, enum rules rules, int n, int64_t *from, int64_t *to);
/* Inside a league turn's transaction, after it: ends the season when the
 * turn was its last (season_turns reached), in the same transaction.
 * 0, or -1 on a database error (the turn then fails). */
int season_after_turn(struct game *g, enum rules rules);
/* After a committed turn: the end of the season it closed, if it did,
 * said to `channel` and to `target` (either NULL). */
void season_announce(struct game *g, enum rules rules, const char *channel, const char *target);
/* An admin's `season end`: the season of `rules` ends now, in one
 * transaction (audited), said to `channel` (the league channel) and to
 * the caller where he is when that is elsewhere. A season with no turn
 * and no bout is refused. 0 or -1. */
int game_season_end(struct game *g, const struct game_caller *who, enum rules rules,
                    const char *channel);
/* `season`: which season of `rules` it is and how many turns are left. */
int game_season(struct game *g, const struct game_caller *who, enum rules rules);
/* `halloffame`: the last seasons' winners of `rules`, a line a season (at
 * most three, newest first) and the page. */
int game_halloffame(struct game *g, const struct game_caller *who, enum rules rules);
/* `halloffame` with no ruleset named: each ruleset's last season, a line
 * each, and the page. */
int game_halloffame_all(struct game *g, const struct game_caller *who);

/* ======================================================================
 * Fighters, their training, equipment, plans and pauses, and the admin's
 * edits (fighter.c, train.c, armoury.c, plan.c, edit.c). Each command
 * answers the caller through struct game_caller (a result, or one line
 * saying what was wrong and how to do it right, and nothing changed) and
 * returns 0, or -1 when nothing was done. Words are the caller's, as typed
 * and unchecked: any front door (IRC, the web, the simulator) can call
 * them.
 * ====================================================================== */

#define GAME_FIGHTERS_MAX 10 /* active fighters a player may have */

/* How the caller types a command where he is: with the prefix in a
 * channel ("!bouts"), bare in private. */
const char *game_typed(const struct game *g, const struct game_caller *who);
/* " - BASE/PATH" (the page of the web server, the path printf-style) for
 * an answer that has a page, or "" when there is no base_url; into buf,
 * which is returned. */
const char *game_page(const struct game *g, char *buf, size_t len, const char *fmt, ...)
    GAME_PRINTF(4, 5);
/* Folds an account or fighter name into the key the database stores it
 * under (RFC 1459 case: []\~ are the capitals of {}|^), at most len - 1
 * bytes. */
void game_name_key(char *dst, const char *name, size_t len);
/* 1 if `name` can be a fighter's: a letter, then letters, digits, _ - '
 * (2 to 20). */
int game_name_valid(const char *name);
/* What is wrong with `name` as a fighter's name, in words, appended to out
 * ("\"Zoë\" is not a fighter's name: 'ë' is not allowed (names are ...);
 * try Zoe", "...: it is 33 characters, at most 20"): -1, or 0 (nothing
 * added) when it is a good name. */
int game_name_why(const char *name, struct str *out);
/* The sheet as its ruleset shows it ("STR 14 SPD 12 ...", "skill 12,
 * endurance 21"), appended to out. */
void game_sheet_text(const struct sheet *s, struct str *out);
/* The account called `name` (any case): 0 with *acc filled, -1 if none.
 * `name@network` names an account of that network (issue 29: several
 * bots, one database), which acc->network then says; a plain name, or
 * one of the bot's own network, is the bot's network's. */
int game_account_find(struct game *g, const char *name, struct db_account *acc);
/* Networks (issue 29): how a player is named to this bot's players. An
 * account of the bot's own network (and of none) by its name, word for
 * word as before networks; another network's as name@network. Into buf
 * (GAME_WHO_MAX bytes is always room), which is returned. */
#define GAME_WHO_MAX (DB_NAME_MAX + DB_NETWORK_MAX)
const char *game_account_name(const struct game *g, const struct db_account *acc, char *buf,
                              size_t len);
/* The same for a fighter's owner. */
const char *game_owner_name(const struct game *g, const struct db_fighter *f, char *buf,
                            size_t len);
/* 0 if `acc` is of the bot's own network; else -1 after telling `who`,
 * in one line, that `doing` ("ban", "challenge") is for the bot of the
 * account's network (cross-network bouts are not possible yet). */
int game_account_here(struct game *g, const struct game_caller *who, const struct db_account *acc,
                      const char *doing);

/* Fighter `name`: 0 with *f filled, or -1 after telling the caller that
 * the name is not one, or that nobody has it. */
int game_fighter_find(struct game *g, const struct game_caller *who, const char *name,
                      struct db_fighter *f);
/* The same, and the fighter must be the caller's and not retired. */
int game_fighter_mine(struct game *g, const struct game_caller *who, const char *name,
                      struct db_fighter *f);
/* The caller's active fighters, at most `max`, into out[0..*n): 0, or -1
 * after telling him of a database error. */
/* 0 if fighter `f` is the caller's and not retired, else -1 after telling
 * him why not (what game_fighter_mine checks of a fighter found). */
int game_fighter_owned(const struct game_caller *who, const struct db_fighter *f);
int game_my_fighters(struct game *g, const struct game_caller *who, struct db_fighter *out, int max,
                     int *n);

/* `create`: a new fighter `name` of the caller's; `words` are rules=NAME
 * (default boxing) and the sheet's key=N words, checked against the
 * ruleset's rules for a new fighter (its fixed start, or its points
 * spread within bounds, nothing carried). GAME_FIGHTERS_MAX at most. */
int game_create(struct game *g, const struct game_caller *who, const char *name,
                const char *const *words, int n);
/* `fighter`: the sheet, record and equipment of fighter `f` (as
 * game_fighter_find gave it; NULL: the caller's only one), and to his
 * owner the training points he has. */
int game_fighter_show(struct game *g, const struct game_caller *who, const struct db_fighter *f);
/* `fighters`: the active fighters of `account` (NULL: the caller's). */
int game_fighters(struct game *g, const struct game_caller *who, const char *account);
/* `train`: the caller's fighter `name` (NULL: his only one that trains an
 * ability called `ability`) trains it, as his ruleset allows: a point for
 * +1, or once between league turns (not the champion, not after a missed
 * turn); never in a bout or a challenge. */
int game_train(struct game *g, const struct game_caller *who, const char *ability,
               const char *name);
/* `retire`: the caller's fighter `f` (as game_fighter_mine gave it)
 * retires for good (not in a bout or a challenge). */
int game_retire(struct game *g, const struct game_caller *who, const struct db_fighter *f);
/* `pause`: the caller's fighter `name` (NULL: his only one) sits out the
 * next `turns` league turns (0 to 52; 0 ends a pause). */
int game_pause(struct game *g, const struct game_caller *who, const char *turns, const char *name);
/* `league`: the league and gold record of fighter `name` (NULL: the
 * caller's only one). `champion`: the champion of `rules`. */
int game_league_of(struct game *g, const struct game_caller *who, const char *name);
int game_champion(struct game *g, const struct game_caller *who, enum rules rules);
/* `standings`: the table of league `league` of `rules` (enum league), or
 * with league -1 the top of every league that has fighters. */
int game_standings(struct game *g, const struct game_caller *who, enum rules rules, int league);
/* `standings` with no ruleset named: the same for every ruleset that has
 * fighters (league `league`, or with -1 the top of each league), a line
 * each; when none has, one line that says so and how to begin. */
int game_standings_all(struct game *g, const struct game_caller *who, int league);
/* An admin's league turn of `rules` now, audited, its bouts recorded in
 * `channel` and its summary said there and where he asked. */
int game_turn(struct game *g, const struct game_caller *who, enum rules rules, const char *channel);
/* An admin's `set`: corrects fighter `name`'s sheet or record by
 * key=number words (each ability within its bounds, wins, losses, draws,
 * kos, training), never during a bout; written with its audit line in one
 * transaction. */
int game_edit(struct game *g, const struct game_caller *who, const char *name,
              const char *const *words, int n);
/* An admin bans (banned 1) or lets back (0) account `acc`: 1 when it was
 * changed (the caller then ends its identities and says so), 0 when it
 * already was so (the caller was told), -1 after a database error. */
int game_ban(struct game *g, const struct game_caller *who, const struct db_account *acc,
             int banned);

/* `armoury`: the duel's weapons and armour tables; `what` "weapons",
 * "armour" or NULL for both. */
int game_armoury(struct game *g, const struct game_caller *who, const char *what);
/* `equip`: the caller's duellist `f` (as game_fighter_mine gave it) takes
 * new pieces, each at 100 %: words slot=item (weapon=longsword head=plate
 * torso=chainmail+leather) or a weapon's bare name; each needs its STR;
 * never in a duel. */
int game_equip(struct game *g, const struct game_caller *who, const struct db_fighter *f,
               const char *const *words, int n);
/* `unequip`: the piece in `slot` (weapon, head, torso, under/shirt, legs,
 * feet, shield) is taken off and gone. */
int game_unequip(struct game *g, const struct game_caller *who, const struct db_fighter *f,
                 const char *slot);
/* The layering rule of the duel's torso. Given `kit`, the equipment after
 * new pieces (given[slot] set for each slot named) over `worn`: a leather
 * torso over worn chainmail keeps the chainmail as a shirt. */
void game_kit_layer(const struct duel_sheet *worn, const int given[DUEL_SLOTS],
                    struct duel_sheet *kit);
/* The piece in `slot` of `d` taken off: without the leather, the
 * chainmail shirt becomes the torso piece. */
void game_kit_unlayer(struct duel_sheet *d, int slot);

/* The words that name the game's things (words.c). A word "rules=NAME":
 * 1 with *rules set, or -1 after telling the caller which rulesets there
 * are; 0 when `word` is not rules=. */
int game_rules_word(const struct game_caller *who, const char *word, enum rules *rules);
/* The league (enum league) a word names ("gold", any case), or -1. */
int game_league_word(const char *word);
/* The value of rounds=N (a challenge's, a tournament's) for a bout of
 * `rules` into *rounds: 0, or -1 after telling the caller the bounds, or,
 * where the ruleset's rounds are fixed and the word says another count,
 * that its bouts always have that many ("leave rounds= out"). */
int game_rounds_word(const struct game_caller *who, enum rules rules, const char *word,
                     int *rounds);
/* What `help create` and `help order` add: each ruleset's sheet, and its
 * order line, explained. */
void game_help_sheets(const struct game_caller *who);
void game_help_orders(const struct game_caller *who);

/* `plan`: the caller's fighter's stored plan. The fighter is the one
 * words[0] names among his fighters, else his only one; the rest of the
 * words are the plan's lines (separated by ;) for set and check.
 * `opword` is the operation as he typed it, for the hints. */
enum game_plan_op { GAME_PLAN_SET, GAME_PLAN_SHOW, GAME_PLAN_CLEAR, GAME_PLAN_CHECK };
int game_plan(struct game *g, const struct game_caller *who, enum game_plan_op op,
              const char *opword, const char *const *words, int n);
/* The stored plan of fighter `fighter_id` appended to out: 0, 1 when he
 * has none, -1 on a database error. */
int game_plan_get(struct game *g, int64_t fighter_id, struct str *out);

/* ======================================================== * Ratings (game/rating.c): Glicko-2, one
 * rating per fighter and ruleset.
 * ====================================================================== */

/* A newcomer's rating, deviation and volatility, and the system constant
 * tau, which bounds how fast the volatility changes (Glickman suggests 0.3
 * to 1.2; 0.5 is his worked example's). */
#define RATING_START     1500.0
#define RATING_RD_START  350.0
#define RATING_VOL_START 0.06
#define RATING_TAU       0.5

/* A Glicko-2 rating on the Glicko scale: rating, deviation, volatility. */
struct rating {
    double r, rd, vol;
};

/* One rating period for *p: n games against opp[0..n) (their ratings as
 * they were before it) with scores score[] (1 a win, 0.5 a draw, 0 a
 * loss), system constant tau. With n = 0 only the deviation grows. */
void rating_update(struct rating *p, const struct rating *opp, const double *score, int n,
                   double tau);
/* Fighter `fighter_id`'s rating and deviation in his ruleset (a newcomer's
 * when he has fought no bout that counts). Returns 0, or -1 when he cannot
 * be read. (A tournament's seeding reads it.) */
int game_rating_of(struct game *g, int64_t fighter_id, double *rating, double *rd);
/* "rating 1532 ± 180" of fighter `f` into buf (as `fighter` says it).
 * Returns 0, or -1 ("rating unknown") when it cannot be read. */
int game_rating_text(struct game *g, const struct db_fighter *f, char *buf, size_t len);
/* `ratings [rules=..]`: the top of `rules` in one line, with the page of
 * them all. Returns 0, or -1 on a database error (said). */
int game_ratings(struct game *g, const struct game_caller *who, enum rules rules);
/* `help rating`'s second line: what moves a rating, and what does not. */
void game_rating_help(struct game *g, const struct game_caller *who);

/* ---------------------------------------------- predictions (predict.c) */

/* `predict <bout> <fighter> [method] [round N]` or `predict <bout> draw`:
 * words[0..n) after the bout's number. Stores the caller's prediction on
 * that live bout (replacing his last one while it is open) and then tells
 * him, always in private; or one private line saying why not (no such
 * bout, a league or title bout, not yet accepted, closed, his own
 * fighter's, a fighter or method or round the bout cannot have). 0 or -1. */
int game_predict(struct game *g, const struct game_caller *who, const char *bout, char **words,
                 int n);
/* `predict` alone: the caller's predictions on bouts still live, in
 * private. 0 or -1. */
int game_predict_list(struct game *g, const struct game_caller *who);
/* `pundits [rules=NAME] [season [N]]`: the table of predictors by points,
 * then the share of winners called (all time; a season's once seasons are
 * kept). 0 or -1 after a one-line refusal. */
int game_pundits(struct game *g, const struct game_caller *who, char **words, int n);
/* A prediction in words, appended to s: "Rocky by TKO in round 4",
 * "Rocky", "a draw" (p on a bout of `rules` between fighters named a and
 * b, side 0 first). */
void game_prediction_text(const struct db_prediction *p, enum rules rules, const char *a,
                          const char *b, struct str *s);

/* ------------------------------------------------------- tournaments */

/* Knockout tournaments (tournament.c). `admin`: the caller holds admin
 * rights. Each answers the caller (a refusal: one line saying why and
 * what to do) and returns 0, or -1 when it refused. One tournament is open
 * or running at a time; the commands without a number act on it.
 * open: argv are the words after "open" (rules= size= rounds= mode=
 * name=, the name running to the next key word); join: the
 * caller's fighter `f` joins (the tournament starts when full); leave: his
 * fighter leaves (until it starts); start: an admin starts it now; next:
 * an admin fights a plans tournament's next bracket round now; show: the
 * bracket of tournament `word` (NULL: the current one, else the last) in
 * at most three lines, the web address last. */
int game_tournament_open(struct game *g, const struct game_caller *who, int admin,
                         const char *const *argv, int argc);
int game_tournament_join(struct game *g, const struct game_caller *who, const struct db_fighter *f);
int game_tournament_leave(struct game *g, const struct game_caller *who);
int game_tournament_start(struct game *g, const struct game_caller *who, int admin);
int game_tournament_next(struct game *g, const struct game_caller *who, int admin);
int game_tournament_show(struct game *g, const struct game_caller *who, const char *word);
/* The tournaments fighter `fighter` won onto s: "won the Spring Cup
 * (boxing, 8)", ", " between them. Returns how many. */
int game_tournament_wins(struct game *g, int64_t fighter, struct str *s);
/* The bracket of a tournament as the web pages draw it: its row, its
 * entrants' seeds and its bouts. 0, or -1 (no such tournament). */
struct game_bracket {
    struct db_tournament t;
    struct db_tournament_entry e[DB_TOURNAMENT_SIZE];
    int ne;
    struct db_tournament_match m[DB_TOURNAMENT_SIZE];
    int nm;
};
int game_bracket_get(struct db *db, int64_t id, struct game_bracket *b);

#endif
