/*
 * bot.h - the IRC bot: configuration, logging, IRC text rules, the paced
 * output queue, who is who, the command table and the event loop.
 *
 * Layers: bot/ may use game/, db/, parse/ and engine/; it is the only code
 * that includes libircclient.h (irc.c). Command handlers never touch the socket:
 * they reply through reply()/bot_say(), which append to the output queue;
 * only the event loop takes lines off the queue and writes them.
 */
#ifndef RINGSIDE_BOT_H
#define RINGSIDE_BOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/select.h>

#include "db.h"
#include "engine.h"
#include "game.h"

#define RINGSIDE_VERSION "0.2.0"

#if defined(__GNUC__)
#define BOT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BOT_PRINTF(f, a)
#endif

/* ------------------------------------------------------------ logging */

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

void log_set_level(enum log_level level);
/* One line on stderr: "2026-11-21T06:00:00Z info message". */
void log_msg(enum log_level level, const char *fmt, ...) BOT_PRINTF(2, 3);
/* "debug", "info", "warn", "error" -> level; -1 if unknown. */
int log_level_parse(const char *name);

/* ------------------------------------------------------ configuration */

#define CONFIG_STR_MAX      256
#define CONFIG_NICK_MAX     32
#define CONFIG_NETWORK_MAX  33 /* a network's short name, NUL included */
#define CONFIG_CHANNELS_MAX 16
#define CONFIG_ADMINS_MAX   16
#define CONFIG_HASH_MAX     160 /* an admin's password hash (DB_HASH_MAX) */
#define CONFIG_ERR_MAX      512
#define CONFIG_RELAYS_MAX   8
#define CONFIG_FORMAT_MAX   64
#define CONFIG_SAFE_RATE    1.0 /* lines/s every common server takes */
#define CONFIG_SAFE_BURST   5   /* lines at once */

/* [irc] sasl_mechanism */
enum sasl_mechanism { SASL_NONE, SASL_PLAIN, SASL_EXTERNAL };
/* [bot] accounts: who a player is (README "Run it on your network"). */
enum accounts_mode { ACCOUNTS_BOTH, ACCOUNTS_SERVICES, ACCOUNTS_PASSWORDS };
/* [bot] replies: where a short answer to a command said in a channel goes
 * (policy: networks that want a quiet channel). */
enum replies_mode { REPLIES_CHANNEL, REPLIES_NOTICE, REPLIES_PRIVATE };

/* The keys of the INI file (README, config/ringside.conf.example). */
struct config {
    /* [irc] */
    char server[CONFIG_STR_MAX];
    int port;
    int tls;
    int tls_verify;
    char tls_ca_file[CONFIG_STR_MAX];
    char tls_cert_file[CONFIG_STR_MAX];
    char tls_key_file[CONFIG_STR_MAX];
    char server_password[CONFIG_STR_MAX];
    char nick[CONFIG_NICK_MAX];
    char alt_nick[CONFIG_NICK_MAX];
    char username[CONFIG_NICK_MAX];
    char realname[CONFIG_STR_MAX];
    char channels[CONFIG_CHANNELS_MAX][CONFIG_NICK_MAX * 2];
    int nchannels;
    char nickserv_password[CONFIG_STR_MAX];
    enum sasl_mechanism sasl_mechanism;
    char sasl_username[CONFIG_STR_MAX];
    char sasl_password[CONFIG_STR_MAX];
    int sasl_required;
    /* Joins a channel an admin invites it to, kept in the database (policy). */
    int join_on_invite;
    /* [bot] */
    enum accounts_mode accounts;
    char prefix[8];
    char admins[CONFIG_ADMINS_MAX][CONFIG_NICK_MAX];
    /* "name:HASH": the admin's password hash (ringside --hash-password),
     * else "" (the name counts only through services: accounts.c). */
    char admin_hash[CONFIG_ADMINS_MAX][CONFIG_HASH_MAX];
    int nadmins;
    char database[CONFIG_STR_MAX];
    enum log_level log_level;
    int colours; /* the result in colour (bold names always) */
    enum replies_mode replies;
    /* The network this bot is on, as players name it (alice@libera); ""
     * for a bot alone on its database. Several bots share one PostgreSQL
     * database, one network each. */
    char network[CONFIG_NETWORK_MAX];
    /* With a standby on the same network: how long the active bot may be
     * gone before the standby takes over. */
    int failover_seconds;
    /* register (auth.c): accounts made from one host a UTC day, and by
     * all hosts together a clock hour (UTC) */
    int registrations_per_host, registrations_per_hour;
    /* [flood] */
    int burst;
    double lines_per_second;
    int exempt; /* the network exempts the bot: pacing past the safe limits */
    int commands, commands_seconds, ignore_seconds; /* the inbound limit */
    /* [bout] */
    int order_timeout;     /* seconds */
    int challenge_timeout; /* seconds */
    int rounds;
    int duel_round_seconds; /* a live duel's pace: seconds between its rounds */
    /* After a restart or a reconnection, how long a live bout waits for its
     * players before its clock starts without them; 0: it does not wait. */
    long rejoin_grace; /* seconds */
    /* [league] */
    long turn_interval; /* seconds; 0: turns only by admin command */
    /* [rating] */
    int exhibitions;  /* exhibitions (live bouts) move the ratings (default yes) */
    int season_turns; /* league turns a season lasts; 0: until an admin ends it */
    /* [predict] predictions on a live bout close once this many rounds
     * are fought */
    int closes_after;
    /* [tournament]: 1 if players may open one (open_by = players); the
     * seconds between a plans tournament's rounds (0: by command only) */
    int open_by;
    long round_interval;
    /* [bridge]: the relay bots' nicks and how their lines read (bridge.c) */
    char relay_nicks[CONFIG_RELAYS_MAX][CONFIG_NICK_MAX];
    int nrelays;
    char relay_format[CONFIG_FORMAT_MAX];
    /* [web] (ringside-web reads them): where the pages are, for links */
    char listen[CONFIG_STR_MAX];
    char base_url[CONFIG_STR_MAX];
    /* ringside-web's limits: only range-checked here (web/config.c). */
    int max_connections, max_connections_per_address, request_timeout, threads;
};

/* Fills *c with the defaults. */
void config_defaults(struct config *c);
/* Reads the INI file at `path` over the defaults. Unknown sections or keys
 * and bad values are errors: returns -1 with "FILE:LINE: reason" in err. */
int config_load(struct config *c, const char *path, char *err, size_t errlen);
/* The same for INI text in memory; `name` stands for the file in errors. */
int config_parse(struct config *c, const char *text, const char *name, char *err, size_t errlen);
/* Whether the file at `path` holds a password (a key ending in "password"
 * with a value) and is readable by others than the bot's user: by every
 * local user, or by a group other than the bot's own. Returns 1 with a
 * one-line warning in msg saying how to fix it, else 0 (msg ""). */
int config_mode_check(const char *path, char *msg, size_t size);

/* ----------------------------------------------------- IRC text rules */

enum casemapping { CASEMAP_ASCII, CASEMAP_RFC1459, CASEMAP_STRICT_RFC1459 };

/* "ascii", "rfc1459", "strict-rfc1459" (ISUPPORT CASEMAPPING); unknown
 * names give CASEMAP_RFC1459. */
enum casemapping irc_casemapping_parse(const char *name);
/* Lower-cases src into dst (at most len bytes, NUL-terminated) under m. */
void irc_casefold(enum casemapping m, char *dst, const char *src, size_t len);
/* strcmp of the two names folded under m. */
int irc_casecmp(enum casemapping m, const char *a, const char *b);
/* Turns every CR and LF of s into a space, in place, so that user text
 * never ends or starts a line on the wire; other text is kept. */
void irc_sanitize(char *s);
/* Removes IRC formatting from s in place: colour codes (\003 with up to
 * two digits, a comma and two more), and unless colours_only also bold
 * (\002), reset (\017), reverse (\026), italics (\035), strike (\036) and
 * underline (\037). */
void irc_strip_format(char *s, int colours_only);
/* The length of the first piece of `text` (of `len` bytes) that fits in
 * `max` bytes: cut after the last sentence (its ".", "!" or "?" and a
 * space) that ends past max / 2, else at the last space that fits, else at
 * a UTF-8 character boundary; never 0 when len > 0 and max >= 4. */
size_t irc_split(const char *text, size_t len, size_t max);
/* Appends `len` bytes of text to out as valid UTF-8 with no control
 * character from the text but those in `keep` (the bot's own formatting,
 * e.g. "\002\003\017"; NULL: none): every byte of an invalid or truncated
 * UTF-8 sequence becomes U+FFFD, CR, LF and TAB a space, every other C0
 * control, DEL, NUL and C1 control U+FFFD. Text already clean is copied
 * unchanged. */
void text_utf8_clean(struct str *out, const char *text, size_t len, const char *keep);
/* 1 if `target` names a channel (starts with one of `chantypes`). */
int irc_is_channel(const char *target, const char *chantypes);

/* One IRC line split into its parts (ircline.c), in place: pointers into
 * the line given to irc_msg_parse. */
#define IRC_MSG_PARAMS    32
#define IRC_TAG_VALUE_MAX 512
struct irc_msg {
    char *tags;   /* raw, after the '@', or NULL */
    char *source; /* after the ':', or NULL */
    char *verb;
    int nparams;
    char *params[IRC_MSG_PARAMS];
};
/* Splits `line` (its CR LF, if any, ends it) into *m, cutting it with NULs.
 * Returns 0, or -1 for a line without a verb. */
int irc_msg_parse(char *line, struct irc_msg *m);
/* `line` without its message tags (a pointer into it). */
const char *irc_msg_untagged(const char *line);
/* The next tag at *pos (start with m->tags): its key and unescaped value
 * (empty when it has none) into key/val, cut to their sizes; 1, or 0 when
 * there is none left. */
int irc_msg_tag_next(const char **pos, char *key, size_t klen, char *val, size_t vlen);
/* The value of tag `key` (the last if repeated) into val; 1 if present. */
int irc_msg_tag(const struct irc_msg *m, const char *key, char *val, size_t vlen);
/* "nick!user@host" into its parts, each cut to `len` bytes ("" if absent). */
void irc_source_split(const char *source, char *nick, char *user, char *host, size_t len);
/* IRCv3 server-time ("2026-11-26T01:02:03.456Z", UTC, fraction optional)
 * into seconds since the epoch: 0, or -1 if it is not one. */
int irc_time_parse(const char *s, double *epoch);
/* The `time` tag of m into *epoch: 1, or 0 when absent or malformed. */
int irc_msg_time(const struct irc_msg *m, double *epoch);
/* A standard reply (IRCv3 standard-replies): FAIL/WARN/NOTE <command>
 * <code> [<context>...] :<description>; pointers into the irc_msg. */
#define IRC_STD_CONTEXT IRC_MSG_PARAMS
struct irc_std {
    const char *kind; /* "FAIL", "WARN" or "NOTE" */
    const char *command, *code, *description;
    int ncontext;
    const char *context[IRC_STD_CONTEXT];
};
/* 1 and *out if m is a well-formed standard reply, else 0. */
int irc_std_reply(const struct irc_msg *m, struct irc_std *out);
/* A BATCH line (IRCv3 batch): "+ref type [params]" opens, "-ref" closes. */
struct irc_batch {
    int open;
    const char *ref;  /* without its + or - */
    const char *type; /* when open */
};
/* 1 and *out if m is a well-formed BATCH line, else 0. */
int irc_batch_parse(const struct irc_msg *m, struct irc_batch *out);

/* ------------------------------------------------------ the connection */

/* conn.c: the connection to the server (TCP or TLS, CAP, SASL) relayed to
 * libircclient through a loopback socket only it may use. The file says
 * how. */
struct conn;

/* Starts a connection attempt to cfg's server (cfg must outlive it). Never
 * NULL; an immediate failure shows in conn_process and conn_error. */
struct conn *conn_open(const struct config *cfg);
void conn_close(struct conn *c);
/* The loopback port libircclient must connect to. */
unsigned short conn_port(const struct conn *c);
/* Adds the descriptors to wait for. */
void conn_fds(struct conn *c, fd_set *r, fd_set *w, int *maxfd);
/* 1 when data is waiting inside TLS: the loop must not sleep. */
int conn_busy(const struct conn *c);
/* Moves bytes after select; `libfd` is libircclient's socket. 0, or -1
 * once the connection is over (conn_error says why). */
int conn_process(struct conn *c, fd_set *r, fd_set *w, int libfd);
/* Once up, what libircclient has just written (the loop's flush) goes on
 * to the server now, not after a select(2) that would only say it is
 * there: one system call less for each turn that answers over the relay. */
void conn_pass(struct conn *c);
/* At the end of a turn, once libircclient has read what it was handed
 * (or written what it had): the splice conn_process tried and had to put
 * off (a byte still unread) is tried again, so a quiet channel does not
 * leave the relay in place until the next line wakes the loop. */
void conn_settle(struct conn *c, int libfd);
/* 1 once after a conn_process that handed libircclient bytes (they are in
 * its socket now: it may read them at once, without another select). */
int conn_fed(struct conn *c);
/* Why the connection is over, or NULL while it is not. */
const char *conn_error(const struct conn *c);
/* 1 if the capability `name` (extended-join, account-notify, sasl: logged
 * in by SASL; WHOX: the server's ISUPPORT says it answers WHOX) is on.
 * "BOT": the user mode letter of ISUPPORT BOT= (bot mode), or 0. */
int conn_has_cap(const struct conn *c, const char *name);
/* IRCv3 (caps): with account-tag on, the account of the sender of the
 * PRIVMSG libircclient is reporting, from `nick` (oldest first: messages
 * from others it has passed over are forgotten): 1 with the account ("" if
 * not logged in) into `account`, 0 if unknown (the cap is off, or the tags
 * were lost: ask the old way). */
int conn_msg_account(struct conn *c, const char *nick, char *account, size_t len);
/* The queue a FAIL on a PRIVMSG or NOTICE is told of (outq_refused). */
struct outq;
void conn_set_outq(struct conn *c, struct outq *q);
/* For the tests and the fuzz harness: a connection with no socket at all,
 * as if the server link had just come up ("CAP LS 302" is waiting to go).
 * conn_feed hands it bytes as if read from the server and runs every whole
 * line through the negotiation (CAP, AUTHENTICATE, 9xx, ISUPPORT), as
 * conn_process does; it returns how many bytes it took (fewer when its
 * buffers are full: take what waits first). conn_take moves what waits
 * for the server (to_server 1) or for libircclient (0) into buf, at most
 * len bytes, and returns how many. Freed by conn_close. */
struct conn *conn_offline(const struct config *cfg);
size_t conn_feed(struct conn *c, const char *data, size_t len);
size_t conn_take(struct conn *c, int to_server, char *buf, size_t len);
/* 1 if the connection ended because the server's sts policy asks for TLS
 * (the policy is stored: conn_open goes to TLS): reconnect at once. */
int conn_upgrading(const struct conn *c);
/* The server's port this connection uses (an sts policy's TLS port, or
 * the configuration's). */
int conn_server_port(const struct conn *c);
/* IRCv3 draft/relaymsg on: 1 if `nick` is a relayed one (it holds one of
 * the separators of the capability's value, "alice/d": no IRC user can
 * have such a nick), a bridged user to serve as bridge.c's. */
int conn_relayed(const struct conn *c, const char *nick);

/* ------------------------------------------------ multiline and sts */

/* multiline.c: IRCv3 draft/multiline, the server's limits and what fits
 * one batch (outq.c sends it). */
#define MULTILINE_NUMBER_MAX 1000000
struct multiline {
    size_t max_bytes; /* 0: multiline is off */
    int max_lines;    /* 0: no limit but max_bytes */
};
/* What one batch being filled holds so far (start it zeroed). */
struct multiline_batch {
    size_t bytes;
    int lines;
};
/* Reads the capability's value "max-bytes=N[,max-lines=M]" (other keys
 * skipped): 0, or -1 with why in err (then *m is off). */
int multiline_limits(const char *value, struct multiline *m, char *err, size_t len);
/* One more line of `len` bytes of text into batch b; `concat`: it goes on
 * the line before it (that line was cut). 0 if it does not fit (b
 * unchanged: it opens the next batch), 1 if it goes as a line of its own,
 * 2 with the tag draft/multiline-concat (never the first of a batch). */
int multiline_add(const struct multiline *m, struct multiline_batch *b, size_t len, int concat);

/* sts.c: IRCv3 sts, a server's "upgrade to TLS and keep to it" policy. */
struct sts_policy {
    int port;      /* 0: none given */
    long duration; /* seconds; -1: none given */
    int preload;
};
/* Reads the capability's value "port=P,duration=D[,preload]" (keys in any
 * order, unknown ones skipped): 0, or -1 with why in err. */
int sts_parse(const char *value, struct sts_policy *p, char *err, size_t len);
/* The policy stored beside `database` (the file database + ".sts": "host
 * port expiry"): the TLS port for `host` if one holds at time `now`, else
 * 0 (none, another host's, expired, unreadable). */
int sts_load(const char *database, const char *host, long now);
/* Stores host's policy (port, until now + duration); duration 0 removes
 * the file. 0, or -1 with why in err. */
int sts_store(const char *database, const char *host, int port, long now, long duration, char *err,
              size_t len);

/* ------------------------------------------------------ output queue */

/* What a line is, which decides its turn (outq.c says it all): protocol
 * lines first; then a live bout's traffic (commentary, prompts,
 * acknowledgements: in the order said, no private line before the
 * commentary of its bout said ahead of it, no line before an earlier one
 * to the same target); then replies; then bulk (long answers).
 * While replies wait at most OUTQ_LIVE_RUN live lines go in a row, and
 * while bulk waits at most OUTQ_REPLY_RUN replies. Replies and bulk are
 * queued per owner, the owner served least lately first. Lines to one
 * target keep their order within a kind. */
enum outq_kind { OUTQ_PROTOCOL, OUTQ_LIVE, OUTQ_ROUND, OUTQ_REPLY, OUTQ_BULK };

#define OUTQ_LINE_MAX        512
#define OUTQ_LIVE_RUN        3
#define OUTQ_REPLY_RUN       3
#define OUTQ_CHANNEL_BURST   3    /* lines back to back to one channel */
#define OUTQ_SLOW_MIN        0.25 /* lines/s: the slowest a throttled target gets */
#define OUTQ_SLOW_HOLD       30.0 /* seconds before a throttled target speeds up again */
#define OUTQ_SERVED_TAU      30.0 /* seconds: how fast an owner's count of lines wears off */
#define OUTQ_LIVE_OWNER_MAX  40  /* an owner's recent lines before his live lines wait as replies */
#define OUTQ_REPLY_OWNER_MAX 15  /* ... before his replies wait as bulk (at least) */
#define OUTQ_BULK_OWNER_MAX  400 /* bulk lines waiting for one owner */
#define OUTQ_MARK_EVERY      8   /* lines between two delivery markers */
#define OUTQ_MARK_REPLIES    32  /* ... when none of them is awaited (replies only) */

struct outq;

/* A queue sending at most `burst` lines at once, then `lines_per_second`. */
struct outq *outq_new(int burst, double lines_per_second);
void outq_free(struct outq *q);
void outq_set_rate(struct outq *q, int burst, double lines_per_second);
/* What the bot takes from one nick ([flood] commands in commands_seconds):
 * a nick answered more than OUTQ_REPLY_OWNER_MAX lines lately has his
 * replies sent as bulk, unless those commands asked at their full rate
 * come to more (their count decayed with OUTQ_SERVED_TAU): a nick within
 * what the operator allows is answered as a reply. */
void outq_set_allowance(struct outq *q, int commands, int seconds);
/* The length of our "nick!user@host" as the server will relay it (the
 * ':' and the space are added here); messages are split so the relayed
 * line fits 512 bytes. */
void outq_set_prefix_len(struct outq *q, size_t len);
/* Delivery markers on (1) or off: with them, lines popped are kept until a
 * PONG to our "PING :rsN" confirms them. */
void outq_set_markers(struct outq *q, int on);
/* The server's case mapping (ISUPPORT CASEMAPPING), which outq_forget
 * compares nicks by; ASCII until set. */
void outq_set_casemap(struct outq *q, enum casemapping cm);
/* A command's answer begins (cmd_dispatch): an owner's reply waits behind
 * his bulk from an earlier answer to the same place (the rest of a long
 * answer), not behind his own answer's. */
void outq_answer_begin(struct outq *q);
/* The lines queued for `owner` after mark `after` (outq_mark's) go before
 * his other waiting lines, each in its queue, in their order: a flood
 * notice whose wait would be stale behind his earlier answers. */
void outq_first(struct outq *q, const char *owner, unsigned long after);
/* IRCv3 (caps): with echo-message and labeled-response on (1), no PING
 * markers: each PRIVMSG and NOTICE popped carries "@label=rsN"
 * (outq_popped_tags), and the server's echo or ACK of that label
 * (outq_pong("rsN")) confirms it and every line before it. Off again on
 * outq_disconnected. */
void outq_set_labels(struct outq *q, int on);
/* The tags the line just popped must be sent with ("@label=rs7"), or "":
 * the caller sends them, then a space, before the line. */
const char *outq_popped_tags(const struct outq *q);
/* The channel whose command is being answered (NULL: none): private lines
 * queued meanwhile remember it, and carry +draft/channel-context=<it> in
 * their tags while outq_set_context_tag is on (conn.c: message-tags on and
 * the server's CLIENTTAGDENY allows that tag). */
void outq_set_context(struct outq *q, const char *channel);
void outq_set_context_tag(struct outq *q, int on);
/* Lines to `target` wait until the time `until` (the queue's clock; 0:
 * from now on they may go). A channel just joined is held until the bot
 * knows its modes, so that none of its lines carries formatting a +c
 * channel refuses. */
void outq_target_hold(struct outq *q, const char *target, double until);
/* While held (1), only protocol lines go (before registration). */
void outq_hold(struct outq *q, int on);
/* Queues `text` to `target` as PRIVMSG or NOTICE (cmd), sanitized and split
 * into as many lines as needed; `owner` is whose answer it is (NULL: the
 * target's). */
void outq_msg(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
              const char *owner, const char *text);
/* How many lines outq_msg would cut `text` to `target` into (0 when no
 * room is left for any text): what a reader will count. */
size_t outq_pieces(const struct outq *q, const char *cmd, const char *target, const char *text);
/* outq_msg for a line about bout `about` (0: none, as outq_msg). A private
 * live line about a bout waits only for the channel lines about that bout
 * (or about none) said before it, not for other bouts' commentary; `step`
 * > 0 is the step (a round) the line asks for or speaks of before it is
 * done: outq_drop withdraws it once that step is done. */
void outq_msg_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                    const char *owner, const char *text, int64_t about, int step);
/* outq_msg_about for a line that asks for step `step` (> 0) of bout
 * `about`: a prompt or a reminder to a player, a start call in a channel.
 * Only such lines make the marker of a queue run dry wait for an answer
 * (outq_answered), and only they are what an answer answers. */
void outq_ask_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                    const char *owner, const char *text, int64_t about, int step);
/* Drops the lines about bout `about` with a step from 1 to `step` that
 * have not gone out (a prompt for a round already fought); returns how
 * many. Lines already sent stay as they are. */
int outq_drop(struct outq *q, int64_t about, int step);
/* Drops the private lines waiting for `nick` (not yet sent), when he quit
 * or took another nick: whoever takes that nick next must not get them (a
 * player's orders acknowledged, his plan). Lines already sent to him and
 * not yet confirmed are never sent again (after a reconnection or a
 * throttle notice). Nicks compare by the server's case mapping
 * (outq_set_casemap). Returns how many waiting lines were dropped. */
int outq_forget(struct outq *q, const char *nick);
/* Queues a protocol line (no CR/LF; sanitized anyway). */
void outq_raw(struct outq *q, const char *line);
/* Queues a query whose answer nobody waits for (a protocol line, as
 * outq_raw): it goes after live lines and replies, before bulk, or before
 * replies (never before live lines) once it has waited 10 seconds. */
void outq_query(struct outq *q, const char *line);
/* A WHOIS a command waits for (whois.c): it goes after live lines and
 * before replies, never before a bout's lines (a stranger's commands, a
 * WHOIS each, froze every bout while WHOIS went first). */
void outq_whois(struct outq *q, const char *line);
/* Takes the next line that may be sent at time `now` (monotonic seconds)
 * into line (OUTQ_LINE_MAX bytes, without CR LF); 1 if one was taken. */
int outq_pop(struct outq *q, double now, char *line);
/* Puts back the line just popped (the connection could not take it), to
 * go first. */
void outq_unpop(struct outq *q);
/* Seconds from `now` until a line could be popped; -1 when nothing waits.
 * The exception: the delivery marker of a queue run dry after replies only
 * (nothing waits for their confirmation) goes with the first pop 2 s
 * after the last line, yet is waited for only 30 s after it; that of a
 * queue run dry whose lines hold a question unanswered (a prompt) goes 3 s
 * after the last line, unless the answer confirmed them (outq_answered). */
double outq_wait(struct outq *q, double now);
/* Lines waiting (a delivery marker to go included). */
int outq_len(struct outq *q);
/* A mark of everything queued so far, and whether all of it was sent and
 * (with markers) confirmed. */
unsigned long outq_mark(const struct outq *q);
int outq_delivered(const struct outq *q, unsigned long mark);
/* 1 while the line numbered `mark` (outq_mark right after it was queued)
 * waits in a queue, not yet popped. */
int outq_queued(const struct outq *q, unsigned long mark);
/* A clock waits for everything said up to `mark` (outq_mark's): the
 * marker that confirms it goes as soon as it can (with the next token, or
 * OUTQ_MARK_ANSWER seconds later when a question among it may be answered
 * first). Live lines no clock waits for are confirmed at leisure: their
 * marker rides on the keepalive (outq_keepalive). */
void outq_await(struct outq *q, unsigned long mark);
/* The keepalive is due: 1 if a delivery marker is pending (lines sent,
 * not yet confirmed), which then goes first and stands for it (its PONG
 * answers as the keepalive's would); 0: none, the caller sends its own
 * PING. */
int outq_keepalive(struct outq *q);
/* The bot quits: the delivery marker pending (lines sent, not yet
 * confirmed) into line (OUTQ_LINE_MAX bytes), taken whatever the bucket
 * holds (it goes just before the QUIT), 1; 0 when none is pending. */
int outq_last_marker(struct outq *q, char *line);
/* The server's PONG with `token`: 1 if it was one of our markers. */
int outq_pong(struct outq *q, const char *token);
/* `nick` answered what asked him for step `step` of bout `about` (his
 * orders for that round are stored): with markers, the server relayed a
 * line that told him, so what the bot sent up to and including the first
 * line that could have (the question, or a channel line about the bout
 * before it) is confirmed as by a marker, and his question needs no confirmation any
 * more. Nothing while a throttle notice is unmatched. Returns the lines
 * confirmed. */
int outq_answered(struct outq *q, const char *nick, int64_t about, int step);
/* Someone flooded the bot: his replies waiting, and those for `seconds`
 * more, go as bulk. */
void outq_demote(struct outq *q, const char *owner, double seconds);
/* The server said it dropped a line to `target` (a throttle notice). */
void outq_throttled(struct outq *q, const char *target, double now);
/* The server refused a PRIVMSG or NOTICE to `target` (a standard-replies
 * FAIL naming it; NULL when it named none: only logged): as a throttle
 * notice, at the latest time the queue was given. */
void outq_refused(struct outq *q, const char *target);
/* The connection dropped: live lines, replies and bulk not confirmed wait
 * to go again; protocol lines and a round's lines (OUTQ_ROUND: live lines
 * the game says again after a reconnection) are dropped. */
void outq_disconnected(struct outq *q);
/* Drops everything. */
void outq_clear(struct outq *q);
/* IRCv3 draft/multiline (conn.c: on, with the server's limits; max_bytes
 * 0: off): a private reply or bulk line with more to the same target right
 * behind it goes as one batch of them ("BATCH +mlN draft/multiline target",
 * the lines, "BATCH -mlN"), within the limits and what the bucket allows
 * in OUTQ_BATCH_SECONDS; every line of it costs a token, and nothing else
 * goes between them. */
#define OUTQ_BATCH_SECONDS 4.0
void outq_set_multiline(struct outq *q, const struct multiline *m);
/* The server refused a batch (FAIL BATCH MULTILINE_...): the lines of
 * batches not yet confirmed go again first, plain, and no batch goes any
 * more (until outq_set_multiline). */
void outq_batch_refused(struct outq *q);

/* ------------------------------------------------------- who is who */

/* The people the bot sees: which of its channels each nick is in, the
 * account he identified as, and his inbound command rate. An identity ends
 * when he quits, when he is in none of the bot's channels any more, and
 * when the bot reconnects (users_reset). Nicks compare under the server's
 * case mapping. Channels are the bot's own, numbered 0..USERS_CHANNELS-1. */

#define USERS_CHANNELS 32

struct users;

struct users *users_new(void);
void users_free(struct users *u);
/* Forgets everyone (a new connection). Keeps the case mapping. */
void users_reset(struct users *u);
void users_set_casemap(struct users *u, enum casemapping cm);

/* Membership. `chan` is the bot's channel number. */
void users_join(struct users *u, const char *nick, int chan);
/* Returns 1 if this ended the nick's identity (no channel left). */
int users_part(struct users *u, const char *nick, int chan);
/* The bot left channel `chan`: everyone leaves it; returns how many
 * identities ended. */
int users_chan_gone(struct users *u, int chan);
/* Returns 1 if an identity ended. */
int users_quit(struct users *u, const char *nick);
void users_rename(struct users *u, const char *old_nick, const char *new_nick);
/* 1 if `nick` shares at least one channel with the bot. */
int users_present(const struct users *u, const char *nick);
/* 1 if `nick` is in the bot's channel number `chan`. */
int users_in(const struct users *u, const char *nick, int chan);

/* Identity. */
void users_login(struct users *u, const char *nick, int64_t account_id, const char *account);
void users_logout(struct users *u, const char *nick);
/* users_login for an identity that comes from his services account: it
 * ends when services say he logged out (accounts.c). */
void users_login_services(struct users *u, const char *nick, int64_t account_id,
                          const char *account);
/* 1 if `nick` is identified through his services account. */
int users_via_services(const struct users *u, const char *nick);
/* What services say of `nick` at time `now`: logged in as `account`, or
 * out (NULL or ""). Forgotten when he shares no channel with the bot. */
void users_set_services(struct users *u, const char *nick, const char *account, double now);
/* 1 with *account (valid until the next users_ call) and *when if `nick` is
 * known to be logged in to services, 0 if known not to be, -1 if unknown.
 * An account name of DB_NAME_MAX bytes or more comes back cut to exactly
 * DB_NAME_MAX bytes: still too long to be taken for a shorter one. */
int users_services(const struct users *u, const char *nick, const char **account, double *when);

/* What a server says of a nick's services login, read from its lines'
 * parameters (libircclient's params/count, without the verb) by pure
 * functions, so a harness can feed them anything: 1 with *out filled (the
 * pointers into params; account NULL: logged out, for "*", "" and WHOX's
 * "0"), 0 for a line that says nothing of it. */
struct users_seen {
    const char *nick;
    const char *account;
};
/* WHOX 354 answering our "WHO #chan %tna,TOKEN": "me TOKEN nick account". */
int users_parse_whox(const char **params, unsigned int count, const char *token,
                     struct users_seen *out);
/* extended-join: "JOIN #chan account :realname" from `nick`. */
int users_parse_join(const char *nick, const char **params, unsigned int count,
                     struct users_seen *out);
/* account-notify: "ACCOUNT account" from `nick`. */
int users_parse_account(const char *nick, const char **params, unsigned int count,
                        struct users_seen *out);
/* RPL_WHOISACCOUNT (330): "me nick account :is logged in as". */
int users_parse_whoisaccount(const char **params, unsigned int count, struct users_seen *out);
/* The nick part of a line's origin "nick!user@host" into nick (len bytes,
 * cut to fit; "" for NULL). */
void users_origin_nick(const char *origin, char *nick, size_t len);
/* Ends every identity of account `account_id` (a ban); returns how many. */
int users_logout_account(struct users *u, int64_t account_id);
/* 1 and fills *account_id / *account (valid until the next users_ call)
 * if `nick` is identified; else 0. */
int users_account(const struct users *u, const char *nick, int64_t *account_id,
                  const char **account);

/* How many nicks are remembered (for tests and diagnostics). */
int users_count(const struct users *u);
/* The nick identified as account `account_id`, or NULL when nobody is;
 * found through a hint by account (the last nick to identify as it when
 * several did), else by a scan. Valid until the next users_ call. */
const char *users_nick_of(const struct users *u, int64_t account_id);

/* Inbound flood control ([flood] commands, commands_seconds,
 * ignore_seconds): a token bucket a nick. It holds `cmds` commands and
 * refills at `cmds` a `window` seconds: a burst of `cmds` at once, then
 * one every window / cmds seconds (by default 12 at once, then one every
 * 5 s: still 12 a minute in the long run, Limnoria's figure). Learning is
 * not punished: help and a typo cost a third (users_rate_as), and so does a
 * command that turns out to be refused (users_rate_light, after it ran).
 * Orders for the player's own live bout are never counted (cmd.c).
 *
 * A command that finds less than a command's worth is not run: the nick
 * is slowed, not ignored: told when his next one will be taken
 * (users_rate_wait), which is as soon as the bucket holds a command
 * again. Each command he sends meanwhile counts a third, so one who goes
 * on sending (a flood) waits longer, up to `pause` seconds more than a
 * command takes to come back; one who waits as told goes on at once.
 *
 * users_rate counts a command and says what to do with it: OK, run it;
 * WARN, he just went past the limit: tell him in full; TELL, he is still
 * past it, or past it again less than USERS_RATE_WARN_AGAIN seconds after
 * he was told in full: tell him again how long; IGNORE, say nothing: he
 * was told less than USERS_RATE_TELL_EVERY seconds ago and no command of
 * his ran since (WARN and TELL only when he was not). So a flood costs
 * the bot at most one line per USERS_RATE_TELL_EVERY seconds per nick,
 * and the whole explanation at most once a minute. */
#define USERS_RATE_CMDS       12
#define USERS_RATE_WINDOW     60.0
#define USERS_RATE_PAUSE      60.0
#define USERS_RATE_CMDS_MAX   100
#define USERS_RATE_FULL       3    /* what an action costs; help, a typo, any refusal cost 1 */
#define USERS_RATE_TELL_EVERY 5.0  /* seconds between two "too many commands" to one nick */
#define USERS_RATE_WARN_AGAIN 60.0 /* seconds before the whole explanation is said again */
enum users_rate { USERS_RATE_OK, USERS_RATE_WARN, USERS_RATE_TELL, USERS_RATE_IGNORE };
void users_set_rate(struct users *u, int cmds, double window, double pause);
enum users_rate users_rate(struct users *u, const char *nick, double now);
/* users_rate for a command whose cost is known before it runs: 1 (help,
 * a word that is no command: they need only a third's worth left), else
 * USERS_RATE_FULL (users_rate's). */
enum users_rate users_rate_as(struct users *u, const char *nick, double now, int cost);
/* The command users_rate last counted for `nick` costs a third: it was
 * help, a typo or a refusal. */
void users_rate_light(struct users *u, const char *nick);
/* Seconds from `now` until `nick`'s bucket holds a command again; 0 if it
 * does. */
double users_rate_wait(const struct users *u, const char *nick, double now);
/* 1 (and remembered) if a hint was not given to `nick` in the last
 * `every` seconds; else 0. */
int users_hint_due(struct users *u, const char *nick, double now, double every);

/* ------------------------------------------------------------ bridges */

/* bridge.c: players behind a relay bot (matterbridge and the like). */
struct bot;
/* Whether `fmt` is a relay_format: the words nick and text once each,
 * text last, something between them. 0, or -1 with the reason in err. */
int bridge_format_check(const char *fmt, char *err, size_t len);
/* Reads a relay's `line` with pattern `fmt` (checked): 1 with the bridged
 * name (without formatting or zero-width characters) in nick[nlen] and
 * *text pointing at what he wrote in line; 0 when the line does not read
 * so (the relay's own words, a name too long or empty, no text). */
int bridge_parse(const char *fmt, const char *line, char *nick, size_t nlen, const char **text);
/* 1 if `nick` is one of [bridge] relay_nicks (the server's case mapping). */
int bridge_relay(const struct bot *bot, const char *nick);
/* 1 if command `name` may be run for a bridged name: those that need no
 * account (standings, fighter, score, bouts, report, help, version). */
int bridge_command_ok(const char *name);

/* ----------------------------------------------------------- bot mode */

/* botmode.c: other users the server marks as bots (ISUPPORT BOT=), whose
 * commands are ignored. */
#define BOTMODE_MAX 32
/* `nick` is a bot (is_bot 1) or is not (0): remembered or forgotten. */
void botmode_mark(struct bot *bot, const char *nick, int is_bot);
/* 1 if `nick` is marked as a bot. */
int botmode_is(const struct bot *bot, const char *nick);
void botmode_rename(struct bot *bot, const char *old_nick, const char *new_nick);
/* Forgets every mark (a new connection). */
void botmode_reset(struct bot *bot);
/* A WHOX answer to "WHO target %tnf,TOKEN": "me TOKEN nick flags"; 1 with
 * the nick (a pointer into params) and whether its flags hold the bot
 * mode letter `mode`; 0 for another line (or no mode). */
struct botmode_seen {
    const char *nick;
    int is_bot;
};
int botmode_parse_who(const char **params, unsigned int count, const char *token, char mode,
                      struct botmode_seen *out);

/* ------------------------------------------- channels joined on invite */

/* cmd-channel.c: the channel operators of the bot's channels (read from
 * NAMES and MODE by irc.c), and channels left and forgotten. */
struct chanops;
/* `nick` is (op 1) or is no longer (0) an operator of channel `chan`. */
void chanops_set(struct bot *bot, int chan, const char *nick, int op);
/* 1 if `nick` is an operator of channel `chan` (~, & or @). */
int chanops_is(const struct bot *bot, int chan, const char *nick);
void chanops_rename(struct bot *bot, const char *old_nick, const char *new_nick);
/* `nick` (NULL: everyone) left channel `chan` (-1: every channel). */
void chanops_gone(struct bot *bot, int chan, const char *nick);
/* A channel MODE's params ("#chan", "+o-v", "a", "b"): ops given and taken. */
void chanops_mode(struct bot *bot, int chan, const char **params, unsigned int count);
void chanops_free(struct bot *bot);
/* Leaves channel c (PART with `why`, when in it) and forgets it: its row
 * in the database goes, its slot is freed. 0, or -1 (the database failed:
 * nothing changed). */
int bot_chan_forget(struct bot *bot, int c, const char *why);

/* ----------------------------------------------------------- commands */

/* Where a command may be used. */
enum cmd_where { CMD_CHANNEL = 1, CMD_PRIVATE = 2, CMD_ANYWHERE = 3 };
/* Who may use it. */
enum cmd_need { CMD_ANYONE, CMD_ACCOUNT, CMD_ADMIN };

#define CMD_ARGS_MAX 24

struct bot;

/* What a command acts on, declared in its table entry and resolved by the
 * dispatcher's target stage before the handler runs (tmux's .target): a
 * word the stage cannot resolve is refused there, with the game's own
 * one-line reply, and the handler never runs. */
enum cmd_target {
    TARGET_NONE,
    TARGET_FIGHTER,      /* argv[0], when given: any fighter (ctx->fighter) */
    TARGET_MY_FIGHTER,   /* argv[0]: the caller's active fighter (ctx->fighter) */
    TARGET_NICK,         /* argv[0], when given: whoever is identified under that
                          * nick (ctx->other_id, 0 if nobody; never refused) */
    TARGET_RULES,        /* every word is rules=NAME (ctx->rules, default boxing) */
    TARGET_RULES_LEAGUE, /* rules=NAME and a league's name (ctx->rules, ctx->league) */
    /* Bouts, as game_bout_find resolves them (ctx->bout): */
    TARGET_BOUT,          /* argv[0]: any bout, live or finished */
    TARGET_OPEN_BOUT,     /* argv[0]: a live bout or a challenge */
    TARGET_LIVE_BOUT,     /* argv[0], when given: a live bout; else the only one live
                           * where it is said */
    TARGET_MY_BOUT,       /* argv[0], when given: one of the caller's live bouts; else
                           * his only one */
    TARGET_MY_BOUT_FIRST, /* "[#bout] <words>": a first word "#N" names one of his live
                           * bouts and is taken off the arguments, else his only one is
                           * meant; with no word after it nothing is resolved (the
                           * handler asks for them) */
};

/* One command being run. */
struct cmd_ctx {
    struct bot *bot;
    const char *nick;    /* who said it */
    const char *channel; /* where, or NULL in private */
    int argc;            /* arguments after the command name */
    char *argv[CMD_ARGS_MAX];
    int64_t account_id; /* the identified account, or 0 */
    const char *account;
    int lines; /* lines answered so far */
    int live;  /* 1: answers are a live bout's traffic (orders) */
    /* An answer to a command said in a channel, held until the command
     * ends (reply_flush): each line '\n'-ended, its first byte 'c' (where
     * he asked) or 'p' (in private). Not yet started: p is NULL. */
    struct str held;
    /* The caller as the game answers him (bot_caller), set before the
     * target stage; and what that stage resolved. */
    struct game_caller who;
    struct db_fighter fighter; /* TARGET_FIGHTER, TARGET_MY_FIGHTER */
    int has_fighter;
    int64_t bout;     /* TARGET_*BOUT*: the bout resolved, or 0 */
    enum rules rules; /* TARGET_RULES, TARGET_RULES_LEAGUE */
    int league;       /* TARGET_RULES_LEAGUE: the league named (enum league), or -1 */
    int64_t other_id; /* TARGET_NICK */
};

/* How the caller types a command where he is: the prefix in a channel
 * ("!bouts"), nothing in private. */
const char *cmd_typed(const struct cmd_ctx *ctx);
/* " - BASE/PATH" ([web] base_url, the path formatted printf-style) for a
 * reply that has a web page, or "" when base_url is not set; into buf. */
const char *cmd_page(const struct cmd_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
    BOT_PRINTF(4, 5);

/* A command, declared once: the dispatcher in cmd.c checks where it may
 * be used, who may use it, its argument count and resolves its target
 * before `exec` runs, and `help` is generated from these fields. `exec`
 * returns 0, or -1 when it refused (it has answered why): the dispatcher
 * logs and counts it (cmd_stats). */
struct cmd_entry {
    const char *name;
    const char *aliases; /* space separated, or NULL */
    enum cmd_where where;
    enum cmd_need need;
    enum cmd_target target;
    int args_min, args_max; /* -1: no maximum */
    const char *usage;      /* arguments, e.g. "<name> [rules=boxing] str=.. ..." */
    const char *help;       /* one line */
    int secret;             /* carries a password: never logged, never in a channel */
    int (*exec)(struct cmd_ctx *ctx);
    /* Optional: what `help <name>` says after its line (each ruleset's
     * orders explained, its abilities). */
    void (*help_more)(struct cmd_ctx *ctx);
};

/* A line split into a command and arguments (no allocation; the words
 * point into `buf`). */
struct cmd_line {
    char buf[512];
    int argc; /* words including the command name */
    char *argv[CMD_ARGS_MAX + 1];
};

/* Splits `text` into words if it is a command: in a channel it must start
 * with `prefix`; in private the prefix is optional. Returns 1 for a command
 * (words in *out, the name lower-cased), 0 for chat, -1 for a line with more
 * than CMD_ARGS_MAX arguments (out->argc is then 0). */
int cmd_parse(const char *text, const char *prefix, int private_msg, struct cmd_line *out);
/* The entry named or aliased `name` (lower case), or NULL. */
const struct cmd_entry *cmd_find(const char *name);
/* All commands, NULL-terminated, in help order. */
extern const struct cmd_entry *const cmd_table[];

/* Runs one message from `nick`: in `channel`, or in private when channel is
 * NULL. Replies go through the output queue. The stages, in order, each
 * able to refuse with its own line: the words (cmd_parse), who he is
 * (services asked first when unsure), the flood limit, the command or his
 * orders, a password said in public, where, who may, how many arguments,
 * the target; then the handler, whose result is counted. */
void cmd_dispatch(struct bot *bot, const char *nick, const char *channel, const char *text);

/* What the dispatcher counted of command `name` since the start: the
 * times its handler ran, the times it refused (returned -1), and the
 * times a stage refused it before its handler. 0, or -1 for no command. */
struct cmd_count {
    unsigned long runs, refused, stopped;
};
int cmd_stats(const char *name, struct cmd_count *out);

/* Replies to whoever ran the command: in private by NOTICE... */
void reply(struct cmd_ctx *ctx, const char *fmt, ...) BOT_PRINTF(2, 3);
/* reply() of a text as it is (no format: a constant answer built once). */
void reply_text(struct cmd_ctx *ctx, const char *text);
/* A reply that always goes privately to the nick. */
void reply_private(struct cmd_ctx *ctx, const char *fmt, ...) BOT_PRINTF(2, 3);
/* Sends the answer held for a command said in a channel (the command
 * `command`, or NULL) and frees it: in the channel when it is at most
 * REPLY_LINES lines as the channel will get them; else all of it in
 * private, and one line in the channel saying so. Nothing held: nothing
 * done. The dispatcher calls it when a command ends. */
void reply_flush(struct cmd_ctx *ctx, const char *command);

/* A command carrying a password (entry `e`, its `secret` set) was said in
 * channel ctx->channel, its words after the name in ctx->argv: refuses it
 * and burns what it gave away, as cmd-account.c explains; answers one line.
 * Nothing said is logged or stored in clear. */
void account_overheard(struct cmd_ctx *ctx, const struct cmd_entry *e);

/* The commands, one family a file (cmd-account.c, cmd-fighter.c,
 * cmd-bout.c, cmd-plan.c, cmd-sim.c, cmd-league.c, cmd-admin.c; help and
 * version in cmd.c), each declared once as an entry that cmd_table lists. */
extern const struct cmd_entry cmd_register_entry;
extern const struct cmd_entry cmd_identify_entry;
extern const struct cmd_entry cmd_logout_entry;
extern const struct cmd_entry cmd_passwd_entry;
extern const struct cmd_entry cmd_resetpass_entry;
extern const struct cmd_entry cmd_create_entry;
extern const struct cmd_entry cmd_fighter_entry;
extern const struct cmd_entry cmd_fighters_entry;
extern const struct cmd_entry cmd_train_entry;
extern const struct cmd_entry cmd_retire_entry;
extern const struct cmd_entry cmd_armoury_entry;
extern const struct cmd_entry cmd_equip_entry;
extern const struct cmd_entry cmd_unequip_entry;
extern const struct cmd_entry cmd_challenge_entry;
extern const struct cmd_entry cmd_accept_entry;
extern const struct cmd_entry cmd_decline_entry;
extern const struct cmd_entry cmd_withdraw_entry;
extern const struct cmd_entry cmd_forfeit_entry;
extern const struct cmd_entry cmd_order_entry;
extern const struct cmd_entry cmd_plan_entry;
extern const struct cmd_entry cmd_sim_entry;
extern const struct cmd_entry cmd_bouts_entry;
extern const struct cmd_entry cmd_score_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_standings_entry;
extern const struct cmd_entry cmd_champion_entry;
extern const struct cmd_entry cmd_league_entry;
extern const struct cmd_entry cmd_pause_entry;
extern const struct cmd_entry cmd_ban_entry;
extern const struct cmd_entry cmd_unban_entry;
extern const struct cmd_entry cmd_set_entry;
extern const struct cmd_entry cmd_cancel_entry;
extern const struct cmd_entry cmd_turn_entry;
extern const struct cmd_entry cmd_ratings_entry; /* cmd-rating.c */
extern const struct cmd_entry cmd_season_entry;  /* seasons: cmd-season.c */
extern const struct cmd_entry cmd_halloffame_entry;
/* Predictions (cmd-predict.c). */
extern const struct cmd_entry cmd_predict_entry;
extern const struct cmd_entry cmd_pundits_entry;
extern const struct cmd_entry cmd_tournament_entry;
extern const struct cmd_entry cmd_bracket_entry;
extern const struct cmd_entry cmd_part_entry;

/* ------------------------------------------------------ the bot itself */

/* Everything the bot's modules share. Owned by main.c; irc.c keeps its
 * connection state behind `irc`. */
/* Commands waiting for a WHOIS answer (whois.c): the dispatcher parks a
 * line when only the server can say who sent it, and irc.c runs it again
 * when the answer is in. Neither calls the other for it. */
#define WHOIS_WAITING 8    /* commands waiting for a WHOIS answer */
#define WHOIS_TIMEOUT 30.0 /* seconds before a waiting command is dropped */
struct whois_wait {
    char nick[CONFIG_NICK_MAX * 2];
    char channel[CONFIG_NICK_MAX * 2]; /* "" in private */
    char text[OUTQ_LINE_MAX];
    double since; /* 0: the slot is free */
    int got_account;
};
struct whois {
    const struct conn *conn; /* registered on this connection, or NULL */
    struct whois_wait wait[WHOIS_WAITING];
};
/* Registered on `conn` (irc.c): WHOIS may be asked now, and conn says
 * whether the server tells of logins as they happen. */
void whois_start(struct whois *w, const struct conn *conn);
/* The connection is gone: nothing waits any more, nothing may be asked. */
void whois_stop(struct whois *w);
/* 1 if the server tells the bot of logins and logouts as they happen
 * (account-notify); without it a services identity is checked again
 * (WHOIS) when older than ACCOUNTS_RECHECK seconds. */
int whois_account_notify(const struct whois *w);
/* Asks the server who `nick` is logged in as (WHOIS) and parks `text`
 * from him (in `channel`, or NULL) to be run again when the answer is in;
 * 0, or -1 when not registered or too many wait already. */
int whois_then(struct bot *bot, const char *nick, const char *channel, const char *text);
/* RPL_WHOISACCOUNT: the lines waiting for `nick` have his login. */
void whois_account(struct bot *bot, const char *nick);
/* RPL_ENDOFWHOIS: the next line waiting for `nick` from slot *at on, into
 * *out and freed, *at moved past it; 1 if one was taken, else 0. Start
 * with *at = 0 and call until 0. */
int whois_next(struct bot *bot, const char *nick, int *at, struct whois_wait *out);
/* Drops (and logs) the lines waiting longer than WHOIS_TIMEOUT. */
void whois_expire(struct bot *bot);
/* nick quit: his commands waiting for a WHOIS are dropped. */
void whois_forget(struct bot *bot, const char *nick);
/* nick is now `to`: his waiting commands wait for a WHOIS of `to` (asked
 * now), and run as `to`. */
void whois_rename(struct bot *bot, const char *nick, const char *to);

/* Password guessing (auth.c): who failed lately, and how much hashing the
 * event loop did in the current second. */
#define AUTH_FREE       3    /* wrong passwords before any wait */
#define AUTH_WAIT_MAX   300  /* seconds: the longest wait between two tries */
#define AUTH_SOURCES    64   /* sources remembered (the oldest is forgotten) */
#define AUTH_BUDGET     0.25 /* CPU seconds of hashing the loop may do per second */
#define AUTH_WARN_EVERY 600  /* seconds: one "under attack" log line per account */
#define AUTH_BUSY_WAIT  2    /* seconds a try refused for the budget waits */
#define AUTH_FROM_MAX   64   /* a source: a host, or a nick (DB_FROM_MAX) */
struct auth_source {
    char from[AUTH_FROM_MAX];
    int failures;
    int64_t last; /* unix time of the last failure */
};
struct auth_warned {
    char key[CONFIG_NICK_MAX];
    int64_t at;
};
/* Registrations (auth.c), counted in memory only: a restart (which only
 * the operator causes) starts them afresh, and no host is ever stored in
 * the database. [bot] registrations_per_host (a UTC day) and
 * registrations_per_hour (all hosts, a clock hour) default to these. */
#define AUTH_REG_PER_HOST 10
#define AUTH_REG_PER_HOUR 30
/* Hosts remembered: past that, a host of an earlier day, else the one that
 * registered longest ago, is forgotten. */
#define AUTH_REG_HOSTS 256
struct auth_reg_host {
    char from[AUTH_FROM_MAX]; /* auth_reg_source: a host, an IPv6 /64, or a nick */
    int count;                /* accounts registered from it on the UTC day of `at` */
    int64_t at;               /* unix time of the last one */
};
struct auth_state {
    struct auth_reg_host reg[AUTH_REG_HOSTS];
    int64_t reg_hour; /* the clock hour (unix time / 3600) reg_count counts */
    int reg_count;    /* accounts registered in it, from every host */
    struct auth_source src[AUTH_SOURCES];
    /* Nicks told to wait, and until when: a try before then is not
     * answered again (the flood of answers would hold others up). */
    struct auth_warned told[AUTH_SOURCES];
    struct auth_warned warned[AUTH_SOURCES];
    double window; /* bot_clock() when the current second began */
    double spent;  /* CPU seconds hashed in it */
    double budget; /* seconds of hashing allowed per second: AUTH_BUDGET in
                    * the bot (main.c); 0, unlimited (unit tests) */
    int64_t now;   /* tests: the unix time to use instead of the clock's; 0: time() */
};

/* Bouts between two networks (relay.c, db/notify.c): listening; the rows
 * taken up to id `after`; the 'say' rows queued up to `said` (deleted up
 * to `done` once the queue's mark `mark` is delivered); the next look
 * without a notification; the other networks' accounts named (who:
 * "name@network", "" for this network's) and bouts' other networks and
 * corners. */
#define RELAY_CACHE 8
struct relay_state {
    int on;
    int64_t after, said, done;
    /* Commands and drops run whose rows could not be deleted (the
     * database away at that moment): deleted again by relay_tick, never
     * run again (0: none). */
    int64_t undone_from, undone_upto;
    unsigned long mark;
    double next;
    struct {
        int64_t id;
        char who[DB_NAME_MAX + DB_NETWORK_MAX];
    } names[RELAY_CACHE];
    struct {
        int64_t bout;
        char network[DB_NETWORK_MAX];
        struct db_bout_side side[2]; /* its corners (relay_names) */
    } bouts[RELAY_CACHE];
    unsigned names_next, bouts_next;
    /* The turn's rows, written at its end (relay_flush); after a failure
     * tried again from `retry`, given up once failing since `failing`
     * too long. */
    struct db_relay_batch held;
    double retry, failing;
};

/* Presence (failover.c, issue 29): whether this bot says it is on IRC and
 * in its channel (db_presence_set), and what it last read of the other
 * networks whose players are in its bouts (presence_away). */
#define PRESENCE_NETWORKS 16
struct presence_state {
    int held; /* said: on IRC and in bot->chan[0] */
    struct {
        char network[DB_NETWORK_MAX];
        double next; /* when to read it again */
        int known, away;
        double absent_since; /* missed since (0: there at the last read) */
    } nets[PRESENCE_NETWORKS];
    unsigned nets_next;
};

struct bot {
    struct config cfg;
    const char *config_path;
    struct db *db;
    int db_gone_said; /* the database's loss is logged (bot_db_watch) */
    struct outq *q;
    struct users *users;
    enum casemapping cm;
    char chantypes[16];
    char nick[CONFIG_NICK_MAX]; /* the nick we have now */
    /* The bot's channels, by number (users.h): configured ones get a slot
     * and keep it; `in` says whether we are in it now. */
    char chan[USERS_CHANNELS][CONFIG_NICK_MAX * 2];
    int chan_in[USERS_CHANNELS];
    int chan_plain[USERS_CHANNELS];   /* the channel refuses formatting (mode +c) */
    int chan_invited[USERS_CHANNELS]; /* joined on an invite: kept in the database */
    struct chanops *ops;              /* the channels' operators (cmd-channel.c) */
    double now;                       /* monotonic seconds, set before each event is handled */
    struct irc_state *irc;
    struct whois whois; /* commands waiting for a WHOIS answer */
    struct game *game;  /* NULL until the database is open */
    /* "nick!user@host" of the message being dispatched, or NULL (a command
     * run later, after a WHOIS): where a password guess comes from. */
    const char *origin;
    /* The relay bot the message being dispatched came through (bridge.c),
     * or NULL: its sender is a bridged name, never identified. */
    const char *relay;
    /* Other users marked as bots on this connection (botmode.c). */
    char bots[BOTMODE_MAX][CONFIG_NICK_MAX * 2];
    struct auth_state auth; /* the password guessing limits (auth.c) */
    /* The network lease (failover.c): when to check it next, since when it
     * is away (0: held), and whether it was lost (the loop ends, the bot
     * waits as a standby again). */
    double lease_next, lease_away;
    int stepped_down;
    struct relay_state xnet;        /* bouts between two networks (relay.c) */
    struct presence_state presence; /* failover.c */
};

/* A PRIVMSG or NOTICE wire line (`line`, changed in place) as its target
 * takes it, decided as it leaves the queue (a channel's modes may have
 * changed since it was said): a +c channel gets plain text; `colours = no`
 * keeps the bold and drops the colour. Other lines are left alone. */
void bot_line_format(const struct bot *bot, char *line);

/* Monotonic seconds. */
double bot_clock(void);
/* A fresh random seed for a bout or a league turn (/dev/urandom). */
uint64_t bot_seed(void);
/* 1 if the account named `account` holds admin rights now (accounts.c):
 * the operator made it one (ringside --add-admin: the database's mark), or
 * it is in [bot] admins with a password hash there and its password is that
 * one, or it is in [bot] admins by name and follows a services account.
 * Never only because someone registered a listed name. */
int bot_is_admin(const struct bot *bot, const char *account);
/* The number of channel `name`, or -1 if it is not one of ours. */
int bot_chan_find(const struct bot *bot, const char *name);
/* A PRIVMSG of `text` to `target` into the output queue as `kind` for
 * `owner` (NULL: the target), without the formatting the channel refuses
 * (+c) or the configuration turns off (colours = no). */
void bot_msg(struct bot *bot, enum outq_kind kind, const char *target, const char *owner,
             const char *text);
/* Never more than a few highlights in one line (large networks' bot
 * policies): in a line to a channel, the nicks of people in the bot's
 * channels past the first HIGHLIGHT_MAX different ones get a zero-width
 * space after their first character, so that they do not highlight. Into
 * out (str_init'd here; the caller frees it); other targets unchanged. */
#define HIGHLIGHT_MAX 3
void bot_highlight_cap(const struct bot *bot, const char *target, const char *text,
                       struct str *out);
/* Folds a nick or account name the way the database keys it (RFC 1459,
 * whatever the server says, so no two keys differ only by []\~ case). */
void bot_name_key(char *dst, const char *name, size_t len);

/* Passwords (auth.c): yescrypt through libcrypt. */
/* The hash of an account made for a services account: no password ever
 * matches it (crypt refuses a setting starting with '*'). */
#define PASSWORD_NONE "*services"
#define PASSWORD_MIN  6
#define PASSWORD_MAX  72
/* Hashes `password` with a fresh salt into out (DB_HASH_MAX); 0 or -1. */
int password_hash(const char *password, char *out, size_t len);
/* 1 if `password` matches `hash`, else 0. */
int password_check(const char *password, const char *hash);
/* password_hash and password_check for the event loop: the time they take
 * is counted against the loop's hashing budget (auth_busy). */
int auth_hash(struct bot *bot, const char *password, char *out, size_t len);
int auth_check(struct bot *bot, const char *password, const char *hash);
/* Seconds of waiting before a new try after `failures` wrong passwords, the
 * last at unix time `last`, at `now`: 0 when he may try now. Free for the
 * first AUTH_FREE, then 2, 4, 8 ... seconds after the last, at most
 * AUTH_WAIT_MAX. */
int64_t auth_wait(int failures, int64_t last, int64_t now);
/* The unix time of the limits (auth.now in tests). */
int64_t auth_now(const struct bot *bot);
/* Where the message being run comes from: the host of bot->origin, or
 * `nick` when there is none; into from[AUTH_FROM_MAX]. */
void auth_source(const struct bot *bot, const char *nick, char *from);
/* The wrong passwords counted for source `from` (0 if none). */
int auth_source_failures(const struct bot *bot, const char *from);
/* The wait (auth_wait) of source `from` at `now`. */
int64_t auth_source_wait(const struct bot *bot, const char *from, int64_t now);
/* Counts a wrong password from `from` at `now`. */
void auth_source_failed(struct bot *bot, const char *from, int64_t now);
/* 1 if the loop has spent its hashing budget for this second, else 0: a
 * password check for an account or from a source with wrong passwords
 * already is then refused, to be tried again (cmd-account.c); a first try
 * of both never is. */
int auth_busy(struct bot *bot);
/* 1 if `nick` was told to wait (auth_told_now) until after `now`: a new
 * try before then gets no answer. */
int auth_told(const struct bot *bot, const char *nick, int64_t now);
/* Remembers that `nick` was told to wait until `until`. */
void auth_told_now(struct bot *bot, const char *nick, int64_t until);
/* Where a register comes from, as the limits of registration count it:
 * auth_source, but an IPv6 address stands for its /64 (one subscriber's
 * many addresses are one host); into from[AUTH_FROM_MAX]. */
void auth_reg_source(const struct bot *bot, const char *nick, char *from);
/* 0 if an account may be registered from `from` at `now` ([bot]
 * registrations_per_host a UTC day, registrations_per_hour from all hosts a
 * clock hour); else -1 with the one-line refusal (the limit, when to try
 * again, and identify for an account he has) in why[len]. Counts nothing. */
int auth_reg_allowed(const struct bot *bot, const char *from, int64_t now, char *why, size_t len);
/* Counts an account registered from `from` at `now`. */
void auth_registered(struct bot *bot, const char *from, int64_t now);
/* Logs one warning that account `name` (key `key`) is under attack, with
 * `failures` wrong passwords, at most once per AUTH_WARN_EVERY seconds. */
void auth_warn(struct bot *bot, const char *key, const char *name, int failures, int64_t now);

/* Admins (accounts.c). */
/* The [bot] admins entry of account `name` (its index), or -1. */
int accounts_admin_entry(const struct config *cfg, const char *name);
/* Makes (or takes over) the account `name` with `password` and marks it as
 * an admin in the database: ringside --add-admin. 0, or -1 with a reason
 * in err. *existed says whether the account was there before. */
int accounts_add_admin(struct db *db, const char *name, const char *password, int *existed,
                       char *err, size_t len);
/* Takes the admin mark away from account `name`: 0, or -1 with err. */
int accounts_remove_admin(struct db *db, const char *name, char *err, size_t len);
/* Networks (issue 29): the bot's accounts are its [bot] network's (set on
 * the connection right after the open, "" included). A bot with a network
 * on a database whose accounts have none (a single bot's, grown into
 * several) takes them all, once, and logs it. 0, or -1 with err. */
int accounts_network(struct db *db, const char *network, char *err, size_t len);
/* Logs a warning for each entry of [bot] admins that gives no rights as
 * configured (a name alone with accounts = passwords, no operator-made
 * account), saying how to make it one. */
void accounts_admins_check(struct bot *bot);
/* Services accounts (accounts.c). */
/* Identifies `nick` by his services account when `[bot] accounts` allows
 * it; with `create`, a bot account of that name is made when there is
 * none. 1 if `nick` is identified afterwards (or was), else 0. */
int accounts_resolve(struct bot *bot, const char *nick, int create);
/* The server says `nick` is logged in to services as `account` (NULL, ""
 * or "*": logged out): remembered, and his identity follows. */
void accounts_seen(struct bot *bot, const char *nick, const char *account);
/* 1 if `nick` is logged in to services as the account `name` (names
 * compared as the database keys them). */
int accounts_services_name(const struct bot *bot, const char *nick, const char *name);
/* Without account-notify (whois_account_notify) a services identity is
 * checked again (WHOIS) when older than this many seconds. */
#define ACCOUNTS_RECHECK 60.0

/* The IRC side (irc.c). */
/* Takes SIGTERM, SIGINT (stop) and SIGHUP (reload) for the event loop and
 * ignores SIGPIPE; main calls it first, so a signal that comes while the
 * database opens is kept for the loop rather than killing the bot. */
void bot_signals(void);
/* Runs the event loop until SIGTERM/SIGINT, or until the bot steps down
 * (failover_watch: bot->stepped_down); returns the exit status. */
int bot_run(struct bot *bot);
/* 1 once SIGTERM or SIGINT asked the bot to stop (a standby's wait ends). */
int bot_quit_asked(void);

/* failover.c: one bot a network (issue 29). failover_wait takes the
 * network's lease on bot->db, waiting as a standby while another process
 * holds it (the log says so once; polled every failover_seconds / 4, no
 * IRC meanwhile): 0 once held, 1 if SIGTERM/SIGINT came first. */
int failover_wait(struct bot *bot);
/* After a step-down: opens the database again, trying every
 * failover_seconds / 4 (each new error logged once); NULL if asked to quit
 * meanwhile. */
struct db *failover_reopen(struct bot *bot);
/* Each turn of the event loop, before anything queued is sent: checks the
 * lease every failover_seconds / 4 (and sees at once what a statement
 * found). 0 while held: send; 2 while it is away (the database out of
 * reach, for at most failover_seconds / 2): send nothing yet; 1 once lost
 * or away too long, with bot->stepped_down set and the reason logged: the
 * loop ends (QUIT, nothing queued sent). */
int failover_watch(struct bot *bot);
/* When failover_watch must next ask the database (bot_clock's time), for
 * the loop's sleep; 0 when nothing is due (a SQLite lease, which cannot be
 * lost, or none taken). */
double failover_due(const struct bot *bot);
/* Forgets everything of a bot but its configuration (its parts closed
 * first): the state a fresh start has, to start again after a step-down. */
void failover_reset(struct bot *bot);
/* 1 while no bot of `network` (another network than this bot's) is on IRC
 * and in its channel, as this bot last read it (PostgreSQL; read again at
 * most every failover_seconds / 4; a bot seen once is gone only once
 * missed for failover_seconds / 2, so a database restarted is no absence); 0
 * otherwise, on SQLite, and while it cannot be read. The game's io.away. */
int presence_away(struct bot *bot, const char *network);

/* ---------------------------------------------------- the game over IRC */

/* game.c: the game's io (game.h) over this bot: lines go to the output
 * queue, names compare under the server's case mapping, players are found
 * by their identified nick. */
void bot_game_io(struct bot *bot, struct game_io *io);
/* Logs the database's loss (db_gone) once, with the file's path; what
 * players are told of it is each failed write's db_why(). */
void bot_db_watch(struct bot *bot);
/* The game's settings from the bot's configuration. */
void bot_game_config(const struct config *cfg, struct game_config *gc);
/* A game_caller for the command being run: answers go through reply(). */
void bot_caller(struct cmd_ctx *ctx, struct game_caller *who);
/* The dispatcher's target stage: resolves what command `e` declares it
 * acts on (enum cmd_target) into ctx, through the game's calls. 0, or -1
 * after the game told the caller what was wrong. */
int bot_target(struct cmd_ctx *ctx, enum cmd_target target);
/* The player `nick` names as an opponent (a challenge): whoever is
 * identified under that nick, else the account of that name (he may
 * identify before he accepts). 0 with *id and his account's name in
 * name[len]; -1 after telling the caller which it is: that nick is here
 * but has no account, or no one of that name is here and no account has
 * it. */
int bot_opponent(struct cmd_ctx *ctx, const char *nick, int64_t *id, char *name, size_t len);
/* Fights the simulations waiting (game_sim_step) for about BOT_SIM_SLICE
 * seconds, looking at the clock every BOT_SIM_CHUNK bouts: the event loop
 * calls it once a turn, and does not sleep while any waits, so a
 * simulation never holds up a bout or a reply by more than a slice. */
#define BOT_SIM_SLICE 0.004
#define BOT_SIM_CHUNK 25
void bot_sim_slice(struct bot *bot);

/* relay.c: bouts between two networks (PostgreSQL). relay_tick, each turn
 * of the loop once the game runs: listens first, then takes the rows for
 * this network (a notification, or every few seconds) and deletes the
 * lines said once delivered. relay_fd: the socket to select on, or -1.
 * relay_nick_of: "name@network" for an account of another network (the
 * io's nick_of when he has no nick here), else NULL. relay_said: a line
 * the game says to target about bout (0: none) and round (the io's
 * say_about's: < 0, commentary said again after a restart): 1 when target
 * is another network's player (stored for his bot, not said here), else 0
 * (said here; a line in a channel about a bout of two networks is also
 * stored for the other's channel, the corners "Rocky (alice)" of the
 * players of the network that does not hear it named "Rocky (alice@one)"
 * in each copy: `local`, when not empty, is the text to say here).
 * relay_withdraw: the io's withdraw, for
 * the other network's player's prompts. bot_relay_cmd: the caller's command `verb`
 * with its words, when he plays a bout of another network's bot: stored
 * for it (1), failed with a reply (-1), or not his case (0). */
void relay_tick(struct bot *bot);
int relay_fd(struct bot *bot);
const char *relay_nick_of(struct bot *bot, int64_t account_id);
int relay_said(struct bot *bot, const char *target, const char *text, int64_t bout, int round,
               struct str *local);
void relay_withdraw(struct bot *bot, int64_t bout, int round);
/* relay_said and relay_withdraw hold their rows (and the answers to the
 * commands relay_tick runs theirs): relay_flush, at the end of each turn
 * of the loop and after each relayed command run (before its row goes;
 * outside any transaction), writes them in one transaction,
 * so the other network has all of a round's rows or none; when the
 * database fails they wait and are tried again (a second later, for at
 * most a minute). relay_close: a last try, then the rows are given back. */
void relay_flush(struct bot *bot);
void relay_close(struct bot *bot);
int bot_relay_cmd(struct cmd_ctx *ctx, const char *verb, const char *words);
/* The channel league bouts are recorded in and announced to: the first
 * one the bot is in, or NULL. */
const char *bot_league_channel(const struct bot *bot);
/* The text of a message that is not a command, when it looks like orders
 * ("5H/8!/7 (ins)", or "#7 3/2" for bout 7): in private they are taken (and
 * answered), in a channel refused with a hint to send them privately.
 * ctx->who must be set. Returns 1 when they were taken, -1 when answered
 * with a refusal, 0 when `text` does not look like orders. */
int bot_private_order(struct cmd_ctx *ctx, const char *text);
/* 1 if a private message `text` looks like orders (bot_private_order). */
int bot_looks_like_order(const char *text);
/* Chat `text`, said in channel ctx->channel without the prefix, that is
 * orders one of the speaker's live bouts reads ("5/5/10"): he is told
 * privately that orders go to the bot in private, at most once every 10
 * minutes. Returns 1 when he was told, else 0. */
int bot_channel_hint(struct cmd_ctx *ctx, const char *text);
/* A nick with no identity said something that needs one (`what`: "create
 * needs an account", "orders need an account"): if his account is banned
 * (and what he can still do), or if he must join the bot's channel
 * before he can identify, he is told so in one line and 1 is returned;
 * else 0 (the caller says how to identify). */
int cmd_why_no_account(struct cmd_ctx *ctx, const char *what);
/* Tells the caller that `name` (a command, or a command and its first
 * word) needs an account, and how to get one on this network: the reason
 * of cmd_why_no_account if there is one, else how to identify. */
void cmd_no_account(struct cmd_ctx *ctx, const char *name);

#endif
