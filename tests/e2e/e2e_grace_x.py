#!/usr/bin/env python3
"""e2e_grace_x.py - a bout between two networks whose other bot goes down
(issue 29, rejoin_grace for a remote player): two real bots (the ASan
build) on one real PostgreSQL (tests/pg.sh), bot "one" on ngircd and bot
"two" on InspIRCd 3, each with its own [bot] network, as e2e_cross.py.

    sh tests/pg.sh run python3 tests/e2e/e2e_grace_x.py BOT SIM
                                        (from the repository root; without
                                        RINGSIDE_TEST_PG set the script runs
                                        itself under tests/pg.sh run)

alice plays on one, bob on two; one's bot owns their bouts. While two's bot
is on IRC and in its channel it holds its presence (db/lease.c); killed, it
holds nothing, and one's bot finds bob away within failover_seconds / 2.

Scenarios:
  1. back: a 3-round bout, alice's round 1 orders acknowledged, then kill -9
     of two's bot: one's channel hears that the bout waits for bob@two
     until a time, word for word as a restart's wait, and alice is told her
     orders are in and the clock waits; no round is fought meanwhile. Two's
     bot started again (as its standby would take over): the bout goes on
     ("goes on: round 1 of 3 is next."), bob, identified again on two, is
     asked for round 1, and his orders fight it with alice's acknowledged
     ones (stored as she gave them); the bout finishes, its commentary is
     heard exactly once in one's channel and at least once in two's, and
     ringside-sim --replay matches.
  2. db restart: both bots at failover_seconds = 60 (SIGHUP), a 3-round
     bout, alice's orders in, PostgreSQL stopped and started: every session
     ends, presence with it, and each bot takes it again once the server is
     back: one's channel never hears that the bout waits, bob's orders
     (still identified on two) fight round 1 with alice's, the bout ends.
  3. irc lost: two's IRC server (InspIRCd) stopped mid-bout: two's bot
     still runs and holds its lease, but is off IRC, so the bout waits for
     bob@two; the server started again, two's bot rejoins, the bout goes on
     ("goes on: round 1 of 3 is next.") and finishes.
  4. gone: one's grace made short (SIGHUP), a 3-round bout, alice's orders
     in, kill -9 of two's bot: the bout waits for bob@two, and once the
     grace has passed goes on without him ("goes on without bob@two"),
     waiting no more; his rounds are fought at the deadline from his
     fallback, and the bout ends with its result and records in one's
     channel. Two's bot started again says them in its channel too.
  5. stop: SIGTERM to every bot still running: exit 0, no sanitizer report.

Output: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N failed`; exit
status 1 if anything failed. E2E_KEEP=1 keeps the temporary folders.
"""

import os
import re
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_cross  # noqa: E402
import e2e_failover  # noqa: E402
from e2e import CHANNEL, TIMEOUT, Client, Failure, check, tail  # noqa: E402
from e2e_bouts import STORED, player, tell, wait_chan, wait_private_at  # noqa: E402
from e2e_cross import commentary, plain_chan, wait_lines  # noqa: E402

GRACE = 90        # [bout] rejoin_grace of scenario 1: room for two's bot to start again
SHORT_GRACE = 6   # scenario 4's, set by SIGHUP
SHORT_TIMEOUT = 10  # scenario 4's order_timeout: bob's rounds fought at the deadline
# Scenario 2's failover_seconds: the server may be away 30 s (a loaded
# machine once took more than 15 s to stop and start it).
RESTART_FAILOVER = 60
# What one's channel hears when bob's bot goes, and when the bout goes on:
# bout_wait's and bout_resume's words, as after a restart.
WAITS = (r"^Bout #%d, Rocky vs Ivan, waits for bob@two to come back, until "
         r"\d\d:\d\d:\d\d UTC at the latest: round %d of %d is next\.$")
GOES_ON = r"^Bout #%d, Rocky vs Ivan, goes on: round %d of %d is next\.$"
GOES_ON_WITHOUT = r"^Bout #%d, Rocky vs Ivan, goes on without bob@two: round %d of %d is next\.$"
HELD = r"your orders for it are in already; the clock starts once bob@two is back\. "
# Whether network %s's bot says it is on IRC (db/lease.c: presence).
PRESENT = e2e_cross.LEASE_HELD.replace("ringside network", "ringside present").replace(
    "1380535879", "1380535888")
PROMPT = r"^Bout #%d, round %d of %d: your orders for %s \(e\.g\. "


class GraceEnv(e2e_cross.CrossEnv):
    """CrossEnv whose bots have a rejoin_grace (and an order_timeout) of the
    test's choosing."""

    grace = GRACE

    def write_conf(self, name, nick, network, database, failover=e2e_failover.FAILOVER):
        path = super().write_conf(name, nick, network, database, failover)
        with open(path) as f:
            text = f.read()
        check("rejoin_grace = 0\n" in text, "test error: no rejoin_grace in %s" % path)
        with open(path, "w") as f:
            f.write(text.replace("rejoin_grace = 0\n", "rejoin_grace = %d\n" % self.grace))
        return path

    def reconf(self, name, network, server_env, failover):
        """Bot `name`'s configuration written again (failover_seconds,
        rejoin_grace, order_timeout as set now) and reloaded by SIGHUP."""
        b = self.bot_of(name)
        since = len(b.log_text())
        port = self.port
        self.port = server_env.port
        try:
            self.write_conf(b.name, b.nick, network, self.uri, failover)
        finally:
            self.port = port
        b.proc.send_signal(signal.SIGHUP)
        self.wait_log_of(b, r"configuration reloaded", since=since)

    def bot_of(self, name):
        return [b for b in self.bots if b.name == name and b.alive()][0]

    def kill_two(self):
        """kill -9 of two's bot."""
        two = self.bot_of("bot-two")
        two.proc.send_signal(signal.SIGKILL)
        two.proc.wait(30)

    def start_two(self):
        """Two's bot started again (a standby taking over would do the same)."""
        self.spawn_on(self.two, "bot-two", "two")
        self.two.wait_bot_in(CHANNEL, timeout=TIMEOUT + 30)


def fought(env, bout_id, r, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while (env.bout(bout_id)["round"] or 0) < r:
        check(time.monotonic() < deadline, "round %d of bout %d was never fought" % (r, bout_id))
        time.sleep(0.1)


def over(env, bout_id, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while env.bout(bout_id)["state"] != "over":
        check(time.monotonic() < deadline, "bout %d never ended" % bout_id)
        time.sleep(0.1)


def start_bout(env, a, b, wa, wb, rounds):
    """alice challenges bob@two, bob accepts on two: the bout's number."""
    sa, sb, start_b = len(wa.lines), len(wb.lines), len(b.lines)
    a.cmd("challenge bob@two rounds=%d" % rounds, CHANNEL)
    try:
        m = wait_chan(wa, r"^alice challenges bob@two to bout #(\d+), ", sa)
    except Failure:
        print("\n".join(plain_chan(wa, sa)))
        raise
    bout_id = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(wb, r"^alice challenges bob@two to bout #%d, " % bout_id, sb)
    b.cmd("accept", CHANNEL)
    wait_chan(wa, r"^Bout #%d is on\. " % bout_id, sa)
    wait_private_at(b, PROMPT % (bout_id, 1, rounds, "Ivan"), start_b)
    return bout_id


def waits_once(wa, bout_id, r, rounds, start):
    """One's channel heard once from start that the bout waits for bob@two."""
    rx = re.compile(WAITS % (bout_id, r, rounds))
    n = sum(1 for ln in plain_chan(wa, start) if rx.search(ln))
    check(n == 1, "one's channel heard %d times that bout %d waits for bob@two" % (n, bout_id),
          "\n".join(plain_chan(wa, start)))


def s_back(env):
    """Two's bot killed mid-round and back within the grace: the bout waits,
    then goes on with every acknowledged order."""
    a = player(env, "alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env.two, "bob", "create Ivan str=13 spd=12 agl=12 tgh=12 hgt=11")
    env.pw = {"alice": a.pw, "bob": b.pw}
    wa, wb = Client(env, "watchone", [CHANNEL]), Client(env.two, "watchtwo", [CHANNEL])
    sa, sb = len(wa.lines), len(wb.lines)
    bout_id = start_bout(env, a, b, wa, wb, 3)
    start_a = len(a.lines)
    tell(a, "5/5/10", STORED % (1, "Rocky"))
    env.kill_two()
    t0 = time.monotonic()
    wait_chan(wa, WAITS % (bout_id, 1, 3), sa)
    noticed = time.monotonic() - t0
    wait_private_at(a, HELD, start_a)
    check(env.bout(bout_id)["round"] == 0, "round 1 was fought while bob@two was away")
    start_b = len(b.lines)
    env.start_two()
    wait_chan(wa, GOES_ON % (bout_id, 1, 3), sa)
    waits_once(wa, bout_id, 1, 3, sa)
    tell(b, "identify " + b.pw, r"^you are identified as bob ")
    wait_private_at(b, PROMPT % (bout_id, 1, 3, "Ivan"), start_b)
    check(env.bout(bout_id)["round"] == 0, "round 1 was fought before bob's orders")
    b.cmd("6/5/9")
    fought(env, bout_id, 1)
    got = env.query("SELECT side, text, source FROM orders WHERE bout = ? AND round = 1 "
                    "ORDER BY side", (bout_id,))
    check([(s, src) for s, _, src in got] == [(0, "player"), (1, "player")],
          "round 1's orders are not both the players'", str(got))
    for r, (oa, ob) in ((2, ("6/6/8", "5/5/10")), (3, ("5/6/9", "7/5/8"))):
        tell(a, oa, STORED % (r, "Rocky"))
        b.cmd(ob)
        fought(env, bout_id, r)
    over(env, bout_id)
    lines = commentary(env, bout_id)
    wait_lines(wa, lines, sa, "one's commentary")
    wait_lines(wb, lines, sb, "two's commentary")
    heard = plain_chan(wa, sa)
    for ln in lines:
        check(heard.count(ln) == 1, "one's channel heard %d times: %s" % (heard.count(ln), ln))
    p, out, _ = env.sim("--replay", bout_id)
    check(p.returncode == 0, "ringside-sim --replay of bout %d failed" % bout_id, out)
    env.clients_kept = (a, b, wa, wb)
    return ["bout #%d waited %.1f s after the kill, went on when two's bot was back, replayed"
            % (bout_id, noticed)]


def s_db_restart(env):
    """The database restarted mid-bout: every session ends, each bot's
    presence with it, and each takes it again within a second or two of
    the server's return: the bout does not wait for bob@two, and goes on."""
    a, b, wa, wb = env.clients_kept
    for name, network, server_env in (("bot-one", "one", env), ("bot-two", "two", env.two)):
        env.reconf(name, network, server_env, RESTART_FAILOVER)  # the server may be away 30 s
    one, two = env.bot_of("bot-one"), env.bot_of("bot-two")
    sa = len(wa.lines)
    bout_id = start_bout(env, a, b, wa, wb, 3)
    tell(a, "5/5/10", STORED % (1, "Rocky"))
    since_one = len(one.log_text())
    e2e_failover.pg_ctl(env, "stop")
    try:
        env.wait_log_of(one, r"the database cannot be reached: .*; holding every line back",
                        since=since_one)
    finally:
        e2e_failover.pg_ctl(env, "start")
    back = r"the database is back after \d+ s, the lease of network %s held again"
    env.wait_log_of(one, back % "one", since=since_one, timeout=RESTART_FAILOVER + TIMEOUT)
    # Two's bot may find its session gone only at its next look (a check
    # of its lease, or a statement): its presence is back with it.
    deadline = time.monotonic() + RESTART_FAILOVER + TIMEOUT
    while env.query(PRESENT % "two")[0][0] == 0:
        check(time.monotonic() < deadline, "two's bot never said it was present again",
              tail(two.log, 30))
        time.sleep(0.2)
    # Long enough for one's bot to have read two's presence again and again
    # (every failover_seconds / 4), and to have found it missing if it were.
    time.sleep(RESTART_FAILOVER / 2 + 1)
    b.cmd("6/5/9")
    fought(env, bout_id, 1)
    for r, (oa, ob) in ((2, ("6/6/8", "5/5/10")), (3, ("5/6/9", "7/5/8"))):
        tell(a, oa, STORED % (r, "Rocky"))
        b.cmd(ob)
        fought(env, bout_id, r)
    over(env, bout_id)
    wait_chan(wa, r"^Records now: ", sa)
    heard = [ln for ln in plain_chan(wa, sa) if "waits for" in ln]
    check(not heard, "the bout waited while the database restarted", "\n".join(heard))
    check("has no bot on IRC now" not in one.log_text()[since_one:],
          "one's bot took two's for gone while the database restarted", tail(one.log, 30))
    got = env.query("SELECT side, text, source FROM orders WHERE bout = ? AND round = 1 "
                    "ORDER BY side", (bout_id,))
    check(got == [(0, "5/5/10", "player"), (1, "6/5/9", "player")],
          "round 1 was not fought with the acknowledged orders", str(got))
    for name, network, server_env in (("bot-one", "one", env), ("bot-two", "two", env.two)):
        env.reconf(name, network, server_env, e2e_failover.FAILOVER)
    return ["bout #%d went on through the restart without waiting" % bout_id]


def s_irc_lost(env):
    """Two's IRC server stopped mid-bout: two's bot still runs and holds its
    lease, but is not on IRC: the bout waits for bob@two; the server back,
    two's bot rejoins and the bout goes on."""
    a, b, wa, wb = env.clients_kept
    sa = len(wa.lines)
    bout_id = start_bout(env, a, b, wa, wb, 3)
    tell(a, "5/5/10", STORED % (1, "Rocky"))
    two = env.bot_of("bot-two")
    since = len(two.log_text())
    env.two.stop_server()
    env.wait_log_of(two, r"disconnected \(", since=since)
    wait_chan(wa, WAITS % (bout_id, 1, 3), sa)
    check(two.alive() and env.query(e2e_cross.LEASE_HELD % "two")[0][0] == 1,
          "two's bot does not hold its lease while off IRC")
    check(env.bout(bout_id)["round"] == 0, "round 1 was fought while bob@two was away")
    env.two.start_server()
    env.two.wait_bot_in(CHANNEL, timeout=e2e.RECONNECT_TIMEOUT + TIMEOUT)
    wait_chan(wa, GOES_ON % (bout_id, 1, 3), sa)
    b = Client(env.two, "bob", [CHANNEL])
    wb = Client(env.two, "watchtwo", [CHANNEL])
    tell(b, "identify " + env.pw["bob"], r"^you are identified as bob ")
    b.cmd("6/5/9")
    fought(env, bout_id, 1)
    for r, (oa, ob) in ((2, ("6/6/8", "5/5/10")), (3, ("5/6/9", "7/5/8"))):
        tell(a, oa, STORED % (r, "Rocky"))
        b.cmd(ob)
        fought(env, bout_id, r)
    over(env, bout_id)
    waits_once(wa, bout_id, 1, 3, sa)
    env.clients_kept = (a, b, wa, wb)
    return ["bout #%d waited while two's bot was off IRC (its lease held), went on when it "
            "rejoined" % bout_id]


def s_gone(env):
    """Two's bot killed and not back within the grace: the bout goes on
    without bob and ends at its deadlines."""
    a, b, wa, wb = env.clients_kept
    env.grace, env.order_timeout = SHORT_GRACE, SHORT_TIMEOUT
    env.reconf("bot-one", "one", env, e2e_failover.FAILOVER)
    sa = len(wa.lines)
    bout_id = start_bout(env, a, b, wa, wb, 3)
    tell(a, "5/5/10", STORED % (1, "Rocky"))
    env.kill_two()
    wait_chan(wa, WAITS % (bout_id, 1, 3), sa)
    check(env.bout(bout_id)["round"] == 0, "round 1 was fought while bob@two was away")
    wait_chan(wa, GOES_ON_WITHOUT % (bout_id, 1, 3), sa, timeout=SHORT_GRACE + TIMEOUT)
    fought(env, bout_id, 1, timeout=SHORT_TIMEOUT + TIMEOUT)
    got = env.query("SELECT side, source FROM orders WHERE bout = ? AND round = 1 ORDER BY side",
                    (bout_id,))
    check(got[0] == (0, "player") and got[1][1] != "player",
          "round 1: alice's orders and bob's fallback expected", str(got))
    for r, oa in ((2, "6/6/8"), (3, "5/6/9")):
        tell(a, oa, STORED % (r, "Rocky"))
        fought(env, bout_id, r, timeout=SHORT_TIMEOUT + TIMEOUT)
    over(env, bout_id)
    wait_chan(wa, r"^Records now: ", sa)
    waits_once(wa, bout_id, 1, 3, sa)
    sb = len(wb.lines)
    env.start_two()
    wait_chan(wb, r"^Records now: ", sb)  # said on two once its bot is back
    for c in (a, b, wa, wb):
        c.quit()
    return ["bout #%d went on without bob@two after %d s and ended at its deadlines"
            % (bout_id, SHORT_GRACE)]


def run(env):
    passed = failed = 0
    for name, fn in (("back", s_back), ("db restart", s_db_restart), ("irc lost", s_irc_lost),
                     ("gone", s_gone), ("stop", e2e_cross.s_stop)):
        try:
            notes = fn(env)
            print("ok - %s%s" % (name, (": " + "; ".join(notes)) if notes else ""))
            passed += 1
        except Failure as e:
            print("FAIL - %s: %s" % (name, "\n".join(str(x) for x in e.args)))
            failed += 1
        except Exception:  # noqa: BLE001 - a test error is a failure too
            print("FAIL - %s: %s" % (name, traceback.format_exc()))
            failed += 1
        sys.stdout.flush()
    for bt in env.bots:
        if failed:
            print("--- %s log (tail)\n%s" % (bt.name, tail(bt.log, 40)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main(argv):
    return e2e_cross.cross_main(argv, "e2e_grace_x", GraceEnv, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
