#!/bin/sh
# check.sh - every figure `make bench` must print is there, once, as
# `name number unit`. Figures are never compared with targets here: the
# machines are shared and noisy; the figures are for people to read.
#
# Usage: sh bench/check.sh bench/figures.txt OUTPUT
set -u
list=${1:?usage: sh bench/check.sh FIGURES OUTPUT}
out=${2:?usage: sh bench/check.sh FIGURES OUTPUT}
status=0
while read -r name; do
    case "$name" in '' | '#'*) continue ;; esac
    n=$(awk -v n="$name" '$1 == n && NF == 3 && $2 ~ /^[0-9]+(\.[0-9]+)?$/' "$out" | wc -l)
    if [ "$n" -ne 1 ]; then
        echo "bench-check: $name: expected one line \"$name NUMBER UNIT\", found $n"
        status=1
    fi
done <"$list"
[ $status -eq 0 ] && echo "bench-check: all $(grep -vc '^#' "$list") figures present"
exit $status
