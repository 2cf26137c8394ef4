#!/bin/sh
# pg.sh - a throwaway PostgreSQL server for the tests.
#
# Usage: tests/pg.sh start DIR   make a server in DIR (initdb DIR/data), start
#                                it on a Unix socket in DIR only (no TCP), create
#                                the database ringside, and print its URI:
#                                postgresql:///ringside?host=DIR
#                                With PG_TCP_PORT=PORT set it also listens on
#                                127.0.0.1:PORT (tests that put a connection
#                                through a proxy: tests/e2e/e2e_cluster.py),
#                                and its socket and URI have that port
#        tests/pg.sh stop DIR    stop it (DIR is left for the caller to remove)
#        tests/pg.sh run CMD...  start one in a temporary folder, run CMD with
#                                RINGSIDE_TEST_PG set to its URI, then stop it
#                                and remove the folder (also when CMD fails or
#                                the run is interrupted); CMD's exit status
#
# A test server forgoes durability (fsync and synchronous_commit off: a
# commit costs no disk flush), which a throwaway database never needs.
# The server's superuser is named after the calling user, so the URI needs
# no user name. initdb and the server refuse to run as root: as root (CI), they
# run as Debian's `postgres` user (made by the postgresql package, which
# scripts/deps.sh installs), which then owns DIR.
set -eu

die() {
    echo "pg.sh: $*" >&2
    exit 1
}

usage="usage: tests/pg.sh start|stop DIR, or tests/pg.sh run COMMAND..."
[ $# -ge 2 ] || die "$usage"
cmd=$1
dir=$2

# Debian keeps the server's programs out of PATH, one folder per version.
bindir=""
for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && bindir=$d
done
[ -n "$bindir" ] || die "no PostgreSQL server in /usr/lib/postgresql/*/bin (install postgresql: make deps)"

as_server() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case $cmd in
run)
    shift
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/ringside-pg.XXXXXX")
    # The server stops and the folder goes whatever happens to the command.
    trap 'sh "$0" stop "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
    trap 'exit 143' TERM
    trap 'exit 130' INT
    uri=$(sh "$0" start "$tmp") || {
        cat "$tmp/initdb.log" "$tmp/server.log" 2>/dev/null >&2
        exit 1
    }
    status=0
    RINGSIDE_TEST_PG=$uri "$@" || status=$?
    exit $status
    ;;
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    case $dir in
    *[!A-Za-z0-9/._-]*) die "DIR must be a plain path (letters, digits, / . _ -): $dir" ;;
    esac
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || die "no user postgres to run the server as (install postgresql)"
        chown postgres "$dir"
    fi
    cd "$dir"
    as_server "$bindir/initdb" -D "$dir/data" -U "$(id -un)" --auth=trust --no-locale -E UTF8 \
        >"$dir/initdb.log" 2>&1 || die "initdb failed: see $dir/initdb.log"
    listen="-c listen_addresses=''"
    port=""
    if [ -n "${PG_TCP_PORT:-}" ]; then
        case $PG_TCP_PORT in
        *[!0-9]*) die "PG_TCP_PORT must be a port number: $PG_TCP_PORT" ;;
        esac
        listen="-c listen_addresses=127.0.0.1 -p $PG_TCP_PORT"
        port="-p $PG_TCP_PORT"
    fi
    as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-k $dir $listen -c fsync=off -c synchronous_commit=off" \
        start >/dev/null ||
        die "the server did not start: see $dir/server.log"
    # shellcheck disable=SC2086 # $port: no word or two
    "$bindir/createdb" -h "$dir" $port ringside || die "createdb ringside failed"
    echo "postgresql:///ringside?host=$dir${PG_TCP_PORT:+&port=$PG_TCP_PORT}"
    ;;
stop)
    dir=$(cd "$dir" && pwd)
    cd "$dir"
    as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
*)
    die "$usage"
    ;;
esac
