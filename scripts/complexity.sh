#!/bin/sh
# complexity.sh - no product function over MAX_LINES lines or a traditional
# cyclomatic complexity over MAX_COMPLEXITY (pmccabe, from Debian).
#
# Usage: sh scripts/complexity.sh        (make complexity)
#
# Looks at the product's C (engine util parse db game bot sim web; not the
# tests, benchmarks or fuzzers) and lists every function over a limit, the
# longest first, as `FILE:LINE: NAME: N lines, complexity N`; exits 1 when
# there is one, 0 (saying so) when there is none. Tables of constants are
# data, not functions: pmccabe does not list them. The limits are the
# house style's: a long body becomes a list of named steps.
set -u
cd "$(dirname "$0")/.." || exit 1
MAX_LINES=80
MAX_COMPLEXITY=25

command -v pmccabe >/dev/null 2>&1 || {
    echo "complexity: pmccabe is missing (sh scripts/deps.sh pmccabe)"
    exit 2
}
files=
for f in engine/*.[ch] util/*.[ch] parse/*.[ch] db/*.[ch] game/*.[ch] bot/*.[ch] sim/*.[ch] \
    web/*.[ch]; do
    [ -f "$f" ] && files="$files $f"
done
# pmccabe's columns: modified complexity, traditional complexity,
# statements, first line, lines, FILE(LINE): NAME. A "function" without a
# statement is a prototype pmccabe misread (one followed by an attribute
# macro, as GAME_PRINTF(4, 5); in a header), never a long body.
# shellcheck disable=SC2086
over=$(pmccabe $files | awk -v l="$MAX_LINES" -v c="$MAX_COMPLEXITY" '
    ($5 > l && $3 > 0) || $2 > c {
        where = $6; sub(/\(/, ":", where); sub(/\):$/, ":", where)
        name = $7; for (i = 8; i <= NF; i++) name = name " " $i
        printf "%d\t%s %s: %d lines, complexity %d\n", $5, where, name, $5, $2
    }' | sort -rn | cut -f2-)
if [ -n "$over" ]; then
    echo "$over"
    echo "complexity: $(echo "$over" | wc -l) functions over $MAX_LINES lines or" \
        "complexity $MAX_COMPLEXITY (split them into named steps)"
    exit 1
fi
echo "complexity: ok (no function over $MAX_LINES lines or complexity $MAX_COMPLEXITY)"
exit 0
