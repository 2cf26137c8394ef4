/*
 * outq.c - the paced output queue: every line the bot sends waits here
 * until the token bucket lets it go.
 *
 * Pacing: a bucket of `burst` tokens, refilled at `lines_per_second` up to
 * `burst`; each line popped costs one token. The caller passes the time
 * (monotonic seconds), so tests drive the queue with a fake clock.
 *
 * Order: lines put back by outq_unpop first (the last one put back first),
 * then protocol lines, then replies to private targets, then replies to
 * channels, then chatter. Each of these is first in, first out, so lines to
 * one target keep their order within a kind. Chatter is kept per target and
 * interleaved across targets in the order it was queued.
 *
 * Dropping: only chatter is ever dropped. When a target's chatter waiting
 * exceeds chatter_max lines, its oldest lines go and one note line takes the
 * place of the first one dropped: "(12 lines of commentary skipped to keep
 * up)"; later drops update that note while it waits (the note is not counted
 * in chatter_max, which is at least 1). The queue also holds at most OUTQ_TOTAL_MAX lines: over
 * that, the oldest chatter of any target is dropped the same way, and a new
 * chatter line with no chatter left to drop is itself dropped. Protocol
 * lines, replies and lines put back are never dropped, even over the total:
 * they come from commands that the server already paces, so they cannot
 * grow without bound.
 *
 * Wire limits: a message is cut so that the line the server relays,
 * ":" + origin + " " + "PRIVMSG " + target + " :" + piece + CR LF, fits 512
 * bytes, where prefix_len is the length of the origin "nick!user@host" as
 * the server reports it (outq adds the colon and the space itself, so a
 * caller that counts them too only loses 2 bytes, never overflows). Until
 * outq_set_prefix_len is called, OUTQ_PREFIX_DEFAULT assumes the worst the
 * bot is likely to meet: nick 30 + "!" + user 10 (+ "~") + "@" + host 63 =
 * 106 bytes. Lines already queued are not cut again when the prefix length
 * changes. Text is sanitized (CR and LF become spaces) before it is cut;
 * targets and commands are never user text, and a target with blanks or
 * control characters is refused.
 *
 * Bad arguments are clamped, not trusted: burst under 1 becomes 1, a rate
 * that is not over 0 becomes 1 line a second. Empty text queues nothing.
 * Targets are told apart byte for byte (the bot spells its targets one way).
 * Protocol lines and lines put back are cut to 510 bytes (on a character
 * boundary), with a warning in the log.
 *
 * Memory: every line is its own allocation (xmalloc); outq_free and
 * outq_clear release them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define OUTQ_TOTAL_MAX      10000
#define OUTQ_PREFIX_DEFAULT 106
#define OUTQ_WIRE_MAX       512                 /* bytes of a line with its CR LF */
#define OUTQ_TEXT_MAX       (OUTQ_WIRE_MAX - 2) /* without CR LF */
#define OUTQ_PIECE_MIN      16                  /* refuse messages that leave less room than this */
#define OUTQ_EPSILON        1e-9
/* Targets that are channels, whatever the server's CHANTYPES: a nick can
 * never start with any of these. */
#define OUTQ_CHANTYPES "#&+!"

struct oline {
    struct oline *next, *prev;
    unsigned long seq; /* chatter: the order lines were queued in */
    int note;          /* 1: a "lines skipped" note */
    char text[];       /* the line, without CR LF */
};

struct fifo {
    struct oline *head, *tail;
};

/* The chatter waiting for one target. If a note waits, it is the head. */
struct chatter {
    char *target;
    char cmd[16]; /* of the last line queued, for the note */
    struct fifo lines;
    int count;   /* lines waiting, the note not counted */
    int skipped; /* lines the waiting note tells of; 0: no note */
};

struct outq {
    int burst;
    double rate;
    double tokens;
    double last; /* when tokens was last brought up to date */
    int started; /* 0 until the first pop: the bucket is full */
    int chatter_max;
    size_t prefix_len;
    int total; /* lines waiting, notes included */
    unsigned long seq;
    struct fifo retry, protocol, reply_private, reply_channel;
    struct chatter *chat;
    int nchat, chat_cap;
    int reply_run;        /* replies sent in a row while chatter waited */
    char last_target[64]; /* the target of the last reply sent */
    int target_run;       /* replies in a row to last_target */
};

/* ------------------------------------------------------------ lists */

static struct oline *oline_new(const char *text, size_t len)
{
    struct oline *l = xmalloc(sizeof(*l) + len + 1);

    l->next = l->prev = NULL;
    l->seq = 0;
    l->note = 0;
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    return l;
}

static void fifo_push(struct fifo *f, struct oline *l)
{
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
}

static void fifo_free(struct fifo *f)
{
    for (struct oline *l = f->head, *next; l; l = next) {
        next = l->next;
        free(l);
    }
    f->head = f->tail = NULL;
}

/* ------------------------------------------------------------ bucket */

static double outq_tokens(const struct outq *q, double now)
{
    if (!q->started)
        return q->burst;
    double t = q->tokens;
    if (now > q->last)
        t += (now - q->last) * q->rate;
    return t > q->burst ? q->burst : t;
}

static void outq_rate_clamp(int *burst, double *rate)
{
    if (*burst < 1)
        *burst = 1;
    if (!(*rate > 0))
        *rate = 1;
}

struct outq *outq_new(int burst, double lines_per_second, int chatter_max)
{
    struct outq *q = xmalloc(sizeof(*q));

    memset(q, 0, sizeof(*q));
    outq_rate_clamp(&burst, &lines_per_second);
    q->burst = burst;
    q->rate = lines_per_second;
    q->tokens = burst;
    q->chatter_max = chatter_max < 1 ? 1 : chatter_max;
    q->prefix_len = OUTQ_PREFIX_DEFAULT;
    return q;
}

void outq_free(struct outq *q)
{
    if (!q)
        return;
    outq_clear(q);
    free(q->chat);
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

void outq_set_prefix_len(struct outq *q, size_t len)
{
    q->prefix_len = len;
}

/* ------------------------------------------------------------ chatter */

static struct chatter *chatter_find(struct outq *q, const char *target, int create)
{
    for (int i = 0; i < q->nchat; i++)
        if (strcmp(q->chat[i].target, target) == 0)
            return &q->chat[i];
    if (!create)
        return NULL;
    if (q->nchat == q->chat_cap) {
        q->chat_cap = q->chat_cap ? q->chat_cap * 2 : 8;
        q->chat = xrealloc(q->chat, (size_t)q->chat_cap * sizeof(*q->chat));
    }
    struct chatter *c = &q->chat[q->nchat++];
    memset(c, 0, sizeof(*c));
    c->target = xstrdup(target);
    return c;
}

/* Forgets a target with nothing waiting (keeps the array small). */
static void chatter_forget_if_empty(struct outq *q, struct chatter *c)
{
    if (c->lines.head)
        return;
    free(c->target);
    *c = q->chat[--q->nchat];
}

static struct oline *note_new(const struct chatter *c, int skipped)
{
    char buf[OUTQ_TEXT_MAX + 1];
    int n = snprintf(buf, sizeof(buf), "%s %s :(%d line%s of commentary skipped to keep up)",
                     c->cmd, c->target, skipped, skipped == 1 ? "" : "s");

    if (n < 0 || (size_t)n >= sizeof(buf))
        n = (int)strlen(buf);
    struct oline *l = oline_new(buf, (size_t)n);
    l->note = 1;
    return l;
}

/* The oldest line of c that may be dropped (never the note). */
static struct oline *chatter_oldest(const struct chatter *c)
{
    struct oline *l = c->lines.head;

    return l && l->note ? l->next : l;
}

/* Drops the oldest line of c; the note at the head takes its place or
 * counts it. */
static void chatter_drop_oldest(struct outq *q, struct chatter *c)
{
    struct oline *old = chatter_oldest(c);
    struct oline *note;

    if (!old)
        return;
    if (c->skipped) {
        note = note_new(c, c->skipped + 1);
        note->seq = c->lines.head->seq;
        struct oline *prev_note = c->lines.head; /* replaced: total unchanged */
        fifo_unlink(&c->lines, prev_note);
        free(prev_note);
    } else {
        note = note_new(c, 1);
        note->seq = old->seq;
        q->total++;
    }
    c->skipped++;
    fifo_unlink(&c->lines, old);
    free(old);
    c->count--;
    q->total--;
    fifo_push_front(&c->lines, note);
}

/* Drops the oldest droppable chatter line of all; 0 if there is none. */
static int chatter_drop_any(struct outq *q)
{
    struct chatter *best = NULL;

    for (int i = 0; i < q->nchat; i++) {
        struct oline *l = chatter_oldest(&q->chat[i]);
        if (l && (!best || l->seq < chatter_oldest(best)->seq))
            best = &q->chat[i];
    }
    if (!best)
        return 0;
    chatter_drop_oldest(q, best);
    return 1;
}

/* ------------------------------------------------------------ queueing */

/* Drops chatter until the total is under OUTQ_TOTAL_MAX, or no chatter is
 * left to drop (notes stay). Each round removes a line or turns one into a
 * note, so it ends. */
static void outq_make_room(struct outq *q)
{
    while (q->total >= OUTQ_TOTAL_MAX && chatter_drop_any(q)) {
    }
}

static void outq_add(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
                     const char *text, size_t len)
{
    struct oline *l = oline_new(text, len);

    switch (kind) {
    case OUTQ_PROTOCOL:
        outq_make_room(q);
        fifo_push(&q->protocol, l);
        break;
    case OUTQ_REPLY:
        outq_make_room(q);
        fifo_push(irc_is_channel(target, OUTQ_CHANTYPES) ? &q->reply_channel : &q->reply_private,
                  l);
        break;
    case OUTQ_CHATTER:
    default: {
        struct chatter *c = chatter_find(q, target, 1);
        snprintf(c->cmd, sizeof(c->cmd), "%s", cmd);
        outq_make_room(q);
        if (q->total >= OUTQ_TOTAL_MAX) {
            free(l);
            chatter_forget_if_empty(q, c);
            log_msg(LOG_WARN, "outq: %d lines waiting; commentary to %s dropped", q->total, target);
            return;
        }
        l->seq = q->seq++;
        fifo_push(&c->lines, l);
        c->count++;
        q->total++;
        while (c->count > q->chatter_max)
            chatter_drop_oldest(q, c);
        return;
    }
    }
    q->total++;
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

void outq_msg(struct outq *q, enum outq_kind kind, const char *cmd, const char *target,
              const char *text)
{
    char line[OUTQ_LINE_MAX];

    if (!wire_word(cmd) || !wire_word(target) || strlen(cmd) >= 16) {
        log_msg(LOG_ERROR, "outq: refused a message with command \"%s\" to \"%s\"",
                cmd ? cmd : "(null)", target ? target : "(null)");
        return;
    }
    size_t head = strlen(cmd) + 1 + strlen(target) + 2; /* "PRIVMSG target :" */
    size_t fixed = 1 + q->prefix_len + 1 + head + 2;    /* ":origin " ... CR LF */
    if (fixed + OUTQ_PIECE_MIN > OUTQ_WIRE_MAX) {
        log_msg(LOG_ERROR, "outq: no room for text to %s (prefix %zu bytes)", target,
                q->prefix_len);
        return;
    }
    size_t room = OUTQ_WIRE_MAX - fixed;

    char *copy = xstrdup(text ? text : "");
    irc_sanitize(copy);
    const char *p = copy;
    size_t left = strlen(copy);
    while (left > 0) {
        size_t n = irc_split(p, left, room);
        int len = snprintf(line, sizeof(line), "%s %s :%.*s", cmd, target, (int)n, p);
        outq_add(q, kind, cmd, target, line, (size_t)len);
        p += n;
        left -= n;
        /* irc_split cut at a space (a cut on a character boundary never
         * stops before one): the spaces there start no line. */
        while (left > 0 && *p == ' ') {
            p++;
            left--;
        }
    }
    free(copy);
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
    outq_make_room(q);
    fifo_push(&q->protocol, outq_line_from(line ? line : ""));
    q->total++;
}

/* The token spent on the failed attempt is not given back: a full send
 * buffer means the bot is sending too fast, so waiting one more token is
 * right. The line keeps no kind: it is never dropped. */
void outq_unpop(struct outq *q, const char *line)
{
    fifo_push_front(&q->retry, outq_line_from(line ? line : ""));
    q->total++;
}

/* ------------------------------------------------------------ taking */

/* Takes the next line off the queues, in the order of the file comment. */
/* The oldest chatter line of any target, or NULL. */
static struct oline *chatter_take(struct outq *q)
{
    struct chatter *best = NULL;

    for (int i = 0; i < q->nchat; i++)
        if (q->chat[i].lines.head && (!best || q->chat[i].lines.head->seq < best->lines.head->seq))
            best = &q->chat[i];
    if (!best)
        return NULL;
    struct oline *l = best->lines.head;
    fifo_unlink(&best->lines, l);
    if (l->note)
        best->skipped = 0;
    else
        best->count--;
    chatter_forget_if_empty(q, best);
    return l;
}

static int chatter_waiting(const struct outq *q)
{
    for (int i = 0; i < q->nchat; i++)
        if (q->chat[i].lines.head)
            return 1;
    return 0;
}

/* The target of a queued "PRIVMSG target :text" line into buf. */
static void line_target(const struct oline *l, char *buf, size_t len)
{
    const char *t = strchr(l->text, ' ');
    size_t n = t ? strcspn(t + 1, " ") : 0;

    if (n >= len)
        n = len - 1;
    memcpy(buf, t ? t + 1 : "", n);
    buf[n] = '\0';
}

/* Takes the reply to send from `f`: its head, unless the head's target has
 * just had OUTQ_TARGET_RUN replies in a row and another target waits; then
 * the first line of another target (each target keeps its own order). A
 * long answer to one player (a report) never holds up everybody else. */
static struct oline *reply_take(struct outq *q, struct fifo *f)
{
    struct oline *l = f->head;
    char target[64];

    line_target(l, target, sizeof(target));
    if (q->target_run >= OUTQ_TARGET_RUN && strcmp(target, q->last_target) == 0) {
        for (struct oline *o = l->next; o; o = o->next) {
            char other[64];
            line_target(o, other, sizeof(other));
            if (strcmp(other, q->last_target) != 0) {
                l = o;
                memcpy(target, other, sizeof(target));
                break;
            }
        }
    }
    fifo_unlink(f, l);
    if (strcmp(target, q->last_target) == 0) {
        q->target_run++;
    } else {
        memcpy(q->last_target, target, sizeof(q->last_target));
        q->target_run = 1;
    }
    return l;
}

/* The next line: put-back lines, protocol, replies (private first), then
 * chatter; but while chatter waits, at most OUTQ_REPLY_RUN replies go
 * before one chatter line, so a stream of replies never starves a bout's
 * commentary. */
static struct oline *outq_take(struct outq *q)
{
    struct fifo *first[] = {&q->retry, &q->protocol};
    struct fifo *replies[] = {&q->reply_private, &q->reply_channel};
    struct oline *l;

    for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
        if ((l = first[i]->head)) {
            fifo_unlink(first[i], l);
            return l;
        }
    }
    int waiting = chatter_waiting(q);
    if (!(waiting && q->reply_run >= OUTQ_REPLY_RUN)) {
        for (size_t i = 0; i < sizeof(replies) / sizeof(replies[0]); i++) {
            if (replies[i]->head) {
                q->reply_run = waiting ? q->reply_run + 1 : 0;
                return reply_take(q, replies[i]);
            }
        }
    }
    q->reply_run = 0;
    return chatter_take(q);
}

int outq_pop(struct outq *q, double now, char *line)
{
    if (q->total == 0)
        return 0;
    double tokens = outq_tokens(q, now);
    if (tokens < 1 - OUTQ_EPSILON)
        return 0;
    struct oline *l = outq_take(q);
    if (!l)
        return 0;
    q->tokens = tokens - 1 < 0 ? 0 : tokens - 1;
    if (!q->started || now > q->last)
        q->last = now;
    q->started = 1;
    q->total--;
    snprintf(line, OUTQ_LINE_MAX, "%s", l->text);
    free(l);
    return 1;
}

double outq_wait(const struct outq *q, double now)
{
    if (q->total == 0)
        return -1;
    double tokens = outq_tokens(q, now);
    if (tokens >= 1 - OUTQ_EPSILON)
        return 0;
    return (1 - tokens) / q->rate;
}

int outq_len(const struct outq *q)
{
    return q->total;
}

/* Also refills the bucket: a new connection starts with a full burst. */
void outq_clear(struct outq *q)
{
    fifo_free(&q->retry);
    fifo_free(&q->protocol);
    fifo_free(&q->reply_private);
    fifo_free(&q->reply_channel);
    for (int i = 0; i < q->nchat; i++) {
        fifo_free(&q->chat[i].lines);
        free(q->chat[i].target);
    }
    q->nchat = 0;
    q->total = 0;
    q->tokens = q->burst;
    q->started = 0;
}
