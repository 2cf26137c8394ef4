/*
 * util.h - what every layer above engine/ shares and nothing of the game:
 * the allocation wrappers and `struct str`, the one string type that text
 * is built with (Redis's sds, in C11 and with no hidden header).
 *
 * The out-of-memory policy, the one of the whole program: an allocation
 * that fails is not an error Ringside can recover from. x*() report it
 * once on stderr ("ringside: out of memory") and abort(), so no caller
 * ever sees NULL and no caller checks. (SQLite's own allocation failures
 * are SQLite errors, which db/ reports like any other.)
 *
 * A `struct str` is always a valid C string: p is never NULL and p[len]
 * is NUL once it has been started. It starts one of two ways:
 * - str_init(): growable, on the heap; it grows as text is appended and is
 *   given back with str_free() (or handed over with str_take());
 * - str_init_fixed(buf, cap): over a caller's buffer of cap (> 0) bytes,
 *   never allocating: text past cap - 1 bytes is cut at a character
 *   boundary, and `need` says how long the whole text would have been
 *   (snprintf's contract), so a caller can tell it was cut. This is for
 *   the code that must not allocate (the commentary, fought millions of
 *   times a second by the simulator) and for fixed records.
 * No caller computes offsets into the text: every append goes through
 * str_*(). engine/ does not use this file: the rules never allocate.
 */
#ifndef RINGSIDE_UTIL_H
#define RINGSIDE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define UTIL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define UTIL_PRINTF(f, a)
#endif

/* ---------------------------------------------------------- allocation */

/* malloc, realloc and strdup that never return NULL (see the policy
 * above). xmalloc(0) and xrealloc(p, 0) return a valid, freeable pointer;
 * xrealloc keeps the contents like realloc(); xcalloc zeroes. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/* A zeroed block of `size` bytes in pages of its own, for a large and
 * mostly empty structure that lives as long as the program: the system
 * gives it memory only for the pages that are written, where xcalloc
 * (from the heap) writes every byte. Aborts like xmalloc when there is no
 * memory; xfree_pages(p, size) with the same size gives it back (NULL is
 * ignored). */
void *xcalloc_pages(size_t size);
void xfree_pages(void *p, size_t size);
/* Gives the heap's free pages back to the system (glibc's malloc_trim;
 * nothing where the C library has none): after a phase that allocated
 * much and freed it, so that a long-running program does not keep them. */
void xtrim(void);
char *xstrdup(const char *s);
/* Reports running out of memory and aborts: for the rare caller whose
 * allocator is not one of the above (a library's). */
void xoom(void) __attribute__((noreturn));

/* -------------------------------------------------------------- strings */

struct str {
    char *p;     /* the text, NUL-terminated */
    size_t len;  /* its bytes, without the NUL */
    size_t cap;  /* bytes at p */
    size_t need; /* bytes the whole text needs: len, unless a fixed str cut it */
    int fixed;   /* p is the caller's buffer: never grown nor freed */
};

/* Starts an empty growable string (no allocation until text comes). */
void str_init(struct str *s);
/* Starts an empty string over buf[cap] (cap > 0), never allocating. */
void str_init_fixed(struct str *s, char *buf, size_t cap);
/* Appends printf-style. */
void str_add(struct str *s, const char *fmt, ...) UTIL_PRINTF(2, 3);
void str_vadd(struct str *s, const char *fmt, va_list ap) UTIL_PRINTF(2, 0);
/* Appends n bytes of text (n may be 0), or a C string. str_raw's common
 * case (not cut, room enough) is written here, so that it is inlined: a
 * bout page makes a few thousand calls; str_raw_more does the rest. */
void str_raw_more(struct str *s, const char *text, size_t n);
static inline void str_raw(struct str *s, const char *text, size_t n)
{
    if (n && s->need == s->len && s->len + n < s->cap) { /* n: never a write into str.c's `empty` */
        memcpy(s->p + s->len, text, n);
        s->len += n;
        s->need = s->len;
        s->p[s->len] = '\0';
        return;
    }
    str_raw_more(s, text, n);
}
/* Inline too: a literal's length is then known where it is written. */
static inline void str_cat(struct str *s, const char *text)
{
    str_raw(s, text, strlen(text));
}
/* Appends one byte. */
void str_ch(struct str *s, char c);
/* Makes room for n more bytes at once (a growable string's text that is
 * known to be long: no growing step by step); a fixed string: nothing. */
void str_reserve(struct str *s, size_t n);
/* Appends `text` `n` times joined by `sep`-free copies: for rules and
 * padding (n <= 0: nothing). */
void str_repeat(struct str *s, const char *text, int n);
/* Cuts the text back to its first len bytes (len <= s->len). */
void str_cut(struct str *s, size_t len);
/* Empties the text, keeping its room. */
void str_clear(struct str *s);
/* The text was cut (a fixed string that ran out of room). */
int str_cut_short(const struct str *s);
/* Hands a growable string's text over (the caller frees it; never NULL,
 * "" when empty) and leaves s empty and started. Its length in *len when
 * len is not NULL. Not for a fixed string. */
char *str_take(struct str *s, size_t *len);
/* Frees a growable string's text (a fixed string's buffer is the
 * caller's) and leaves s empty and started. */
void str_free(struct str *s);

/* ----------------------------------------------------------- durations */

/* A duration in seconds from text: one or more <number><unit> parts, unit
 * d, h, m or s in either case, a bare number being seconds ("90", "90s",
 * "1h30m", "1d"); "" is 0. 0 with *out set, or -1 (nothing else, a part
 * without digits, or more than 366 days). The configs of the bot and of
 * the web server read their durations with it, alike. */
int text_duration(const char *s, long *out);

#endif
