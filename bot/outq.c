/*
 * outq.c - the paced output queue: every line the bot sends waits here
 * until the token bucket lets it go, and stays known until the server has
 * shown it took it.
 *
 * Pacing: a bucket of `burst` tokens, refilled at `lines_per_second` up to
 * `burst`; each line popped costs one token. The caller passes the time
 * (monotonic seconds), so tests drive the queue with a fake clock; lines
 * queued are dated by the latest time given to outq_pop or outq_wait. A target
 * may also have its own, slower bucket: every channel is held to
 * OUTQ_CHANNEL_BURST lines back to back (so the bot never spends the whole
 * of a channel's flood budget, which ircd-hybrid shares between all its
 * members), and a target the server said it throttled (outq_throttled) is
 * slowed down further: its rate halves (down to OUTQ_SLOW_MIN) and comes
 * back doubling every OUTQ_SLOW_HOLD seconds without a new complaint.
 *
 * Order: lines put back (outq_unpop) first, then protocol lines, then the
 * three kinds of messages (and queries, below):
 *   live   - a live bout's traffic (commentary, prompts, acknowledgements):
 *            one queue in the order said, each line going as soon as its
 *            target may take it and nothing said before it holds it back:
 *            a line to the same target (lines to one player keep their
 *            order, whatever their kind), and for a private line a channel
 *            line about its bout (outq_msg_about), or about no bout, said
 *            before it (a line about no bout: any channel line). So nobody
 *            is asked for round r+1 before round r is said, a prompt goes
 *            right after its own bout's round rather than behind every
 *            other bout's, and the end of a bout never passes a prompt.
 *            A round's last channel line waits until the bucket holds
 *            tokens for it and the prompts it holds back (at most the
 *            burst), and nothing else takes them meanwhile, not even a
 *            delivery marker: the round and its prompts go back to back.
 *            A line about a bout with a step (a prompt's round) is
 *            dropped by outq_drop once that step is done, wherever it
 *            waits: no prompt for a round already fought (or a bout over)
 *            goes out;
 *   reply  - answers to commands and announcements;
 *   bulk   - long answers (reports, help, lists) and the replies of whoever
 *            asks too much.
 * Live lines go first, but while replies wait at most OUTQ_LIVE_RUN live
 * lines go in a row; replies go before bulk, at most OUTQ_REPLY_RUN in a
 * row while bulk waits. Bulk never passes live lines. Replies and bulk are
 * kept per owner (the nick the answer is for; announcements: their
 * target), and the owner served least lately (a count of lines decaying
 * with OUTQ_SERVED_TAU; for replies, the lines queued for him, counted as
 * they are queued, so that asking much at once counts at once) goes
 * first, so a flooder, a long report or a busy spectator never holds up
 * anybody else. An owner's live private lines
 * over OUTQ_LIVE_OWNER_MAX lately are queued as replies, his replies over
 * OUTQ_REPLY_OWNER_MAX, or what the commands the bot takes from a nick
 * come to when he asks at their full rate if that is more
 * (outq_set_allowance), or all of them while the bot ignores him for
 * flooding (outq_demote), as bulk; bulk goes only while the bucket is full,
 * so it streams at the full rate yet leaves the burst to whatever comes
 * next. A query (outq_query: a protocol line whose answer nobody waits
 * for at once, such as asking whether someone who joined is a bot) goes
 * once no live line or reply may go, before
 * bulk, or before replies once it has waited OUTQ_QUERY_WAIT seconds, but
 * never before live lines: on ircd-hybrid, a bystander's !version waited
 * 4 s behind the WHO asked for each of 4 nicks who had just joined, a line
 * a second. A WHOIS a command waits for (outq_whois) goes after live lines
 * and before replies, and takes a reply's turn among live lines: protocol
 * lines going first let a stranger freeze every bout (a fresh nick's
 * command a second, each asking a WHOIS). His bulk is capped at OUTQ_BULK_OWNER_MAX
 * lines waiting (and the queue at OUTQ_TOTAL_MAX): past that his new bulk
 * lines are dropped with one note. Live lines, replies and protocol lines
 * are never dropped (but stale prompts, by outq_drop). Lines to one target
 * keep their order within a kind.
 *
 * Delivery: with markers on (outq_set_markers, once registered), a line
 * popped is kept in a window until the server confirms it: after
 * OUTQ_MARK_EVERY lines, or with the next token when nothing else
 * waits, the queue sends "PING :rsN", and the server's PONG (outq_pong)
 * confirms every line sent before it, in order. When nothing waits for
 * the confirmation (no live line was sent since the last marker: only
 * replies, bulk and protocol lines), a marker goes only every
 * OUTQ_MARK_REPLIES lines, and the marker of a queue run dry waits for a
 * quiet spell of OUTQ_MARK_QUIET seconds (marker_lazy). A player's answer
 * confirms too (outq_answered: his orders for a round, which the server
 * could relay only after the line that asked for them, or a channel line
 * about his bout before it, which told him as well): the window up to the
 * first such line is confirmed as by a PONG, and his own question needs no
 * confirmation any more (it is not sent again). So while the lines since
 * the last marker hold a question (a line said with outq_ask_about: a
 * prompt, a reminder, a start call; not every line with a step: a duel's
 * corner line or an acknowledgement asks nothing) the marker of a
 * queue run dry waits OUTQ_MARK_ANSWER seconds for its answer. Only lines
 * a clock of the game waits for (outq_await: a question's clock, a duel's
 * next round, a relayed row) make a marker urgent: after live lines no
 * clock waits for (the commentary of a bout's last round, its end, an
 * acknowledgement: the game only records them as said, and what a lost
 * connection or a restart finds unconfirmed it says again, a repeat, never
 * a loss) the marker of a queue run dry is idle (marker_idle): it rides on
 * the bot's keepalive (outq_keepalive: the keepalive PING after a minute
 * of the server's silence is that marker, so an idle bot sends no PING
 * more for it), or goes OUTQ_MARK_IDLE seconds after the last line sent,
 * or with the next marker later lines call for. So with players who answer
 * at once a run of bouts costs no marker of its own: its questions are
 * confirmed by their answers, its last lines by the keepalive. Idle markers
 * never hold on a server that throttles (strict). An answer confirms nothing
 * while a throttle notice is unmatched (a notice comes before the answer
 * the line it names preceded, but which line it names only a marker
 * tells). A throttle notice (outq_throttled)
 * seen before that PONG means a line to that target was dropped: when the PONG comes, the lines
 * sent to it since the marker before go again, first. From the first notice on (strict), a channel
 * or a throttled target gets its next line only once the last one is confirmed, with a marker right
 * after each: a notice then names exactly one line, and order is kept. outq_delivered tells whether
 * every line said up to a mark was confirmed. When the connection drops (outq_disconnected),
 * replies and bulk not yet confirmed go back to their queues to be sent after reconnecting, and so
 * do live lines; a round's lines (OUTQ_ROUND, live in every other way) and protocol lines are
 * dropped: the game says a bout's commentary again from its database, and asks for orders again.
 *
 * Wire limits: a message is cut so that the line the server relays,
 * ":" + origin + " " + "PRIVMSG " + target + " :" + piece + CR LF, fits 512
 * bytes, where prefix_len is the length of the origin "nick!user@host" as
 * the server reports it (outq adds the colon and the space itself). Until
 * outq_set_prefix_len is called, OUTQ_PREFIX_DEFAULT assumes the worst the
 * bot is likely to meet: nick 30 + "!" + user 10 (+ "~") + "@" + host 63 =
 * 106 bytes. Text is cleaned before it is cut (text_utf8_clean: valid UTF-8, CR
 * and LF become spaces, no control character but the bot's formatting:
 * bold, colour, reset; a NOTICE's CTCP framing is kept);
 * targets and commands are never user text, and a target with blanks or
 * control characters is refused. Protocol lines and lines put back are cut
 * to 510 bytes (on a character boundary), with a warning in the log.
 *
 * Bad arguments are clamped, not trusted: burst under 1 becomes 1, a rate
 * that is not over 0 becomes 1 line a second. Empty text queues nothing.
 * Targets and owners are told apart byte for byte (the bot spells them one
 * way).
 *
 * Memory: every line is its own allocation (xmalloc); owners and targets
 * with nothing waiting are forgotten once their counts have decayed (a few
 * owners looked at with each line sent).
 *
 * Cost: with thousands of bouts at once nothing walks every line or every
 * owner. Owners and targets are found by hash; lines by hash of their seq
 * (outq_queued) and of their bout (outq_drop, a round's prompts for
 * bundle_need), their places in the live queue compared by number; only
 * the owners with lines waiting are looked through; outq_delivered starts
 * from the first line said that is still to be confirmed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

#define OUTQ_TOTAL_MAX      10000
#define OUTQ_PREFIX_DEFAULT 106
#define OUTQ_WIRE_MAX       512                 /* bytes of a line with its CR LF */
#define OUTQ_TEXT_MAX       (OUTQ_WIRE_MAX - 2) /* without CR LF */
#define OUTQ_PIECE_MIN      16                  /* refuse messages that leave less room than this */
#define OUTQ_NAME_MAX       64
#define OUTQ_EPSILON        1e-9
#define OUTQ_WINDOW_MAX     400  /* lines kept unconfirmed at most (a server that never answers) */
#define OUTQ_STRICT_POLL    0.25 /* seconds: look again for a confirmation */
/* A server that counts a channel's messages from all its members together
 * (ircd-hybrid: 8 from all non-operators in a window of one to two whole
 * seconds, measured at its defaults) is known by its first throttle notice
 * naming a channel; from then on the bot keeps to half of that: a burst of
 * 2 and at most 1 line a second to each channel put at most 4 of its lines
 * in any such window, and the players keep the rest (an !accept dropped
 * because the bot's announcements used the budget expires a bout). */
#define OUTQ_MARK_MAX 48 /* lines sent at most between two markers */
/* The marker of a queue run dry when nothing waits for it (only replies,
 * bulk and protocol lines since the last one): it goes with the first line
 * popped OUTQ_MARK_QUIET seconds after the last line sent, and wakes the
 * loop itself only OUTQ_MARK_LATE seconds after it. */
#define OUTQ_MARK_QUIET 2.0
#define OUTQ_MARK_LATE  30.0
/* The marker of a queue run dry when the lines it would confirm include a
 * question (outq_ask_about: a prompt, a bout's start call) nobody has
 * answered yet: it waits this long after the last line sent, since the
 * answer (outq_answered) confirms them instead. Players who answer at once
 * do so within about a second of the question leaving (the server relays
 * it, and their orders, in a few milliseconds on loopback, but ngircd reads
 * a client's lines a little late after a burst). */
#define OUTQ_MARK_ANSWER 3.0
/* The marker of a queue run dry after live lines no clock waits for
 * (marker_idle): it goes as the bot's keepalive PING (outq_keepalive:
 * after a minute of the server's silence), or at the latest this long
 * after the last line sent (a server that never falls silent). */
#define OUTQ_MARK_IDLE    120.0
#define OUTQ_TIDY_STEP    8    /* owners looked at for forgetting, each line sent */
#define OUTQ_QUERY_WAIT   10.0 /* seconds a query waits at most behind messages */
#define OUTQ_SHARED_BURST 2
#define OUTQ_SHARED_RATE  1.0
/* The formatting the bot itself puts in messages (game/: bold names, a
 * coloured result; a reset): kept; every other control character goes. */
#define OUTQ_FORMAT_KEPT "\002\003\017"
/* Targets that are channels, whatever the server's CHANTYPES: a nick can
 * never start with any of these. */
#define OUTQ_CHANTYPES "#&+!"

struct owner;

struct oline {
    struct oline *next, *prev;
    unsigned long seq;        /* the order lines were said in, from 1 */
    enum outq_kind kind;      /* OUTQ_PROTOCOL for markers and raw lines */
    struct owner *own;        /* replies and bulk: whose queue */
    unsigned marker;          /* in the window: the marker sent after it */
    unsigned char toff, tlen; /* the target inside text; tlen 0: none */
    int note;                 /* a "lines dropped" note */
    int64_t about;            /* the bout it is about (outq_msg_about); 0: none */
    int step;                 /* > 0: stale once step (a round) `step` is done */
    unsigned char ask;        /* it asks for step `step` (outq_ask_about) */
    /* The queue's two indexes of lines (struct chains): [CH_ABOUT] every
     * line about a bout, a chain per hash of `about` (outq_drop,
     * bundle_need); [CH_SEQ] every line said, a chain per `seq`
     * (outq_queued). chained[k]: in index k. */
    struct oline *cnext[2], *cprev[2];
    unsigned char chained[2];
    int64_t pos;                 /* in the live queue: its place (smaller goes first) */
    struct fifo *in;             /* the list it waits in (NULL: none) */
    char context[OUTQ_NAME_MAX]; /* a private line: the channel of the command it answers */
    unsigned char cut;           /* goes on the piece before: 1 cut in a word, 2 at a space */
    unsigned char inbatch;       /* multiline: 1 a line, 2 with concat, 3 BATCH +/- */
    unsigned char gone;          /* sent to a nick that then quit or took another: never again */
    unsigned answer;             /* the answer it belongs to (outq_answer_begin) */
    double at;                   /* a query, a reply, bulk: when it was queued */
    char text[];                 /* the line, without CR LF */
};

struct fifo {
    struct oline *head, *tail;
};

/* An index of lines: nb chains (a power of two, or 0) holding n lines,
 * linked through their cnext/cprev of this index. */
enum { CH_ABOUT, CH_SEQ };
struct chains {
    struct oline **b;
    size_t nb, n;
};

/* A hash index of names (owners', targets'): slot i holds a place in
 * their array + 1 (0: empty) and the name's hash; open addressing with
 * linear probing, at most half full. */
struct name_slot {
    uint32_t hash;
    int at;
};

struct name_index {
    struct name_slot *s;
    size_t cap;
};

/* Whose replies and bulk lines these are. */
struct owner {
    char name[OUTQ_NAME_MAX];
    uint32_t hash;    /* of name */
    struct fifo q[2]; /* [0] replies, [1] bulk */
    int waiting[2];
    double served, served_at; /* lines sent lately, decayed to served_at */
    double asked, asked_at;   /* his lines waiting, each counted from when queued, decayed */
    int dropped;              /* a note about dropped bulk waits */
    double demoted_until;     /* his replies are bulk until then */
    int refs;                 /* lines that name him (their own), wherever they are */
    int act[2];               /* his place in q->act[k] + 1 (0: q[k] is empty) */
};

/* A target with its own pacing: every channel, and whoever the server said
 * it throttled. */
struct paced {
    char name[OUTQ_NAME_MAX];
    uint32_t hash; /* of name */
    int channel;
    double tokens, last;
    double slow;       /* 0: not slowed; else its own rate in lines/s */
    double slow_until; /* when the slow rate doubles again */
    int notices;       /* throttle notices not yet matched to a line */
    double held_until; /* a channel just joined: its lines wait until then */
};

struct outq {
    int burst;
    double rate;
    double reply_max; /* an owner's recent lines before his replies wait as bulk */
    double tokens;
    double last; /* when tokens was last brought up to date */
    int started; /* 0 until the first pop: the bucket is full */
    size_t prefix_len;
    int total; /* lines waiting, in every queue */
    unsigned long seq;
    enum casemapping cm; /* the server's, for outq_forget */
    unsigned answer;     /* the command being answered (outq_answer_begin) */
    struct fifo retry, protocol, live, query, whois; /* whois: outq_whois */
    struct owner **own;
    int nown, own_cap;
    struct name_index own_x; /* owners by name */
    /* The owners with replies ([0]) or bulk ([1]) waiting, in no order:
     * what owner_pick and owners_wait look through (every owner the queue
     * knows may be thousands: each player of each live bout). */
    struct owner **act[2];
    int nact[2], act_cap[2];
    int tidy_next; /* the owner owners_tidy looks at next */
    int tidy_kept; /* owners kept by its last look at all of them */
    struct paced *tg;
    int ntg, tg_cap;
    struct name_index tg_x; /* targets by name */
    int live_run, reply_run;
    /* delivery */
    int markers;
    int labels; /* IRCv3 echo-message + labeled-response: each message is its own marker */
    char popped_tags[128];       /* the tags of the line popped ("" for none) */
    int context_tag;             /* +draft/channel-context may go (message-tags, CLIENTTAGDENY) */
    char context[OUTQ_NAME_MAX]; /* the channel of the command being answered, or "" */
    int strict;                  /* the server throttles: stop and wait for channels */
    int shared;                  /* it counts a channel's members together: half its burst */
    int mark_now;                /* strict: a marker goes next */
    int held;                    /* only protocol lines may go */
    double now;                  /* the latest time the caller gave */
    unsigned marker_next;        /* the id of the next marker */
    int since_marker;            /* lines sent since the last marker */
    int awaited;                 /* one of them is a live line: the game waits for it */
    int asking;                  /* one of them asks (outq_ask_about): an answer may confirm it */
    int clocked;                 /* one of them is one a clock waits for (outq_await) */
    unsigned long await_seq;     /* the lines said up to here: a clock waits for them */
    double sent_at;              /* when the last of them was popped */
    struct fifo window;          /* sent, not yet confirmed, in the order sent */
    int nwindow;
    struct oline *popped; /* the last line popped, until the next pop */
    /* A round and its prompts going back to back (bundle_need): how many
     * of its lines are still to go, and when it began. */
    int bundle;
    double bundle_at;
    /* The lines about a bout, chained per hash of the bout (outq_drop and
     * bundle_need find a bout's lines without walking every queue), and
     * every line said, chained per seq (outq_queued). */
    struct chains ch[2];
    /* The live queue's places: a line pushed at its tail gets live_back,
     * one pushed at its head live_front (fifo_live). */
    int64_t live_front, live_back;
    /* No line said with a seq under low waits or is unconfirmed (but
     * protocol lines): outq_delivered looks from there (low_advance). */
    unsigned long low;
    /* IRCv3 draft/multiline: the server's limits, the batch going out
     * (its lines, then its BATCH -), its reference and label. */
    struct multiline ml;
    struct fifo batch;
    unsigned batch_next;
    char batch_ref[16];
    unsigned batch_marker;
};

/* ------------------------------------------------------------ lists */

static struct oline *oline_new(const char *text, size_t len)
{
    struct oline *l = xmalloc(sizeof(*l) + len + 1);

    memset(l, 0, sizeof(*l));
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    return l;
}

static void fifo_push(struct fifo *f, struct oline *l)
{
    l->in = f;
    l->next = NULL;
    l->prev = f->tail;
    if (f->tail)
        f->tail->next = l;
    else
        f->head = l;
    f->tail = l;
}

static void fifo_push_front(struct fifo *f, struct oline *l)
{
    l->in = f;
    l->prev = NULL;
    l->next = f->head;
    if (f->head)
        f->head->prev = l;
    else
        f->tail = l;
    f->head = l;
}

static void fifo_unlink(struct fifo *f, struct oline *l)
{
    if (l->prev)
        l->prev->next = l->next;
    else
        f->head = l->next;
    if (l->next)
        l->next->prev = l->prev;
    else
        f->tail = l->prev;
    l->next = l->prev = NULL;
    l->in = NULL;
}

/* ------------------------------------------------------- the indexes */

static uint64_t about_key(int64_t about)
{
    uint64_t x = (uint64_t)about;

    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return x;
}

static uint64_t chain_key(const struct oline *l, int k)
{
    /* Lines are said one after another: their seqs spread by themselves. */
    return k == CH_SEQ ? l->seq : about_key(l->about);
}

/* The first line of the chain where a line with key `key` of index k is. */
static struct oline *chain_head(const struct outq *q, int k, uint64_t key)
{
    return q->ch[k].nb ? q->ch[k].b[key & (q->ch[k].nb - 1)] : NULL;
}

static void chain_link(struct outq *q, int k, struct oline *l)
{
    struct chains *c = &q->ch[k];
    size_t h = chain_key(l, k) & (c->nb - 1);

    l->cprev[k] = NULL;
    l->cnext[k] = c->b[h];
    if (l->cnext[k])
        l->cnext[k]->cprev[k] = l;
    c->b[h] = l;
}

/* Twice the chains, every line chained again. */
static void chain_grow(struct outq *q, int k)
{
    struct chains *c = &q->ch[k];
    struct oline **old = c->b;
    size_t nold = c->nb;

    c->nb = nold ? nold * 2 : 256;
    c->b = xcalloc(c->nb, sizeof(*c->b));
    for (size_t i = 0; i < nold; i++)
        for (struct oline *l = old[i], *next; l; l = next) {
            next = l->cnext[k];
            chain_link(q, k, l);
        }
    free(old);
}

static void chain_put(struct outq *q, int k, struct oline *l)
{
    if (q->ch[k].n + 1 > 2 * q->ch[k].nb)
        chain_grow(q, k);
    chain_link(q, k, l);
    l->chained[k] = 1;
    q->ch[k].n++;
}

static void chain_del(struct outq *q, int k, struct oline *l)
{
    if (!l->chained[k])
        return;
    if (l->cprev[k])
        l->cprev[k]->cnext[k] = l->cnext[k];
    else
        q->ch[k].b[chain_key(l, k) & (q->ch[k].nb - 1)] = l->cnext[k];
    if (l->cnext[k])
        l->cnext[k]->cprev[k] = l->cprev[k];
    l->chained[k] = 0;
    q->ch[k].n--;
}

/* The line said as `seq` that outq_delivered waits for (not a protocol
 * line), still waiting or unconfirmed; NULL when there is none. */
static const struct oline *seq_line(const struct outq *q, unsigned long seq)
{
    for (const struct oline *l = chain_head(q, CH_SEQ, seq); l; l = l->cnext[CH_SEQ])
        if (l->seq == seq && l->kind != OUTQ_PROTOCOL)
            return l;
    return NULL;
}

/* Brings low up to the first line said that is still to be confirmed
 * (each seq is passed once: a constant cost a line). */
static void low_advance(struct outq *q)
{
    if (q->low == 0)
        q->low = 1;
    while (q->low <= q->seq && !seq_line(q, q->low))
        q->low++;
}

/* A new message line (seq and about set): into the indexes. */
static void chain_index(struct outq *q, struct oline *l)
{
    if (l->about)
        chain_put(q, CH_ABOUT, l);
    if (l->seq)
        chain_put(q, CH_SEQ, l);
}

/* Every line is freed here: it leaves the indexes first, and no longer
 * holds its owner (owners_tidy may forget him then). */
static void oline_free(struct outq *q, struct oline *l)
{
    if (!l)
        return;
    if (l->own)
        l->own->refs--;
    chain_del(q, CH_ABOUT, l);
    chain_del(q, CH_SEQ, l);
    if (l->seq && l->seq == q->low)
        low_advance(q);
    free(l);
}

/* The live queue: pushed at its tail (front 0) or its head, l gets its
 * place in it (pos), so that two of its lines compare without walking. */
static void fifo_live(struct outq *q, struct oline *l, int front)
{
    if (front) {
        l->pos = --q->live_front;
        fifo_push_front(&q->live, l);
    } else {
        l->pos = ++q->live_back;
        fifo_push(&q->live, l);
    }
}

static int fifo_free(struct outq *q, struct fifo *f)
{
    int n = 0;

    for (struct oline *l = f->head, *next; l; l = next) {
        next = l->next;
        oline_free(q, l);
        n++;
    }
    f->head = f->tail = NULL;
    return n;
}

/* The target of a "CMD target :text" line into buf ("" for none). */
static void line_target(const struct oline *l, char *buf)
{
    memcpy(buf, l->text + l->toff, l->tlen);
    buf[l->tlen] = '\0';
}

static int is_channel(const char *name)
{
    return irc_is_channel(name, OUTQ_CHANTYPES);
}

/* 1 if l goes to a channel (is_channel of its target, without copying it). */
static int line_is_channel(const struct oline *l)
{
    return l->tlen && strchr(OUTQ_CHANTYPES, l->text[l->toff]) != NULL;
}

/* ------------------------------------------------------------ buckets */

static double bucket(double tokens, double last, int started, double now, double rate, double cap)
{
    if (!started)
        return cap;
    if (now > last)
        tokens += (now - last) * rate;
    return tokens > cap ? cap : tokens;
}

static double outq_tokens(const struct outq *q, double now)
{
    return bucket(q->tokens, q->last, q->started, now, q->rate, q->burst);
}

static void outq_rate_clamp(int *burst, double *rate)
{
    if (*burst < 1)
        *burst = 1;
    if (!(*rate > 0))
        *rate = 1;
}

/* ------------------------------------------------------------ names */

/* FNV-1a: the bot spells a name one way, so it is hashed byte for byte. */
static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;

    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static void index_put(struct name_index *x, uint32_t hash, int at)
{
    size_t k = hash & (x->cap - 1);

    while (x->s[k].at)
        k = (k + 1) & (x->cap - 1);
    x->s[k].hash = hash;
    x->s[k].at = at + 1;
}

/* 1 if an index for n names must grow (it is kept at most half full);
 * then it is made empty and larger, for the caller to fill again. */
static int index_regrow(struct name_index *x, int n)
{
    if (x->cap && 2 * (size_t)n + 2 <= x->cap)
        return 0;
    free(x->s);
    x->cap = x->cap ? x->cap * 2 : 64;
    while (2 * (size_t)n + 2 > x->cap)
        x->cap *= 2;
    x->s = xcalloc(x->cap, sizeof(*x->s));
    return 1;
}

/* Takes place `at` out of the index; entries behind it in its run move
 * back when their home allows (no tombstones). */
static void index_del(struct name_index *x, uint32_t hash, int at)
{
    size_t mask = x->cap - 1, gap = hash & mask;

    while (x->s[gap].at != at + 1)
        gap = (gap + 1) & mask;
    for (size_t j = (gap + 1) & mask; x->s[j].at; j = (j + 1) & mask) {
        size_t h = x->s[j].hash & mask;
        if (gap <= j ? (h <= gap || h > j) : (h <= gap && h > j)) {
            x->s[gap] = x->s[j];
            gap = j;
        }
    }
    x->s[gap].at = 0;
}

/* Place `from` is now `to` (the index entry for `from` points to `to`). */
static void index_move(struct name_index *x, uint32_t hash, int from, int to)
{
    size_t k = hash & (x->cap - 1);

    while (x->s[k].at != from + 1)
        k = (k + 1) & (x->cap - 1);
    x->s[k].at = to + 1;
}

static struct paced *target_find(struct outq *q, const char *name, int create)
{
    uint32_t hash = name_hash(name);

    for (size_t k = hash & (q->tg_x.cap - 1); q->tg_x.cap && q->tg_x.s[k].at;
         k = (k + 1) & (q->tg_x.cap - 1)) {
        struct paced *t = &q->tg[q->tg_x.s[k].at - 1];
        if (q->tg_x.s[k].hash == hash && strcmp(t->name, name) == 0)
            return t;
    }
    if (!create)
        return NULL;
    if (q->ntg == q->tg_cap) {
        q->tg_cap = q->tg_cap ? q->tg_cap * 2 : 8;
        q->tg = xrealloc(q->tg, (size_t)q->tg_cap * sizeof(*q->tg));
    }
    struct paced *t = &q->tg[q->ntg++];
    memset(t, 0, sizeof(*t));
    t->hash = hash;
    if (index_regrow(&q->tg_x, q->ntg))
        for (int i = 0; i < q->ntg - 1; i++)
            index_put(&q->tg_x, q->tg[i].hash, i);
    index_put(&q->tg_x, hash, q->ntg - 1);
    snprintf(t->name, sizeof(t->name), "%s", name);
    t->channel = is_channel(name);
    t->tokens = -1; /* full at first use */
    return t;
}

/* The rate and burst of target t (0 rate: only the global bucket). */
static double target_rate(const struct outq *q, const struct paced *t)
{
    double rate =
        t->channel && q->shared && q->rate > OUTQ_SHARED_RATE ? OUTQ_SHARED_RATE : q->rate;

    if (t->slow > 0)
        return t->slow < rate ? t->slow : rate;
    return t->channel ? rate : 0;
}

static int target_burst(const struct outq *q, const struct paced *t)
{
    int cap = q->shared ? OUTQ_SHARED_BURST : OUTQ_CHANNEL_BURST;

    if (t->slow > 0)
        return 1;
    return t->channel && q->burst > cap ? cap : q->burst;
}

/* A slowed target gets its rate back, doubling every OUTQ_SLOW_HOLD s. */
static void target_relax(const struct outq *q, struct paced *t, double now)
{
    while (t->slow > 0 && now >= t->slow_until && !t->notices) {
        t->slow *= 2;
        t->slow_until += OUTQ_SLOW_HOLD;
        if (t->slow >= q->rate)
            t->slow = 0;
    }
}

static double target_tokens(const struct outq *q, const struct paced *t, double now)
{
    int cap = target_burst(q, t);
    double rate = target_rate(q, t);

    if (t->tokens < 0)
        return cap;
    return bucket(t->tokens, t->last, 1, now, rate, cap);
}

/* Seconds until a line to target t may go (0: now). */
static double target_wait(const struct outq *q, const struct paced *t, double now)
{
    if (!t || target_rate(q, t) <= 0)
        return 0;
    double tok = target_tokens(q, t, now);
    return tok >= 1 - OUTQ_EPSILON ? 0 : (1 - tok) / target_rate(q, t);
}

/* 1 if l goes to a channel or a target the server throttled. */
static int paced_line(struct outq *q, const struct oline *l)
{
    char name[OUTQ_NAME_MAX];

    if (!l->tlen)
        return 0;
    line_target(l, name);
    const struct paced *t = target_find(q, name, 0);
    return is_channel(name) || (t && t->slow > 0);
}

/* Strict: a line to l's target is still unconfirmed. */
static int unconfirmed(const struct outq *q, const struct oline *l)
{
    for (const struct oline *w = q->window.head; w; w = w->next)
        if (w->tlen == l->tlen && memcmp(w->text + w->toff, l->text + l->toff, l->tlen) == 0)
            return 1;
    return 0;
}

static double line_wait(struct outq *q, const struct oline *l, double now)
{
    char name[OUTQ_NAME_MAX];

    if (!l->tlen)
        return 0;
    /* On a server that throttles, a channel (or a throttled target) gets
     * its next line once the last one is confirmed: a notice then names
     * one line, and the lines keep their order. */
    if (q->strict && paced_line(q, l) && unconfirmed(q, l))
        return OUTQ_STRICT_POLL;
    line_target(l, name);
    struct paced *t = target_find(q, name, 0);
    if (t && t->held_until > now)
        return t->held_until - now;
    if (t)
        target_relax(q, t, now);
    return target_wait(q, t, now);
}

static void target_spend(struct outq *q, const struct oline *l, double now)
{
    char name[OUTQ_NAME_MAX];

    if (!l->tlen)
        return;
    line_target(l, name);
    struct paced *t = target_find(q, name, 0);
    if (!t && is_channel(name))
        t = target_find(q, name, 1);
    if (!t || target_rate(q, t) <= 0)
        return;
    double tok = target_tokens(q, t, now) - 1;
    t->tokens = tok < 0 ? 0 : tok;
    t->last = now;
}

/* ------------------------------------------------------------ owners */

static double decayed(const struct owner *o, double now)
{
    if (now <= o->served_at)
        return o->served;
    return o->served * exp(-(now - o->served_at) / OUTQ_SERVED_TAU);
}

/* The replies and bulk lines waiting for o, each counted 1 when it was
 * queued and decaying as served does from then (asked_charge): with his
 * lines served lately, what ranks his replies (owner_pick). */
static double asked(const struct owner *o, double now)
{
    if (now <= o->asked_at)
        return o->asked;
    return o->asked * exp(-(now - o->asked_at) / OUTQ_SERVED_TAU);
}

/* Line l of o's starts waiting (sign 1: it counts from now on) or stops
 * (-1: it is sent, moved into a batch or dropped: what is left of its
 * count goes). */
static void asked_charge(struct owner *o, struct oline *l, double now, int sign)
{
    double a = asked(o, now);

    if (sign > 0) {
        l->at = now;
        a += 1;
    } else {
        a -= now > l->at ? exp(-(now - l->at) / OUTQ_SERVED_TAU) : 1;
    }
    o->asked = a > 0 ? a : 0;
    o->asked_at = now;
}

/* The owner named `name`, or NULL: owner_find without making one. */
static struct owner *owner_lookup(const struct outq *q, const char *name)
{
    uint32_t hash = name_hash(name);

    for (size_t k = hash & (q->own_x.cap - 1); q->own_x.cap && q->own_x.s[k].at;
         k = (k + 1) & (q->own_x.cap - 1)) {
        struct owner *o = q->own[q->own_x.s[k].at - 1];
        if (q->own_x.s[k].hash == hash && strcmp(o->name, name) == 0)
            return o;
    }
    return NULL;
}

/* The owner named `name`, made if there is none yet. */
static struct owner *owner_find(struct outq *q, const char *name)
{
    struct owner *found = owner_lookup(q, name);

    if (found)
        return found;
    uint32_t hash = name_hash(name);
    if (q->nown == q->own_cap) {
        q->own_cap = q->own_cap ? q->own_cap * 2 : 8;
        q->own = xrealloc(q->own, (size_t)q->own_cap * sizeof(*q->own));
    }
    struct owner *o = xmalloc(sizeof(*o));
    memset(o, 0, sizeof(*o));
    snprintf(o->name, sizeof(o->name), "%s", name);
    o->hash = hash;
    q->own[q->nown++] = o;
    if (index_regrow(&q->own_x, q->nown))
        for (int i = 0; i < q->nown - 1; i++)
            index_put(&q->own_x, q->own[i]->hash, i);
    index_put(&q->own_x, hash, q->nown - 1);
    return o;
}

/* o's queue k changed: he is among the owners with lines of kind k
 * waiting (q->act[k]) exactly while it holds some. */
static void active_sync(struct outq *q, struct owner *o, int k)
{
    int on = o->q[k].head != NULL;

    if (on == (o->act[k] > 0))
        return;
    if (on) {
        if (q->nact[k] == q->act_cap[k]) {
            q->act_cap[k] = q->act_cap[k] ? q->act_cap[k] * 2 : 16;
            q->act[k] = xrealloc(q->act[k], (size_t)q->act_cap[k] * sizeof(*q->act[k]));
        }
        q->act[k][q->nact[k]] = o;
        o->act[k] = ++q->nact[k];
        return;
    }
    struct owner *last = q->act[k][--q->nact[k]];
    q->act[k][o->act[k] - 1] = last;
    last->act[k] = o->act[k];
    o->act[k] = 0;
}

/* Forgets owners with nothing waiting whose count has worn off. */
static void owners_tidy(struct outq *q, double now, int count)
{
    /* `count` owners looked at, from where the last look stopped. */
    for (int n = 0; n < count && q->nown > 0; n++) {
        int i = q->tidy_next < q->nown ? q->tidy_next : 0;
        struct owner *o = q->own[i];
        q->tidy_next = i + 1;
        /* A line still naming him (a live line waiting, one sent and not
         * yet confirmed) keeps him: it reads his counts when it goes. */
        if (o->waiting[0] || o->waiting[1] || o->act[0] || o->act[1] || o->refs > 0 ||
            decayed(o, now) > 0.05 || asked(o, now) > 0.05 || now < o->demoted_until)
            continue;
        index_del(&q->own_x, o->hash, i);
        free(o);
        if (i != --q->nown) {
            q->own[i] = q->own[q->nown];
            index_move(&q->own_x, q->own[i]->hash, q->nown, i);
        }
        q->tidy_next = i; /* the owner moved there is next */
    }
}

void outq_first(struct outq *q, const char *owner, unsigned long after)
{
    struct owner *o = owner && strlen(owner) < OUTQ_NAME_MAX ? owner_lookup(q, owner) : NULL;

    for (int k = 0; o && k < 2; k++) {
        struct fifo moved = {0};
        while (o->q[k].tail && o->q[k].tail->seq > after) {
            struct oline *l = o->q[k].tail;
            fifo_unlink(&o->q[k], l);
            fifo_push_front(&moved, l);
        }
        while (moved.tail) {
            struct oline *l = moved.tail;
            fifo_unlink(&moved, l);
            fifo_push_front(&o->q[k], l);
        }
    }
}

void outq_demote(struct outq *q, const char *owner, double seconds)
{
    if (!owner || !*owner || strlen(owner) >= OUTQ_NAME_MAX)
        return;
    struct owner *o = owner_find(q, owner);
    if (q->now + seconds > o->demoted_until) /* a longer one (password guesses) stands */
        o->demoted_until = q->now + seconds;
    /* His replies waiting now go behind everybody else's. */
    while (o->q[0].tail) {
        struct oline *l = o->q[0].tail;
        fifo_unlink(&o->q[0], l);
        o->waiting[0]--;
        l->kind = OUTQ_BULK;
        fifo_push_front(&o->q[1], l);
        o->waiting[1]++;
    }
    active_sync(q, o, 0);
    active_sync(q, o, 1);
}

/* 1 if l is a line about `about` made stale by step `step` being done. */
static int stale(const struct oline *l, int64_t about, int step)
{
    return l->about == about && l->step > 0 && l->step <= step;
}

/* 1 if outq_drop may drop l: it waits in the retry list, the live queue or
 * its owner's queues (the window's lines and the one popped are gone or
 * going). */
static int droppable(const struct outq *q, const struct oline *l)
{
    return l->in && (l->in == &q->retry || l->in == &q->live ||
                     (l->own && (l->in == &l->own->q[0] || l->in == &l->own->q[1])));
}

/* Takes droppable line l off the list it waits in and frees it (the
 * caller counts it off q->total): a private live line of someone served a
 * lot lately waits in his reply queue, and his counts follow. */
static void unqueue(struct outq *q, struct oline *l)
{
    struct owner *o = l->own;

    if (o && (l->in == &o->q[0] || l->in == &o->q[1])) {
        int k = l->in == &o->q[1];
        o->waiting[k]--;
        asked_charge(o, l, q->now, -1);
        if (k && !o->waiting[1])
            o->dropped = 0; /* his next overflow gets its note again */
    }
    fifo_unlink(l->in, l);
    if (o) {
        active_sync(q, o, 0);
        active_sync(q, o, 1);
    }
    oline_free(q, l);
}

int outq_drop(struct outq *q, int64_t about, int step)
{
    if (!about || step <= 0)
        return 0;
    int n = 0;
    for (struct oline *l = chain_head(q, CH_ABOUT, about_key(about)), *next; l; l = next) {
        next = l->cnext[CH_ABOUT];
        if (!stale(l, about, step) || !droppable(q, l))
            continue;
        unqueue(q, l);
        n++;
    }
    q->total -= n;
    if (n)
        log_msg(LOG_DEBUG, "outq: %d lines about %lld dropped: step %d is done", n,
                (long long)about, step);
    return n;
}

/* 1 if l is a private line for nick (a message, not a protocol line). */
static int line_for(const struct outq *q, const struct oline *l, const char *nick)
{
    char to[OUTQ_NAME_MAX];

    if (!l || !l->tlen || line_is_channel(l) || l->kind == OUTQ_PROTOCOL)
        return 0;
    line_target(l, to);
    return irc_casecmp(q->cm, to, nick) == 0;
}

/* Drops the lines of list f that wait for nick (not a channel). */
static int forget_in(struct outq *q, struct fifo *f, const char *nick)
{
    int n = 0;

    for (struct oline *l = f->head, *next; l; l = next) {
        next = l->next;
        if (!line_for(q, l, nick))
            continue;
        unqueue(q, l);
        n++;
    }
    return n;
}

/* The lines sent to nick and not yet confirmed (the window, a multiline
 * batch's, the line just popped) are never sent again: after a reconnection or a throttle notice
 * they would reach whoever holds the nick then. Returns how many. */
static int forget_sent(struct outq *q, const char *nick)
{
    int n = 0;

    for (int k = 0; k < 2; k++) /* a multiline batch's lines go to the window too */
        for (struct oline *l = (k ? q->batch : q->window).head; l; l = l->next)
            if (!l->gone && line_for(q, l, nick)) {
                l->gone = 1;
                n++;
            }
    if (q->popped && !q->popped->gone && line_for(q, q->popped, nick)) {
        q->popped->gone = 1;
        n++;
    }
    return n;
}

int outq_forget(struct outq *q, const char *nick)
{
    if (!nick || !*nick || is_channel(nick))
        return 0;
    int n = forget_in(q, &q->retry, nick) + forget_in(q, &q->live, nick);
    /* His replies and bulk wait in his own queues (the owner is the nick
     * they are for): no walk of every owner's lines at each QUIT of a
     * netsplit. */
    struct owner *o = strlen(nick) < OUTQ_NAME_MAX ? owner_lookup(q, nick) : NULL;
    for (int k = 0; o && k < 2; k++)
        n += forget_in(q, &o->q[k], nick);
    q->total -= n;
    int sent = forget_sent(q, nick);
    if (sent)
        log_msg(LOG_DEBUG,
                "outq: %d lines sent or going out to %s, not yet confirmed, will not go again",
                sent, nick);
    if (n) {
        low_advance(q);
        log_msg(LOG_DEBUG, "outq: %d lines for %s dropped: that nick is someone else's now", n,
                nick);
    }
    return n;
}

/* ------------------------------------------------------------ creating */

struct outq *outq_new(int burst, double lines_per_second)
{
    struct outq *q = xmalloc(sizeof(*q));

    memset(q, 0, sizeof(*q));
    outq_rate_clamp(&burst, &lines_per_second);
    q->burst = burst;
    q->rate = lines_per_second;
    q->tokens = burst;
    q->prefix_len = OUTQ_PREFIX_DEFAULT;
    q->reply_max = OUTQ_REPLY_OWNER_MAX;
    q->marker_next = 1;
    return q;
}

void outq_free(struct outq *q)
{
    if (!q)
        return;
    outq_clear(q);
    for (int i = 0; i < q->nown; i++)
        free(q->own[i]);
    free(q->own);
    free(q->act[0]);
    free(q->act[1]);
    free(q->tg);
    free(q->tg_x.s);
    free(q->own_x.s);
    free(q->ch[CH_ABOUT].b);
    free(q->ch[CH_SEQ].b);
    free(q);
}

/* Takes effect from now on: tokens already earned are kept, up to the new
 * burst. */
void outq_set_rate(struct outq *q, int burst, double lines_per_second)
{
    outq_rate_clamp(&burst, &lines_per_second);
    q->burst = burst;
    q->rate = lines_per_second;
    if (q->tokens > burst)
        q->tokens = burst;
}

void outq_set_allowance(struct outq *q, int commands, int seconds)
{
    double steady = seconds > 0 ? commands * OUTQ_SERVED_TAU / seconds : 0;

    q->reply_max = steady > OUTQ_REPLY_OWNER_MAX ? steady : OUTQ_REPLY_OWNER_MAX;
}

void outq_set_prefix_len(struct outq *q, size_t len)
{
    q->prefix_len = len;
}

void outq_target_hold(struct outq *q, const char *target, double until)
{
    struct paced *t = target_find(q, target, until > 0);

    if (t)
        t->held_until = until;
}

void outq_set_markers(struct outq *q, int on)
{
    q->markers = on;
}

void outq_set_casemap(struct outq *q, enum casemapping cm)
{
    q->cm = cm;
}

void outq_answer_begin(struct outq *q)
{
    q->answer++;
}

void outq_hold(struct outq *q, int on)
{
    q->held = on;
}

/* ------------------------------------------------------------ queueing */

static void owner_push(struct outq *q, struct owner *o, int bulk, struct oline *l)
{
    asked_charge(o, l, q->now, 1);
    l->kind = bulk ? OUTQ_BULK : OUTQ_REPLY;
    if (l->own != o) {
        o->refs++;
        if (l->own)
            l->own->refs--;
    }
    l->own = o;
    fifo_push(&o->q[bulk], l);
    o->waiting[bulk]++;
    active_sync(q, o, bulk);
    q->total++;
}

/* 1 if owner o has bulk lines waiting for l's target from an earlier
 * answer: the rest of what he asked before, which a reply to the same
 * place must not pass (the header of a second report amid the body of the
 * first). Within one answer its replies go first, as ever (a report's
 * header, held until the command ends, before its body). */
static int bulk_to(const struct owner *o, const struct oline *l)
{
    if (!o->waiting[1])
        return 0;
    for (const struct oline *b = o->q[1].head; b; b = b->next)
        if (b->answer != l->answer && b->tlen == l->tlen &&
            memcmp(b->text + b->toff, l->text + l->toff, l->tlen) == 0)
            return 1;
    return 0;
}

/* Queues one message line of `kind` for owner `who` at time `now`. */
static void outq_place(struct outq *q, enum outq_kind kind, const char *who, struct oline *l,
                       double now)
{
    l->seq = ++q->seq;
    l->answer = q->answer;
    chain_index(q, l);
    char to[OUTQ_NAME_MAX];
    line_target(l, to);
    if (q->context[0] && to[0] && !is_channel(to))
        snprintf(l->context, sizeof(l->context), "%s", q->context);
    if (kind == OUTQ_PROTOCOL) {
        l->kind = OUTQ_PROTOCOL;
        fifo_push(&q->protocol, l);
        q->total++;
        return;
    }
    struct owner *o = owner_find(q, who);
    double served = decayed(o, now);
    if ((kind == OUTQ_LIVE || kind == OUTQ_ROUND) && !is_channel(who) &&
        served > OUTQ_LIVE_OWNER_MAX) {
        owner_push(q, o, 0, l); /* a reply: never further down */
        return;
    }
    if (kind == OUTQ_LIVE || kind == OUTQ_ROUND) {
        l->kind = kind;
        l->own = o;
        o->refs++;
        fifo_live(q, l, 0);
        q->total++;
        return;
    }
    if (kind == OUTQ_REPLY && bulk_to(o, l)) {
        /* Behind it, and not cut at his bulk's cap (a question, a refusal),
         * within bounds: a nick who keeps asking long answers fills them. */
        if (o->waiting[1] < OUTQ_BULK_OWNER_MAX + OUTQ_REPLY_OWNER_MAX &&
            q->total < OUTQ_TOTAL_MAX) {
            owner_push(q, o, 1, l);
            return;
        }
        kind = OUTQ_BULK;
    }
    if (kind == OUTQ_REPLY && (served + o->waiting[0] > q->reply_max || now < o->demoted_until))
        kind = OUTQ_BULK;
    if (kind == OUTQ_REPLY) {
        owner_push(q, o, 0, l);
        return;
    }
    if (o->waiting[1] >= OUTQ_BULK_OWNER_MAX || q->total >= OUTQ_TOTAL_MAX) {
        if (!o->dropped) {
            char buf[OUTQ_TEXT_MAX + 1], target[OUTQ_NAME_MAX];
            line_target(l, target);
            int n = snprintf(buf, sizeof(buf),
                             "PRIVMSG %s :(the rest is cut: more was asked than I can send; "
                             "ask again in a while)",
                             target);
            struct oline *note = oline_new(buf, (size_t)n);
            note->seq = l->seq;
            note->toff = l->toff;
            note->tlen = l->tlen;
            note->note = 1;
            chain_put(q, CH_SEQ, note);
            owner_push(q, o, 1, note);
            o->dropped = 1;
            log_msg(LOG_WARN, "outq: %d lines waiting for %s; dropping the rest of an answer",
                    o->waiting[1], o->name);
        }
        oline_free(q, l);
        return;
    }
    owner_push(q, o, 1, l);
}

/* outq_place, and what waits of the lines said (low) known again. */
static void outq_add(struct outq *q, enum outq_kind kind, const char *who, struct oline *l,
                     double now)
{
    outq_place(q, kind, who, l, now);
    low_advance(q); /* l may be a protocol line, or dropped */
}

/* 1 if s is usable as a command or target word on the wire. */
static int wire_word(const char *s)
{
    if (!s || !*s || *s == ':')
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == 0x7f)
            return 0;
    return 1;
}

/* The text of a message as it may go: valid UTF-8, the bot's formatting
 * kept (bold, colour, reset), any other control character of the text
 * replaced (text_utf8_clean). A NOTICE's CTCP framing (\001 first and
 * last: the bot's CTCP replies) is kept around its cleaned inside. */
static void outq_clean(struct str *out, const char *cmd, const char *text)
{
    size_t len = strlen(text);

    if (strcmp(cmd, "NOTICE") == 0 && len >= 2 && text[0] == '\001' && text[len - 1] == '\001') {
        str_ch(out, '\001');
        text_utf8_clean(out, text + 1, len - 2, OUTQ_FORMAT_KEPT);
        str_ch(out, '\001');
        return;
    }
    text_utf8_clean(out, text, len, OUTQ_FORMAT_KEPT);
}

void outq_msg(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
              const char *owner, const char *text)
{
    outq_msg_about(q, kind, cmd, target, owner, text, 0, 0);
}

static void msg_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                      const char *owner, const char *text, int64_t about, int step, int ask);

void outq_msg_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                    const char *owner, const char *text, int64_t about, int step)
{
    msg_about(q, kind, cmd, target, owner, text, about, step, 0);
}

void outq_ask_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                    const char *owner, const char *text, int64_t about, int step)
{
    msg_about(q, kind, cmd, target, owner, text, about, step, 1);
}

/* Queues the pieces of a message (outq_msg_about); `ask`: each asks for
 * `step` (none without a bout and a step). */
static void msg_about(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                      const char *owner, const char *text, int64_t about, int step, int ask)
{
    double now = q->now;
    char line[OUTQ_LINE_MAX];

    if (!wire_word(cmd) || !wire_word(target) || strlen(cmd) >= 16 ||
        strlen(target) >= OUTQ_NAME_MAX) {
        log_msg(LOG_ERROR, "outq: refused a message with command \"%s\" to \"%s\"",
                cmd ? cmd : "(null)", target ? target : "(null)");
        return;
    }
    if (!owner || !*owner || strlen(owner) >= OUTQ_NAME_MAX)
        owner = target;
    size_t head = strlen(cmd) + 1 + strlen(target) + 2; /* "PRIVMSG target :" */
    size_t fixed = 1 + q->prefix_len + 1 + head + 2;    /* ":origin " ... CR LF */
    if (fixed + OUTQ_PIECE_MIN > OUTQ_WIRE_MAX) {
        log_msg(LOG_ERROR, "outq: no room for text to %s (prefix %zu bytes)", target,
                q->prefix_len);
        return;
    }
    size_t room = OUTQ_WIRE_MAX - fixed;

    struct str clean;
    str_init(&clean);
    outq_clean(&clean, cmd, text ? text : "");
    const char *p = clean.p;
    size_t left = clean.len;
    unsigned char cut = 0;
    size_t clen = strlen(cmd), tlen = strlen(target);
    memcpy(line, cmd, clen); /* "cmd target :", once: the pieces follow it */
    line[clen] = ' ';
    memcpy(line + clen + 1, target, tlen);
    memcpy(line + clen + 1 + tlen, " :", 2);
    while (left > 0) {
        size_t n = irc_split(p, left, room);
        size_t len = clen + tlen + 3 + n; /* fits: fixed + room <= OUTQ_WIRE_MAX */
        memcpy(line + clen + tlen + 3, p, n);
        struct oline *l = oline_new(line, len);
        l->toff = (unsigned char)(strlen(cmd) + 1);
        l->tlen = (unsigned char)strlen(target);
        l->about = about;
        l->step = about ? step : 0;
        l->ask = ask && l->step > 0;
        l->cut = cut;
        outq_add(q, kind, owner, l, now);
        p += n;
        left -= n;
        cut = 1;
        /* irc_split cut at a space (a cut on a character boundary never
         * stops before one): the spaces there start no line. */
        while (left > 0 && *p == ' ') {
            p++;
            left--;
            cut = 2;
        }
    }
    str_free(&clean);
}

/* Copies at most OUTQ_TEXT_MAX bytes of line, cut on a character boundary,
 * sanitized, into a new queue line. */
static struct oline *outq_line_from(const char *line)
{
    char buf[OUTQ_LINE_MAX];
    size_t len = strlen(line);

    if (len > OUTQ_TEXT_MAX) {
        log_msg(LOG_WARN, "outq: a %zu-byte line cut to %d bytes", len, OUTQ_TEXT_MAX);
        len = OUTQ_TEXT_MAX;
        for (int k = 0; k < 3 && len > 0 && ((unsigned char)line[len] & 0xc0) == 0x80; k++)
            len--;
    }
    memcpy(buf, line, len);
    buf[len] = '\0';
    irc_sanitize(buf);
    return oline_new(buf, len);
}

void outq_raw(struct outq *q, const char *line)
{
    outq_add(q, OUTQ_PROTOCOL, NULL, outq_line_from(line ? line : ""), q->now);
}

/* A protocol line into list f (a query, a WHOIS), said now. */
static void server_ask(struct outq *q, struct fifo *f, const char *line)
{
    struct oline *l = outq_line_from(line ? line : "");

    l->seq = ++q->seq;
    l->kind = OUTQ_PROTOCOL;
    l->at = q->now;
    low_advance(q);
    fifo_push(f, l);
    q->total++;
}

void outq_query(struct outq *q, const char *line)
{
    server_ask(q, &q->query, line);
}

void outq_whois(struct outq *q, const char *line)
{
    server_ask(q, &q->whois, line);
}

/* ------------------------------------------------------------ taking */

/* The earlier of two waits, -1 meaning none yet. */
static double wait_min(double best, double t)
{
    return best < 0 || t < best ? t : best;
}

/* What the live lines looked at so far hold back of the lines after them
 * (live_pick): their targets (lines to one target keep their order), and
 * their channel lines' bouts (a private line never passes a channel line
 * about its bout, or about no bout, said before it). Past OUTQ_SCAN_KEEP
 * of either, everything after waits: a later turn sends it. */
#define OUTQ_SCAN_KEEP 32
struct held_back {
    int chan_seen; /* a channel line: private lines about no bout wait */
    int chan_any;  /* a channel line about no bout: every private line waits */
    int full;
    int nabout, nto;
    int64_t about[OUTQ_SCAN_KEEP];
    const struct oline *to[OUTQ_SCAN_KEEP];
};

static int same_target(const struct oline *a, const struct oline *b)
{
    return a->tlen == b->tlen && memcmp(a->text + a->toff, b->text + b->toff, a->tlen) == 0;
}

/* 1 if a line said before l and still waiting holds l back. */
static int held_by(const struct held_back *h, const struct oline *l, int chan)
{
    if (h->full)
        return 1;
    for (int i = 0; i < h->nto; i++)
        if (same_target(h->to[i], l))
            return 1;
    if (chan)
        return 0;
    if (h->chan_any || (h->chan_seen && !l->about))
        return 1;
    for (int i = 0; i < h->nabout; i++)
        if (h->about[i] == l->about)
            return 1;
    return 0;
}

/* l waits: the lines after it learn what it holds back. */
static void hold(struct held_back *h, const struct oline *l, int chan)
{
    int known = 0;

    for (int i = 0; i < h->nto && !known; i++)
        known = same_target(h->to[i], l);
    if (!known && h->nto == OUTQ_SCAN_KEEP)
        h->full = 1;
    else if (!known)
        h->to[h->nto++] = l;
    if (!chan)
        return;
    h->chan_seen = 1;
    if (!l->about) {
        h->chan_any = 1;
        return;
    }
    for (int i = 0; i < h->nabout; i++)
        if (h->about[i] == l->about)
            return;
    if (h->nabout == OUTQ_SCAN_KEEP)
        h->full = 1;
    else
        h->about[h->nabout++] = l->about;
}

/* A channel line about a bout goes only once the bucket holds tokens for
 * it and for the prompts said after it that it holds back (at most the
 * burst): a round's last line and its prompts go back to back, rather than
 * the prompts a second or two later, behind another bout's lines. How many
 * lines that is (1: the line alone; a line with more of its bout's channel
 * lines after it holds no prompt alone). */
static int bundle_need(const struct outq *q, const struct oline *l)
{
    if (q->burst <= 1)
        return 1;
    /* The bout's lines waiting after l, found in its chain (a few lines,
     * whatever else waits): the first channel line, and the prompts
     * before it. */
    int64_t chan_at = INT64_MAX;
    const struct oline *first = chain_head(q, CH_ABOUT, about_key(l->about));
    for (const struct oline *p = first; p; p = p->cnext[CH_ABOUT])
        if (p->about == l->about && p->in == &q->live && p->pos > l->pos && p->pos < chan_at &&
            line_is_channel(p))
            chan_at = p->pos;
    int prompts = 0;
    for (const struct oline *p = first; p; p = p->cnext[CH_ABOUT])
        prompts += p->about == l->about && p->in == &q->live && p->pos > l->pos &&
                   p->pos < chan_at && p->step > 0 && !line_is_channel(p);
    /* In the order said: the burst is reached first, or the channel line
     * (alone then), or the end of the queue. */
    if (1 + prompts >= q->burst)
        return q->burst;
    return chan_at < INT64_MAX ? 1 : 1 + prompts;
}

/* The seconds until the bucket holds bundle_need(l) tokens (0: now). */
static double bundle_wait(const struct outq *q, const struct oline *l, double now)
{
    int need = bundle_need(q, l);
    double tokens = outq_tokens(q, now);

    return tokens >= need - OUTQ_EPSILON ? 0 : (need - tokens) / q->rate;
}

/* 1 while a bundle's lines go: no delivery marker between them (a server
 * takes only a few lines at once; ngircd delays the fourth by a second).
 * A bundle whose prompts were withdrawn or passed over ends by itself. */
static int bundling(const struct outq *q)
{
    return q->bundle > 0 && q->now < q->bundle_at + OUTQ_STRICT_POLL;
}

/* Looks through the live lines in the order said for the first one that
 * may go now that nothing said before it holds back (held_by): returned,
 * or NULL. So a prompt goes right after its own bout's commentary,
 * whatever other bouts still have to say, yet never before it. When that
 * line is a round whose prompts need tokens to follow it (bundle_wait),
 * nothing goes: *reserve is set to the seconds until it may (else 0). */
static struct oline *live_pick(struct outq *q, double now, double *reserve)
{
    struct held_back h;

    *reserve = 0;
    memset(&h, 0, sizeof(h));
    for (struct oline *l = q->live.head; l && !h.full; l = l->next) {
        char name[OUTQ_NAME_MAX];
        line_target(l, name);
        int chan = is_channel(name);
        if (!held_by(&h, l, chan) && line_wait(q, l, now) <= 0) {
            if (chan && l->about && (*reserve = bundle_wait(q, l, now)) > 0)
                return NULL;
            return l;
        }
        hold(&h, l, chan);
    }
    return NULL;
}

/* The shortest wait of a live line that nothing said before it holds back
 * (as live_pick), `best` if shorter (-1: none yet). */
static double live_scan_wait(struct outq *q, double now, double best)
{
    struct held_back h;

    memset(&h, 0, sizeof(h));
    for (struct oline *l = q->live.head; l && !h.full; l = l->next) {
        char name[OUTQ_NAME_MAX];
        line_target(l, name);
        int chan = is_channel(name);
        if (!held_by(&h, l, chan))
            best = wait_min(best, line_wait(q, l, now));
        hold(&h, l, chan);
    }
    return best;
}

/* The reply (bulk 0) or bulk (1) line to send now: the head of the owner
 * whose target may take it who asked least lately (replies: lines queued
 * for him, counted as they are queued) or was served least lately (bulk).
 * So someone who asked once goes before someone who asked several things
 * at once, even if that one was not served yet: at a flood's start, four
 * flooders' first replies went before a bystander's, who had been
 * answered once a few seconds before (2.5 s); and owners with as much
 * waiting take turns. */
static struct oline *owner_pick(struct outq *q, int bulk, double now)
{
    struct oline *best = NULL;
    double best_served = 0;

    for (int i = 0; i < q->nact[bulk]; i++) {
        struct owner *o = q->act[bulk][i];
        struct oline *l = o->q[bulk].head;
        double s = decayed(o, now) + (bulk ? 0 : asked(o, now));
        /* Whether his target may take it only once he would be chosen:
         * the same choice, with fewer lookups of targets. */
        if ((!best || s < best_served - OUTQ_EPSILON ||
             (s < best_served + OUTQ_EPSILON && l->seq < best->seq)) &&
            line_wait(q, l, now) <= 0) {
            best = l;
            best_served = s;
        }
    }
    return best;
}

/* Lines between two markers: OUTQ_MARK_EVERY when the game waits for the
 * confirmation of one of them (a live line, a line about a bout), else
 * OUTQ_MARK_REPLIES. A marker is a line the server reads (ngircd holds a
 * client back a second after 3 lines at once) and a PONG that wakes the
 * bot: a steady run of commands paid a wakeup every 8 replies for a
 * confirmation only a lost connection asks about (what was not confirmed
 * is sent again). */
static int mark_every(const struct outq *q)
{
    return q->awaited ? OUTQ_MARK_EVERY : OUTQ_MARK_REPLIES;
}

/* A marker is to go: lines were sent since the last one, and either enough
 * of them or nothing else waits (marker_lazy: perhaps not yet). */
static int marker_pending(const struct outq *q)
{
    return q->markers && !q->labels && q->since_marker > 0 &&
           (q->since_marker >= mark_every(q) || q->total == 0 || q->mark_now);
}

/* The marker pending is that of a queue run dry and nothing waits for it:
 * no live line was sent since the last marker (the game waits for those:
 * a prompt's clock, a round marked said), only replies, bulk and protocol
 * lines, which only a lost connection asks about (unconfirmed, they are
 * sent again). It waits for a quiet spell, so that a steady run of
 * commands costs a marker every OUTQ_MARK_REPLIES replies rather than one
 * after each: a marker is a line the server reads (ngircd slows a client
 * to about 3 lines a second) and answers (a wakeup of the bot). */
static int marker_lazy(const struct outq *q)
{
    return q->total == 0 && q->since_marker < mark_every(q) && !q->mark_now && !q->awaited;
}

/* The marker pending is that of a queue run dry after live lines that no
 * clock waits for (outq_await): the game only records them as said (a
 * round's commentary at the end of a bout, an acknowledgement), and what a
 * lost connection or a restart finds unconfirmed is said again (a repeat,
 * never a loss). It goes as the keepalive (outq_keepalive), or
 * OUTQ_MARK_IDLE seconds after the last line sent, or with the next
 * marker the lines after it call for; never on a server that throttles
 * (strict: notices are matched to lines by markers). So a run of bouts
 * costs no marker of its own after its last lines: an idle bot's PING
 * every minute carries it. */
static int marker_idle(const struct outq *q)
{
    return q->total == 0 && q->since_marker < mark_every(q) && !q->mark_now && q->awaited &&
           !q->clocked && !q->strict;
}

/* The quiet spell the marker pending waits for after the last line sent:
 * OUTQ_MARK_QUIET for a lazy one (marker_lazy), OUTQ_MARK_IDLE for an idle
 * one (marker_idle); OUTQ_MARK_ANSWER for that of a queue run dry whose
 * lines include a question still unanswered that a clock waits for (a
 * player's answer confirms them without a marker: outq_answered); else
 * 0. */
static double marker_quiet(const struct outq *q)
{
    if (marker_lazy(q))
        return OUTQ_MARK_QUIET;
    if (marker_idle(q))
        return OUTQ_MARK_IDLE;
    if (q->total == 0 && q->asking && !q->mark_now && q->since_marker < mark_every(q))
        return OUTQ_MARK_ANSWER;
    return 0;
}

/* A marker may go now: pending, and not one still in its quiet. */
static int marker_due(const struct outq *q)
{
    return marker_pending(q) && q->now >= q->sent_at + marker_quiet(q) - OUTQ_EPSILON;
}

/* 1 if a marker due by count may go now. A server reads a marker as a
 * line (ngircd's penalty, ircd-hybrid's receive queue: it costs a token),
 * so it goes when it holds nothing back: on a server that throttles (its
 * notices are matched to lines by markers), when no live line waits and
 * the bucket holds a token to spare, or after OUTQ_MARK_MAX lines without
 * one (what a lost connection sends again stays bounded). With five bouts
 * at once, a marker every 8 lines held back every third round and its
 * prompts by a second. */
static int marker_free(const struct outq *q, double now)
{
    return q->strict || (!q->live.head && outq_tokens(q, now) >= 2 - OUTQ_EPSILON) ||
           q->since_marker >= OUTQ_MARK_MAX;
}

static struct oline *marker_new(struct outq *q)
{
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "PING :rs%u", q->marker_next);
    struct oline *l = oline_new(buf, (size_t)n);

    l->kind = OUTQ_PROTOCOL;
    l->note = 2; /* a marker */
    q->marker_next++;
    q->since_marker = 0;
    q->awaited = 0;
    q->asking = 0;
    q->clocked = 0;
    q->mark_now = 0;
    q->total++; /* taken at once */
    return l;
}

/* The lines that go before any other: a retried one whose time has come
 * (only a protocol line while held), a delivery marker due, a protocol
 * line. NULL when there is none. */
static struct oline *take_first(struct outq *q, double now)
{
    struct oline *l;

    if ((l = q->retry.head) && (!q->held || l->kind == OUTQ_PROTOCOL) &&
        (l->kind == OUTQ_PROTOCOL || line_wait(q, l, now) <= 0)) {
        fifo_unlink(&q->retry, l);
        return l;
    }
    if ((l = q->batch.head)) { /* a batch open: its lines, nothing between */
        fifo_unlink(&q->batch, l);
        return l;
    }
    if (!q->held && q->markers && !q->labels && q->since_marker > 0 &&
        ((q->since_marker >= mark_every(q) && !bundling(q) && marker_free(q, now)) || q->mark_now))
        return marker_new(q);
    if ((l = q->protocol.head)) {
        fifo_unlink(l->in, l);
        return l;
    }
    return NULL;
}

/* Takes owner's line l (a reply or bulk) off his queue. */
static struct oline *owner_take(struct outq *q, struct oline *l)
{
    struct owner *o = l->own;
    int k = l->kind == OUTQ_BULK;

    fifo_unlink(&o->q[k], l);
    o->waiting[k]--;
    asked_charge(o, l, q->now, -1);
    active_sync(q, o, k);
    if (!o->waiting[1])
        o->dropped = 0;
    return l;
}

/* Live line l goes now: a round that holds prompts begins a bundle, a
 * prompt is one line less of it. */
static void bundle_note(struct outq *q, const struct oline *l, double now)
{
    char name[OUTQ_NAME_MAX];

    line_target(l, name);
    if (is_channel(name)) {
        q->bundle = l->about ? bundle_need(q, l) - 1 : 0;
        q->bundle_at = now;
    } else if (q->bundle > 0 && l->step > 0) {
        q->bundle--;
    }
}

/* Takes the next line off the queues, in the order of the file comment,
 * or NULL when nothing may go now. */
static struct oline *outq_take(struct outq *q, double now)
{
    struct oline *l = take_first(q, now);

    if (l || q->held)
        return l;
    double reserve;
    struct oline *live = live_pick(q, now, &reserve);
    if (reserve > 0)
        return NULL; /* tokens gather for a round and its prompts */
    struct oline *rep = owner_pick(q, 0, now);
    /* Bulk goes only with the burst in reserve: a report streams at the
     * full rate, yet a round or a reply that comes finds tokens waiting. */
    struct oline *bulk =
        outq_tokens(q, now) >= q->burst - OUTQ_EPSILON ? owner_pick(q, 1, now) : NULL;
    /* A WHOIS a command waits for gets its turn as a reply does. */
    int other = rep || q->whois.head;
    if (live && (!other || q->live_run < OUTQ_LIVE_RUN)) {
        q->live_run = other ? q->live_run + 1 : 0;
        bundle_note(q, live, now);
        fifo_unlink(&q->live, live);
        return live;
    }
    q->live_run = 0;
    /* A WHOIS a command waits for goes before replies (a newcomer's first
     * command is not held up), never before live lines. */
    if ((l = q->whois.head)) {
        fifo_unlink(&q->whois, l);
        return l;
    }
    /* A query goes when nothing else but bulk waits, or before replies
     * once it has waited OUTQ_QUERY_WAIT; never before live lines, nor
     * while a round gathers its tokens: a stranger's commands, each asking
     * a WHOIS, froze every bout when queries went first. */
    if ((l = q->query.head) &&
        ((!live && !rep) || q->now >= l->at + OUTQ_QUERY_WAIT - OUTQ_EPSILON)) {
        fifo_unlink(&q->query, l);
        return l;
    }
    if (rep && (!bulk || q->reply_run < OUTQ_REPLY_RUN)) {
        q->reply_run = bulk ? q->reply_run + 1 : 0;
        return owner_take(q, rep);
    }
    if (bulk) {
        q->reply_run = 0;
        return owner_take(q, bulk);
    }
    return marker_due(q) ? marker_new(q) : NULL;
}

/* The line popped before is now on its way: into the window, or gone. */
static void popped_settle(struct outq *q)
{
    struct oline *l = q->popped;

    q->popped = NULL;
    if (!l)
        return;
    if (!q->markers || l->note == 2 || l->kind == OUTQ_PROTOCOL) {
        oline_free(q, l);
        return;
    }
    if (!q->labels) {
        l->marker = q->marker_next; /* the next marker confirms it */
        q->since_marker++;
        q->awaited |= l->kind == OUTQ_LIVE || l->kind == OUTQ_ROUND || l->about;
        q->asking |= l->ask;
        q->clocked |= l->seq <= q->await_seq;
    }
    fifo_push(&q->window, l);
    if (q->strict && paced_line(q, l))
        q->mark_now = 1;
    if (++q->nwindow > OUTQ_WINDOW_MAX) {
        /* The server never answers our markers: assume the oldest went. */
        struct oline *old = q->window.head;
        fifo_unlink(&q->window, old);
        oline_free(q, old);
        q->nwindow--;
    }
}

/* ------------------------------------------------------------ multiline */

static void resend(struct outq *q, struct oline *l);

void outq_set_multiline(struct outq *q, const struct multiline *m)
{
    struct multiline off = {0, 0};

    q->ml = m ? *m : off;
}

/* The bytes of l's text after "CMD target :". */
static size_t text_len(const struct oline *l)
{
    return strlen(l->text) - (l->toff + l->tlen + 2u);
}

/* 1 if next is a message to the same target with the same command as l. */
static int batch_same(const struct oline *l, const struct oline *next)
{
    size_t head = (size_t)l->toff + l->tlen + 2;

    return next && !next->note && next->tlen && strncmp(l->text, next->text, head) == 0 &&
           next->text[head] != '\001';
}

#define OUTQ_BATCH_CONT 4 /* lines a batch may take past its bound to end a message */

/* The next line of l's owner after l: his next reply, or once they are
 * all gone his first bulk line (an answer's first lines go as replies,
 * the rest as bulk: one batch may hold both). *k: which queue. */
static struct oline *batch_next(const struct oline *l, int *k)
{
    if (*k == 0 && !l->own->q[0].head)
        *k = 1;
    return l->own->q[*k].head;
}

/* The hook (outq_pop): l, a private reply or bulk line just taken, with
 * more lines to its target waiting right behind it in its owner's queue,
 * goes with them as one multiline batch: the BATCH + line is returned (to
 * go now), l, the lines that fit (multiline_add) and the BATCH - line wait
 * in q->batch, ahead of everything. `tokens`: the bucket after this line;
 * the batch holds no more lines than it can pay for within
 * OUTQ_BATCH_SECONDS. Else l itself. */
static struct oline *batch_open(struct outq *q, struct oline *l, double tokens)
{
    char to[OUTQ_NAME_MAX];
    int k = l->kind == OUTQ_BULK;
    int room = (int)(tokens + q->rate * OUTQ_BATCH_SECONDS) - 1; /* BATCH - */

    if (!q->ml.max_bytes || q->held || l->inbatch ||
        (l->kind != OUTQ_REPLY && l->kind != OUTQ_BULK) || !l->own || l->note || !l->tlen ||
        room < 2 || l->text[l->toff + l->tlen + 2] == '\001' || !batch_same(l, batch_next(l, &k)))
        return l;
    line_target(l, to);
    if (is_channel(to))
        return l;
    struct multiline_batch b = {0, 0};
    struct oline *next = batch_next(l, &k);
    if (!multiline_add(&q->ml, &b, text_len(l), 0) ||
        !multiline_add(&q->ml, &b, text_len(next) + (next->cut == 2), next->cut != 0))
        return l;
    char buf[OUTQ_LINE_MAX];
    snprintf(q->batch_ref, sizeof(q->batch_ref), "ml%u", ++q->batch_next);
    int n = snprintf(buf, sizeof(buf), "BATCH +%s draft/multiline %s", q->batch_ref, to);
    struct oline *open = oline_new(buf, (size_t)n);
    open->kind = OUTQ_PROTOCOL;
    open->inbatch = 3;
    l->inbatch = 1;
    /* Served now (its lines follow): never tidied away while they wait. */
    l->own->served = decayed(l->own, q->now) + 1;
    l->own->served_at = q->now;
    fifo_push(&q->batch, l);
    q->total += 2; /* l waits again; the BATCH - line */
    for (int lines = 1;; lines++) {
        fifo_unlink(&l->own->q[k], next);
        asked_charge(l->own, next, q->now, -1);
        if (!--l->own->waiting[k] && k == 1)
            l->own->dropped = 0;
        next->inbatch = next->cut ? 2 : 1;
        fifo_push(&q->batch, next);
        next = batch_next(l, &k);
        /* The rest of a message cut in pieces goes with it (a few lines
         * past the bucket's bound): a batch's first line cannot go on. */
        if (lines + 1 >= room + (next && next->cut ? OUTQ_BATCH_CONT : 0) || !batch_same(l, next) ||
            !multiline_add(&q->ml, &b, text_len(next) + (next->cut == 2), next->cut != 0))
            break;
    }
    active_sync(q, l->own, 0);
    active_sync(q, l->own, 1);
    n = snprintf(buf, sizeof(buf), "BATCH -%s", q->batch_ref);
    struct oline *close = oline_new(buf, (size_t)n);
    close->kind = OUTQ_PROTOCOL;
    close->inbatch = 3;
    fifo_push(&q->batch, close);
    return open;
}

void outq_batch_refused(struct outq *q)
{
    struct fifo again = {0};

    q->ml.max_bytes = 0;
    for (struct oline *l = q->window.tail, *prev; l; l = prev) {
        prev = l->prev;
        if (!l->inbatch)
            continue;
        fifo_unlink(&q->window, l);
        q->nwindow--;
        fifo_push_front(&again, l);
    }
    struct oline *l;
    while ((l = q->batch.head)) { /* not sent yet: after those sent */
        fifo_unlink(&q->batch, l);
        q->total--;
        fifo_push(&again, l);
    }
    int n = 0;
    for (l = again.tail; l;) {
        struct oline *prev = l->prev;
        fifo_unlink(&again, l);
        if (l->inbatch == 3 || l->gone) {
            oline_free(q, l); /* a BATCH line, or one for a nick gone */
        } else {
            l->inbatch = 0;
            resend(q, l);
            n++;
        }
        l = prev;
    }
    log_msg(LOG_WARN,
            "outq: the server refused a multiline batch; its %d lines go again, plain, "
            "and no more batches on this connection",
            n);
}

/* A line's text (at most OUTQ_TEXT_MAX bytes, len of them) into a buffer
 * of OUTQ_LINE_MAX: a copy, not a formatting (snprintf was a tenth of the
 * instructions a command cost the bot). */
static void line_copy(char *line, const char *text, size_t len)
{
    if (len >= OUTQ_LINE_MAX)
        len = OUTQ_LINE_MAX - 1;
    memcpy(line, text, len);
    line[len] = '\0';
}

/* The wire text of popped line l into line: a line going on the one
 * before it at a space gets that space back, when the line still fits;
 * else it goes as a line of its own. */
static void batch_text(struct outq *q, struct oline *l, char *line)
{
    size_t head = (size_t)l->toff + l->tlen + 2;
    size_t len = strlen(l->text);

    if (l->inbatch == 2 && l->cut == 2 && 1 + q->prefix_len + 1 + len + 1 + 2 > OUTQ_WIRE_MAX)
        l->inbatch = 1;
    if (l->inbatch == 2 && l->cut == 2)
        snprintf(line, OUTQ_LINE_MAX, "%.*s %s", (int)head, l->text, l->text + head);
    else
        line_copy(line, l->text, len);
}

/* The tags of a batch's line l: its BATCH + carries the label (the
 * server's echo or ACK of it confirms every line of the batch), its lines
 * the batch's reference (and the concat tag, the channel context). 0 for
 * a line of no batch. */
static int batch_tags(struct outq *q, struct oline *l)
{
    struct str tags;

    if (!l->inbatch)
        return 0;
    str_init_fixed(&tags, q->popped_tags, sizeof(q->popped_tags));
    if (l->inbatch == 3) {
        if (l->text[6] == '+' && q->markers && q->labels) {
            q->batch_marker = q->marker_next++;
            str_add(&tags, "@label=rs%u", q->batch_marker);
        }
        return 1;
    }
    if (q->markers && q->labels)
        l->marker = q->batch_marker;
    str_add(&tags, "@batch=%s%s", q->batch_ref, l->inbatch == 2 ? ";draft/multiline-concat" : "");
    if (q->context_tag && l->context[0] && !strpbrk(l->context, ";\\ "))
        str_add(&tags, ";+draft/channel-context=%s", l->context);
    return 1;
}

/* The tags of a message popped: with labels it carries its own marker
 * (the server's echo or ACK of label rsN confirms it and everything
 * before); a private answer to a channel command names that channel
 * (+draft/channel-context) where the server lets client tags through. */
static void label(struct outq *q, struct oline *l)
{
    struct str tags;

    if (batch_tags(q, l))
        return;
    if (strncmp(l->text, "PRIVMSG ", 8) != 0 && strncmp(l->text, "NOTICE ", 7) != 0)
        return;
    str_init_fixed(&tags, q->popped_tags, sizeof(q->popped_tags));
    if (q->markers && q->labels) {
        l->marker = q->marker_next++;
        str_add(&tags, "@label=rs%u", l->marker);
    }
    if (q->context_tag && l->context[0] && !strpbrk(l->context, ";\\ "))
        str_add(&tags, "%s+draft/channel-context=%s", tags.len ? ";" : "@", l->context);
}

void outq_set_context(struct outq *q, const char *channel)
{
    snprintf(q->context, sizeof(q->context), "%s",
             channel && strlen(channel) < sizeof(q->context) ? channel : "");
}

void outq_set_context_tag(struct outq *q, int on)
{
    q->context_tag = on;
}

const char *outq_popped_tags(const struct outq *q)
{
    return q->popped_tags;
}

void outq_set_labels(struct outq *q, int on)
{
    if (q->labels != on)
        log_msg(LOG_INFO, "outq: delivery confirmed by %s",
                on ? "the server's echo of each "
                     "message (echo-message, labeled-response)"
                   : "PING markers");
    q->labels = on;
    /* Lines sent with labels and not yet confirmed wait for a marker now:
     * it goes at once. */
    if (!on && q->nwindow > 0) {
        q->since_marker = q->nwindow;
        q->mark_now = 1;
    }
}

int outq_pop(struct outq *q, double now, char *line)
{
    if (now > q->now)
        q->now = now;
    popped_settle(q);
    q->popped_tags[0] = '\0';
    if (q->total == 0 && !marker_due(q))
        return 0;
    double tokens = outq_tokens(q, now);
    if (tokens < 1 - OUTQ_EPSILON)
        return 0;
    if (q->total == 0 && !q->held) {
        /* The queue ran dry: the marker goes with the next token, so what
         * was said is confirmed within a second. It pays like any line: a
         * server reads it as one (ircd-hybrid parses a client's lines at
         * about one a second, and a free marker after every prompt of a
         * steady trickle made it two a second, until its receive queue
         * filled with the long round lines and it killed the bot for
         * "Excess Flood"). */
        struct oline *m = marker_new(q);
        q->total--;
        q->tokens = tokens - 1 < 0 ? 0 : tokens - 1;
        if (!q->started || now > q->last)
            q->last = now;
        q->started = 1;
        line_copy(line, m->text, strlen(m->text));
        q->popped = m;
        return 1;
    }
    struct oline *l = outq_take(q, now);
    if (!l)
        return 0;
    l = batch_open(q, l, tokens - 1);
    q->tokens = tokens - 1 < 0 ? 0 : tokens - 1;
    if (!q->started || now > q->last)
        q->last = now;
    q->started = 1;
    q->total--;
    if (l->own && l->kind != OUTQ_PROTOCOL) {
        l->own->served = decayed(l->own, now) + 1;
        l->own->served_at = now;
    }
    target_spend(q, l, now);
    batch_text(q, l, line);
    q->popped = l;
    if (l->note != 2)
        q->sent_at = now;
    label(q, l);
    /* A few owners a line (every one of them when they have doubled
     * since that was done): a constant cost a line, whatever their number. */
    if (q->nown > 32) {
        int all = q->nown > 2 * q->tidy_kept;
        owners_tidy(q, now, all ? q->nown : OUTQ_TIDY_STEP);
        if (all)
            q->tidy_kept = q->nown;
    }
    return 1;
}

/* The token spent on the failed attempt is not given back: a full send
 * buffer means the bot is sending too fast, so waiting one more token is
 * right. */
void outq_unpop(struct outq *q)
{
    struct oline *l = q->popped;

    if (!l)
        return;
    q->popped = NULL;
    q->popped_tags[0] = '\0';
    if (l->note == 2) {
        q->marker_next--;                    /* that marker was never sent: send it again later */
        q->since_marker = OUTQ_MARK_REPLIES; /* due by count, whatever was said */
        oline_free(q, l);
        return;
    }
    fifo_push_front(l->inbatch && l->inbatch != 3 ? &q->batch : &q->retry, l);
    q->total++;
}

/* The shortest wait of a live line (or a retried one), each held by its
 * target's own bucket, and by the lines said before it (live_pick). -1
 * when there is none. */
static double live_wait(struct outq *q, double now)
{
    double best = -1;

    if (q->retry.head)
        best = q->retry.head->kind == OUTQ_PROTOCOL ? 0 : line_wait(q, q->retry.head, now);
    return live_scan_wait(q, now, best);
}

/* The shortest wait of an owner's first reply or bulk line, `best` if
 * shorter: bulk also waits for the bucket to be full (`tokens` in it). */
static double owners_wait(struct outq *q, double now, double tokens, double best)
{
    double full = tokens >= q->burst - OUTQ_EPSILON ? 0 : (q->burst - tokens) / q->rate;

    /* No wait is under 0: once one is 0 the rest need not be looked at. */
    for (int k = 0; k < 2 && best != 0; k++)
        for (int i = 0; i < q->nact[k] && best != 0; i++) {
            double t = line_wait(q, q->act[k][i]->q[k].head, now);
            if (k == 1 && t < full)
                t = full;
            best = wait_min(best, t);
        }
    return best;
}

double outq_wait(struct outq *q, double now)
{
    if (now > q->now)
        q->now = now;
    popped_settle(q);
    if (q->held ? !q->protocol.head : q->total == 0 && !marker_pending(q))
        return -1;
    double tokens = outq_tokens(q, now);
    double w = tokens >= 1 - OUTQ_EPSILON ? 0 : (1 - tokens) / q->rate;
    if (!q->held && q->total == 0) {
        /* The marker of a queue run dry, with the next token; a lazy one
         * rides on a turn of the loop after its quiet spell, and wakes
         * the loop itself only when that is late. */
        double lazy = marker_lazy(q)    ? q->sent_at + OUTQ_MARK_LATE - now
                      : marker_quiet(q) ? q->sent_at + marker_quiet(q) - now
                                        : 0;
        return lazy > w ? lazy : w;
    }
    if (q->held || q->protocol.head || q->batch.head || marker_due(q))
        return w;
    /* A round and its prompts gather tokens: nothing else goes first. */
    double reserve;
    if (!live_pick(q, now, &reserve) && reserve > 0)
        return reserve > w ? reserve : w;
    if (q->whois.head)
        return w; /* it goes with the next token, live lines first */
    /* Every waiting line may be held by its target's own bucket. */
    double best = owners_wait(q, now, tokens, live_wait(q, now));
    return best > w ? best : w;
}

int outq_len(struct outq *q)
{
    popped_settle(q);
    return q->total + marker_pending(q);
}

/* ------------------------------------------------------------ delivery */

unsigned long outq_mark(const struct outq *q)
{
    return q->seq;
}

int outq_delivered(const struct outq *q, unsigned long mark)
{
    /* Every line said before low is gone; from there, the first one still
     * here answers (the line just popped without markers is gone too). */
    for (unsigned long s = q->low ? q->low : 1; s <= mark; s++) {
        const struct oline *l = seq_line(q, s);
        if (l && (l != q->popped || q->markers))
            return 0;
    }
    return 1;
}

int outq_queued(const struct outq *q, unsigned long mark)
{
    for (const struct oline *l = chain_head(q, CH_SEQ, mark); l; l = l->cnext[CH_SEQ])
        if (l->seq == mark && droppable(q, l))
            return 1;
    return 0;
}

/* Puts line l (from the window) back to be sent first. */
static void resend(struct outq *q, struct oline *l)
{
    fifo_push_front(&q->retry, l);
    q->total++;
}

int outq_pong(struct outq *q, const char *token)
{
    char *end;

    if (!token || strncmp(token, "rs", 2) != 0 || token[2] < '0' || token[2] > '9')
        return 0;
    unsigned long id = strtoul(token + 2, &end, 10);
    if (*end || id == 0 || id >= q->marker_next)
        return 0;
    /* The lines sent before marker `id`: throttled ones (the last ones to a
     * target that had notices) go again, the others are confirmed. */
    struct fifo again = {0};
    for (int i = 0; i < q->ntg; i++) {
        struct paced *t = &q->tg[i];
        if (!t->notices)
            continue;
        /* With one line to the target in the window (a strict queue), the
         * notice names it; with more, which one is unknown: all of them
         * go again (a line twice rather than a line lost). */
        for (struct oline *l = q->window.tail, *prev; l; l = prev) {
            prev = l->prev;
            char name[OUTQ_NAME_MAX];
            line_target(l, name);
            if (l->marker > id || strcmp(name, t->name) != 0)
                continue;
            fifo_unlink(&q->window, l);
            q->nwindow--;
            fifo_push_front(&again, l);
        }
        t->notices = 0;
    }
    for (struct oline *l = again.tail, *prev; l; l = prev) {
        prev = l->prev;
        fifo_unlink(&again, l);
        if (l->gone) { /* its nick is someone else's now */
            oline_free(q, l);
            continue;
        }
        log_msg(LOG_INFO, "outq: sending again a line the server dropped: %.60s", l->text);
        resend(q, l);
    }
    int confirmed = 0;
    while (q->window.head && q->window.head->marker <= id) {
        struct oline *l = q->window.head;
        fifo_unlink(&q->window, l);
        q->nwindow--;
        oline_free(q, l);
        confirmed++;
    }
    log_msg(LOG_DEBUG, "outq: marker %lu answered, %d lines confirmed", id, confirmed);
    return 1;
}

void outq_await(struct outq *q, unsigned long mark)
{
    if (mark <= q->await_seq)
        return;
    q->await_seq = mark;
    /* Those already sent since the last marker (the rest is counted as
     * it goes: popped_settle). */
    for (const struct oline *l = q->window.tail; l && l->marker == q->marker_next; l = l->prev)
        q->clocked |= l->seq <= mark;
}

/* Lines were sent since the last marker and a marker would confirm them
 * (markers on, no echoes doing it instead), the line last popped counted. */
static int marker_owed(struct outq *q)
{
    popped_settle(q);
    return q->markers && !q->labels && q->since_marker > 0;
}

int outq_last_marker(struct outq *q, char *line)
{
    if (!marker_owed(q))
        return 0;
    struct oline *m = marker_new(q);
    q->total--; /* marker_new counts it as taken */
    line_copy(line, m->text, strlen(m->text));
    q->popped = m;
    return 1;
}

int outq_keepalive(struct outq *q)
{
    if (!marker_owed(q))
        return 0;
    q->mark_now = 1;
    return 1;
}

/* What the lines sent since the last marker, still in the window, ask
 * for: how many, one of them awaited, one of them with a step (after some
 * were confirmed otherwise than by a marker: outq_answered). */
static void window_recount(struct outq *q)
{
    q->since_marker = q->awaited = q->asking = q->clocked = 0;
    for (const struct oline *l = q->window.head; l; l = l->next) {
        if (l->marker != q->marker_next)
            continue;
        q->since_marker++;
        q->awaited |= l->kind == OUTQ_LIVE || l->kind == OUTQ_ROUND || l->about;
        q->asking |= l->ask;
        q->clocked |= l->seq <= q->await_seq;
    }
}

/* 1 if l goes to `nick` (byte for byte, as the bot spells it). */
static int line_to(const struct oline *l, const char *nick)
{
    return l->tlen == strlen(nick) && memcmp(l->text + l->toff, nick, l->tlen) == 0;
}

int outq_answered(struct outq *q, const char *nick, int64_t about, int step)
{
    if (!q->markers || q->labels || !nick || !*nick || !about || step <= 0)
        return 0;
    popped_settle(q);
    /* A throttle notice not yet matched: only a marker tells which line
     * the server dropped (a line confirmed here would never go again). */
    for (int i = 0; i < q->ntg; i++)
        if (q->tg[i].notices)
            return 0;
    /* The question he answered (the first line of the window asking him,
     * or the bout's channel, for that step), and the first line of the
     * window that could have told him instead: a channel line about the
     * bout (its round before, its start) at or before the question. */
    struct oline *ask = NULL, *told = NULL;
    for (struct oline *l = q->window.head; l && !ask; l = l->next) {
        if (l->about != about)
            continue;
        int chan = line_is_channel(l);
        if (chan && !told)
            told = l;
        if (l->ask && l->step == step && (chan || line_to(l, nick)))
            ask = l;
    }
    if (!ask)
        return 0; /* still waiting, or confirmed already: nothing learnt */
    if (!told)
        told = ask;
    int n = 0;
    for (struct oline *l = q->window.head, *next; l; l = next) {
        next = l == told ? NULL : l->next;
        fifo_unlink(&q->window, l);
        q->nwindow--;
        oline_free(q, l);
        n++;
    }
    if (ask != told && !line_is_channel(ask)) {
        /* His question is answered: whether it arrived matters no more
         * (it is not sent again, even after a lost connection). */
        fifo_unlink(&q->window, ask);
        q->nwindow--;
        oline_free(q, ask);
        n++;
    }
    window_recount(q);
    log_msg(LOG_DEBUG, "outq: %s answered bout %lld round %d: %d lines confirmed", nick,
            (long long)about, step, n);
    return n;
}

void outq_throttled(struct outq *q, const char *target, double now)
{
    if (!target || !*target || strlen(target) >= OUTQ_NAME_MAX)
        return;
    struct paced *t = target_find(q, target, 1);
    double before = t->slow > 0 ? t->slow : q->rate;
    t->slow = before / 2 < OUTQ_SLOW_MIN ? OUTQ_SLOW_MIN : before / 2;
    t->slow_until = now + OUTQ_SLOW_HOLD;
    t->tokens = 0;
    t->last = now;
    t->notices++;
    if (!q->strict && q->markers)
        log_msg(LOG_INFO, "outq: this server throttles; a marker goes between two lines to one "
                          "target from now on");
    q->strict = 1;
    if (t->channel && !q->shared)
        log_msg(LOG_INFO,
                "outq: this server counts a channel's members together; at most %d "
                "lines back to back to a channel from now on",
                OUTQ_SHARED_BURST);
    q->shared |= t->channel;
    /* Lines sent since the last marker wait for a confirmation: ask for it
     * now, or a strict channel would wait for a marker that never goes. */
    if (q->since_marker > 0)
        q->mark_now = 1;
    log_msg(LOG_WARN, "outq: the server throttled a line to %s; sending to it at %.2f lines/s",
            target, t->slow);
    if (!q->markers) {
        t->notices = 0; /* nothing kept to send again */
    }
}

void outq_refused(struct outq *q, const char *target)
{
    if (!target || !*target || strchr(target, ' ')) {
        log_msg(LOG_WARN, "outq: the server refused a message without saying to whom");
        return;
    }
    outq_throttled(q, target, q->now);
}

/* Live lines, replies and bulk from the window and the retry list go back
 * to the front of their queues (in the order they were sent); the rest
 * goes. */
static int requeue(struct outq *q, struct fifo *f)
{
    int n = 0;

    for (struct oline *l = f->tail, *prev; l; l = prev) {
        prev = l->prev;
        fifo_unlink(f, l);
        if (l->gone) {
            oline_free(q, l); /* its nick is someone else's now */
        } else if (l->kind == OUTQ_LIVE) {
            fifo_live(q, l, 1);
            q->total++;
            n++;
        } else if ((l->kind == OUTQ_REPLY || l->kind == OUTQ_BULK) && l->own) {
            int k = l->kind == OUTQ_BULK;
            fifo_push_front(&l->own->q[k], l);
            l->own->waiting[k]++;
            asked_charge(l->own, l, q->now, 1);
            active_sync(q, l->own, k);
            q->total++;
            n++;
        } else {
            oline_free(q, l);
        }
    }
    return n;
}

void outq_disconnected(struct outq *q)
{
    q->labels = 0; /* the next connection's capabilities say again */
    q->popped_tags[0] = '\0';
    if (q->popped && q->popped->note != 2 && q->popped->kind != OUTQ_PROTOCOL)
        fifo_push(&q->window, q->popped);
    else
        oline_free(q, q->popped);
    q->popped = NULL;
    q->total -= fifo_free(q, &q->protocol);
    q->total -= fifo_free(q, &q->query);
    q->total -= fifo_free(q, &q->whois);
    for (struct oline *l = q->live.head, *next; l; l = next) {
        next = l->next;
        if (l->kind == OUTQ_ROUND) {
            fifo_unlink(&q->live, l);
            oline_free(q, l);
            q->total--;
        }
    }
    /* Lines put back were never sent; the window's may not have arrived.
     * A batch's lines not sent go back as plain lines. */
    struct oline *l;
    while ((l = q->retry.head) || (l = q->batch.head)) {
        fifo_unlink(l == q->retry.head ? &q->retry : &q->batch, l);
        q->total--;
        l->inbatch = l->inbatch == 3 ? 3 : 0;
        fifo_push(&q->window, l);
    }
    for (l = q->window.head; l; l = l->next)
        l->inbatch = l->inbatch == 3 ? 3 : 0;
    int n = requeue(q, &q->window);
    q->nwindow = 0;
    if (n)
        log_msg(LOG_INFO, "outq: %d lines not confirmed by the server will be sent again", n);
    q->since_marker = 0;
    q->awaited = 0;
    q->asking = 0;
    q->clocked = 0;
    q->tokens = q->burst;
    q->started = 0;
    q->live_run = q->reply_run = 0;
    for (int i = 0; i < q->ntg; i++)
        q->tg[i].notices = 0;
}

/* Also refills the bucket: a new connection starts with a full burst. */
void outq_clear(struct outq *q)
{
    oline_free(q, q->popped);
    q->popped = NULL;
    fifo_free(q, &q->retry);
    fifo_free(q, &q->protocol);
    fifo_free(q, &q->query);
    fifo_free(q, &q->whois);
    fifo_free(q, &q->live);
    fifo_free(q, &q->window);
    fifo_free(q, &q->batch);
    q->nwindow = 0;
    for (int i = 0; i < q->nown; i++) {
        fifo_free(q, &q->own[i]->q[0]);
        fifo_free(q, &q->own[i]->q[1]);
        q->own[i]->waiting[0] = q->own[i]->waiting[1] = 0;
        q->own[i]->dropped = 0;
        q->own[i]->asked = 0;
        active_sync(q, q->own[i], 0);
        active_sync(q, q->own[i], 1);
    }
    q->total = 0;
    q->since_marker = 0;
    q->awaited = 0;
    q->asking = 0;
    q->clocked = 0;
    q->tokens = q->burst;
    q->started = 0;
}

size_t outq_pieces(const struct outq *q, const char *cmd, const char *target, const char *text)
{
    size_t fixed = 1 + q->prefix_len + 1 + strlen(cmd) + 1 + strlen(target) + 2 + 2;

    if (fixed + OUTQ_PIECE_MIN > OUTQ_WIRE_MAX)
        return 0;
    size_t room = OUTQ_WIRE_MAX - fixed, n = 0;
    struct str clean;
    str_init(&clean);
    outq_clean(&clean, cmd, text ? text : "");
    /* The same cuts as outq_msg's. */
    for (const char *p = clean.p, *end = clean.p + clean.len; p < end; n++) {
        p += irc_split(p, (size_t)(end - p), room);
        while (p < end && *p == ' ')
            p++;
    }
    str_free(&clean);
    return n;
}
