#!/usr/bin/env python3
"""pg_pages_test.py BOT WEB WEBGEN - the web pages scale out on PostgreSQL (issue 29).

    sh tests/pg.sh run python3 tests/web/pg_pages_test.py build/asan/ringside \\
        build/asan/ringside-web build/ringside-webgen          (from the repository root)

tests/pg.sh starts a throwaway PostgreSQL server and names it in
RINGSIDE_TEST_PG. WEBGEN makes a SQLite database of real bouts through game/
(tests/web/gen.c: league turns of the three rulesets, title bouts, a season
ended, a tournament, exhibitions, live bouts); `BOT --migrate-to URI` copies it
into a schema of the server. Then TWO ringside-web processes serve the
PostgreSQL copy and a third the SQLite file, and:

- every address reachable from the index (the links of every page, walked to
  the end: every bout fought and every fighter among them) and its twin under
  /api answers the same status, type, refresh and
  body, byte for byte, from the three;
- the game writes (`WEBGEN --tick`: the bot's game resuming its live bouts,
  whose live duel fights its next round) into both databases, and both
  PostgreSQL processes, whose caches held the duel's page, show the new round
  (their caches follow the server: data_version on PostgreSQL); the whole site
  is walked again and still the same on the three;
- a fighter's row changed in both databases (the stamps' triggers) moves him
  in the standings of both PostgreSQL processes, whose standings were kept;
- headless Chromium (Debian's chromium) loads a bout page from a PostgreSQL
  process and the screenshot shows the chart's two lines;
- no sanitizer report, and each process exits cleanly on SIGTERM.

Every check prints `ok - NAME` or `FAIL - NAME: why`; the last line is
`N passed, N failed`; the exit status is 1 if anything failed. PG_PAGES_KEEP=1
keeps the temporary folder. Python 3 standard library only (psql for the
server, sqlite3 for the file).
"""

import html.parser
import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import web_test  # noqa: E402  (its Chromium and PNG helpers, its free_port)

BASE = os.environ.get("RINGSIDE_TEST_PG", "")
SCHEMA = "pages"
MAX_ADDRESSES = 4000  # far above the webgen site's; a runaway walk stops here

passed = failed = 0


def check(name, cond, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok - %s" % name)
    else:
        failed += 1
        print("FAIL - %s: %s" % (name, why))
    sys.stdout.flush()
    return bool(cond)


def uri_of(schema):
    sep = "&" if "?" in BASE else "?"
    return "%s%soptions=-csearch_path%%3D%s" % (BASE, sep, schema)


def psql(sql, schema=None):
    return subprocess.run(["psql", uri_of(schema) if schema else BASE, "-AtqX", "-v",
                           "ON_ERROR_STOP=1", "-c", sql],
                          capture_output=True, text=True, check=True).stdout


class Links(html.parser.HTMLParser):
    """The href of every element of a page."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "href" and v is not None:
                self.hrefs.append(v)


def links_of(path, body):
    """The addresses of this site a page links to (path and query, no fragment)."""
    p = Links()
    p.feed(body.decode("utf-8", "replace"))
    out = []
    for href in p.hrefs:
        u = urllib.parse.urlsplit(urllib.parse.urljoin("http://site" + path, href))
        if u.scheme == "http" and u.netloc == "site":
            out.append(u.path + ("?" + u.query if u.query else ""))
    return out


def api_twin(path):
    """/api's address for a page's (/ is /api)."""
    return "/api" if path == "/" else "/api" + path


class Web:
    """One ringside-web process on a database, and a keep-alive client."""

    def __init__(self, name, web, database, tmp):
        self.name = name
        self.port = web_test.free_port()
        self.conf = os.path.join(tmp, name + ".conf")
        with open(self.conf, "w") as f:
            f.write("[bot]\ndatabase = %s\n\n[web]\nlisten = 127.0.0.1:%d\nthreads = 2\n" %
                    (database, self.port))
        self.logpath = os.path.join(tmp, name + ".log")
        self.log = open(self.logpath, "w")
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
        self.proc = subprocess.Popen([web, "-c", self.conf], stdout=self.log,
                                     stderr=subprocess.STDOUT, env=env)
        self.conn = None

    def ready(self):
        """Waits until it answers (30 s: the ASan build on a loaded machine)."""
        for _ in range(600):
            if self.proc.poll() is not None:
                return False
            try:
                self.get("/")
                return True
            except OSError:
                self.conn = None
                time.sleep(0.05)
        return False

    def get(self, path):
        """(status, content type, refresh, body) of a GET."""
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request("GET", path)
                r = self.conn.getresponse()
                body = r.read()
                return r.status, r.getheader("Content-Type"), r.getheader("Refresh"), body
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()  # the server closed a kept connection: once more
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def stop(self):
        if self.conn:
            self.conn.close()
        self.proc.terminate()
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = -9
        self.log.close()
        return rc


def difference(a, b):
    """Where answer b first differs from answer a, in a few words."""
    if a[:3] != b[:3]:
        return "status, type, refresh %r, %r" % (a[:3], b[:3])
    i = next((k for k, (x, y) in enumerate(zip(a[3], b[3])) if x != y), min(len(a[3]), len(b[3])))
    return "from byte %d: %r, %r" % (i, a[3][max(0, i - 20):i + 40], b[3][max(0, i - 20):i + 40])


def walk(webs):
    """Every address reachable from / on the first process, and its /api twin,
    asked of every process: ({address: answer of the first}, [differences])."""
    first = webs[0]
    queue, seen, answers, differ = ["/", "/api"], {"/", "/api"}, {}, []
    while queue and len(seen) <= MAX_ADDRESSES:
        path = queue.pop(0)
        got = [w.get(path) for w in webs]
        answers[path] = got[0]
        for w, g in zip(webs[1:], got[1:]):
            if g != got[0]:
                differ.append("%s (%s against %s: %s)" % (path, w.name, first.name,
                                                          difference(got[0], g)))
        if got[0][0] != 200 or not (got[0][1] or "").startswith("text/html"):
            continue
        for link in links_of(path.split("?")[0], got[0][3]) + [api_twin(path)]:
            if link not in seen:
                seen.add(link)
                queue.append(link)
    return answers, differ


def check_walk(webs, dbpath, when):
    answers, differ = walk(webs)
    pages = [p for p in answers if not p.startswith("/api")]
    kinds = {p.split("/")[1] for p in pages if p != "/"}
    with sqlite3.connect(dbpath) as c:
        want = ["/bouts/%d" % i for (i,) in c.execute(
            "SELECT id FROM bouts WHERE state IN ('live', 'over')")]
        want += ["/fighters/%d" % i for (i,) in c.execute("SELECT id FROM fighters")]
    missed = [p for p in want if p not in answers or api_twin(p) not in answers]
    check("%s: the walk reaches the whole site (%d addresses; %s)"
          % (when, len(answers), ", ".join(sorted(kinds))),
          len(answers) < MAX_ADDRESSES and not missed
          and {"bouts", "fighters", "standings", "seasons", "tournaments"} <= kinds,
          "%d addresses, kinds %s, not reached: %s" % (len(answers), sorted(kinds), missed[:20]))
    check("%s: every page answers 200" % when,
          all(a[0] == 200 for a in answers.values()),
          [p for p, a in answers.items() if a[0] != 200][:10])
    check("%s: every page and its JSON the same from the three processes" % when, not differ,
          "%d differ: %s" % (len(differ), "; ".join(differ[:8])))
    return answers


def check_tick(webs, gen, dbpath, pg_uri, info):
    """The game fights the live duel's next round in both databases; both
    PostgreSQL processes had its page kept and must follow."""
    duel = "/bouts/%d" % info["live_duel"]
    before = [w.get(duel) for w in webs]
    check("the live duel's page before: round 3, the same on the three",
          "Round 3</h3>" in before[0][3].decode() and "Round 4</h3>" not in before[0][3].decode()
          and all(b == before[0] for b in before), before[0][3][-200:])
    for db in (pg_uri, dbpath):
        p = subprocess.run([gen, "--tick", db], capture_output=True, text=True)
        check("WEBGEN --tick on %s" % ("PostgreSQL" if db == pg_uri else "SQLite"),
              p.returncode == 0, p.stderr.strip())
    for w in webs:
        st, _, _, body = w.get(duel)
        text = body.decode()
        _, _, _, jb = w.get("/api" + duel)
        check("%s: the live duel's page follows the next round" % w.name,
              st == 200 and "Round 4</h3>" in text and "Live: 4 of 23 rounds fought" in text
              and len(json.loads(jb)["fought"]) == 4, text[-300:])


def check_standings(webs, dbpath):
    """A fighter's row changed in both databases: both PostgreSQL processes,
    whose standings were kept, move him, as the SQLite one does."""
    path = "/api/standings/boxing/gold"
    rows = json.loads(webs[0].get(path)[3])["standings"]
    last = rows[-1]["id"] if rows else None
    if not check("the gold league of boxing has fighters", last is not None and len(rows) > 1):
        return
    psql("UPDATE fighters SET gold_record = 99 WHERE id = %d" % last, SCHEMA)
    with sqlite3.connect(dbpath) as c:
        c.execute("UPDATE fighters SET gold_record = 99 WHERE id = ?", (last,))
    got = [w.get(path) for w in webs]
    for w, g in zip(webs, got):
        check("%s: the standings follow a fighter's change" % w.name,
              json.loads(g[3])["standings"][0]["id"] == last, g[3][:200])
    check("the standings after the change the same on the three",
          all(g == got[0] for g in got))


def wait_for(what, fn):
    """Polls fn until it is true (60 s: a loaded machine): its last value."""
    for _ in range(1200):
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("waited 60 s for " + what)


def check_late_commit(webs, dbpath, fighter):
    """A commit visible only after its WAL record is written (on any server,
    while its record is flushed; here, deterministically, a synchronous
    commit waiting for a standby that never answers, then cancelled): a page
    read meanwhile is the old one, and once the commit shows, both
    PostgreSQL processes must show it too, not keep the old page."""
    path = "/fighters/%d" % fighter
    old = [w.get(path) for w in webs[:2]]
    psql("ALTER SYSTEM SET synchronous_standby_names = 'ringside_nobody'")
    psql("SELECT pg_reload_conf()")
    wait_for("the standby setting", lambda: psql("SHOW synchronous_standby_names").strip()
             == "ringside_nobody")
    sql = "UPDATE fighters SET wins = wins + 1 WHERE id = %d" % fighter
    writer = subprocess.Popen(["psql", uri_of(SCHEMA), "-qX", "-c", "SET synchronous_commit = on",
                               "-c", sql], env=dict(os.environ, PGAPPNAME="ringside_late"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        pid = wait_for("the commit waiting for its standby", lambda: psql(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'ringside_late'"
            " AND wait_event = 'SyncRep'").strip())
        during = [w.get(path) for w in webs[:2]]
        check("a commit not yet visible: both PostgreSQL processes show the page as it was",
              during == old)
        psql("SELECT pg_cancel_backend(%s)" % pid)
        writer.wait(timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
        psql("ALTER SYSTEM RESET synchronous_standby_names")
        psql("SELECT pg_reload_conf()")
    with sqlite3.connect(dbpath) as c:
        c.execute(sql)
    want = webs[2].get(path)
    for w in webs[:2]:
        got = w.get(path)
        check("%s: the commit, once visible, shows (no page kept from before it)" % w.name,
              got == want and got != old[0], difference(want, got))


def check_chromium(web, info, tmp):
    png = os.path.join(tmp, "pg-bout.png")
    url = "http://127.0.0.1:%d/bouts/%d" % (web.port, info["exhibition"])
    rc, out = web_test.screenshot(url, png, tmp, "900,1800")
    if not check("chromium: a bout page from %s, screenshot written" % web.name,
                 rc == 0 and os.path.exists(png) and os.path.getsize(png) > 1000, out[-500:]):
        return
    want = {"red line": (0xc6, 0x28, 0x28), "blue line": (0x15, 0x65, 0xc0)}
    counts, distinct = web_test.colour_count(png, want)
    check("chromium: the screenshot not blank (%d colours)" % distinct, distinct > 20)
    for k, n in counts.items():
        check("chromium: the screenshot shows the %s (%d px)" % (k, n), n > 30)


def migrate(bot, dbpath, tmp):
    """The SQLite file copied into schema SCHEMA: its URI."""
    psql("CREATE SCHEMA %s" % SCHEMA)
    conf = os.path.join(tmp, "bot.conf")
    with open(conf, "w") as f:
        f.write("[irc]\nchannels = #ringside\n[bot]\ndatabase = %s\n" % dbpath)
    uri = uri_of(SCHEMA)
    p = subprocess.run([bot, "-c", conf, "--migrate-to", uri], capture_output=True, text=True,
                       timeout=600)
    check("ringside --migrate-to copies the database and replays every bout",
          p.returncode == 0 and p.stdout.rstrip().endswith("bouts replayed, every digest the same"),
          (p.returncode, p.stdout[-300:], p.stderr[-300:]))
    return uri


def run(bot, web, gen, tmp):
    dbpath = os.path.join(tmp, "ringside.db")
    info = json.loads(subprocess.run([gen, dbpath], stdout=subprocess.PIPE, check=True).stdout)
    pg_uri = migrate(bot, dbpath, tmp)
    webs = [Web("pg-a", web, pg_uri, tmp), Web("pg-b", web, pg_uri, tmp),
            Web("sqlite", web, dbpath, tmp)]
    try:
        if not all(check("%s answers" % w.name, w.ready(), "see %s" % w.logpath) for w in webs):
            return
        check_walk(webs, dbpath, "before the game writes")
        check_tick(webs, gen, dbpath, pg_uri, info)
        check_standings(webs, dbpath)
        check_late_commit(webs, dbpath, info["rocky"])
        check_walk(webs, dbpath, "after the game wrote")
        check_chromium(webs[0], info, tmp)
    finally:
        for w in webs:
            rc = w.stop()
            text = open(w.logpath).read()
            check("%s exits cleanly on SIGTERM" % w.name, rc == 0, "status %s" % rc)
            check("%s: no sanitizer report" % w.name,
                  "Sanitizer" not in text and "runtime error" not in text, text[-2000:])


def main():
    if len(sys.argv) != 4 or not BASE:
        print("usage: sh tests/pg.sh run python3 tests/web/pg_pages_test.py BOT WEB WEBGEN",
              file=sys.stderr)
        return 2
    bot, web, gen = (os.path.abspath(a) for a in sys.argv[1:])
    tmp = tempfile.mkdtemp(prefix="ringside-pgpages-")
    try:
        run(bot, web, gen, tmp)
    except Exception as e:  # a crash of the test is a failure, with the folder kept
        check("the test ran to its end", False, repr(e))
    print("%d passed, %d failed" % (passed, failed))
    if failed or os.environ.get("PG_PAGES_KEEP"):
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
