#!/bin/sh
# lint.sh - one layout (clang-format), the layering rules, and no finding
# from cppcheck (the C) or shellcheck (every shell script); no function too
# long or too complex (scripts/complexity.sh).
#
# engine/ is pure: no stdio, no clock, no SQLite, no IRC and no rand().
# Only db/ may include sqlite3.h or libpq-fe.h; only bot/ may include libircclient.h.
# The layers, dependencies pointing down only: engine/ and util/ (1, apart:
# the rules never allocate, so engine/ never includes util/), parse/ (2),
# db/ (2), game/ (3), and the front doors bot/, sim/ and web/ (4). A file may
# include a project header only from its own folder or a lower layer (so
# nothing below game/ includes a game/ or bot/ header, and game/ no bot/
# header), front doors never include each other's headers, and a folder's
# *_internal.h stays in its folder.
set -u
cd "$(dirname "$0")/.." || exit 1
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
    if grep -qE '#[[:space:]]*include[[:space:]]*[<"]libpq-fe\.h[>"]' "$f"; then
        echo "lint: $f includes libpq-fe.h; only db/ may"
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
    while read -r h; do
        [ -n "$h" ] || continue
        home=
        for d in engine util parse db game bot sim web; do
            if [ -f "$d/$h" ]; then
                home=$d/$h
                break
            fi
        done
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
    done <<EOF
$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
EOF
done
# The product's C and its tests, benchmarks and fuzzers through cppcheck, as the
# Makefile compiles them (C11, POSIX 2008, the project's include paths).
# A false positive is suppressed where it is: a comment saying why, then
# /* cppcheck-suppress ID */ alone on the line before the finding's.
if ! cppcheck -q --std=c11 -D_POSIX_C_SOURCE=200809L --enable=warning,portability \
    --inline-suppr --error-exitcode=1 --template='{file}:{line}: {severity}: {message} [{id}]' \
    -Iengine -Iutil -Iparse -Idb -Igame -Ibot -Iweb -Itests \
    engine util parse db game bot sim web tests bench fuzz >/tmp/ringside-lint.$$ 2>&1; then
    head -60 /tmp/ringside-lint.$$
    echo "lint: cppcheck has findings (above)"
    status=1
fi
rm -f /tmp/ringside-lint.$$

# Every shell script, the Debian maintainer scripts and CI's, through shellcheck.
scripts=
for f in scripts/*.sh tests/*.sh tests/e2e/*.sh bench/*.sh .ci/run \
    debian/preinst debian/postinst debian/prerm debian/postrm; do
    [ -f "$f" ] && scripts="$scripts $f"
done
# shellcheck disable=SC2086
if ! shellcheck -f gcc $scripts; then
    echo "lint: shellcheck has findings (above)"
    status=1
fi

# No product function over 80 lines or complexity 25 (scripts/complexity.sh).
sh scripts/complexity.sh >/tmp/ringside-lint.$$ 2>&1 || {
    cat /tmp/ringside-lint.$$
    status=1
}
rm -f /tmp/ringside-lint.$$

[ $status -eq 0 ] && echo "lint: ok"
exit $status
