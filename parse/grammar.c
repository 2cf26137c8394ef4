/*
 * grammar.c - the table of grammars, built from engine/rulesets.h: entry
 * RULES_NAME is parse/NAME.c's NAME_grammar. Every ruleset has one (the
 * link fails otherwise), so grammar_get is NULL only for a value that is no
 * ruleset.
 */
#include "parse_internal.h"

static const struct grammar *const grammars[RULES_COUNT] = {
#define RULESET(name, NAME) [RULES_##NAME] = &name##_grammar,
#include "rulesets.h"
#undef RULESET
};

const struct grammar *grammar_get(enum rules rules)
{
    if ((int)rules < 0 || rules >= RULES_COUNT)
        return NULL;
    return grammars[rules];
}
