#!/usr/bin/env bash
# run_test.sh - make run and make stop, in a scratch folder.
#
#   bash tests/run_test.sh BOT WEB        (from make check; needs ngircd)
#
# scripts/run.sh runs in the background, in a scratch folder of its own (its
# build/run/ and ringside.db are that folder's: the user's run folder and
# database are never touched), on free loopback ports. A client connects to
# its IRC server; Ctrl-C (SIGINT to run.sh's process group, as a terminal
# sends it) stops the bot and the web pages, not the server, and says so;
# the client is still connected. A second run.sh uses the same ngircd (same
# pid, same port) and its bot joins; scripts/stop.sh then ends the bot, the
# pages and the server, and the first run.sh's output said what Ctrl-C does.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
BOT=$(abs "${1:?usage: bash tests/run_test.sh BOT WEB}")
WEB=$(abs "${2:?usage: bash tests/run_test.sh BOT WEB}")

if ! command -v ngircd >/dev/null 2>&1; then
    echo "run_test: ngircd is missing" >&2
    exit 1
fi
tmp=$(mktemp -d /tmp/ringside-run-XXXXXX)
runpid=
cleanup() {
    # Whatever is left, by the pids this test started or read.
    [ -n "$runpid" ] && kill -TERM -- "-$runpid" 2>/dev/null
    for f in "$tmp"/build/run/*.pid; do
        [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
    done
    exec 5>&- 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
    echo "run_test: FAIL: $*" >&2
    for f in "$tmp"/run*.log "$tmp"/build/run/ngircd.log; do
        [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
    done >&2
    exit 1
}

# Two free ports, reserved (tests/e2e/ports.py) while the helper lives: it
# lives until this script ends and closes its input.
coproc PORTS { python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
from ports import free_port
print(free_port(), free_port(), flush=True)
sys.stdin.read()' "$ROOT/tests/e2e"; }
read -r PORT WEB_PORT <&"${PORTS[0]}" || fail "no free ports"

# Waits (at most $3 seconds) until file $1 has a line matching $2.
wait_for() {
    local i=0
    until grep -q -- "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt $(($3 * 10)) ] && fail "no \"$2\" in $1 after $3 s"
        sleep 0.1
    done
}

# Starts run.sh in its own process group (as a terminal's foreground job),
# output to $1.
start_run() {
    (cd "$tmp" && RUN_PORT=$PORT RUN_WEB_PORT=$WEB_PORT exec setsid bash "$ROOT/scripts/run.sh" \
        "$BOT" "$WEB" >"$1" 2>&1 </dev/null) &
    runpid=$!
}

cd "$tmp" || exit 1
start_run "$tmp/run1.log"
wait_for "$tmp/run1.log" "joined #ringside" 60
ircd=$(cat "$tmp/build/run/ngircd.pid")
[ "$(ps -p "$ircd" -o comm=)" = ngircd ] || fail "build/run/ngircd.pid ($ircd) is not ngircd"
[ "$(cat "$tmp/build/run/ngircd.port")" = "$PORT" ] || fail "ngircd.port is not $PORT"
grep -q "Ctrl-C stops the bot and the web pages; the IRC server keeps running" "$tmp/run1.log" ||
    fail "run.sh does not say what Ctrl-C does"
grep -q "make stop ends the bot, the pages and the IRC server" "$tmp/run1.log" ||
    fail "run.sh does not say what make stop does"

# A player on the server.
exec 5<>"/dev/tcp/127.0.0.1/$PORT" || fail "cannot connect to the IRC server"
printf 'NICK alice\r\nUSER alice 0 * :alice\r\n' >&5

# Ctrl-C: the bot and the pages stop, the server stays.
kill -INT -- "-$runpid"
wait "$runpid"
runpid=
wait_for "$tmp/run1.log" "The IRC server still runs (pid $ircd, port $PORT)" 10
kill -0 "$ircd" 2>/dev/null || fail "ngircd ($ircd) ended with Ctrl-C"
[ -f "$tmp/build/run/bot.pid" ] && fail "bot.pid left behind"

# A second make run: the same server; the player is still connected.
start_run "$tmp/run2.log"
wait_for "$tmp/run2.log" "still runs (pid $ircd, port $PORT): using it" 10
wait_for "$tmp/run2.log" "joined #ringside" 60
[ "$(cat "$tmp/build/run/ngircd.pid")" = "$ircd" ] || fail "a new ngircd was started"
printf 'PING :still-here\r\n' >&5
got=
for _ in $(seq 100); do
    IFS= read -r -t 1 line <&5 || continue
    case $line in *PONG*still-here*) got=1 && break ;; esac
done
[ -n "$got" ] || fail "the player's connection did not survive the bot's restart"

# make stop: the bot, the pages and the server end; run.sh with them.
out=$(cd "$tmp" && bash "$ROOT/scripts/stop.sh" "$BOT")
echo "$out" | grep -q "stop: stopped the bot" || fail "stop.sh: $out"
echo "$out" | grep -q "stop: stopped the IRC server (pid $ircd)" || fail "stop.sh: $out"
wait "$runpid"
runpid=
kill -0 "$ircd" 2>/dev/null && fail "ngircd ($ircd) still runs after stop.sh"
wait_for "$tmp/run2.log" "the IRC server is stopped too" 10
out=$(cd "$tmp" && bash "$ROOT/scripts/stop.sh" "$BOT")
[ "$out" = "stop: nothing that make run started is running" ] || fail "stop.sh again: $out"
echo "run_test: make run kept its IRC server (pid $ircd) across a restart; make stop ended it"
