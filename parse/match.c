/*
 * match.c - the regular expressions one-line orders are read with: PCRE2
 * patterns compiled once, each match copied into a plain `struct match` so
 * the grammars never handle PCRE2's types or memory.
 *
 * Patterns are compiled anchored and caseless. Whitespace in them (\s) is
 * PCRE2's without UCP, that is what isspace() calls whitespace in the C
 * locale. A pattern's compiled code is kept in its `struct match_pattern`
 * for the life of the process (not thread-safe on first use); a match
 * allocates its match data and frees it before returning.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "parse_internal.h"
#include "util.h"

/* The compiled code of p, compiled on first use; aborts on a pattern that
 * does not compile or has too many groups (programming errors) and on out
 * of memory. */
static pcre2_code *pattern_code(struct match_pattern *p)
{
    if (!p->code) {
        int code;
        PCRE2_SIZE at;
        uint32_t groups;
        pcre2_code *c = pcre2_compile((PCRE2_SPTR)p->source, PCRE2_ZERO_TERMINATED,
                                      PCRE2_ANCHORED | PCRE2_CASELESS, &code, &at, NULL);

        /* The patterns are the program's own: one that does not compile
         * is a programming error, caught by the first test that uses it. */
        if (!c || pcre2_pattern_info(c, PCRE2_INFO_CAPTURECOUNT, &groups) != 0 ||
            groups >= MATCH_GROUPS_MAX)
            abort();
        p->code = c;
    }
    return p->code;
}

int match_run(struct match_pattern *p, const char *text, struct match *m)
{
    pcre2_code *code = pattern_code(p);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    int rc;

    if (!md)
        xoom();
    rc = pcre2_match(code, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);
    if (rc > 0) {
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

        m->text = text;
        m->count = rc;
        m->end = ov[1];
        for (int i = 0; i < 2 * rc; i++)
            m->ov[i] = ov[i];
    }
    pcre2_match_data_free(md);
    return rc > 0 ? 0 : -1;
}

int match_set(const struct match *m, int i)
{
    return i < m->count && m->ov[2 * i] != PCRE2_UNSET;
}

size_t match_start(const struct match *m, int i)
{
    return m->ov[2 * i];
}

size_t match_length(const struct match *m, int i)
{
    return m->ov[2 * i + 1] - m->ov[2 * i];
}

int match_number(const struct match *m, int i, int cap)
{
    const char *s = m->text + match_start(m, i);
    size_t n = match_length(m, i);
    int v = 0;

    for (size_t k = 0; k < n; k++) {
        v = v * 10 + (s[k] - '0');
        if (v > cap)
            return cap + 1;
    }
    return v;
}
