/*
 * fuzz_kit.c - libFuzzer harness for db/kit.c, the parser of the kit
 * column (a sheet's equipment as stored: "weapon=longsword:1000000
 * torso=leather:985000").
 *
 * The first byte picks the ruleset, the rest is the stored text. For every
 * input: db_kit_load returns 0 or -1; on 0 every slot holds nothing
 * (condition 0) or an item the ruleset names with a condition from 1 to
 * kit_cond_max; the text db_kit_store writes back fits DB_KIT_MAX, loads
 * again to the same equipment and is written the same way a second time
 * (the stored form is canonical). Any breach aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "engine.h"

/* db/'s own (db_internal.h, which stays in its folder). */
#define DB_KIT_MAX 256
void db_kit_store(const struct sheet *s, char *buf, size_t len);
int db_kit_load(const char *text, struct sheet *s);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* Every slot of s empty or holding a named item in a legal condition. */
static void check_slots(const struct ruleset *rs, const struct sheet *s)
{
    for (int k = 0; k < rs->kit_slots; k++) {
        int item, cond;
        sheet_kit_get(s, k, &item, &cond);
        if (item == 0) {
            check(cond == 0);
            continue;
        }
        check(item > 0 && rs->kit_item_name(k, item) != NULL);
        check(cond >= 1 && cond <= rs->kit_cond_max);
    }
}

static void check_same(const struct ruleset *rs, const struct sheet *a, const struct sheet *b)
{
    for (int k = 0; k < rs->kit_slots; k++) {
        int ia, ca, ib, cb;
        sheet_kit_get(a, k, &ia, &ca);
        sheet_kit_get(b, k, &ib, &cb);
        check(ia == ib && ca == cb);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum rules rules = (enum rules)(data[0] % RULES_COUNT);
    const struct ruleset *rs = ruleset_get(rules);
    char *text = malloc(size);
    struct sheet s, again;
    char stored[DB_KIT_MAX], twice[DB_KIT_MAX];

    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    memset(&s, 0, sizeof(s));
    s.rules = rules;
    if (db_kit_load(text, &s) == 0) {
        check(rs != NULL);
        check_slots(rs, &s);
        db_kit_store(&s, stored, sizeof(stored));
        check(strlen(stored) + 1 < sizeof(stored));
        memset(&again, 0, sizeof(again));
        again.rules = rules;
        check(db_kit_load(stored, &again) == 0);
        check_same(rs, &s, &again);
        db_kit_store(&again, twice, sizeof(twice));
        check(strcmp(stored, twice) == 0);
    }
    free(text);
    return 0;
}
