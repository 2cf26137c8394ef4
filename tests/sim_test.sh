#!/bin/sh
# sim_test.sh - program tests of ringside-sim (run by `make check`).
#
# Usage: sh tests/sim_test.sh PATH_TO_SIM
#        SIM_TEST_UPDATE=1 sh tests/sim_test.sh PATH_TO_SIM   (rewrite goldens)
#
# Runs the simulator as a user would: the seed 004 example to the character,
# argument errors (one line on stderr, exit 2), determinism and replay of
# --bouts runs, the statistics, the golden transcripts in tests/golden
# (NAME.args holds one argument per line, NAME.out the expected stdout), and
# tests/json_check.py, an independent reading of the rules, over seeded
# bouts when python3 is there. Prints one line per failing case and, last,
# "N passed, N failed"; exits 1 if any case failed.
set -u

SIM=${1:?usage: sh tests/sim_test.sh PATH_TO_SIM}
case $SIM in /*) ;; *) SIM=$(pwd)/$SIM ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/golden
TMP=$(mktemp -d "${TMPDIR:-/tmp}/sim_test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# run ARGS...: runs the simulator; stdout in $TMP/out, stderr in $TMP/err,
# exit status in $rc.
run() {
    "$SIM" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# first_line FILE: the first line of FILE, for messages.
first_line() { sed -n '1p' "$1"; }

A='Rocky str=14 spd=12 agl=11 tgh=12 hgt=11'
B='Apollo str=13 spd=14 agl=12 tgh=11 hgt=12'
OA='5/5/10 (ring),4H/8!/8 (ins),6B/7/7 (cou)'
OB='6/7/7 (feint),3/5/12 (clinch),8/8/4 (allout)'

# ------------------------------------------------------------ basics

run --version
if [ $rc -eq 0 ] && [ "$(cat "$TMP/out")" = "ringside-sim 0.1.0" ] && [ ! -s "$TMP/err" ]; then
    pass
else fail "--version: exit $rc, stdout '$(first_line "$TMP/out")'"; fi

run --help
if [ $rc -eq 0 ] && grep -q '^usage: ringside-sim' "$TMP/out" && grep -q -- '--orders-a' "$TMP/out" &&
    [ ! -s "$TMP/err" ]; then
    pass
else fail "--help: exit $rc, no usage on stdout"; fi

run --rules sugarray --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21' \
    --orders-a '2/3,3/0,2/2,0/5,3/1' --orders-b '6/0,3/3,3/4,4/2,3/3'
cat >"$TMP/want" <<'EOF'
Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW
Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)
EOF
if [ $rc -eq 0 ] && cmp -s "$TMP/out" "$TMP/want"; then
    pass
else fail "seed 004 example: exit $rc, got '$(first_line "$TMP/out")'"; fi

# ------------------------------------------------------------ errors

# error NAME EXPECTED ARGS...: the simulator must exit 2, print nothing on
# stdout and exactly one line "ringside-sim: ..." containing EXPECTED on
# stderr.
error() {
    name=$1 want=$2
    shift 2
    run "$@"
    lines=$(wc -l <"$TMP/err" | tr -d ' ')
    if [ $rc -ne 2 ]; then
        fail "$name: exit $rc, expected 2"
    elif [ -s "$TMP/out" ]; then
        fail "$name: printed on stdout"
    elif [ "$lines" != 1 ] || ! grep -q '^ringside-sim: ' "$TMP/err"; then
        fail "$name: stderr is not one 'ringside-sim: ' line: '$(first_line "$TMP/err")'"
    elif ! grep -qF -- "$want" "$TMP/err"; then
        fail "$name: stderr '$(first_line "$TMP/err")' lacks '$want'"
    else
        pass
    fi
}

error "unknown option" 'unknown option "--frobnicate"' --frobnicate --a "$A" --b "$B"
error "single dash" 'unexpected argument "-a"' -a "$A" --b "$B"
error "stray argument" 'unexpected argument "extra"' --a "$A" --b "$B" extra
error "missing value" '--seed needs a value' --a "$A" --b "$B" --seed
error "missing value of --a" '--a needs a value' --a
error "flag with value" '--json takes no value' --json=yes --a "$A" --b "$B"
error "missing --a" '--a is missing' --b "$B"
error "missing --b" '--b is missing' --a "$A"
error "empty --a" '--a is empty' --a '   ' --b "$B"
error "bad name" 'the name "Ro!cky" is not valid' --a 'Ro!cky str=14 spd=12 agl=11 tgh=12 hgt=11' --b "$B"
error "long name" 'is not valid' --a 'Abcdefghijklmnopqrstu str=14 spd=12 agl=11 tgh=12 hgt=11' --b "$B"
error "sheet out of range" '--a "Rocky str=30' --a 'Rocky str=30 spd=12 agl=11 tgh=12 hgt=11' --b "$B"
error "sheet incomplete" '--b "Apollo str=13"' --a "$A" --b 'Apollo str=13'
error "sugarray sheet in boxing" '--b "Murphy skill=12 end=21"' --a "$A" --b 'Murphy skill=12 end=21'
error "boxing sheet in sugarray" '--a "Rocky str=14' --rules sugarray --a "$A" --b 'Murphy skill=12 end=21'
error "seed not a number" '--seed "abc"' --seed abc --a "$A" --b "$B"
error "seed negative" '--seed "-1"' --seed -1 --a "$A" --b "$B"
error "seed empty" '--seed ""' --seed '' --a "$A" --b "$B"
error "seed fraction" '--seed "1.5"' --seed 1.5 --a "$A" --b "$B"
error "seed overflow" '--seed "18446744073709551616"' --seed 18446744073709551616 --a "$A" --b "$B"
error "bouts zero" '--bouts "0"' --bouts 0 --a "$A" --b "$B"
error "bouts too many" '--bouts "10000001"' --bouts 10000001 --a "$A" --b "$B"
error "bouts junk" '--bouts "5x"' --bouts 5x --a "$A" --b "$B"
error "bad rules" '--rules "chess" is not a ruleset' --rules chess --a "$A" --b "$B"
error "rounds too few" '--rounds "2" is out of range for boxing' --rounds 2 --a "$A" --b "$B"
error "rounds too many" '--rounds "16" is out of range for boxing' --rounds 16 --a "$A" --b "$B"
error "sugarray rounds" '--rounds "6" is out of range for sugarray' --rules sugarray --rounds 6 \
    --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21'
error "rounds negative" '--rounds "-3"' --rounds -3 --a "$A" --b "$B"
error "bad order" 'ringside-sim: --orders-a, round 2 "8/8/8": column 1: AGG+POW+DEF = 24, the most is 20' \
    --a "$A" --b "$B" --orders-a '5/5/10,8/8/8'
error "bad order b" '--orders-b, round 3 "4/8/8 xyz": column ' \
    --a "$A" --b "$B" --orders-b '5/5/10, 4/4/12 (clinch), 4/8/8 xyz'
error "zero in order" '--orders-a, round 1 "0/10/10"' --a "$A" --b "$B" --orders-a '0/10/10'
error "unknown style" '"5/5/10 (foo)"' --a "$A" --b "$B" --orders-a '5/5/10 (foo)'
error "empty order" '--orders-a, round 2' --a "$A" --b "$B" --orders-a '5/5/10,,4/4/4'
error "empty list" '--orders-b, round 1' --a "$A" --b "$B" --orders-b ''
error "sugarray order" '--orders-b, round 2 "3/100"' --rules sugarray \
    --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21' --orders-b '3/3,3/100'
error "boxing order in sugarray" '--orders-a, round 1' --rules sugarray \
    --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21' --orders-a '5/5/10'
error "control characters" 'unknown option' "--x$(printf '\n')y" --a "$A" --b "$B"

# Odd arguments: whatever they are, the simulator answers 0 or 2, never
# crashes, and never takes more than one line to complain.
long=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "x"; }')
many=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "%s5/5/10", (i ? "," : ""); }')
odd=0
for args in "--" "-" "--=" "--a=" "--$long" "--a|$long" "--a|Rocky $long" "--orders-a|$many" \
    "--orders-a|," "--orders-a| , " "--orders-a|5/5/10 (" "--orders-a|99999999999999999999/1/1" \
    "--rounds|0" "--seed|0" "--seed|18446744073709551615" "--bouts|1" "--rules|" \
    "--rules|sugarray|--orders-a|$many" "--a|Rocky str=14 str=14" "--a|Rocky	str=14"; do
    old_ifs=$IFS
    IFS='|'
    # shellcheck disable=SC2086 # split on | on purpose
    set -- $args
    IFS=$old_ifs
    case "$*" in *sugarray*) sa='Miller skill=10 end=26' sb='Murphy skill=12 end=21' ;;
    *) sa=$A sb=$B ;; esac
    run --a "$sa" --b "$sb" "$@"
    lines=$(wc -l <"$TMP/err" | tr -d ' ')
    if { [ $rc -ne 0 ] && [ $rc -ne 2 ]; } || [ "$lines" -gt 1 ]; then
        fail "odd arguments '$(printf '%.40s' "$args")': exit $rc, $lines lines on stderr"
        odd=1
    fi
done
[ $odd -eq 0 ] && pass

# ------------------------------------------------------------ determinism

run --seed 99 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
cp "$TMP/out" "$TMP/first"
run --seed 99 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/first"; then
    pass
else fail "same seed, different text (or exit $rc)"; fi

run --seed 98 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ -s "$TMP/out" ] && ! cmp -s "$TMP/out" "$TMP/first"; then
    pass
else fail "seeds 98 and 99 gave the same bout"; fi

run --seed=99 --a="$A" --b="$B" --orders-a="$OA" --orders-b="$OB"
if [ $rc -eq 0 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/first"; then
    pass
else fail "--opt=value differs from --opt value"; fi

run --bouts 1 --seed 99 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ -s "$TMP/out" ] && cmp -s "$TMP/out" "$TMP/first"; then
    pass
else fail "--bouts 1 does not print the bout's report"; fi

run --json --bouts 20 --seed 40 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
cp "$TMP/out" "$TMP/bouts"
run --json --bouts 20 --seed 40 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ "$(wc -l <"$TMP/out" | tr -d ' ')" = 21 ] && cmp -s "$TMP/out" "$TMP/bouts" &&
    tail -n 1 "$TMP/out" | grep -q '^{"stats":{"bouts":20,'; then
    pass
else fail "--bouts 20 --json: not 20 bouts and a stats line, or not byte-identical"; fi

run --json --seed 47 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ "$(sed -n '8p' "$TMP/bouts")" = "$(cat "$TMP/out")" ] &&
    grep -q '"seed":47,' "$TMP/out"; then
    pass
else fail "bout 7 of --seed 40 --bouts 20 is not replayed by --seed 47"; fi

run --json --bouts 2 --seed 18446744073709551615 --a "$A" --b "$B"
if [ $rc -eq 0 ] && sed -n '2p' "$TMP/out" | grep -q '"seed":0,'; then
    pass
else fail "--seed 2^64-1 --bouts 2: exit $rc or the second bout is not seed 0"; fi

# ------------------------------------------------------------ shapes

run --json --rounds 3 --seed 5 --a 'Mendoza str=12 spd=12 agl=12 tgh=12 hgt=12' \
    --b 'Humphries str=12 spd=13 agl=11 tgh=13 hgt=11'
if [ $rc -eq 0 ] && grep -q '"rounds_scheduled":3,' "$TMP/out" &&
    grep -q '"order":"5/5/10"' "$TMP/out" && ! grep -q '"round":4,' "$TMP/out"; then
    pass
else fail "--rounds 3 with default orders: $(head -c 120 "$TMP/out")"; fi

run --rules sugarray --json --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21'
if [ $rc -eq 0 ] && grep -q '"order":"0/0"' "$TMP/out" && grep -q '"method":"draw"' "$TMP/out"; then
    pass
else fail "sugarray default orders 0/0 should tie: $(head -c 120 "$TMP/out")"; fi

run --bouts 300 --seed 3 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
if [ $rc -eq 0 ] && [ "$(wc -l <"$TMP/out" | tr -d ' ')" = 4 ] &&
    sed -n '1p' "$TMP/out" | grep -qx 'bouts 300' &&
    sed -n '2p' "$TMP/out" | grep -qx 'wins Rocky [0-9.]*% Apollo [0-9.]*% draws [0-9.]*%' &&
    sed -n '3p' "$TMP/out" |
    grep -qx 'methods ko [0-9.]*% tko [0-9.]*% dq [0-9.]*% decision [0-9.]*% points [0-9.]*% draw [0-9.]*%' &&
    sed -n '4p' "$TMP/out" | grep -qx 'bouts_per_sec [0-9.]*' &&
    awk 'NR == 2 { w = $3 + $5 + $7 } NR == 3 { m = $3 + $5 + $7 + $9 + $11 + $13 }
         END { exit !(w > 99.9 && w < 100.1 && m > 99.9 && m < 100.1) }' "$TMP/out"; then
    pass
else fail "--bouts 300 statistics: $(tr '\n' '|' <"$TMP/out")"; fi

# The JSON statistics agree with the text ones and with the bouts listed.
run --json --bouts 300 --seed 3 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
kos=$(grep -c '"method":"KO"' "$TMP/out")
ko_json=$(tail -n 1 "$TMP/out" | sed -n 's/.*"ko":\([0-9.]*\).*/\1/p')
ko_text=$("$SIM" --bouts 300 --seed 3 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB" 2>/dev/null |
    sed -n 's/^methods ko \([0-9.]*\)%.*/\1/p')
if [ $rc -eq 0 ] && [ -n "$ko_json" ] && [ -n "$ko_text" ] &&
    awk -v n="$kos" -v j="$ko_json" -v t="$ko_text" 'BEGIN {
        p = 100 * n / 300; exit !(j - p < 0.001 && p - j < 0.001 && t - p < 0.006 && p - t < 0.006) }'; then
    pass
else fail "stats: $kos KOs in 300 bouts, JSON says $ko_json%, text says $ko_text%"; fi

if [ -w /dev/full ]; then
    "$SIM" --a "$A" --b "$B" >/dev/full 2>"$TMP/err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q '^ringside-sim: could not write' "$TMP/err"; then
        pass
    else fail "writing to /dev/full: exit $rc, '$(first_line "$TMP/err")'"; fi
fi

# ------------------------------------------------------------ goldens

for args_file in "$GOLDEN"/*.args; do
    [ -e "$args_file" ] || continue
    name=$(basename "$args_file" .args)
    set --
    while IFS= read -r line || [ -n "$line" ]; do
        set -- "$@" "$line"
    done <"$args_file"
    run "$@"
    if [ "${SIM_TEST_UPDATE:-0}" = 1 ] && [ $rc -eq 0 ]; then
        cp "$TMP/out" "$GOLDEN/$name.out"
    fi
    if [ $rc -ne 0 ]; then
        fail "golden $name: exit $rc: $(first_line "$TMP/err")"
    elif [ ! -f "$GOLDEN/$name.out" ]; then
        fail "golden $name: no $name.out (SIM_TEST_UPDATE=1 writes it)"
    elif ! cmp -s "$TMP/out" "$GOLDEN/$name.out"; then
        fail "golden $name: output differs: $(diff "$GOLDEN/$name.out" "$TMP/out" | sed -n '2p' | cut -c1-100)"
    else
        pass
    fi
done

# ------------------------------------------------------------ plans

# rounds_lines ARGS...: "a-line,b-line" of every round of a --json bout.
rounds_lines() {
    run --json "$@"
    tr '{' '\n' <"$TMP/out" | grep -o '"line":[0-9a-z]*' | sed 's/"line"://' | tr '\n' ' '
}

# rules.md 1.3: tags persist: round 1 line 1, rounds 2-5 line 2, 6+ line 3.
got=$(rounds_lines --seed 5 --rounds 8 --a "$A" --b "$B" --plan-a '1)5/5/10; 2)4/8/8; 6)4/6/10' \
    --orders-b '5/4/11')
want="1 null 2 null 2 null 2 null 2 null 3 null 3 null 3 null "
if [ "$got" = "$want" ]; then pass; else fail "plan tags: lines '$got', want '$want'"; fi

# Orders first, then the plan answers the rounds the orders do not list.
got=$(rounds_lines --seed 5 --rounds 4 --a "$A" --b "$B" --orders-a '3/3/14,4/4/12' \
    --plan-a '6/6/8' --orders-b '5/4/11')
want="null null null null 1 null 1 null "
if [ "$got" = "$want" ]; then pass; else fail "orders then plan: lines '$got', want '$want'"; fi

# A plan whose condition never holds falls back on the default (line 0).
got=$(rounds_lines --seed 5 --rounds 3 --a "$A" --b "$B" --plan-a 'if round > 50 then 8/8/4' \
    --plan-b 'if opp = strong then 4/6/10')
want="0 1 0 1 0 1 "
if [ "$got" = "$want" ]; then pass; else fail "default line 0: lines '$got', want '$want'"; fi

# The towel: a TKO by the corner in the round the condition first holds.
run --seed 9 --a "$A" --b "$B" --plan-a '5/5/10; 3) if round >= 3 then towel' --orders-b '5/4/11'
if [ $rc -eq 0 ] && grep -q 'Apollo wins by TKO in round 3' "$TMP/out" &&
    grep -q -i 'towel' "$TMP/out"; then
    pass
else fail "towel: exit $rc, '$(tail -n 1 "$TMP/out")'"; fi

# The seed 004 example fought from plans gives the same two lines.
run --rules sugarray --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21' \
    --plan-a '2/3; 2) 3/0; 3) 2/2; 4) 0/5; 5) 3/1' --plan-b '6/0; 2) 3/3; 3) 3/4; 4) 4/2; 5) 3/3'
if [ $rc -eq 0 ] && [ "$(sed -n 1p "$TMP/out")" = "Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW" ] &&
    [ "$(sed -n 2p "$TMP/out")" = "Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)" ]; then
    pass
else fail "sugarray from plans: '$(first_line "$TMP/out")'"; fi

# --explain says which line and why, every round, for each plan.
run --seed 5 --rounds 3 --a "$A" --b "$B" --explain \
    --plan-a '5/5/10; if endurance_percent < 101 then 4/6/10 (ring)' --orders-b '5/4/11'
if [ $rc -eq 0 ] && [ "$(grep -c "Rocky's plan: line 2 " "$TMP/out")" -eq 3 ] &&
    grep -q 'endurance_percent = 100, so the condition holds' "$TMP/out" &&
    ! grep -q "Apollo's plan" "$TMP/out"; then
    pass
else fail "--explain: exit $rc, $(grep -c "plan:" "$TMP/out") plan lines"; fi

# A plan from a file, and plan errors with line, column and reason.
printf '# my plan\n1) 5/5/10\n4) 4/6/10 (ring)\n' >"$TMP/plan"
got=$(rounds_lines --seed 5 --rounds 4 --a "$A" --b "$B" --plan-a "@$TMP/plan" --orders-b 5/4/11)
want="2 null 2 null 2 null 3 null "
if [ "$got" = "$want" ]; then pass; else fail "@file plan: lines '$got', want '$want'"; fi
run --a "$A" --b "$B" --plan-a '5/5/10; if foo > 1 then 5/5/10'
if [ $rc -eq 2 ] && grep -q '^ringside-sim: --plan-a: line 2, column 5: unknown word "foo"' "$TMP/err" &&
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then
    pass
else fail "plan error: exit $rc, '$(first_line "$TMP/err")'"; fi
run --a "$A" --b "$B" --plan-b '8/8/8'
if [ $rc -eq 2 ] && grep -q -- '--plan-b: line 1, column 1: AGG+POW+DEF = 24, the most is 20' "$TMP/err"; then
    pass
else fail "plan order error: exit $rc, '$(first_line "$TMP/err")'"; fi
run --a "$A" --b "$B" --plan-a "@$TMP/no-such-plan"
if [ $rc -eq 2 ] && grep -q 'cannot read' "$TMP/err"; then pass; else fail "missing plan file: exit $rc"; fi

# ------------------------------------------------------------ json_check

if command -v python3 >/dev/null 2>&1; then
    # check NAME ARGS...: json_check.py must agree with every bout.
    check() {
        name=$1
        shift
        run --json "$@"
        if [ $rc -ne 0 ]; then
            fail "json_check $name: the simulator exited $rc"
        elif ! python3 "$HERE/json_check.py" "$TMP/out" >"$TMP/check" 2>&1; then
            fail "json_check $name: $(head -n 3 "$TMP/check" | tr '\n' '|')"
        else
            pass
        fi
    }
    check "styles and targets" --bouts 150 --seed 1 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
    check "clinch DEF 12 against counter" --bouts 150 --seed 1000 \
        --a 'Mendoza str=12 spd=12 agl=12 tgh=12 hgt=12' --b 'Humphries str=12 spd=13 agl=11 tgh=13 hgt=11' \
        --orders-a '5/5/10 (ring),4/4/12 (clinch),5/6/9' --orders-b '6/6/8 (counter),5H/5/10 (outside),4B/6/10'
    check "inside, cut, feint, dirty" --bouts 150 --seed 2000 \
        --a 'Duran str=16 spd=11 agl=10 tgh=13 hgt=9' --b 'Leonard str=11 spd=16 agl=14 tgh=10 hgt=12' \
        --orders-a '5H/9!/6 (inside),6H/8/6 (cut)' --orders-b '4/6/10 (ring),5H/7/8 (feint),3/5/12 (clinch)'
    check "weak fighters, floors at 1" --bouts 100 --seed 3000 \
        --a 'Weak str=1 spd=2 agl=1 tgh=5 hgt=1' --b 'Strong str=20 spd=20 agl=20 tgh=20 hgt=25' \
        --orders-a '1B/1/18 (clinch),2/2/16 (counter)' --orders-b '10/5/5 (cut),9H/9!/2 (inside),3/3/3'
    check "both counter, both all-out" --bouts 100 --seed 4000 --rounds 15 \
        --a 'Hagler str=15 spd=12 agl=10 tgh=14 hgt=11' --b 'Hearns str=14 spd=14 agl=9 tgh=10 hgt=15' \
        --orders-a '4/6/10 (counter),3/7/10 (counter),6/7/7 (allout)' \
        --orders-b '4/6/10 (counter),4/4/12 (feint),6/7/7 (allout)'
    check "dirty fighting, disqualifications" --bouts 200 --seed 5000 \
        --a 'Dirty str=14 spd=12 agl=11 tgh=12 hgt=11' --b 'Dirtier str=13 spd=14 agl=12 tgh=11 hgt=12' \
        --orders-a '5/5!/10,6H/7!/7 (inside)' --orders-b '5/5!/10 (clinch),7/7!/6 (allout)'
    check "sugarray" --rules sugarray --bouts 20 \
        --a 'Miller skill=10 end=26' --b 'Murphy skill=12 end=21' --orders-a '2/3,3/0,9/0' --orders-b '6/0,3/3,3/4'

    # Duels: tests/duel_check.py, an independent reading of seed 003 and
    # rules.md section 4, recomputes every attack.
    # dcheck NAME ARGS...: duel_check.py must agree with every duel.
    dcheck() {
        name=$1
        shift
        run --json --rules duel "$@"
        if [ $rc -ne 0 ]; then
            fail "duel_check $name: the simulator exited $rc"
        elif ! python3 "$HERE/duel_check.py" "$TMP/out" >"$TMP/check" 2>&1; then
            fail "duel_check $name: $(head -n 3 "$TMP/check" | tr '\n' '|')"
        else
            pass
        fi
    }
    dcheck "full kit against speed" --bouts 200 --seed 1 \
        --a 'Conan str=18 dex=14 con=14 int=10 weapon=longsword head=plate torso=chainmail+leather legs=leather feet=leather shield=leather' \
        --b 'Bob str=14 dex=20 con=12 int=10 weapon=mace torso=leather shield=chainmail'
    dcheck "worn pieces break, the punisher" --bouts 200 --seed 100 \
        --a 'Tank str=23 dex=10 con=13 int=10 weapon=the_punisher head=plate torso=plate legs=plate feet=plate shield=plate:2' \
        --b 'Wisp str=7 dex=23 con=23 int=3 weapon=knife:0.3 torso=leather:1'
    dcheck "fists, layers, a halberd's feet" --bouts 200 --seed 7 \
        --a 'Brawler str=17 dex=13 con=13 int=13' \
        --b 'Axe str=17 dex=12 con=17 int=10 weapon=halberd:1.5 torso=chainmail+leather:3 legs=chainmail shield=leather:4'
    dcheck "yields and short duels" --bouts 100 --seed 300 --rounds 5 \
        --a 'Conan str=18 dex=14 con=14 int=10 weapon=scimitar head=leather torso=chainmail+leather' \
        --b 'Bob str=14 dex=20 con=12 int=10 weapon=war_hammer shield=leather' --plan-b 'if health < 70 then yield'
    run --json --rules duel --seed 4 \
        --a 'Conan str=18 dex=14 con=14 int=10 weapon=longsword head=plate torso=chainmail+leather' \
        --b 'Bob str=14 dex=20 con=12 int=10 weapon=mace torso=leather shield=chainmail'
    sed 's/"roll":\([0-9]*\),"base":/"roll":1\1,"base":/' "$TMP/out" >"$TMP/bad1"
    sed 's/"energy_cost":1\.333333/"energy_cost":1.5/' "$TMP/out" >"$TMP/bad2"
    if python3 "$HERE/duel_check.py" "$TMP/out" >/dev/null 2>&1 &&
        ! cmp -s "$TMP/out" "$TMP/bad1" && ! python3 "$HERE/duel_check.py" "$TMP/bad1" >/dev/null 2>&1 &&
        ! cmp -s "$TMP/out" "$TMP/bad2" && ! python3 "$HERE/duel_check.py" "$TMP/bad2" >/dev/null 2>&1; then
        pass
    else fail "duel_check does not reject tampered figures"; fi

    # The bot's `sim` command: the figures tests/check_simulate.c gets from
    # game/simulate.c are the simulator's for the same sheets, plans and
    # seeds (tests/sim_figures.txt); and a figure changed is caught.
    if python3 "$HERE/sim_figures.py" "$SIM" "$HERE/sim_figures.txt" >"$TMP/figures" 2>&1; then
        pass
    else fail "sim_figures: $(grep -v '^ ' "$TMP/figures" | head -n 2 | tr '\n' '|')"; fi
    sed 's/ wins 181 / wins 182 /' "$HERE/sim_figures.txt" >"$TMP/figures.txt"
    if ! cmp -s "$HERE/sim_figures.txt" "$TMP/figures.txt" &&
        ! python3 "$HERE/sim_figures.py" "$SIM" "$TMP/figures.txt" >/dev/null 2>&1; then
        pass
    else fail "sim_figures.py does not catch a changed figure"; fi

    # The checker must be able to fail: a bout with one figure changed is
    # rejected, and so is a bout whose thrown is not 8 x AGG.
    run --json --seed 4 --a "$A" --b "$B" --orders-a "$OA" --orders-b "$OB"
    sed 's/"str":11\.9000,/"str":12.9000,/' "$TMP/out" >"$TMP/bad1"
    sed 's/"thrown":40,/"thrown":41,/' "$TMP/out" >"$TMP/bad2"
    if python3 "$HERE/json_check.py" "$TMP/out" >/dev/null 2>&1 &&
        ! cmp -s "$TMP/out" "$TMP/bad1" && ! python3 "$HERE/json_check.py" "$TMP/bad1" >/dev/null 2>&1 &&
        ! cmp -s "$TMP/out" "$TMP/bad2" && ! python3 "$HERE/json_check.py" "$TMP/bad2" >/dev/null 2>&1; then
        pass
    else fail "json_check does not reject tampered figures"; fi
else
    echo "skipped: json_check (no python3)"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
