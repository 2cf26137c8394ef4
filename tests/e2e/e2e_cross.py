#!/usr/bin/env python3
"""e2e_cross.py - a bout between players of two networks (issue 29): two real
bots (the ASan build) on one real PostgreSQL (tests/pg.sh), bot "one" on
ngircd and bot "two" on InspIRCd 3, each with its own [bot] network.

    sh tests/pg.sh run python3 tests/e2e/e2e_cross.py BOT SIM
                                        (from the repository root; without
                                        RINGSIDE_TEST_PG set the script runs
                                        itself under tests/pg.sh run)

alice plays on one, bob on two. alice says `!challenge bob@two rounds=3`
on one: both channels hear the challenge, whose tale of the tape names the
other network's player by his network ("Ivan (bob@two)" on one, "Rocky
(alice@one)" on two); bob says `!accept` on two (his
bot relays it to one's, which runs the bout); both channels hear the tale
of the tape; each player is prompted on his own network; every round the
first orders are acknowledged ("round N orders stored"), on the player's
own network, the round's commentary (as ringside-sim --commentary derives
it from PostgreSQL) is heard exactly once in each channel; the bout ends
with the result and records in both channels, the fighters' records are
stored, ringside-sim --replay matches, and every row of the relay table is
said (or gone) once both bots said everything.

crash: bot one restarted with RINGSIDE_TEST_RELAY_KILL="Round 2: " (the
test knob of bot/relay.c), so it kills itself (SIGKILL) after round 2 of
a new bout is committed and before its commentary is relayed; started
again, it says round 2 again in its channel from the database and relays
it (two's channel had none of it): every line of the bout is heard
exactly once in each channel, "what I had not said yet" once in each, and
the bout finishes and replays.

between: the same with RINGSIDE_TEST_RELAY_KILL="+Round 2: ": bot one
kills itself inside the turn's relay transaction, after writing round 2's
first channel line and before the row after it; none of the turn's rows
is committed, so after the restart two's channel hears round 2 (and "what
I had not said yet") once, as one's does.

cancel: the admin cancels a live bout of two networks on one: both
channels hear "Bout #N (Rocky vs Ivan) is cancelled by boss: no result."

Then SIGTERM to both bots: exit 0 and no sanitizer report.

On SQLite the challenge is refused (tests/check_netcmd.c checks the words).

Output: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N failed`; exit
status 1 if anything failed. E2E_KEEP=1 keeps the temporary folders.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_failover  # noqa: E402
from e2e import ADMIN, CHANNEL, TIMEOUT, Client, Failure, check, tail  # noqa: E402
from e2e_bouts import STORED, player, tell, wait_chan, wait_private_at  # noqa: E402

ROUNDS = 3
# Whether network %s's lease (db/lease.c: the two-key advisory lock) is held.
LEASE_HELD = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND "
              "objsubid = 2 AND classid::text::bigint = 1380535879 AND objid::text::bigint = "
              "(hashtext('ringside network %s')::bigint & 4294967295)")
ORDERS_A = ["5/5/10", "6/6/8", "5/6/9"]
# Rows of the relay table not (yet) said: a line waiting, a command or a drop.
UNSAID = "SELECT count(*) FROM relay WHERE said = 0"
AGAIN = r"^Bout #%d: what I had not said yet when I stopped:$"
ORDERS_B = ["6/5/9", "5/5/10", "7/5/8"]


class CrossEnv(e2e_failover.FailoverEnv):
    """FailoverEnv (ngircd, PostgreSQL) with a second server, InspIRCd 3."""

    def __init__(self, bot_path, sim_path, uri):
        super().__init__(bot_path, sim_path, uri)
        self.two = e2e.Env(bot_path, "inspircd")

    def spawn_on(self, server_env, name, network):
        """A bot of `network` on server_env's IRC server."""
        port = self.port
        self.port = server_env.port
        try:
            return self.spawn(name, network=network)
        finally:
            self.port = port


def plain_chan(c, start=0):
    """What the bot said in the channel from line start, formatting removed."""
    with c.cond:
        lines = c.lines[start:]
    return [e2e.plain(m.text).strip() for m in lines
            if m.cmd == "PRIVMSG" and m.nick.lower() == e2e.BOT_NICK and
            m.target.lower() == CHANNEL]


def commentary(env, bout_id):
    p, out, _ = env.sim("--commentary", bout_id)
    check(p.returncode == 0, "ringside-sim --commentary failed", out)
    return [e2e.plain(ln).strip() for ln in out.splitlines() if ln.strip()]


def wait_lines(c, want, start, what):
    """Waits until every line of want was said in c's channel from start."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        heard = plain_chan(c, start)
        missing = [w for w in want if w not in heard]
        if not missing:
            return heard
        if time.monotonic() > deadline:
            print("missing:\n" + "\n".join(missing) + "\nheard:\n" + "\n".join(heard))
            raise Failure("%s never heard %s" % (c.nick, what))
        time.sleep(0.1)


def s_cross(env):
    """A bout of alice@one and bob@two, heard in both channels, replayed."""
    a = player(env, "alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env.two, "bob", "create Ivan str=13 spd=12 agl=12 tgh=12 hgt=11")
    env.pw = {"alice": a.pw, "bob": b.pw}
    wa, wb = Client(env, "watchone", [CHANNEL]), Client(env.two, "watchtwo", [CHANNEL])
    sa, sb = len(wa.lines), len(wb.lines)
    start_a, start_b = len(a.lines), len(b.lines)
    a.cmd("challenge bob@two rounds=%d" % ROUNDS, CHANNEL)
    # The challenge carries the tale of the tape; each channel names the
    # other network's player by his network.
    rx = (r"^alice challenges bob@two to bout #(\d+), boxing, %d rounds: Rocky \(alice%s\) .* vs "
          r"Ivan \(bob%s\) .*\. bob@two: say !accept or !decline within ")
    m = wait_chan(wa, rx % (ROUNDS, "", "@two"), sa)
    bout_id = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(wb, rx % (ROUNDS, "@one", ""), sb)  # relayed to two's channel
    check(env.bout(bout_id)["network"] == "one", "the bout is not run by one's bot")
    b.cmd("accept", CHANNEL)
    for c in (wa, wb):
        try:
            # The start, in both channels: alice is asked there for round
            # 1 (she is in one's channel), bob privately on two.
            wait_chan(c, r"^Bout #%d is on\. Round 1 of %d: alice \(Rocky\), your orders "
                      % (bout_id, ROUNDS), sa if c is wa else sb)
        except Failure as e:
            print("\n".join(plain_chan(c, sa if c is wa else sb)))
            raise
    prompt = r"^Bout #%d, round %d of %d: your orders for %s \(e\.g\. "
    wait_private_at(b, prompt % (bout_id, 1, ROUNDS, "Ivan"), start_b)
    for r in range(1, ROUNDS + 1):
        first, last = (a, b) if r % 2 else (b, a)
        fo, lo = (ORDERS_A, ORDERS_B) if r % 2 else (ORDERS_B, ORDERS_A)
        ff = "Rocky" if first is a else "Ivan"
        tell(first, fo[r - 1], STORED % (r, re.escape(ff)))
        last.cmd(lo[r - 1])
        deadline = time.monotonic() + TIMEOUT
        while (env.bout(bout_id)["round"] or 0) < r:
            check(time.monotonic() < deadline, "round %d was never fought" % r)
            time.sleep(0.1)
    deadline = time.monotonic() + TIMEOUT
    while env.bout(bout_id)["state"] != "over":
        check(time.monotonic() < deadline, "bout %d never ended" % bout_id)
        time.sleep(0.1)
    lines = commentary(env, bout_id)
    heard_a = wait_lines(wa, lines, sa, "one's commentary")
    heard_b = wait_lines(wb, lines, sb, "two's commentary")
    wait_chan(wa, r"^Records now: ", sa)  # the result and records: both channels
    wait_chan(wb, r"^Records now: ", sb)
    heard_a, heard_b = plain_chan(wa, sa), plain_chan(wb, sb)
    for r in range(2, ROUNDS + 1):  # each prompted on his own network
        wait_private_at(a, prompt % (bout_id, r, ROUNDS, "Rocky"), start_a)
        wait_private_at(b, prompt % (bout_id, r, ROUNDS, "Ivan"), start_b)
    for ln in lines:
        check(heard_a.count(ln) == 1, "one's channel heard %d times: %s" % (heard_a.count(ln), ln))
        check(heard_b.count(ln) == 1, "two's channel heard %d times: %s" % (heard_b.count(ln), ln))
    p, out, _ = env.sim("--replay", bout_id)
    check(p.returncode == 0, "ringside-sim --replay of bout %d failed" % bout_id, out)
    fr, fi = env.fighter("Rocky"), env.fighter("Ivan")
    check(fr["wins"] + fr["losses"] + fr["draws"] == 1 and
          fi["wins"] + fi["losses"] + fi["draws"] == 1, "the records are not stored")
    deadline = time.monotonic() + TIMEOUT
    while env.query(UNSAID)[0][0] != 0:
        check(time.monotonic() < deadline, "the relay table still holds rows not said",
              str(env.query("SELECT network, kind, target, text FROM relay WHERE said = 0")))
        time.sleep(0.2)
    for c in (a, b, wa, wb):
        c.quit()
    return ["bout #%d: %d rounds, each heard once in both channels, replayed" % (bout_id, ROUNDS)]


def restart_one(env, name, knob=None):
    """Bot one again, as `name`, with RINGSIDE_TEST_RELAY_KILL = knob."""
    if knob:
        os.environ["RINGSIDE_TEST_RELAY_KILL"] = knob
    try:
        b = env.spawn_on(env, name, "one")
    finally:
        os.environ.pop("RINGSIDE_TEST_RELAY_KILL", None)
    env.wait_bot_in(CHANNEL)
    return b


def s_crash(env):
    """Bot one killed between round 2's commit and its relay: restarted, it
    relays round 2 too, and each channel hears every round once."""
    return crash_at(env, "Round 2: ", "k", "between round 2's commit and its relay")


def s_between(env):
    """Bot one killed in the turn's relay transaction, between round 2's
    first channel line (written) and the row after it: none of the turn's
    rows is committed, so two's channel hears round 2 after the restart,
    whole and once (before the rows were one transaction, it had the first
    line only and never the rest)."""
    return crash_at(env, "+Round 2: ", "b", "between two rows of round 2")


def crash_at(env, knob, tag, what):
    """A bout whose owner, bot one, dies at RINGSIDE_TEST_RELAY_KILL = knob
    after round 2, then restarts: every line heard once in both channels."""
    one = [bt for bt in env.bots if bt.alive() and "one" in bt.name][-1]
    one.proc.send_signal(signal.SIGTERM)
    rc = one.proc.wait(30)
    check(rc == 0, "%s exited %d after SIGTERM" % (one.name, rc), tail(one.log, 20))
    killed = restart_one(env, "bot-one-" + tag, knob)
    a = Client(env, "alice", [CHANNEL])
    b = Client(env.two, "bob", [CHANNEL])
    wa, wb = Client(env, "watchone", [CHANNEL]), Client(env.two, "watchtwo", [CHANNEL])
    tell(a, "identify " + env.pw["alice"], r"^you are identified as alice ")
    tell(b, "identify " + env.pw["bob"], r"^you are identified as bob ")
    sa, sb = len(wa.lines), len(wb.lines)
    a.cmd("challenge bob@two rounds=%d" % ROUNDS, CHANNEL)
    m = wait_chan(wa, r"^alice challenges bob@two to bout #(\d+), ", sa)
    bout_id = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(wb, r"^alice challenges bob@two to bout #%d, " % bout_id, sb)
    b.cmd("accept", CHANNEL)
    wait_chan(wa, r"^Bout #%d is on\. " % bout_id, sa)
    tell(a, ORDERS_A[0], STORED % (1, "Rocky"))
    b.cmd(ORDERS_B[0])
    wait_chan(wb, r"^Round 1: ", sb)
    tell(b, ORDERS_B[1], STORED % (2, "Ivan"))
    a.cmd(ORDERS_A[1])  # round 2 is fought, committed: then the kill
    rc = killed.proc.wait(TIMEOUT)
    check(rc == -signal.SIGKILL, "%s exited %d, not killed by its knob" % (killed.name, rc),
          tail(killed.log, 20))
    check(env.bout(bout_id)["round"] == 2, "round 2 of bout %d is not committed" % bout_id)
    restart_one(env, "bot-one-again-" + tag)
    # Round 2, said again in one's channel and relayed to two's, once.
    wait_chan(wa, AGAIN % bout_id, sa)
    wait_chan(wb, AGAIN % bout_id, sb)
    tell(a, "identify " + env.pw["alice"], r"^you are identified as alice ")
    a.cmd(ORDERS_A[2])
    b.cmd(ORDERS_B[2])
    deadline = time.monotonic() + TIMEOUT
    while env.bout(bout_id)["state"] != "over":
        check(time.monotonic() < deadline, "bout %d never ended" % bout_id,
              tail(env.bots[-1].log, 30))
        time.sleep(0.1)
    lines = commentary(env, bout_id)
    wait_lines(wa, lines, sa, "one's commentary")
    wait_lines(wb, lines, sb, "two's commentary")
    wait_chan(wa, r"^Records now: ", sa)
    wait_chan(wb, r"^Records now: ", sb)
    heard_a, heard_b = plain_chan(wa, sa), plain_chan(wb, sb)
    for ln in lines + ["Bout #%d: what I had not said yet when I stopped:" % bout_id]:
        check(heard_a.count(ln) == 1, "one's channel heard %d times: %s" % (heard_a.count(ln), ln))
        check(heard_b.count(ln) == 1, "two's channel heard %d times: %s" % (heard_b.count(ln), ln))
    p, out, _ = env.sim("--replay", bout_id)
    check(p.returncode == 0, "ringside-sim --replay of bout %d failed" % bout_id, out)
    deadline = time.monotonic() + TIMEOUT
    while env.query(UNSAID)[0][0] != 0:
        check(time.monotonic() < deadline, "the relay table still holds rows not said",
              str(env.query("SELECT network, kind, target, text FROM relay WHERE said = 0")))
        time.sleep(0.2)
    for c in (a, b, wa, wb):
        c.quit()
    return ["bout #%d: killed %s, restarted: every line heard once in both channels"
            % (bout_id, what)]


def s_cancel(env):
    """The admin cancels a live bout of two networks on one: both channels
    hear it (the game says it about the bout, so it is relayed)."""
    env.bot_conf = [bt for bt in env.bots if bt.alive() and "one" in bt.name][-1].conf
    pw = "boss-cross-pw-%d" % (os.getpid() % 1000)
    env.add_admin(ADMIN, pw)
    boss = Client(env, ADMIN, [CHANNEL])
    a = Client(env, "alice", [CHANNEL])
    b = Client(env.two, "bob", [CHANNEL])
    tell(boss, "identify " + pw, r"^you are identified as %s " % ADMIN)
    tell(a, "identify " + env.pw["alice"], r"^you are identified as alice ")
    tell(b, "identify " + env.pw["bob"], r"^you are identified as bob ")
    sa, sb = len(a.lines), len(b.lines)
    a.cmd("challenge bob@two", CHANNEL)
    m = wait_chan(a, r"^alice challenges bob@two to bout #(\d+), ", sa)
    bout_id = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(b, r"^alice challenges bob@two to bout #%d, " % bout_id, sb)
    b.cmd("accept", CHANNEL)
    wait_chan(a, r"^Bout #%d is on\. " % bout_id, sa)
    tell(boss, "cancel %d" % bout_id, r"^bout #%d cancelled$" % bout_id)
    said = r"^Bout #%d \(Rocky vs Ivan\) is cancelled by %s: no result\.$" % (bout_id, ADMIN)
    wait_chan(a, said, sa)
    wait_chan(b, said, sb)
    for c in (boss, a, b):
        c.quit()
    return ["bout #%d cancelled on one, heard in both channels" % bout_id]


def s_decline(env):
    """bob declines on two: both channels hear it; two's bot stopped, a
    challenge of bob@two is refused (no bot of two holds its lease)."""
    a = Client(env, "alice", [CHANNEL])
    b = Client(env.two, "bob", [CHANNEL])
    tell(a, "identify " + env.pw["alice"], r"^you are identified as alice ")
    tell(b, "identify " + env.pw["bob"], r"^you are identified as bob ")
    sa, sb = len(a.lines), len(b.lines)
    a.cmd("challenge bob@two", CHANNEL)
    m = wait_chan(a, r"^alice challenges bob@two to bout #(\d+), ", sa)
    bout_id = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(b, r"^alice challenges bob@two to bout #", sb)
    b.cmd("decline", CHANNEL)
    said = r"^bob@two declines the challenge \(bout #%d, Rocky vs Ivan\)\.$" % bout_id
    wait_chan(a, said, sa)
    wait_chan(b, said, sb)
    two = [bt for bt in env.bots if bt.name == "bot-two"][0]
    two.proc.send_signal(signal.SIGTERM)
    rc = two.proc.wait(30)
    check(rc == 0, "bot-two exited %d after SIGTERM" % rc, tail(two.log, 20))
    deadline = time.monotonic() + TIMEOUT
    while env.query(LEASE_HELD % "two")[0][0]:  # its session ends a moment after it exits
        check(time.monotonic() < deadline, "two's lease is still held after its bot stopped")
        time.sleep(0.2)
    tell(a, "challenge bob@two", r"^bob@two plays on two, and no bot of two is running: he "
         r"would not hear of it; challenge him once it is back$", chan=CHANNEL)
    a.quit()
    b.quit()
    return ["declined on two, heard in both channels; refused with two's bot stopped"]


def s_stop(env):
    for bt in env.bots:
        if bt.alive():
            bt.proc.send_signal(signal.SIGTERM)
            rc = bt.proc.wait(30)
            check(rc == 0, "%s exited %d after SIGTERM" % (bt.name, rc), tail(bt.log, 20))
        log = bt.log_text()
        for pat in e2e_failover.SANITIZER:
            check(pat not in log, "%s's log has a report: %s" % (bt.name, pat), tail(bt.log, 40))
    return []


def run(env):
    passed = failed = 0
    for name, fn in (("cross", s_cross), ("crash", s_crash), ("between", s_between),
                     ("cancel", s_cancel),
                     ("decline", s_decline), ("stop", s_stop)):
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


def shut(env, keep=False):
    """Stops env's bots, clients and both IRC servers, and removes their
    folders unless E2E_KEEP is set or `keep` (a failed run's, to read)."""
    env.stop_bot()
    for e in (env.two, env):
        for c in list(e.clients):
            try:
                c.quit()
            except Exception:  # noqa: BLE001
                pass
        e.stop_server()
        if not os.environ.get("E2E_KEEP") and not keep:
            shutil.rmtree(e.dir, ignore_errors=True)
        else:
            print("kept %s" % e.dir)


def cross_main(argv, name, make_env, run_all):
    """main() of a two-network suite (this one, e2e_grace_x): under pg.sh
    (it runs itself there when RINGSIDE_TEST_PG is unset), one bot on each
    network in its channel, then run_all(env)."""
    if len(argv) != 3:
        print("usage: sh tests/pg.sh run python3 tests/e2e/%s.py BOT SIM" % name, file=sys.stderr)
        return 2
    uri = os.environ.get("RINGSIDE_TEST_PG")
    if not uri:
        pg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg.sh")
        return subprocess.call(["sh", pg, "run", sys.executable] + argv)
    for tool in ("psql", "inspircd"):
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            print("%s: %s is missing; make deps" % (name, tool), file=sys.stderr)
            return 2
    env = make_env(argv[1], argv[2], uri)
    rc = 1
    try:
        env.start_server()
        env.two.start_server()
        env.spawn_on(env, "bot-one", "one")
        env.spawn_on(env.two, "bot-two", "two")
        env.wait_bot_in(CHANNEL)
        env.two.wait_bot_in(CHANNEL)
        rc = run_all(env)
    finally:
        shut(env)
    return rc


def main(argv):
    return cross_main(argv, "e2e_cross", CrossEnv, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
