#!/bin/sh
# pg_suites.sh - the game's unit suites again on PostgreSQL (issue 29): run
# by `tests/pg.sh run sh tests/pg_suites.sh CHECK_RINGSIDE`, which sets
# RINGSIDE_TEST_PG; each suite of the list below runs in turn (one server,
# one suite at a time: the machine is shared), each of its tests on a
# fresh schema of the server (tests/test_db.h). Not listed: the suites that
# open no database, and fault (its sweeps copy SQLite template files and
# count the fault hook's steps of a file's open). Exit status: 0 only when
# every suite passed.
set -u

[ $# -ge 1 ] || {
    echo "usage: tests/pg.sh run sh tests/pg_suites.sh CHECK_RINGSIDE" >&2
    exit 2
}
[ -n "${RINGSIDE_TEST_PG:-}" ] || {
    echo "pg_suites.sh: RINGSIDE_TEST_PG is not set (run it through tests/pg.sh run)" >&2
    exit 2
}
# Suite names, comma-separated (one has a space).
suites=${PG_SUITES:-"db,bouts,league turns,game,fighters,ratings,simulate,integrity,restart,pace,\
season,predict,tournament,policy,stamp,tables,portable,commands"}
status=0
IFS=,
for s in $suites; do
    CK_RUN_SUITE=$s "$@" || status=1
done
exit $status
