#!/bin/sh
# lint.sh - one layout (clang-format) and the layering rules.
#
# engine/ is pure: no stdio, no clock, no SQLite, no IRC and no rand().
# Only db/ may include sqlite3.h; only bot/ may include libircclient.h.
# The layers, dependencies pointing down only: engine/ and util/ (1, apart:
# the rules never allocate, so engine/ never includes util/), parse/ (2),
# db/ (2), game/ (3), and the front doors bot/, sim/ and web/ (4). A file may
# include a project header only from its own folder or a lower layer (so
# nothing below game/ includes a game/ or bot/ header, and game/ no bot/
# header), front doors never include each other's headers, and a folder's
# *_internal.h stays in its folder.
set -u
cd "$(dirname "$0")/.."
status=0
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find engine util parse sim db bot web tests bench fuzz -name '*.[ch]' 2>/dev/null)

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
# layer FOLDER: its number (0: not a layer of the product).
layer() {
    case "$1" in
    engine | util) echo 1 ;;
    parse | db) echo 2 ;;
    game) echo 3 ;;
    bot | sim | web) echo 4 ;;
    *) echo 0 ;;
    esac
}
for f in $files; do
    dir=${f%%/*}
    mine=$(layer "$dir")
    [ "$mine" -gt 0 ] || continue
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        home=$(ls -d engine/"$h" util/"$h" parse/"$h" db/"$h" game/"$h" bot/"$h" sim/"$h" web/"$h" 2>/dev/null | head -1)
        [ -n "$home" ] || continue
        hdir=${home%%/*}
        theirs=$(layer "$hdir")
        [ "$hdir" = "$dir" ] && continue
        if [ "$theirs" -ge "$mine" ]; then
            echo "lint: $f includes $home: $dir/ (layer $mine) may include only lower layers"
            status=1
        fi
        case "$h" in *_internal.h)
            echo "lint: $f includes $home: a folder's internal header stays in its folder"
            status=1 ;;
        esac
    done
done
[ $status -eq 0 ] && echo "lint: ok"
exit $status
