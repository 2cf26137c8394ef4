#!/usr/bin/env python3
"""migrate_test.py BOT WEBGEN - `ringside --migrate-to URI` end to end.

Run under tests/pg.sh (`sh tests/pg.sh run python3 tests/migrate_test.py
build/asan/ringside build/ringside-webgen`), which starts a throwaway
PostgreSQL server and names it in RINGSIDE_TEST_PG. Every migration goes
into a schema of its own (CREATE SCHEMA, then the URI's search_path), an
empty database as far as the bot can tell.

It builds a database of real bouts with ringside-webgen (league turns of
three rulesets, title bouts, a tournament, exhibitions fought to the end,
live bouts), migrates it, and checks: exit 0; one line per table with the
source's count; every row of every table the same on both sides (doubles
to the bit); "N bouts replayed, every digest the same" with N the bouts
fought; the identity sequences past the ids copied; the change stamps'
triggers on again. Then the refusals, word for word, each changing nothing:
a target that is not empty (rows, or a table of its own), a source not at
the latest schema, a source with an unknown table, a target it cannot
reach, a URI that is not PostgreSQL; a row the server refuses fails the
copy whole and leaves the target as it was. And a copy whose bouts do not
replay (a digest altered in the source) is found out: exit 1.
"""
import getpass
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

BOT, WEBGEN = sys.argv[1], sys.argv[2]
BASE = os.environ["RINGSIDE_TEST_PG"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def uri_of(schema):
    sep = "&" if "?" in BASE else "?"
    return f"{BASE}{sep}options=-csearch_path%3D{schema}"


def psql(sql, schema=None):
    out = subprocess.run(
        ["psql", uri_of(schema) if schema else BASE, "-AtqX", "-F", "\x1f", "-R", "\x1e", "-P", "null=\\N",
         "-v", "ON_ERROR_STOP=1", "-c", sql],
        capture_output=True, text=True, check=True).stdout
    return [row.split("\x1f") for row in out.rstrip("\n").split("\x1e") if row]


def schema_new(name):
    psql(f"CREATE SCHEMA {name}")
    return uri_of(name)


def migrate(conf, uri):
    p = subprocess.run([BOT, "-c", conf, "--migrate-to", uri], capture_output=True, text=True,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def conf_for(tmp, db):
    path = os.path.join(tmp, os.path.basename(db) + ".conf")
    with open(path, "w") as f:
        f.write(f"[irc]\nchannels = #ringside\n[bot]\ndatabase = {db}\n")
    return path


def lite_tables(db):
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")]


def same_value(lite, pg):
    """One value of SQLite against psql's text of it."""
    if lite is None:
        return pg == "\\N"
    if isinstance(lite, float):
        return float(pg) == lite
    return str(lite) == pg


def table_same(db, schema, table):
    with sqlite3.connect(db) as c:
        cols = [r[1] for r in c.execute(f"PRAGMA table_info({table})")]
        rows = sorted(c.execute(f"SELECT {', '.join(cols)} FROM {table}"),
                      key=lambda r: [str(v) for v in r])
    pg = sorted(psql(f"SELECT {', '.join(cols)} FROM {table}", schema),
                key=lambda r: [v if v != "\\N" else "None" for v in r])
    if table == "meta":
        pg = [r for r in pg if r[0] != "schema_version"]
    if len(rows) != len(pg):
        return f"{len(rows)} rows in SQLite, {len(pg)} in PostgreSQL"
    for a, b in zip(rows, pg):
        if len(a) != len(b) or not all(same_value(x, y) for x, y in zip(a, b)):
            return f"row {a!r} became {b!r}"
    return None


def fought(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT count(*) FROM bouts WHERE state IN ('live', 'over')").fetchone()[0]


def thousands(n):
    return f"{n:,}"


def test_copy(tmp, db, conf):
    uri = schema_new("m_copy")
    rc, out, err = migrate(conf, uri)
    check(rc == 0, f"the migration exits 0 (got {rc}; {err.strip()})")
    lines = out.splitlines()
    tables = lite_tables(db)
    with sqlite3.connect(db) as c:
        for t in tables:
            n = c.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            want = f"{t}: {thousands(n)} {'row' if n == 1 else 'rows'}"
            check(want in lines, f"the output says \"{want}\"")
    check(len(lines) == len(tables) + 1, f"one line per table and one for the check: {out}")
    check(not any(line.endswith(": 0 rows") for line in lines), f"every table has rows: {out}")
    n = fought(db)
    check(n > 200, f"the database has real bouts ({n})")
    check(lines[-1:] == [f"{thousands(n)} bouts replayed, every digest the same"],
          f"the digest line: {lines[-1:]}")
    for t in tables:
        why = table_same(db, "m_copy", t)
        check(why is None, f"table {t} is the same in the copy: {why}")
    for t in ("accounts", "fighters", "audit", "bouts", "tournaments"):
        (last, called), = psql(f"SELECT last_value, is_called FROM {t}_id_seq", "m_copy")
        (top,), = psql(f"SELECT coalesce(max(id), 0) FROM {t}", "m_copy")
        check(called == "f" and int(last) == int(top) + 1,
              f"{t}'s next id follows the copy's ({last} {called}, max {top})")
    enabled = psql("SELECT tgname, tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = "
                   "t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE "
                   "n.nspname = 'm_copy' AND NOT tgisinternal ORDER BY 1", "m_copy")
    check(len(enabled) == 4 and all(e == "O" for _, e in enabled),
          f"the stamps' triggers are on again: {enabled}")
    return uri


def count_all(schema):
    return psql("SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM bouts) + "
                "(SELECT count(*) FROM rounds)", schema)


def test_not_empty(conf, uri):
    before = count_all("m_copy")
    # The same database with a password in its URI (the server trusts the
    # socket and never asks for it): the message hides it.
    user = getpass.getuser()
    rc, out, err = migrate(conf, uri.replace(":///", f"://{user}:secret@/"))
    with sqlite3.connect(db_main) as c:
        n = c.execute("SELECT count(*) FROM accounts").fetchone()[0]
    shown = uri.replace(":///", f"://{user}:***@/")
    want = (f"ringside: {shown} is not empty: its table accounts holds {n} rows; migrate into a "
            "new, empty database (createdb)\n")
    check(rc == 1 and err == want and out == "", f"a full target is refused: {rc} {err!r}")
    check(count_all("m_copy") == before, "the refused target is unchanged")
    uri = schema_new("m_foreign")
    psql("CREATE TABLE m_foreign.notes (x INT)")
    rc, out, err = migrate(conf, uri)
    want = (f"ringside: {uri} is not empty: it holds a table notes; migrate into a new, empty "
            "database (createdb)\n")
    check(rc == 1 and err == want, f"a target with a table of its own is refused: {err!r}")
    check(psql("SELECT table_name FROM information_schema.tables WHERE table_schema = "
               "'m_foreign'") == [["notes"]], "the target with a table of its own is untouched")
    check(psql("SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
               "WHERE n.nspname = 'm_foreign'") == [["0"]], "and holds no function of ours")


def test_old_source(tmp, conf_dir):
    old = os.path.join(tmp, "old.db")
    shutil.copy(db_main, old)
    with sqlite3.connect(old) as c:
        latest = c.execute("PRAGMA user_version").fetchone()[0]
        c.execute(f"PRAGMA user_version = {latest - 1}")
    uri = schema_new("m_old")
    rc, out, err = migrate(conf_for(conf_dir, old), uri)
    want = (f"ringside: {old} has schema version {latest - 1} and this program reads version "
            f"{latest}; start this version's bot on it once (it migrates the file), then try "
            "again\n")
    check(rc == 1 and err == want and out == "", f"an old source is refused: {err!r}")
    check(psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'm_old'")
          == [["0"]], "the target of an old source is untouched")
    with sqlite3.connect(old) as c:
        check(c.execute("PRAGMA user_version").fetchone()[0] == latest - 1,
              "the old source is not migrated")


def test_unknown_table(tmp, conf_dir):
    odd = os.path.join(tmp, "odd.db")
    shutil.copy(db_main, odd)
    with sqlite3.connect(odd) as c:
        c.execute("CREATE TABLE extras (x INTEGER)")
    rc, out, err = migrate(conf_for(conf_dir, odd), schema_new("m_odd"))
    want = ("ringside: the database has a table this ringside does not know, extras: migrate it "
            "with the ringside that made it\n")
    check(rc == 1 and err == want and out == "", f"an unknown table is refused: {err!r}")
    check(psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'm_odd'")
          == [["0"]], "the target of an unknown table is untouched")


def test_unreachable(conf):
    rc, out, err = migrate(conf, "postgresql://al:secret@/ringside?host=/nonexistent")
    want = ("ringside: cannot connect to the database postgresql://al:***@/ringside?host="
            "/nonexistent: connection to server on socket \"/nonexistent/.s.PGSQL.5432\" "
            "failed: ")
    check(rc == 1 and err.startswith(want) and err.count("\n") == 1 and "secret" not in err,
          f"an unreachable target is refused in one line: {err!r}")
    rc, out, err = migrate(conf, "other.db")
    want = ("ringside: --migrate-to needs a PostgreSQL URI, e.g. "
            "postgresql://ringside@localhost/ringside, not \"other.db\"\n")
    check(rc == 1 and err == want, f"a URI that is not PostgreSQL is refused: {err!r}")
    p = subprocess.run([BOT, "-c", conf, "--migrate-to"], capture_output=True, text=True)
    want = ("ringside: --migrate-to needs one PostgreSQL URI, last; e.g. ringside -c "
            "ringside.conf --migrate-to postgresql://ringside@localhost/ringside\n")
    check(p.returncode == 2 and p.stderr == want, f"--migrate-to without a URI: {p.stderr!r}")


def test_mismatch(tmp, conf_dir):
    bad = os.path.join(tmp, "bad.db")
    shutil.copy(db_main, bad)
    with sqlite3.connect(bad) as c:
        bout, = c.execute("SELECT bout FROM rounds WHERE digest IS NOT NULL ORDER BY bout, round "
                          "LIMIT 1").fetchone()
        c.execute("UPDATE rounds SET digest = digest + 1 WHERE bout = ? AND round = 1", (bout,))
    rc, out, err = migrate(conf_for(conf_dir, bad), schema_new("m_bad"))
    n = fought(bad)
    check(rc == 1, f"a copy whose bout does not replay exits 1 (got {rc})")
    check(f"bout {bout} differs in the copy:\n" in out and "round 1: MISMATCH: digest" in out,
          f"the differing bout is shown: {out[-400:]}")
    check(out.endswith(f"{thousands(n)} bouts replayed, 1 with a digest or result not the same: "
                       "the copy is not the database\n"), f"the check's line: {out[-200:]}")


def test_failed_row(tmp, conf_dir):
    """A row PostgreSQL refuses (a name that is not UTF-8) fails the copy
    whole: nothing is left in the target, not even the schema."""
    odd = os.path.join(tmp, "latin1.db")
    shutil.copy(db_main, odd)
    with sqlite3.connect(odd) as c:
        c.execute("UPDATE fighters SET name = CAST(x'52e96d79' AS TEXT) WHERE id = "
                  "(SELECT max(id) FROM fighters)")
        n = c.execute("SELECT count(*) FROM fighters").fetchone()[0]
    rc, out, err = migrate(conf_for(conf_dir, odd), schema_new("m_latin1"))
    last = n - (n - 1) % 200
    want = (f"ringside: rows {last} to {n} of table fighters: invalid byte sequence for "
            "encoding \"UTF8\": 0xe9 0x6d 0x79\n")
    check(rc == 1 and out == "" and err == want, f"a row refused fails the copy: {err!r}")
    check(psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = "
               "'m_latin1'") == [["0"]], "the target of a failed copy is left as it was")


def main():
    global db_main
    tmp = tempfile.mkdtemp(prefix="ringside-migrate.")
    try:
        db_main = os.path.join(tmp, "bouts.db")
        with open(os.path.join(tmp, "gen.json"), "w") as out:
            subprocess.run([WEBGEN, db_main, "40"], stdout=out, check=True, timeout=600)
        # The rows the bot writes that webgen does not: every table holds some.
        with sqlite3.connect(db_main) as c:
            c.execute("INSERT INTO meta (key, value) VALUES ('id', ?)", ("0123456789abcdef" * 2,))
            c.execute("INSERT INTO burnt_passwords (key, hash, burnt) VALUES ('alice', 'hash''s \"quoted\"', 1)")
            # Migration 18: accounts, burnt passwords and bouts of a network.
            c.execute("INSERT INTO burnt_passwords (key, hash, burnt, network) VALUES ('alice', 'h', 2, 'libera')")
            c.execute("UPDATE accounts SET network = 'libera' WHERE id = (SELECT min(id) FROM accounts)")
            c.execute("UPDATE bouts SET network = 'oftc' WHERE id = (SELECT max(id) FROM bouts)")
            c.execute("INSERT INTO channels VALUES ('#ringside', 'alice', 1790000000)")
            c.execute("INSERT INTO channels VALUES ('#élan', '', 0)")
            c.execute("INSERT INTO turns_begun VALUES ('boxing', 1790000100)")
        conf = conf_for(tmp, db_main)
        uri = test_copy(tmp, db_main, conf)
        test_not_empty(conf, uri)
        test_old_source(tmp, tmp)
        test_unknown_table(tmp, tmp)
        test_unreachable(conf)
        test_mismatch(tmp, tmp)
        test_failed_row(tmp, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"migrate_test: {len(failures)} failed")
        return 1
    print("migrate_test: every check passed")
    return 0


db_main = ""
if __name__ == "__main__":
    sys.exit(main())
