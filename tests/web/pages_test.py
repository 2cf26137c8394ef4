#!/usr/bin/env python3
"""pages_test.py - every bout page and its JSON, byte for byte as they were.

    python3 tests/web/pages_test.py WEB WEBGEN          (from the repository root)
    python3 tests/web/pages_test.py --update WEB WEBGEN (writes the digests anew)

WEBGEN makes its database (tests/web/gen.c: the same file every time, its
clock and seeds being fixed); WEB serves it on a free loopback port, and every
/bouts/ID and /api/bouts/ID from 1 to one past the last bout (a 404) is asked
for once. The SHA-256 of each answer (status and body) must be the one in
tests/web/bout_pages.sha256: a bout page is rebuilt from the seed and the
orders at every request, so a change to its text, its figures or its chart
shows here, whatever made it (the speed work of issue 28 must change no byte).
A change meant to change the pages writes the digests anew with --update, and
says so in its commit.

Every check prints `ok - NAME` or `FAIL - NAME: why`; the last line is
`N passed, N failed`; the exit status is 1 if anything failed. Python 3
standard library only.
"""

import hashlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from ports import free_port  # noqa: E402

DIGESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bout_pages.sha256")


def answers(port, last):
    """{path: sha256 of "STATUS\\n" + body} for every bout address to last."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    got = {}
    for i in range(1, last + 1):
        for path in ("/bouts/%d" % i, "/api/bouts/%d" % i):
            c.request("GET", path)
            r = c.getresponse()
            body = r.read()
            got[path] = hashlib.sha256(b"%d\n" % r.status + body).hexdigest()
    return got


def serve(web, conf, log):
    """WEB started on conf, once it answers."""
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    proc = subprocess.Popen([web, "-c", conf], stdout=log, stderr=subprocess.STDOUT, env=env)
    port = int(open(conf).read().split("127.0.0.1:")[1].split()[0])
    for _ in range(600):  # 30 s: the ASan build on a loaded machine
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    return proc, port


def main():
    args = sys.argv[1:]
    update = args[:1] == ["--update"]
    args = args[1:] if update else args
    if len(args) != 2:
        print("usage: pages_test.py [--update] WEB WEBGEN", file=sys.stderr)
        return 2
    web, gen = (os.path.abspath(a) for a in args)
    tmp = tempfile.mkdtemp(prefix="ringside-pages-")
    dbpath = os.path.join(tmp, "ringside.db")
    out = subprocess.run([gen, dbpath], stdout=subprocess.PIPE, check=True)
    info = json.loads(out.stdout)
    last = max(v for v in info.values() if isinstance(v, int)) + 1
    conf = os.path.join(tmp, "ringside.conf")
    with open(conf, "w") as f:
        f.write("[bot]\ndatabase = %s\n\n[web]\nlisten = 127.0.0.1:%d\nthreads = 1\n" %
                (dbpath, free_port()))
    log = open(os.path.join(tmp, "web.log"), "w")
    proc, port = serve(web, conf, log)
    try:
        got = answers(port, last)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()
    if update:
        with open(DIGESTS, "w") as f:
            for path, digest in got.items():
                f.write("%s %s\n" % (digest, path))
        print("# wrote %d digests to %s" % (len(got), DIGESTS))
        shutil.rmtree(tmp)
        return 0
    want = {}
    for line in open(DIGESTS):
        digest, path = line.split()
        want[path] = digest
    passed = failed = 0
    differ = sorted((p for p in want if got.get(p) != want[p]), key=lambda p: (len(p), p))
    for name, ok, why in [
            ("the same addresses as recorded", sorted(got) == sorted(want),
             "recorded %d, asked %d" % (len(want), len(got))),
            ("every bout page and its JSON byte for byte as recorded", not differ,
             "%d differ: %s" % (len(differ), " ".join(differ[:20]))),
            ("no sanitizer report", "Sanitizer" not in open(os.path.join(tmp, "web.log")).read(),
             "see web.log")]:
        if ok:
            passed += 1
            print("ok - %s" % name)
        else:
            failed += 1
            print("FAIL - %s: %s" % (name, why))
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
