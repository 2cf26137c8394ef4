#!/usr/bin/env python3
"""attack_test.py - ringside-web keeps answering while strangers attack it.

    python3 tests/web/attack_test.py WEB WEBGEN   (from the repository root; e.g.
        build/asan/ringside-web build/ringside-webgen)

Starts WEB (the ASan build in make check) at its default limits, on THREADS
worker threads (so that the guard's limits are seen to hold across them), on a free
loopback port over a database made by WEBGEN, and attacks it from several
loopback addresses at once, for ATTACK_SECONDS (default 30):
  - slowloris from 127.0.0.2-4: each keeps up to 200 requests half-sent, one
    header line every 3 s, and opens new ones as the server closes them;
  - idle connections from 127.0.0.5-6: up to 150 each, never a byte sent;
  - slowloris from 20 addresses 127.0.1.1-20, 16 each (each within its
    share, together more than the server holds);
  - a request flood from 127.0.0.7-8: 4 keep-alive clients each, asking for
    pages as fast as they are answered.
Meanwhile a probe from 127.0.0.9 asks for a page every second on a new
connection: every probe must be answered (200) within PROBE_BOUND seconds, a
bound generous for a loaded 2-core machine; and a slow visitor from 127.0.0.13,
whose every request takes VISIT_SECONDS to arrive, must be answered each time
(the attackers turn the server's connections over faster than that: a full
server drops a connection of the address that holds the most, not the oldest
of all). After the attack, a lone
slowloris connection from 127.0.0.10 that sends a header line every second
must be closed within the request deadline (the default 10 s) and some slack: the deadline is the whole
request's, not an idle one that each byte resets; and one address holds 16
connections (the default max_connections_per_address), not a 17th, even when
48 arrive at once (accepted by several workers at the same time). Connections are bounded in
number (each attacker opens at most a few thousand), loopback only.

Every check prints `ok - NAME` or `FAIL - NAME: why`; the last line is
`N passed, N failed`; the exit status is 1 if anything failed. Python 3
standard library only.
"""

import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from ports import free_port  # noqa: E402

ATTACK_SECONDS = float(os.environ.get("ATTACK_SECONDS", "30"))
PROBE_BOUND = 5.0  # seconds a probe may wait for its answer
VISIT_SECONDS = 3  # seconds the slow visitor takes to send his request
THREADS = 3  # [web] threads: the guard holds across workers
DEADLINE = 10  # [web] request_timeout's default
OPENS_MAX = 2000  # connections an attacker opens, at most (50 a second)

passed = failed = 0
stop = threading.Event()


def report(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok - %s" % name)
    else:
        failed += 1
        print("FAIL - %s: %s" % (name, why))
    sys.stdout.flush()


def connect_from(source, port, timeout=2.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def is_closed(s):
    """True when the server closed (or reset) s; what it sent is dropped."""
    try:
        r, _, _ = select.select([s], [], [], 0)
        if not r:
            return False
        return s.recv(4096) == b""
    except OSError:
        return True


class Holder(threading.Thread):
    """Keeps up to `want` connections from `source` open; with `dribble`, each
    sends a request's first line and then a header line every `dribble`
    seconds, never the blank line that ends it."""

    def __init__(self, source, port, want, dribble):
        super().__init__(daemon=True)
        self.source, self.port, self.want, self.dribble = source, port, want, dribble
        self.opens = self.closed = 0

    def open_one(self):
        s = connect_from(self.source, self.port, 1.0)
        self.opens += 1
        if self.dribble:
            s.sendall(b"GET /standings HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.setblocking(False)
        return [s, time.monotonic()]

    def run(self):
        conns, n = [], 0
        while not stop.is_set():
            now = time.monotonic()
            for c in conns[:]:
                if is_closed(c[0]):
                    c[0].close()
                    conns.remove(c)
                    self.closed += 1
                elif self.dribble and now - c[1] >= self.dribble:
                    try:
                        n += 1
                        c[0].send(b"X-Dribble-%d: x\r\n" % n)
                        c[1] = now
                    except OSError:
                        pass
            for _ in range(min(10, self.want - len(conns))):
                if self.opens >= OPENS_MAX:
                    break
                try:
                    conns.append(self.open_one())
                except OSError:
                    break
            stop.wait(0.2)
        for c in conns:
            c[0].close()


class Flooder(threading.Thread):
    """Asks for pages as fast as they come, on one keep-alive connection."""

    PATHS = [b"/", b"/standings", b"/live", b"/api/live", b"/standings/boxing/gold",
             b"/fighters/1", b"/bouts/1", b"/nothing/here"]

    def __init__(self, source, port):
        super().__init__(daemon=True)
        self.source, self.port = source, port
        self.answers = self.opens = 0

    def run(self):
        s, i = None, 0
        while not stop.is_set() and self.opens < OPENS_MAX:
            try:
                if s is None:
                    s = connect_from(self.source, self.port, 5.0)
                    self.opens += 1
                path = self.PATHS[i % len(self.PATHS)] + b"?page=%d" % (i % 7 + 1)
                i += 1
                s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if not read_response(s):
                    raise OSError("no answer")
                self.answers += 1
            except OSError:
                if s:
                    s.close()
                s = None
                stop.wait(0.05)
        if s:
            s.close()


def read_response(s):
    """Reads one response (head and Content-Length body); its status, or 0."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = s.recv(65536)
        if not chunk:
            return 0
        got += chunk
    head, body = got.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            return 0
        body += chunk
    try:
        return int(head.split(b" ")[1])
    except (IndexError, ValueError):
        return 0


def probe(port):
    """One probe from 127.0.0.9: (status or 0, seconds taken or None, why)."""
    t0 = time.monotonic()
    try:
        s = connect_from("127.0.0.9", port, PROBE_BOUND)
        s.settimeout(max(0.1, PROBE_BOUND - (time.monotonic() - t0)))
        s.sendall(b"GET /standings HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        st = read_response(s)
        s.close()
        return st, time.monotonic() - t0, ""
    except OSError as e:
        return 0, None, str(e) or type(e).__name__


class SlowVisitor(threading.Thread):
    """A visitor from 127.0.0.13 on a slow line: every few seconds, one
    connection whose request takes VISIT_SECONDS to arrive (a header line a
    second), which must be answered 200 however fast the attackers' own
    connections come and go (they turn the server's connections over in
    well under a second)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.results = []  # (status or 0, why)

    def visit(self):
        try:
            s = connect_from("127.0.0.13", self.port, PROBE_BOUND)
            s.sendall(b"GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for n in range(VISIT_SECONDS):
                time.sleep(1)
                s.sendall(b"X-Slow-Line-%d: x\r\n" % n)
            s.settimeout(PROBE_BOUND)
            s.sendall(b"Connection: close\r\n\r\n")
            st = read_response(s)
            s.close()
            return st, ""
        except OSError as e:
            return 0, str(e) or type(e).__name__

    def run(self):
        while not stop.is_set():
            self.results.append(self.visit())
            stop.wait(1)


def lone_slowloris(port):
    """Seconds until the server closes a request that sends a header line every
    second, or None if it is still open after DEADLINE + 10 s."""
    s = connect_from("127.0.0.10", port, 5.0)
    t0 = time.monotonic()
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    s.setblocking(False)
    n = 0
    while time.monotonic() - t0 < DEADLINE + 10:
        if is_closed(s):
            s.close()
            return time.monotonic() - t0
        try:
            n += 1
            s.send(b"X-Slow-%d: x\r\n" % n)
        except OSError:
            s.close()
            return time.monotonic() - t0
        time.sleep(1)
    s.close()
    return None


def per_address(port):
    """From one address, 16 connections are held and a 17th is closed at once:
    (held, whether the 17th was closed within 3 s)."""
    held = [connect_from("127.0.0.11", port) for _ in range(16)]
    time.sleep(0.5)
    alive = sum(not is_closed(s) for s in held)
    extra = connect_from("127.0.0.11", port)
    closed = False
    t0 = time.monotonic()
    while time.monotonic() - t0 < 3 and not closed:
        closed = is_closed(extra)
        time.sleep(0.05)
    for s in held + [extra]:
        s.close()
    return alive, closed


def burst(port):
    """48 connections from one address opened at once, so that the server's
    workers accept them at the same time: how many are still open a second
    later (the address's share is 16, whichever worker accepted each)."""
    socks = []
    for _ in range(48):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.bind(("127.0.0.12", 0))
        s.connect_ex(("127.0.0.1", port))
        socks.append(s)
    time.sleep(1.5)
    alive = 0
    for s in socks:
        s.setblocking(True)
        alive += not is_closed(s)
        s.close()
    return alive


def attack(port):
    holders = [Holder("127.0.0.%d" % a, port, 200, 3) for a in (2, 3, 4)]
    holders += [Holder("127.0.0.%d" % a, port, 150, 0) for a in (5, 6)]
    # Many addresses, each within its share, together more than the server
    # holds: the oldest are dropped for the newcomers.
    holders += [Holder("127.0.1.%d" % a, port, 16, 3) for a in range(1, 21)]
    flooders = [Flooder("127.0.0.%d" % a, port) for a in (7, 8) for _ in range(4)]
    for t in holders + flooders:
        t.start()
    time.sleep(3)  # the attack under way
    visitor = SlowVisitor(port)
    visitor.start()
    results = []
    end = time.monotonic() + ATTACK_SECONDS
    while time.monotonic() < end:
        t0 = time.monotonic()
        results.append(probe(port))
        time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
    stop.set()
    for t in holders + flooders + [visitor]:
        t.join(timeout=10)
    bad = [r for r in results if r[0] != 200 or r[1] is None or r[1] > PROBE_BOUND]
    worst = max((r[1] for r in results if r[1] is not None), default=0)
    print("# %d probes, %d failed, slowest %.2f s; slowloris opened %s, idle opened %s, "
          "20 addresses opened %d, flood answered %d" % (len(results), len(bad), worst,
                                 [h.opens for h in holders[:3]], [h.opens for h in holders[3:5]],
                                 sum(h.opens for h in holders[5:]),
                                 sum(f.answers for f in flooders)))
    report("every probe answered within %.0f s during the attack" % PROBE_BOUND,
           results and not bad, "%d of %d failed: %r" % (len(bad), len(results), bad[:5]))
    report("the flood was answered too", sum(f.answers for f in flooders) > 0)
    late = [r for r in visitor.results if r[0] != 200]
    print("# the slow visitor: %d visits, %d not answered" % (len(visitor.results), len(late)))
    report("a visitor whose request takes %d s is answered during the attack" % VISIT_SECONDS,
           visitor.results and not late,
           "%d of %d not answered: %r" % (len(late), len(visitor.results), late[:5]))
    st, took, why = probe(port)
    report("answers after the attack", st == 200, "status %s %s" % (st, why))
    # Alone (nothing older to drop first): the deadline closes it.
    slow = [lone_slowloris(port)]
    report("a request dribbled a line a second is closed at the whole-request deadline",
           slow[0] is not None and slow[0] <= DEADLINE + 4,
           "still open after %d s" % (DEADLINE + 10) if slow[0] is None
           else "closed after %.1f s" % slow[0])
    if slow[0] is not None:
        print("# the lone slowloris was closed after %.1f s" % slow[0])
    alive, closed = per_address(port)
    report("one address holds 16 connections, a 17th is refused", alive == 16 and closed,
           "%d held, the 17th %s" % (alive, "closed" if closed else "kept"))
    alive = burst(port)
    report("48 connections at once from one address: 16 held, on %d threads" % THREADS,
           alive == 16, "%d held" % alive)


def config_errors(web, tmp, dbpath):
    """The limits' settings: a bad one is refused with what to write."""
    for lines, want in [
            ("request_timeout = 0\n", "request_timeout \"0\" is not a duration from 1s to 5m "
             "(like 90s, 2m or 1h; a plain number is seconds)"),
            ("request_timeout = 6m\n", "request_timeout \"6m\" is not a duration from 1s to 5m"),
            ("max_connections = 10001\n", "max_connections must be a whole number from 1 to"),
            ("max_connections = 8\nmax_connections_per_address = 9\n",
             "max_connections_per_address (9) is more than max_connections (8)"),
            ("max_connections_per_address = 1x\n", "must be a whole number"),
            ("threads = 0\n", "threads must be a whole number from 1 to 64 (the threads "
             "answering requests, each with its own database connection)"),
            ("threads = 65\n", "threads must be a whole number from 1 to 64"),
            ("threads = 2\nthreads = 2\n", "key \"threads\" is given twice in [web]"),
            ("threads = two\n", "threads must be a whole number")]:
        conf = os.path.join(tmp, "bad.conf")
        with open(conf, "w") as f:
            f.write("[bot]\ndatabase = %s\n[web]\nlisten = 127.0.0.1:1\n%s" % (dbpath, lines))
        p = subprocess.run([web, "-c", conf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=30)
        out = p.stdout.decode("utf-8", "replace")
        report("config: %s refused" % lines.strip().replace("\n", ", "),
               p.returncode == 2 and want in out and "bad.conf:" in out, out.strip())


def main():
    if len(sys.argv) != 3:
        print("usage: attack_test.py WEB WEBGEN", file=sys.stderr)
        return 2
    web, gen = (os.path.abspath(a) for a in sys.argv[1:])
    tmp = tempfile.mkdtemp(prefix="ringside-attack-")
    dbpath = os.path.join(tmp, "ringside.db")
    subprocess.run([gen, dbpath], stdout=subprocess.DEVNULL, check=True)
    config_errors(web, tmp, dbpath)
    port = free_port()
    conf = os.path.join(tmp, "ringside.conf")
    with open(conf, "w") as f:
        # request_timeout as a duration, as the bot's keys of seconds take it
        f.write("[bot]\ndatabase = %s\n\n[web]\nlisten = 127.0.0.1:%d\nthreads = %d\n"
                "request_timeout = %ds\n" % (dbpath, port, THREADS, DEADLINE))
    log = open(os.path.join(tmp, "web.log"), "w")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    proc = subprocess.Popen([web, "-c", conf], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        for _ in range(600):  # 30 s: the ASan build, on a machine running other suites
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.05)
        attack(port)
    finally:
        stop.set()
        proc.terminate()
        try:
            rc = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = -9
        log.close()
        text = open(os.path.join(tmp, "web.log")).read()
        report("exits cleanly on SIGTERM", rc == 0, "status %s" % rc)
        report("no sanitizer report", "Sanitizer" not in text and "runtime error" not in text,
               text[-2000:])
    print("%d passed, %d failed" % (passed, failed))
    if failed or os.environ.get("WEB_KEEP"):
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
