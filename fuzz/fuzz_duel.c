/*
 * fuzz_duel.c - libFuzzer harness for the duel's equipment parser
 * (duel_kit_parse, duel_kit_format) and its sheet with equipment.
 *
 * For every input: the first byte picks a strength (1..23) and the rest is
 * equipment text. Equipment accepted must make a legal duel sheet with that
 * strength (every item within its STR, chainmail only under leather,
 * conditions 1..DUEL_COND_FULL), change only the slots it marks, and its
 * normal form (duel_kit_format) must read back to the same equipment; a
 * refusal must leave the sheet untouched and come with a column inside the
 * text (or 0) and a non-empty reason. The same text after abilities is a
 * sheet: accepted only if legal. Any breach aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int str = 1 + data[0] % 23;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    size_t len = strlen(text);

    struct sheet s, before;
    memset(&s, 0, sizeof(s));
    s.rules = RULES_DUEL;
    s.u.duel = (struct duel_sheet){str, 10, 10, 10, {0}, {0}};
    before = s;
    int given[DUEL_SLOTS] = {0};
    struct parse_error err;
    memset(&err, 0, sizeof(err));
    if (duel_kit_parse(text, str, &s.u.duel, given, &err) == 0) {
        check(duel_sheet_check(&s.u.duel) == 0);
        for (int k = 0; k < DUEL_SLOTS; k++)
            if (!given[k])
                check(s.u.duel.item[k] == before.u.duel.item[k] &&
                      s.u.duel.cond[k] == before.u.duel.cond[k]);
        char norm[512];
        int n = duel_kit_format(&s.u.duel, norm, sizeof(norm));
        check(n >= 0 && (size_t)n < sizeof(norm) && strlen(norm) == (size_t)n);
        struct sheet again = before;
        int g2[DUEL_SLOTS] = {0};
        if (n > 0) {
            check(duel_kit_parse(norm, str, &again.u.duel, g2, &err) == 0);
            check(memcmp(&again.u.duel, &s.u.duel, sizeof(s.u.duel)) == 0);
        }
    } else {
        check(memcmp(&s, &before, sizeof(s)) == 0);
        size_t n = strnlen(err.reason, PARSE_REASON_MAX);
        check(n > 0 && n < PARSE_REASON_MAX);
        check(err.column >= 0 && (size_t)err.column <= len + 1);
    }

    /* As a whole sheet after the abilities. */
    char *sheet = malloc(len + 64);
    if (sheet) {
        snprintf(sheet, len + 64, "str=%d dex=10 con=10 int=10 %s", str, text);
        struct sheet sh;
        if (sheet_parse(RULES_DUEL, sheet, &sh, &err) == 0)
            check(ruleset_get(RULES_DUEL)->sheet_valid(&sh) == 0);
        free(sheet);
    }
    free(text);
    return 0;
}
