#!/bin/sh
# web_bench.sh - ringside-web's figures, over real HTTP on loopback:
#
#   web.standings_requests_per_sec   GET /standings/boxing/bronze (a page of
#                                    100 rows) on 4 keep-alive connections,
#                                    with 10,000 more boxers in the file;
#                                    the file does not change meanwhile, so
#                                    after the first these are the answers
#                                    the server keeps until it changes
#   web.standings_p99_ms             the 99th percentile of those requests
#   web.bout_page_ms                 the median GET /bouts/ID, each of the
#                                    file's bouts asked for once (so each
#                                    is fought again from its seed and
#                                    rendered: nothing kept), one connection
#   web.standings_uncached_requests_per_sec
#                                    the standings again, with a write to
#                                    the file before each request (one of
#                                    the 10,000 boxers wins a bout: his
#                                    record and rank change), so that no
#                                    answer kept from before may be sent:
#                                    the server finds out what changed; on
#                                    4 connections, each asking for its own
#                                    page of 100 (?page=1 to 4), so that no
#                                    request finds the answer made for
#                                    another one since the last write (until
#                                    session 37 all asked for page 1, and
#                                    about one request in ten was answered
#                                    from what was kept)
#   web.bout_page_uncached_requests_per_sec
#                                    GET /bouts/ID on 4 keep-alive
#                                    connections (as the standings), going
#                                    round the file's bouts, each round
#                                    after a write to the file (so within
#                                    a round no page was asked for before,
#                                    and none since the file changed): the
#                                    write that starts a round waits until
#                                    every request of the round before is
#                                    answered, so no page is rendered after
#                                    it and then answered again from what
#                                    was kept. (Until issue 28's session 37
#                                    this ran on one connection, one request
#                                    at a time: 1/latency, not throughput.)
#   web.bout_page_uncached_median_ms the median of the same requests made on
#                                    ONE connection, one at a time (a
#                                    second run): what one page costs from
#                                    request to last byte, less swayed than
#                                    the rate by other work on a shared
#                                    machine
#   web.bout_page_uncached_cpu_us    the server's CPU time (user and system,
#                                    from /proc) over that one-connection
#                                    run, by request: what a page costs the
#                                    server itself, the least swayed of the
#                                    three
#
# Usage: sh bench/web_bench.sh WEB WEBGEN CLIENT
# The database is made by WEBGEN (tests/web/gen.c: real bouts through
# game/); WEB_BENCH_SECONDS (default 3, or BENCH_SECONDS when set) each.
# The server runs at its default [web] threads (one worker a CPU online, at
# most 4: 2 on the project's two-core machine; until issue 28's session 37
# it had one thread whatever the machine); WEB_BENCH_THREADS=N sets N
# (1: one thread, as before) to compare.
set -eu
WEB=${1:?usage: sh bench/web_bench.sh WEB WEBGEN CLIENT}
GEN=${2:?usage: sh bench/web_bench.sh WEB WEBGEN CLIENT}
CLIENT=${3:?usage: sh bench/web_bench.sh WEB WEBGEN CLIENT}
SECS=${WEB_BENCH_SECONDS:-${BENCH_SECONDS:-3}}

dir=$(mktemp -d /tmp/ringside-webbench-XXXXXX)
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
"$GEN" "$dir/ringside.db" 10000 >"$dir/info.json"
bout=$(sed -n 's/.*"exhibition": \([0-9]*\).*/\1/p' "$dir/info.json")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '[bot]\ndatabase = %s\n[web]\nlisten = 127.0.0.1:%s\n' "$dir/ringside.db" "$port" >"$dir/web.conf"
if [ -n "${WEB_BENCH_THREADS:-}" ]; then
    printf 'threads = %s\n' "$WEB_BENCH_THREADS" >>"$dir/web.conf"
fi
"$WEB" -c "$dir/web.conf" 2>"$dir/web.log" &
pid=$!
i=0
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 100 ]; then
        cat "$dir/web.log" >&2
        echo "web_bench: ringside-web did not start" >&2
        exit 1
    fi
    sleep 0.05
done
# The client prints one line: requests a second, median ms, 99th percentile
# ms, failed requests.
out=$("$CLIENT" 127.0.0.1 "$port" /standings/boxing/bronze 4 "$SECS")
read -r rate _ p99 failed <<EOF
$out
EOF
[ "$failed" = 0 ] || { echo "web_bench: $failed standings requests failed" >&2; exit 1; }
echo "web.standings_requests_per_sec $rate req/s"
echo "web.standings_p99_ms $p99 ms"
out=$("$CLIENT" 127.0.0.1 "$port" /bouts/ 1 "$SECS" 1 "$bout")
read -r _ median _ failed <<EOF
$out
EOF
[ "$failed" = 0 ] || { echo "web_bench: $failed bout page requests failed" >&2; exit 1; }
echo "web.bout_page_ms $median ms"
out=$("$CLIENT" 127.0.0.1 "$port" '/standings/boxing/bronze?page=' 4 "$SECS" -w "$dir/ringside.db" 1)
read -r rate _ _ failed <<EOF
$out
EOF
[ "$failed" = 0 ] || { echo "web_bench: $failed uncached standings requests failed" >&2; exit 1; }
echo "web.standings_uncached_requests_per_sec $rate req/s"
# The server's CPU clock ticks so far (user and system).
cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
out=$("$CLIENT" 127.0.0.1 "$port" /bouts/ 4 "$SECS" 1 "$bout" -w "$dir/ringside.db" "$bout")
read -r rate _ _ failed <<EOF
$out
EOF
[ "$failed" = 0 ] || { echo "web_bench: $failed uncached bout page requests failed" >&2; exit 1; }
echo "web.bout_page_uncached_requests_per_sec $rate req/s"
t0=$(cpu_ticks)
out=$("$CLIENT" 127.0.0.1 "$port" /bouts/ 1 "$SECS" 1 "$bout" -w "$dir/ringside.db" "$bout")
t1=$(cpu_ticks)
read -r rate median _ failed <<EOF
$out
EOF
[ "$failed" = 0 ] || { echo "web_bench: $failed uncached bout page requests failed" >&2; exit 1; }
echo "web.bout_page_uncached_median_ms $median ms"
# The requests made on one connection: its rate over the client's SECS
# seconds.
awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v rate="$rate" -v secs="$SECS" 'BEGIN {
    n = rate * secs
    if (n < 1) n = 1
    printf "web.bout_page_uncached_cpu_us %.1f us\n", t * 1e6 / hz / n
}'
