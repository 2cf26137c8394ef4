#!/usr/bin/env python3
"""parallel.py - runs test suites at the same time, each output printed whole.

    python3 tests/parallel.py [-j N] 'NAME: COMMAND' ...

Each COMMAND runs under `sh -c` in its own process group, its standard
output and error going to a file of its own. When one ends, its output is
printed whole under a `== NAME` header (never interleaved with another's),
with its exit status and wall time. The jobs start in the order given, at
most N at once (default: all), so put the longest first. Last comes one line
per job and `check: N passed, N failed` (jobs, not test cases); the exit
status is 1 when any job failed, 0 otherwise.

The suites here mostly wait (on IRC pacing, on deadlines), so running them
together costs little CPU; each one picks its own free ports and temporary
folders. On SIGINT or SIGTERM every running job's process group gets SIGTERM
(the end-to-end suites then stop their servers and bots), then SIGKILL after
30 s. Python 3 standard library only.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time


def parse(argv):
    """(jobs at once or None, [(name, command)]) from the command line."""
    limit = None
    if len(argv) >= 2 and argv[0] == "-j":
        limit = max(1, int(argv[1]))
        argv = argv[2:]
    jobs = []
    for arg in argv:
        name, sep, cmd = arg.partition(": ")
        if not sep or not name.strip() or not cmd.strip():
            raise ValueError("a job is 'NAME: COMMAND', not %r" % arg)
        jobs.append((name.strip(), cmd))
    return limit, jobs


def start(name, cmd, outdir, index):
    """Starts one job; returns (process, output path, start time)."""
    path = os.path.join(outdir, "%02d-%s.txt" % (index, name.replace("/", "_")))
    out = open(path, "wb")
    p = subprocess.Popen(["sh", "-c", cmd], stdin=subprocess.DEVNULL, stdout=out,
                         stderr=subprocess.STDOUT, start_new_session=True)
    out.close()
    return p, path, time.monotonic()


def show(name, rc, path, secs):
    """Prints one ended job's output whole, with its header and status."""
    sys.stdout.write("== %s\n" % name)
    sys.stdout.flush()
    with open(path, "rb") as f:
        data = f.read()
    sys.stdout.buffer.write(data)
    if data and not data.endswith(b"\n"):
        sys.stdout.buffer.write(b"\n")
    sys.stdout.write("== %s: %s (%.1f s)\n\n" % (name, "ok" if rc == 0 else "FAILED, exit %d" % rc,
                                                 secs))
    sys.stdout.flush()


def stop_all(running):
    """SIGTERM to every running job's process group, SIGKILL after 30 s."""
    for p, _, _ in running.values():
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 30
    for p, _, _ in running.values():
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def run(limit, jobs):
    """Runs the jobs; returns {name: (exit status, seconds)}."""
    def on_term(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    outdir = tempfile.mkdtemp(prefix="ringside-parallel-")
    pending = list(enumerate(jobs))
    running = {}  # name -> (process, output path, start)
    results = {}
    try:
        while pending or running:
            while pending and (limit is None or len(running) < limit):
                i, (name, cmd) = pending.pop(0)
                running[name] = start(name, cmd, outdir, i)
            for name, (p, path, t) in list(running.items()):
                if p.poll() is not None:
                    del running[name]
                    results[name] = (p.returncode, time.monotonic() - t)
                    show(name, p.returncode, path, results[name][1])
                    os.unlink(path)
            time.sleep(0.2)
    except KeyboardInterrupt:
        print("parallel: interrupted; stopping %s" % (", ".join(running) or "nothing"), flush=True)
        stop_all(running)
        for name, (p, path, t) in running.items():
            results[name] = (p.returncode if p.returncode else 130, time.monotonic() - t)
            show(name, results[name][0], path, results[name][1])
        for _, (name, _) in pending:
            results[name] = (130, 0.0)
    finally:
        for f in os.listdir(outdir):
            os.unlink(os.path.join(outdir, f))
        os.rmdir(outdir)
    return results


def main(argv):
    try:
        limit, jobs = parse(argv[1:])
    except ValueError as e:
        print("parallel: %s" % e, file=sys.stderr)
        return 2
    if not jobs:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    if len({n for n, _ in jobs}) != len(jobs):
        print("parallel: two jobs have the same name", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    results = run(limit, jobs)
    failed = [n for n, _ in jobs if results[n][0] != 0]
    for name, _ in jobs:
        rc, secs = results[name]
        print("%-8s %6.1f s  %s" % ("ok" if rc == 0 else "FAILED", secs, name))
    print("# %d jobs in %.1f s" % (len(jobs), time.monotonic() - t0))
    print("check: %d passed, %d failed" % (len(jobs) - len(failed), len(failed)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
