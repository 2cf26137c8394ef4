#!/bin/sh
# pg_suites.sh - the game's unit suites again on PostgreSQL (issue 29): run
# by `tests/pg.sh run sh tests/pg_suites.sh CHECK_RINGSIDE...`, which sets
# RINGSIDE_TEST_PG; each test opens a fresh schema of that one server
# (tests/test_db.h). The suites run in three lanes at once (each lane's in
# turn, a lane's output printed whole when it ends): the server and the
# tests share a loaded two-core machine. Not listed: the suites that open
# no database, sql (its own job, sql-pg), and faults (its sweeps copy
# SQLite template files and count the fault hook's steps of a file's open).
# PG_SUITES="a,b" runs those suites in one lane instead. Exit status: 0
# only when every suite passed.
set -u

[ $# -ge 1 ] || {
    echo "usage: tests/pg.sh run sh tests/pg_suites.sh CHECK_RINGSIDE..." >&2
    exit 2
}
[ -n "${RINGSIDE_TEST_PG:-}" ] || {
    echo "pg_suites.sh: RINGSIDE_TEST_PG is not set (run it through tests/pg.sh run)" >&2
    exit 2
}
# Lanes separated by ';', suites in a lane by ',' (one name has a space),
# about the same time each.
lanes=${PG_SUITES:-"db,pace,season,stamp,pgstamp,tables,portable,network,netgame,netcmd,presence;\
commands,league turns,ratings,simulate,predict,pgjob,pgturn;\
bouts,fighters,game,integrity,restart,tournament,policy"}

out=$(mktemp -d "${TMPDIR:-/tmp}/ringside-pgsuites.XXXXXX")
trap 'rm -rf "$out"' EXIT

n=0
pids=""
IFS=';'
for l in $lanes; do
    n=$((n + 1))
    (
        suites=$l
        status=0
        IFS=,
        for s in $suites; do
            CK_RUN_SUITE=$s "$@" || status=1
        done
        exit $status
    ) >"$out/$n" 2>&1 &
    pids="$pids $!"
done
unset IFS
status=0
i=0
for p in $pids; do
    i=$((i + 1))
    wait "$p" || status=1
    cat "$out/$i"
done
exit $status
