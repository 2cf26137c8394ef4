/*
 * rulesets.h - THE list of rulesets, the one place a ruleset is registered.
 *
 * Each line RULESET(name, NAME) names a ruleset whose parts live in its own
 * files, one per layer, each defining one descriptor called after it:
 *   engine/NAME.c   const struct ruleset name_ruleset    (the rules)
 *
 * Every layer builds its table from this list with an X-macro:
 *
 *     #define RULESET(name, NAME) [RULES_##NAME] = &name##_ruleset,
 *     #include "rulesets.h"
 *     #undef RULESET
 *
 * so adding a ruleset is its files and one line here. The order is the
 * order of enum rules (the values are never stored: the database keeps the
 * names).
 */
RULESET(boxing, BOXING)
RULESET(sugarray, SUGARRAY)
