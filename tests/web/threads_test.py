#!/usr/bin/env python3
"""threads_test.py - ringside-web on several threads answers as it does on one.

    python3 tests/web/threads_test.py WEB WEBGEN   (from the repository root; e.g.
        build/asan/ringside-web build/ringside-webgen)

WEBGEN makes a database of real bouts (tests/web/gen.c, with 200 more boxers so
that the standings have two pages). Two servers read it: one with [web]
threads = 1 (libmicrohttpd's one polling thread: the reference) and one with
threads = 4, each worker of which has its own database connection and caches.

1. While a writer commits to the file without pause (rows rewritten as they
   were: every commit moves the file's data_version and the fighters' change
   stamps, so every worker's caches are dropped and its standings brought up
   to date again and again, and no page changes), 8 keep-alive connections
   ask the four-thread server for every bout page, fighter page, standings
   page and their JSON, three times over in shuffled orders. Every answer
   must be the one-thread server's, byte for byte (status, type, body), and
   every request answered: none lost, none failed.
2. Then rounds of real changes: a boxer wins a bout (his record and his rank
   change); the standings and the fighters' pages are asked of the
   four-thread server on 8 connections (each page several times, so that
   several workers keep it), then of the one-thread server, and must be
   equal: a worker whose caches missed the change would answer the old page.

Every check prints `ok - NAME` or `FAIL - NAME: why`; the last line is
`N passed, N failed`; the exit status is 1 if anything failed. WEB_KEEP=1
keeps the temporary directory. Python 3 standard library only.
"""

import http.client
import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from ports import free_port  # noqa: E402

CONNECTIONS = 8
THREADS = 4

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


def serve(web, tmp, dbpath, threads):
    """WEB on dbpath with `threads` threads, once it answers: (proc, port, log path)."""
    port = free_port()
    conf = os.path.join(tmp, "web%d.conf" % threads)
    with open(conf, "w") as f:
        f.write("[bot]\ndatabase = %s\n\n[web]\nlisten = 127.0.0.1:%d\nthreads = %d\n" %
                (dbpath, port, threads))
    logpath = os.path.join(tmp, "web%d.log" % threads)
    log = open(logpath, "w")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    proc = subprocess.Popen([web, "-c", conf], stdout=log, stderr=subprocess.STDOUT, env=env)
    log.close()
    for _ in range(600):  # 30 s: the ASan build on a loaded machine
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    return proc, port, logpath


def answer(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    return (r.status, r.getheader("Content-Type"), r.read())


def reference(port, paths):
    """{path: answer} from one connection, one request at a time."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    got = {p: answer(c, p) for p in paths}
    c.close()
    return got


def hammer(port, work):
    """Asks for the paths of work[i] on connection i, all connections at once.
    Returns ([(path, answer)], [errors])."""
    got, errors = [], []
    lock = threading.Lock()

    def run(paths):
        mine, errs = [], []
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for p in paths:
            try:
                mine.append((p, answer(c, p)))
            except (OSError, http.client.HTTPException) as e:
                errs.append("%s: %r" % (p, e))
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        c.close()
        with lock:
            got.extend(mine)
            errors.extend(errs)

    ts = [threading.Thread(target=run, args=(w,)) for w in work]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return got, errors


def spread(paths, times, seed):
    """paths, `times` over, shuffled and dealt to the connections."""
    all_paths = [p for _ in range(times) for p in paths]
    random.Random(seed).shuffle(all_paths)
    return [all_paths[i::CONNECTIONS] for i in range(CONNECTIONS)]


def compare(name, got, want, asked, errors):
    differ = sorted({p for p, a in got if a != want[p]})
    check("%s: every request answered" % name, len(got) == asked and not errors,
          "%d of %d answered; errors: %s" % (len(got), asked, "; ".join(errors[:5])))
    check("%s: every answer the one-thread server's, byte for byte" % name, not differ,
          "%d paths differ: %s" % (len(differ), " ".join(differ[:10])))
    bad = sorted({p for p, a in got if a[0] not in (200, 404)})
    check("%s: no error answer" % name, not bad, " ".join(bad[:10]))


class Writer(threading.Thread):
    """Commits without pause, rewriting fighters' rows as they were."""

    def __init__(self, dbpath, ids):
        super().__init__()
        self.db = sqlite3.connect(dbpath, timeout=30, check_same_thread=False)
        self.ids = ids
        self.stop = threading.Event()
        self.commits = 0

    def run(self):
        i = 0
        while not self.stop.is_set():
            self.db.execute("UPDATE fighters SET wins = wins WHERE id = ?",
                            (self.ids[i % len(self.ids)],))
            self.db.commit()
            self.commits += 1
            i += 1
            time.sleep(0.002)


def main():
    if len(sys.argv) != 3:
        print("usage: threads_test.py WEB WEBGEN", file=sys.stderr)
        return 2
    web, gen = (os.path.abspath(a) for a in sys.argv[1:])
    tmp = tempfile.mkdtemp(prefix="ringside-threads-")
    dbpath = os.path.join(tmp, "ringside.db")
    out = subprocess.run([gen, dbpath, "200"], stdout=subprocess.PIPE, check=True)
    info = json.loads(out.stdout)
    last_bout = max(v for v in info.values() if isinstance(v, int))
    db = sqlite3.connect(dbpath, timeout=30)
    fighters = [r[0] for r in db.execute("SELECT id FROM fighters ORDER BY id")]
    boxers = [r[0] for r in db.execute(
        "SELECT id FROM fighters WHERE rules = 'boxing' AND retired = 0 ORDER BY id")]
    standings = []
    for rules in ("boxing", "sugarray", "duel"):
        for league in ("bronze", "silver", "gold"):
            for page in (1, 2):
                q = "/%s/%s?page=%d" % (rules, league, page)
                standings += ["/standings" + q, "/api/standings" + q]
    standings += ["/standings", "/api/standings", "/halloffame", "/api/halloffame",
                  "/ratings/boxing", "/api/ratings/boxing", "/tournaments", "/api/tournaments"]
    people = ["/fighters/%d" % i for i in fighters] + ["/api/fighters/%d" % i for i in fighters]
    bouts = []
    for i in range(1, last_bout + 2):
        bouts += ["/bouts/%d" % i, "/api/bouts/%d" % i]
    paths = bouts + people + standings

    one, one_port, one_log = serve(web, tmp, dbpath, 1)
    many, many_port, many_log = serve(web, tmp, dbpath, THREADS)
    try:
        check("both servers started", one.poll() is None and many.poll() is None,
              "see %s" % tmp)
        # main, the guard's sweeper, and the workers (libmicrohttpd's pool):
        # the port takes connections before the pool's threads are all
        # made, so wait for them (a loaded machine may be slow to start them)
        deadline = time.monotonic() + 30
        tasks = len(os.listdir("/proc/%d/task" % many.pid))
        while tasks < THREADS + 2 and time.monotonic() < deadline and many.poll() is None:
            time.sleep(0.05)
            tasks = len(os.listdir("/proc/%d/task" % many.pid))
        check("the four-thread server runs %d workers" % THREADS, tasks >= THREADS + 2,
              "%d threads" % tasks)

        # 1. Many requests at once while the file is written.
        want = reference(one_port, paths)
        writer = Writer(dbpath, fighters)
        writer.start()
        try:
            work = spread(paths, 3, 1)
            got, errors = hammer(many_port, work)
        finally:
            writer.stop.set()
            writer.join()
        print("# %d requests on %d connections during %d commits" %
              (sum(len(w) for w in work), CONNECTIONS, writer.commits))
        check("the writer committed meanwhile", writer.commits > 10, "%d" % writer.commits)
        compare("during writes", got, want, sum(len(w) for w in work), errors)

        # 2. Real changes between rounds: every worker must follow them.
        changing = standings + people
        for rnd in range(4):
            who = boxers[(rnd * 37) % len(boxers)]
            db.execute("UPDATE fighters SET wins = wins + 3 WHERE id = ?", (who,))
            db.commit()
            work = spread(changing, 2, rnd + 2)
            got, errors = hammer(many_port, work)
            want = reference(one_port, changing)
            compare("after change %d" % (rnd + 1), got, want, sum(len(w) for w in work), errors)
    finally:
        for p in (one, many):
            p.terminate()
            p.wait(timeout=30)
    for name, path in (("one thread", one_log), ("four threads", many_log)):
        text = open(path).read()
        check("%s: no sanitizer report" % name, "Sanitizer" not in text and "runtime error" not in text,
              "see %s" % path)
        check("%s: stopped cleanly" % name, "stopping" in text, text[-300:])
    print("%d passed, %d failed" % (passed, failed))
    if failed or os.environ.get("WEB_KEEP"):
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
