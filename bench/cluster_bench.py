#!/usr/bin/env python3
"""cluster_bench.py - bouts an hour with two bot processes on two IRC
servers sharing one PostgreSQL, beside one bot's measured the same way
(issue 29, item 6).

    python3 bench/cluster_bench.py BOT SIM   (from the repository root; BOT
                                              build/ringside, the optimised
                                              bot; SIM build/ringside-sim)

Without RINGSIDE_TEST_PG set it runs itself under tests/pg.sh run (a
throwaway server); with it, it uses that database.

Prints one figure a line, `name value unit`, as the other bench programs do
(diagnostics go to stderr):

  cluster.bouts_per_hour  bouts/h
      two bots at once, each on its own IRC server (ngircd, and InspIRCd 3)
      with its own [bot] network, both on the same PostgreSQL database;
      each runs bench/wire_bench.py's five-bouts scenario between its own
      players (its players, sheets, orders and checks, imported, not
      copied: every round's commentary found in the channel as
      ringside-sim --commentary derives it from the database, every order
      acknowledged), the two started together once both bots' players are
      ready. The bouts of both over the wall-clock time from the first
      challenge until the later bot wrote its last line (wire_bench's Tap
      between each bot and its server notes them), times 3600.
  cluster.one_bot_bouts_per_hour  bouts/h
      the same, measured the same way in the same run, before the two, with
      one bot alone (on ngircd, on the same PostgreSQL server, a network of
      its own). The ratio of the two is what a second bot adds.

Both servers keep their default flood settings: ngircd as tests/e2e/e2e.py
configures it (no flood keys), InspIRCd 3 as e2e.py configures it, whose
<connect> block writes out the flood keys at InspIRCd 3's defaults
(threshold 10, commandrate 1000: 1 command a second, fakelag on; its
<connect> timeout and limits aside); the bots have no [flood] section
(burst 4, 1 line a second). InspIRCd's defaults do not make the figure
meaningless: its fakelag lets through the bot's 1 line a second after a
burst of 4 as ngircd does (each bot's lines a second are on stderr). So each bot's figure is set by its own connection's 1 line a
second, and two bots, two connections, should make about twice one's,
unless the shared database or the machine holds them back. stderr has each
bot's lines, their rate and wire_bench's figures for each.

Bout length and count: boxing, 4 rounds and 5 bouts a bot (WIRE_BENCH_QUICK=1:
3 rounds and 3 bouts, for make bench-check; WIRE_BENCH_ROUNDS as wire_bench).

Exit status 0 when every figure was measured; 1 when a bot's run failed
(stderr says why; the temporary directories are kept); 2 for a bad command
line. The servers and bots are always stopped.

Environment: WIRE_BENCH_QUICK, WIRE_BENCH_ROUNDS, WIRE_BENCH_KEEP,
WIRE_BENCH_VERBOSE as wire_bench.py. Python 3 standard library, psql.
"""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
import e2e_failover  # noqa: E402
import wire_bench  # noqa: E402
from e2e import CHANNEL, check  # noqa: E402

QUICK = wire_bench.QUICK
BOUTS = 3 if QUICK else 5
# The bouts of all bots start together: a bot's players ready long before
# the other's wait for them, within the scenario's own waits.
WAIT = wire_bench.WAIT


def log(*args):
    print("cluster_bench:", *args, file=sys.stderr, flush=True)


class ClusterEnv(wire_bench.WireEnv):
    """wire_bench's environment with the bot on PostgreSQL under a network
    of its own, on ngircd or InspIRCd; its fighters' names end in `tag`
    (fighters are shared by every network: each name is taken once)."""

    # The database through psql, as tests/e2e/e2e_failover.py reads it.
    psql = e2e_failover.FailoverEnv.psql
    rows = e2e_failover.FailoverEnv.rows
    query = e2e_failover.FailoverEnv.query

    def __init__(self, bot_path, sim_path, name, server, uri, network, tag, barrier):
        super().__init__(bot_path, sim_path, name)
        self.server = server
        self.uri = uri
        self.db_path = uri
        self.network = network
        self.barrier = barrier
        self.sheets = [(n + tag, sheet) for n, sheet in wire_bench.SHEETS]
        self.t_first = None
        self.result = None

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra + "\n[bot]\nnetwork = %s\n" % self.network)

    def copy_db(self):
        """ringside-sim reads PostgreSQL as it is (a read-only session)."""
        return self.uri

    def bouts_begin(self):
        self.barrier.wait(WAIT)
        self.t_first = time.monotonic()


def five_bouts(env):
    """wire_bench's five bouts (BOUTS of them) on env; notes the span and
    the lines on env.result; returns wire_bench's figures for stderr."""
    figures = wire_bench.s_five_bouts(env)
    wire = env.tap.lines(env.t_first, time.monotonic())
    check(wire, "%s: the tap saw no line from the bot" % env.name)
    mine = env.query("SELECT count(*) FROM bouts WHERE network = ? AND state = 'over' "
                     "AND kind != 'league'", (env.network,))[0][0]
    check(mine == BOUTS, "%s: %d bouts of network %s over, not %d" %
          (env.name, mine, env.network, BOUTS))
    env.result = {"first": env.t_first, "end": wire[-1][0], "lines": len(wire), "bouts": BOUTS}
    return figures


def phase(label, envs):
    """Runs the five bouts on every env at once; True when all completed."""
    results, failures = {}, []

    def one(env):
        wire_bench.run(env, five_bouts, results, failures)
        env.barrier.abort()  # a bot that failed early frees the others

    threads = [threading.Thread(target=one, args=(env,), daemon=True) for env in envs]
    for th in threads:
        th.start()
    for th in threads:
        while th.is_alive():
            th.join(0.5)
    for env in envs:
        r = env.result
        if r:
            span = r["end"] - r["first"]
            log("%s: %s on %s, network %s: %d bouts in %.0f s, %d lines from the bot (%.2f a "
                "second): %.1f bouts/h; wire_bench: %s" %
                (label, env.name, env.server, env.network, r["bouts"], span, r["lines"],
                 r["lines"] / span, 3600.0 * r["bouts"] / span,
                 ", ".join("%s %s" % (n[5:], v) for n, v, _ in results.get(env.name, []))))
    return not failures


def bouts_per_hour(envs):
    """Every env's bouts over the time from the first challenge to the last
    line, an hour's worth."""
    first = min(env.result["first"] for env in envs)
    end = max(env.result["end"] for env in envs)
    return 3600.0 * sum(env.result["bouts"] for env in envs) / (end - first)


def usage_error(argv):
    """A message when the command line or the machine cannot run the bench."""
    if len(argv) != 3:
        return ("usage: python3 bench/cluster_bench.py BOT SIM   (e.g. build/ringside "
                "build/ringside-sim)")
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            return "cluster_bench: %s is not an executable; run make first" % path
    for prog in ("ngircd", "inspircd", "psql"):
        if not shutil.which(prog) and not os.path.exists("/usr/sbin/" + prog):
            return "cluster_bench: %s is missing; make deps" % prog
    return None


def main(argv):
    err = usage_error(argv)
    if err:
        print(err, file=sys.stderr)
        return 2
    uri = os.environ.get("RINGSIDE_TEST_PG")
    if not uri:  # a throwaway PostgreSQL of its own
        pg = os.path.join(HERE, "..", "tests", "pg.sh")
        return subprocess.call(["sh", pg, "run", sys.executable] + argv,
                               stdin=subprocess.DEVNULL)
    try:
        wire_bench.WIRE_ROUNDS = int(wire_bench.WIRE_ROUNDS)
        check(3 <= wire_bench.WIRE_ROUNDS <= 15, "")
    except (ValueError, wire_bench.Failure):
        print("cluster_bench: WIRE_BENCH_ROUNDS must be 3 to 15, not %r" %
              wire_bench.WIRE_ROUNDS, file=sys.stderr)
        return 2
    wire_bench.BOUTS = BOUTS

    def on_term(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)

    t0 = time.monotonic()
    bot, sim = argv[1], argv[2]
    one = [ClusterEnv(bot, sim, "one", "ngircd", uri, "one", "O", threading.Barrier(1))]
    both = threading.Barrier(2)
    two = [ClusterEnv(bot, sim, "ngircd", "ngircd", uri, "ngnet", "N", both),
           ClusterEnv(bot, sim, "inspircd", "inspircd", uri, "inspnet", "I", both)]
    ok = False
    try:
        ok = phase("one bot", one) and phase("two bots", two)
    except KeyboardInterrupt:
        log("interrupted")
    finally:
        for env in one + two:
            env.cleanup()
            if not ok or wire_bench.KEEP:
                log("%s: files kept in %s" % (env.name, env.dir))
            else:
                shutil.rmtree(env.dir, ignore_errors=True)
    if ok:
        single, cluster = bouts_per_hour(one), bouts_per_hour(two)
        print("cluster.bouts_per_hour %.1f bouts/h" % cluster)
        print("cluster.one_bot_bouts_per_hour %.1f bouts/h" % single)
        sys.stdout.flush()
        log("two bots %.1f bouts/h, one %.1f: %.2f times" % (cluster, single, cluster / single))
    log("total %.0f s%s" % (time.monotonic() - t0, "" if ok else "; failed"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
