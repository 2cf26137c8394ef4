#!/bin/sh
# lint.sh - one layout (clang-format) and the layering rules.
#
# engine/ is pure: no stdio, no clock, no SQLite, no IRC and no rand().
# Only db/ may include sqlite3.h; only bot/ may include libircclient.h.
set -u
cd "$(dirname "$0")/.."
status=0
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find engine parse sim db bot tests bench fuzz -name '*.[ch]' 2>/dev/null)

# shellcheck disable=SC2086
if ! clang-format --dry-run --Werror $files 2>/tmp/ringside-lint.$$; then
    head -40 /tmp/ringside-lint.$$
    echo "lint: formatting differs from .clang-format (fix: clang-format -i FILE)"
    status=1
fi
rm -f /tmp/ringside-lint.$$

bad=$(grep -nE '#[[:space:]]*include[[:space:]]*[<"](stdio\.h|time\.h|sys/time\.h|sqlite3\.h|libircclient\.h|libirc_[a-z_]*\.h)[>"]' engine/*.[ch] 2>/dev/null)
if [ -n "$bad" ]; then
    echo "$bad"
    echo "lint: engine/ must not include stdio, time, sqlite or libircclient headers"
    status=1
fi
bad=$(grep -nE '(^|[^_a-zA-Z0-9])s?rand(_r)?[[:space:]]*\(' engine/*.[ch] 2>/dev/null)
if [ -n "$bad" ]; then
    echo "$bad"
    echo "lint: engine/ must draw from struct rng, never rand()"
    status=1
fi
for f in $files; do
    case "$f" in db/*) continue ;; esac
    if grep -qE '#[[:space:]]*include[[:space:]]*[<"]sqlite3\.h[>"]' "$f"; then
        echo "lint: $f includes sqlite3.h; only db/ may"
        status=1
    fi
done
for f in $files; do
    case "$f" in bot/*) continue ;; esac
    if grep -qE '#[[:space:]]*include[[:space:]]*[<"]libircclient\.h[>"]' "$f"; then
        echo "lint: $f includes libircclient.h; only bot/ may"
        status=1
    fi
done
[ $status -eq 0 ] && echo "lint: ok"
exit $status
