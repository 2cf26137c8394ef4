/*
 * rulesets.h - THE list of rulesets, the one place a ruleset is registered.
 *
 * Each line RULESET(name, NAME) names a ruleset whose parts live in its own
 * files, one per layer, each defining one descriptor called after it:
 *   engine/name.c          const struct ruleset name_ruleset   the rules, its
 *                          sheet's abilities, creation, training, the towel
 *   parse/name.c           const struct grammar name_grammar   its orders and
 *                          sheets as text, and the examples hints quote
 *   game/render_name.c     const struct words name_words       its commentary
 *   sim/report_name.c      const struct report_rules name_report  its
 *                          simulator report and JSON fields
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
RULESET(duel, DUEL)
