#!/usr/bin/env python3
"""e2e_cluster.py - several bot processes on several IRC servers and one
PostgreSQL (issue 29's held-out checks, done here first): processes killed,
the database restarted and a host cut off in the middle of bouts.

    sh tests/pg.sh run python3 tests/e2e/e2e_cluster.py BOT SIM
                                        (from the repository root; without
                                        RINGSIDE_TEST_PG set the script runs
                                        itself under tests/pg.sh run, with
                                        PG_TCP_PORT set so that the server
                                        listens on 127.0.0.1 too)

Network "one" is ngircd, network "two" InspIRCd 3; every bot is the ASan
build with failover_seconds = 6 (F), and the players are raw IRC clients.

Scenarios:
  1. three bots: A1 runs one, A2 waits as its standby, B runs two. A bout
     of alice@one and bob@two and a bout of carol and dave on one at the same
     time; round 1 of both fought and said; round 2's orders of alice and
     carol acknowledged, then kill -9 of A1: A2 takes over (its JOIN within
     F), both bouts finish with the acknowledged orders, every round's
     commentary (ringside-sim --commentary on PostgreSQL) is heard exactly
     once in each channel that hears the bout, nothing the bot said in a
     channel is said twice, and both bouts replay by their digests;
  2. the database restarted (pg_ctl restart -m fast) mid cross-network bout,
     with bob's round 1 orders acknowledged (through the relay) and the
     round open: both bots take their leases again, the acknowledged orders
     fight the round, the bout finishes, heard once in both channels, and
     replays;
  3. the host cut off for real: A1 again, with its IRC and PostgreSQL
     connections through tests/e2e/blackhole.py, A2 its standby, carol's
     round 1 orders of a new bout acknowledged; the proxy drops every packet
     (no RST, no FIN): A2 takes the lease within F and joins, A1 steps down
     and nothing it says after the cut reaches the channel but its QUIT;
     the proxy forwards again: A1 stays a standby (one lease holder, no
     second bot joins), and the bout finishes on A2 with carol's orders;
  4. only A1's PostgreSQL connection cut off (its IRC connection works):
     players talk to A1 after A2 took the lease; A1 says nothing before its
     QUIT, the bout finishes on A2;
  5. kill -9 of the owner the moment a cross-network round is committed
     (seen in the database): its standby finishes the bout, every round
     heard exactly once in both channels;
  6. B (the other network's bot) cut off for real mid cross-network bout,
     with a standby: the standby says the relayed round, B says nothing but
     its QUIT, bob's relayed orders fight the round, every round heard once;
  7. the database restarted mid cross-network round with an active and a
     standby on each network: one bot runs each network after, the
     acknowledged orders fight the round, every round heard once;
  and last: SIGTERM to every bot still running: exit 0, no sanitizer report.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. E2E_ONLY runs some scenarios (by
number; a scenario needs the ones before it), E2E_KEEP=1 keeps the folders.
A cut-off bot must step down within 2F of the cut (about F measured; it was
about 22 s at F = 6 while each reconnection blocked the loop for 10 s).
Python 3 standard library only, psql and pg_ctl, ngircd and inspircd.
"""

import collections
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blackhole  # noqa: E402
import e2e  # noqa: E402
import e2e_cross  # noqa: E402
import e2e_failover  # noqa: E402
import ports  # noqa: E402
from e2e import BOT_NICK, CHANNEL, TIMEOUT, Client, Failure, check, tail  # noqa: E402
from e2e_bouts import STORED, norm, order, order_last, player, tell, wait_chan  # noqa: E402
from e2e_cross import LEASE_HELD, CrossEnv  # noqa: E402
from e2e_failover import IDENTIFIED, SANITIZER, STANDBY, ACTIVE  # noqa: E402

F = e2e_failover.FAILOVER  # [bot] failover_seconds of every bot
ONE, TWO = "one", "two"
STEP_DOWN = r"stepping down from network %s: "
BACK = r"the database is back after \d+ s, the lease of network %s held again"
CHALLENGE_X = (r"^alice challenges bob@two to bout #(\d+), boxing, %d rounds: Rocky \(alice(@one)?\) .* "
               r"vs Ivan \(bob(@two)?\) .*\. bob@two: say !accept or !decline within ")
# The end's records: a line of its own, or in the bout's packed message.
RECORDS = r"(^|\. |\] )Records now: "
# A bot that has just joined may not count itself in the channel yet.
NO_CHANNEL = r"^I am in no channel right now; try again when I have joined one$"
START_X = r"Bout #%d is on\. Round 1 of %d: alice \(Rocky\), your orders "


class ClusterEnv(CrossEnv):
    """CrossEnv (ngircd and InspIRCd 3, one PostgreSQL) whose bots each
    remember their network, IRC port and database, and a TCP port of the
    PostgreSQL server for the proxied bot."""

    def __init__(self, bot_path, sim_path, uri, pg_tcp_port):
        super().__init__(bot_path, sim_path, uri)
        self.pg_tcp_port = pg_tcp_port
        self.proxies = []
        self.pw = {}

    def start(self, name, network, irc_port, database=None):
        """A bot of `network` on the IRC server at irc_port (not waited for)."""
        port = self.port
        self.port = irc_port
        try:
            b = self.spawn(name, network=network, database=database)
        finally:
            self.port = port
        b.network, b.irc_port, b.database = network, irc_port, database or self.uri
        return b

    def failover_of(self, b, seconds):
        """b's failover_seconds changed by SIGHUP."""
        port = self.port
        self.port = b.irc_port
        try:
            self.write_conf(b.name, b.nick, b.network, b.database, seconds)
        finally:
            self.port = port
        since = len(b.log_text())
        b.proc.send_signal(signal.SIGHUP)
        self.wait_log_of(b, r"configuration reloaded", since=since)

    def pg_ctl(self, *args):
        """pg_ctl on tests/pg.sh's server (as the postgres user when root);
        restart keeps the options it was started with (postmaster.opts)."""
        folder = re.search(r"[?&]host=([^&]+)", self.uri).group(1)
        bindir = sorted(d for d in glob.glob("/usr/lib/postgresql/*/bin")
                        if os.access(os.path.join(d, "pg_ctl"), os.X_OK))[-1]
        argv = [os.path.join(bindir, "pg_ctl"), "-D", os.path.join(folder, "data"), "-w",
                "-l", os.path.join(folder, "server.log")] + list(args)
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--"] + argv
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=120)
        check(p.returncode == 0, "pg_ctl %s failed: %s" % (" ".join(args), p.stderr.strip()))


# -- what the channels heard


def bot_chan(c, start=0):
    """What any bot of the network said in c's channel from line start,
    formatting removed: under its nick, or under the alternative one (a
    new active joins under it while the old connection holds the nick)."""
    with c.cond:
        lines = c.lines[start:]
    return [e2e.plain(m.text).strip() for m in lines
            if m.cmd == "PRIVMSG" and m.nick.lower().startswith(BOT_NICK) and
            m.target.lower() == CHANNEL]


def wait_records(c, start):
    """The end's records said in c's channel (by any bot of the network)."""
    deadline = time.monotonic() + TIMEOUT
    while not any(re.search(RECORDS, t) for t in bot_chan(c, start)):
        check(time.monotonic() < deadline, "%s never heard the records" % c.nick,
              "\n".join(bot_chan(c, start)))
        time.sleep(0.1)


def stream(c, start):
    """Everything the bot said in c's channel from line start, one string,
    formatting and repeated blanks removed (a long message cut into several
    IRC lines is whole again)."""
    return norm(" ".join(bot_chan(c, start)))


def round_text(env, bout_id, rnd):
    """A round's commentary as ringside-sim --commentary derives it from
    PostgreSQL: (its lines one after another, the same packed: "[#ID] ")."""
    p, out, _ = env.sim("--commentary", bout_id, rnd)
    check(p.returncode == 0, "ringside-sim --commentary %d %d failed" % (bout_id, rnd), out)
    lines = [e2e.plain(ln).strip() for ln in out.splitlines() if ln.strip()]
    check(lines, "bout %d round %d: no commentary derived" % (bout_id, rnd))
    return norm(" ".join(lines)), norm("[#%d] %s" % (bout_id, " ".join(lines)))


def heard_once(env, c, bout_id, rounds, start, what):
    """Waits until each round's commentary was said in c's channel (plain
    or packed), then checks it was said exactly once."""
    for rnd in range(1, rounds + 1):
        plain, packed = round_text(env, bout_id, rnd)
        deadline = time.monotonic() + TIMEOUT
        while True:
            s = stream(c, start)
            n = s.count(packed) or s.count(plain)
            if n:
                break
            check(time.monotonic() < deadline, "%s never heard bout #%d's round %d" %
                  (what, bout_id, rnd), "derived: %s\nheard:\n%s" %
                  (plain, "\n".join(bot_chan(c, start))))
            time.sleep(0.1)
        check(n == 1, "%s heard bout #%d's round %d %d times" % (what, bout_id, rnd, n), plain)


def relay_lag(env, wa, wb, bout_id, rnd, sa, sb):
    """Seconds from round rnd heard in one's channel to it heard in two's
    (the relay: a row, a NOTIFY, the other bot says it)."""
    plain, packed = round_text(env, bout_id, rnd)
    got = {}
    deadline = time.monotonic() + TIMEOUT
    while len(got) < 2:
        for c, st in ((wa, sa), (wb, sb)):
            text = stream(c, st)
            if c.nick not in got and (packed in text or plain in text):
                got[c.nick] = time.monotonic()
        check(time.monotonic() < deadline, "bout #%d round %d not heard in both channels: %r" %
              (bout_id, rnd, got))
        time.sleep(0.05)
    return got[wb.nick] - got[wa.nick]


def no_repeats(c, start, what):
    """No line the bot said in c's channel from start was said twice (a line
    of a bout ("[#ID] ..." or its commentary) names rounds and blows, so a
    repeat is the same line said again)."""
    counts = collections.Counter(bot_chan(c, start))
    twice = ["%dx %s" % (n, t) for t, n in counts.items() if n > 1 and len(t) > 30]
    check(not twice, "%s: the bot said %d line(s) more than once" % (what, len(twice)),
          "\n".join(twice))


def wait_state(env, bout_id, state):
    deadline = time.monotonic() + TIMEOUT
    while env.bout(bout_id)["state"] != state:
        check(time.monotonic() < deadline, "bout #%d is not %s: %r" % (bout_id, state,
                                                                       env.bout(bout_id)))
        time.sleep(0.1)


def wait_round(env, bout_id, rnd):
    deadline = time.monotonic() + TIMEOUT
    while (env.bout(bout_id)["round"] or 0) < rnd:
        check(time.monotonic() < deadline, "bout #%d: round %d was never fought" %
              (bout_id, rnd), tail(env.bot_log, 20))
        time.sleep(0.1)


def wait_said(env, bout_id, rnd):
    deadline = time.monotonic() + TIMEOUT
    while env.bout(bout_id)["said"] < rnd:
        check(time.monotonic() < deadline, "bout #%d: round %d never marked said" %
              (bout_id, rnd), tail(env.bot_log, 20))
        time.sleep(0.1)


def replayed(env, bout_id):
    p, out, _ = env.sim("--replay", bout_id)
    check(p.returncode == 0 and "replay matches the stored bout" in out,
          "ringside-sim --replay of bout #%d failed" % bout_id, out)
    return out.strip().splitlines()[-1]


def relay_empty(env):
    deadline = time.monotonic() + TIMEOUT
    # Said rows are kept a day (migration 20): none may wait unsaid.
    while env.query("SELECT count(*) FROM relay WHERE said = 0")[0][0] != 0:
        check(time.monotonic() < deadline, "the relay table still holds rows not said",
              str(env.query("SELECT network, kind, target, text FROM relay WHERE said = 0")))
        time.sleep(0.2)


def cross_challenge(env, a, b, wa, wb, rounds):
    """alice@one challenges bob@two, bob accepts; returns the bout."""
    sa, sb = len(wa.lines), len(wb.lines)
    a.cmd("challenge bob@two rounds=%d" % rounds, CHANNEL)
    m = wait_chan(wa, CHALLENGE_X % rounds, sa)
    x = int(re.search(r"to bout #(\d+)", m.text).group(1))
    wait_chan(wb, CHALLENGE_X % rounds, sb)
    b.cmd("accept", CHANNEL)
    wait_chan(wa, START_X % (x, rounds), sa)
    wait_chan(wb, START_X % (x, rounds), sb)
    return x


def lease_held(env, network):
    """Whether a session holds network's lease now (the server may be
    starting: then not)."""
    try:
        return env.query(LEASE_HELD % network)[0][0] == 1
    except Failure:
        return False


def identify(c, pw):
    tell(c, "identify " + pw, IDENTIFIED % c.nick)


# -- scenarios


def s_three(env):
    """A1 and A2 (standby) on one, B on two; a cross bout and a local bout;
    kill -9 of A1 mid-bout."""
    a1 = env.start("bot-a1", ONE, env.port)
    env.follow(a1)
    env.wait_bot_in(CHANNEL)
    b = env.start("bot-b", TWO, env.two.port)
    env.two.wait_bot_in(CHANNEL)
    a2 = env.start("bot-a2", ONE, env.port)
    env.wait_log_of(a2, STANDBY % ONE)
    alice = player(env, "alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    bob = player(env.two, "bob", "create Ivan str=13 spd=12 agl=12 tgh=12 hgt=11")
    carol = player(env, "carol", "create Frazier str=14 spd=12 agl=11 tgh=12 hgt=11")
    dave = player(env, "dave", "create Norton str=13 spd=14 agl=12 tgh=11 hgt=10")
    env.pw = {c.nick: c.pw for c in (alice, bob, carol, dave)}
    wa, wb = Client(env, "watchone", [CHANNEL]), Client(env.two, "watchtwo", [CHANNEL])
    sa, sb = len(wa.lines), len(wb.lines)
    x = cross_challenge(env, alice, bob, wa, wb, 3)
    y = e2e_failover.e2e_bouts.challenge(env, carol, dave, "rounds=3", "Frazier", "Norton")
    # Round 1 of both, fought and said (said marks stored).
    tell(alice, "5/5/10", STORED % (1, "Rocky"))
    bob.cmd("6/5/9")
    order(carol, "5/5/10", 1, "Frazier")
    dave.cmd("6/6/8")
    for bt in (x, y):
        wait_round(env, bt, 1)
        wait_said(env, bt, 1)
    lag = relay_lag(env, wa, wb, x, 1, sa, sb)
    # Round 2: alice's and carol's orders acknowledged, then the kill.
    acked_x = order(alice, "4H/8/8 (inside)", 2, "Rocky")
    acked_y = order(carol, "6/6/8", 2, "Frazier")
    e2e_failover.no_irc(a2)
    s = len(wa.lines)
    t_kill = time.monotonic()
    a1.proc.send_signal(signal.SIGKILL)
    a1.proc.wait(10)
    e2e_failover.joined(wa, BOT_NICK, s)
    took = time.monotonic() - t_kill
    env.wait_log_of(a2, ACTIVE % ONE, timeout=5)
    env.follow(a2)
    check(took <= F, "A2 joined %.1f s after A1's kill, more than failover_seconds %d" % (took, F))
    for c in (alice, carol, dave):
        identify(c, c.pw)
    bob.cmd("5/5/10")
    dave.cmd("7/6/7")
    for bt in (x, y):
        wait_round(env, bt, 2)
    ox, oy = env.orders(x), env.orders(y)
    check(ox.get((2, 0), (None, None))[:2] == (acked_x, "player"),
          "bout #%d: round 2 not fought with alice's acknowledged %r: %r" % (x, acked_x, ox))
    check(oy.get((2, 0), (None, None))[:2] == (acked_y, "player"),
          "bout #%d: round 2 not fought with carol's acknowledged %r: %r" % (y, acked_y, oy))
    tell(bob, "7/5/8", STORED % (3, "Ivan"))
    alice.cmd("5/6/9")
    order(carol, "5/5/10", 3, "Frazier")
    order_last(env, dave, "6/6/8", 3, "Norton", y)
    for bt in (x, y):
        wait_state(env, bt, "over")
    heard_once(env, wa, x, 3, sa, "one's channel")
    heard_once(env, wb, x, 3, sb, "two's channel")
    heard_once(env, wa, y, 3, sa, "one's channel")
    wait_records(wb, sb)
    no_repeats(wa, sa, "one's channel")
    no_repeats(wb, sb, "two's channel")
    rx, ry = replayed(env, x), replayed(env, y)
    relay_empty(env)
    check(b.alive(), "bot-b exited", tail(b.log, 20))
    for c in (alice, bob, carol, dave, wa, wb):
        c.quit()
    return ["kill -9 of A1 to A2's JOIN: %.1f s (failover_seconds %d); round 1 heard in two's "
            "channel %.1f s after one's" % (took, F, lag),
            "cross bout #%d and local bout #%d: 3 rounds each, heard once, round 2 fought with "
            "the acknowledged orders; %s; %s" % (x, y, rx, ry)]


def s_db_restart(env):
    """pg_ctl restart -m fast with a cross-network round open."""
    a2 = next(bt for bt in env.bots if bt.name == "bot-a2")
    b = next(bt for bt in env.bots if bt.name == "bot-b")
    # Half the failover time is how long the server may be away: 15 s, so a
    # slow restart on a loaded machine is not an outage.
    for bt in (a2, b):
        env.failover_of(bt, 30)
    alice, bob = Client(env, "alice", [CHANNEL]), Client(env.two, "bob", [CHANNEL])
    identify(alice, env.pw["alice"])
    identify(bob, env.pw["bob"])
    wa, wb = Client(env, "watchone2", [CHANNEL]), Client(env.two, "watchtwo2", [CHANNEL])
    sa, sb = len(wa.lines), len(wb.lines)
    x = cross_challenge(env, alice, bob, wa, wb, 3)
    # bob's orders, relayed to one's bot and acknowledged from there.
    acked = tell(bob, "6/5/9", STORED % (1, "Ivan"))
    acked = re.match(STORED % (1, "Ivan"), acked).group(1)
    since = {bt.name: len(bt.log_text()) for bt in (a2, b)}
    t0 = time.monotonic()
    env.pg_ctl("-m", "fast", "restart")
    back = {}
    deadline = time.monotonic() + 30 + TIMEOUT
    while len(back) < 2:
        for bt in (a2, b):
            if bt.name not in back and lease_held(env, bt.network):
                back[bt.name] = time.monotonic() - t0
        check(time.monotonic() < deadline, "the leases were not all held again after the "
              "restart: %r" % back)
        time.sleep(0.2)
    for bt in (a2, b):
        check(not re.search(STEP_DOWN % bt.network, bt.log_text()[since[bt.name]:]),
              "%s stepped down" % bt.name, tail(bt.log, 20))
    alice.cmd("5/5/10")
    wait_round(env, x, 1)
    lag = relay_lag(env, wa, wb, x, 1, sa, sb)
    o = env.orders(x)
    check(o.get((1, 1), (None, None))[:2] == (acked, "player"),
          "round 1 not fought with bob's orders acknowledged before the restart %r: %r" %
          (acked, o))
    tell(alice, "5/6/9", STORED % (2, "Rocky"))
    bob.cmd("7/5/8")
    wait_round(env, x, 2)
    tell(bob, "5/5/10", STORED % (3, "Ivan"))
    alice.cmd("6/6/8")
    wait_state(env, x, "over")
    heard_once(env, wa, x, 3, sa, "one's channel")
    heard_once(env, wb, x, 3, sb, "two's channel")
    wait_records(wa, sa)
    wait_records(wb, sb)
    no_repeats(wa, sa, "one's channel")
    no_repeats(wb, sb, "two's channel")
    out = replayed(env, x)
    relay_empty(env)
    for bt in (a2, b):
        env.failover_of(bt, F)
    for c in (alice, bob, wa, wb):
        c.quit()
    return ["pg_ctl restart mid round 1 of cross bout #%d: leases held again %s; round 1 fought "
            "with bob's acknowledged %s, heard in two's channel %.1f s after one's; %s" %
            (x, ", ".join("%s after %.1f s" % kv for kv in sorted(back.items())), acked, lag,
             out)]


def one_behind(env, watcher, tag, irc_port, pg_port):
    """Network one's A1 (bot-a1TAG: IRC on irc_port, PostgreSQL through the
    proxy on pg_port) active, A2 (bot-a2TAG) its standby, and carol and dave
    in a three-round bout with carol's round 1 order acknowledged.
    Returns (watcher client, A1, A2, carol, dave, bout id, carol's order)."""
    w = Client(env, watcher, [CHANNEL])
    s = len(w.lines)
    a1 = env.start("bot-a1" + tag, ONE, irc_port, "postgresql://127.0.0.1:%d/ringside" % pg_port)
    env.follow(a1)
    e2e_failover.joined(w, BOT_NICK, s)
    a2 = env.start("bot-a2" + tag, ONE, env.port)
    env.wait_log_of(a2, STANDBY % ONE)
    carol, dave = Client(env, "carol", [CHANNEL]), Client(env, "dave", [CHANNEL])
    identify(carol, env.pw["carol"])
    identify(dave, env.pw["dave"])
    y = e2e_failover.e2e_bouts.challenge(env, carol, dave, "rounds=3", "Frazier", "Norton")
    acked = order(carol, "5/5/10", 1, "Frazier")
    return w, a1, a2, carol, dave, y, acked


def s_cut(env):
    """A1 behind the black-hole proxy; the proxy cut; A2 takes over; A1
    fenced; the proxy mended: A1 stays a standby."""
    old = next(bt for bt in env.bots if bt.name == "bot-a2")
    old.proc.send_signal(signal.SIGTERM)
    check(old.proc.wait(30) == 0, "bot-a2 did not exit 0 after SIGTERM", tail(old.log, 20))
    deadline = time.monotonic() + TIMEOUT
    while env.query(LEASE_HELD % ONE)[0][0]:
        check(time.monotonic() < deadline, "one's lease is still held after its bot stopped")
        time.sleep(0.2)
    irc = blackhole.Proxy(env.port)
    pg = blackhole.Proxy(env.pg_tcp_port)
    env.proxies += [irc, pg]
    w, a1, a2, carol, dave, y, acked = one_behind(env, "watchcut", "c", irc.port, pg.port)
    check(irc.accepted >= 1 and pg.accepted >= 1, "A1's connections are not through the proxy "
          "(IRC %d, PostgreSQL %d)" % (irc.accepted, pg.accepted))
    e2e_bouts_quiet(w)
    s = len(w.lines)
    since1 = len(a1.log_text())
    irc.cut()
    pg.cut()
    t_cut = time.monotonic()
    env.wait_log_of(a2, ACTIVE % ONE, timeout=F + TIMEOUT)
    took = time.monotonic() - t_cut
    j = w.wait(lambda m: m.cmd == "JOIN" and m.nick.lower().startswith(BOT_NICK),
               "A2 joining", timeout=e2e.RECONNECT_TIMEOUT, start=s)
    joined = j.t - t_cut
    env.follow(a2)
    m = env.wait_log_of(a1, STEP_DOWN % ONE + r".*", since=since1, timeout=F + TIMEOUT)
    down = time.monotonic() - t_cut
    step_text = m.group(0)
    irc.mend()
    pg.mend()
    t_mend = time.monotonic()
    # A1, a standby again, reaches the database and finds the lease taken.
    since2 = len(a1.log_text())
    try:
        env.wait_log_of(a1, STANDBY % ONE, since=since1, timeout=F + TIMEOUT)
    except Failure:
        raise Failure("A1 (%s) never waited as a standby after the proxy forwarded again" %
                      a1.name, tail(a1.log, 30))
    # A1's connection leaves IRC (its QUIT, or the server's timeout).
    q = w.wait(lambda m: m.cmd == "QUIT" and m.nick.lower() == BOT_NICK, "A1's QUIT",
               timeout=e2e.RECONNECT_TIMEOUT + 90, start=s)
    with w.cond:
        said = [m for m in w.lines[s:] if m.cmd in ("PRIVMSG", "NOTICE") and
                m.nick.lower() == BOT_NICK and m.t < q.t]
    check(not said, "A1 spoke after the cut: %r" % said, tail(a1.log, 30))
    # The players identify with A2; the bout goes on with carol's orders.
    for c in (carol, dave):
        identify_any(c, env.pw[c.nick])
    s2 = len(w.lines)
    dave.cmd("6/6/8")
    wait_round(env, y, 1)
    o = env.orders(y)
    check(o.get((1, 0), (None, None))[:2] == (acked, "player"),
          "round 1 not fought with carol's acknowledged %r: %r" % (acked, o))
    order(carol, "4/6/10", 2, "Frazier")
    dave.cmd("7/6/7")
    wait_round(env, y, 2)
    order(carol, "5/5/10", 3, "Frazier")
    dave.cmd("6/6/8")
    wait_state(env, y, "over")
    heard_once(env, w, y, 3, s, "one's channel")
    wait_records(w, s2)
    out = replayed(env, y)
    # Still one lease holder, A1 never connected to IRC again.
    check(env.query(LEASE_HELD % ONE)[0][0] == 1, "not one holder of one's lease")
    after = a1.log_text()[since2:]
    check(a1.alive(), "A1 exited", tail(a1.log, 20))
    check("connecting to" not in after, "A1 connected to IRC again after the proxy mended",
          tail(a1.log, 30))
    with w.cond:
        joins = [m for m in w.lines if m.t > t_mend and m.cmd == "JOIN" and
                 m.nick.lower().startswith(BOT_NICK)]
    check(not joins, "a second bot joined after the proxy forwarded again: %r" % joins)
    for c in (carol, dave, w):
        c.quit()
    strict_step_down(down)
    return ["cut to A2's lease: %.1f s, to its JOIN %.1f s (failover_seconds %d); A1 stepped "
            "down %.1f s after the cut (%s), silent but its QUIT (%r, %.1f s after the mend); "
            "after the mend A1 waits as the standby; %s" %
            (took, joined, F, down, step_text.strip(), q.text, q.t - t_mend, out)]


def strict_step_down(down, who="A1"):
    """A bot cut off from PostgreSQL steps down about F after the cut: its
    next lease check (every F/4) waits up to F/4 for the server (TCP user
    timeout), the reconnection up to F/4 more (pg_reset_within), then it
    is away, and steps down after F/2 away. Allowed: 2F (the machine may
    be loaded); it was about 4F while the reconnection blocked for
    connect_timeout (10 s) at each try."""
    check(down <= 2 * F, "%s stepped down %.1f s after the cut, more than twice failover_seconds "
          "%d" % (who, down, F))


def stop_one(env):
    """SIGTERM to network one's bots (B on two goes on); waits until one's
    lease is free."""
    for bt in env.bots:
        if bt.alive() and bt.network == ONE:
            bt.proc.send_signal(signal.SIGTERM)
            check(bt.proc.wait(30) == 0, "%s did not exit 0 after SIGTERM" % bt.name,
                  tail(bt.log, 20))
    deadline = time.monotonic() + TIMEOUT
    while env.query(LEASE_HELD % ONE)[0][0]:
        check(time.monotonic() < deadline, "one's lease is still held after its bots stopped")
        time.sleep(0.2)


def s_pg_cut(env):
    """Only A1's PostgreSQL connections cut off (its IRC connection works):
    A2 takes over; A1, still on IRC and asked by players, says nothing
    once A2 holds the lease, steps down and QUITs; the bout goes on on A2."""
    stop_one(env)
    pg = blackhole.Proxy(env.pg_tcp_port)
    env.proxies.append(pg)
    w, a1, a2, carol, dave, y, acked = one_behind(env, "watchpg", "d", env.port, pg.port)
    e2e_bouts_quiet(w)
    s = len(w.lines)
    since1 = len(a1.log_text())
    pg.cut()
    t_cut = time.monotonic()
    env.wait_log_of(a2, ACTIVE % ONE, timeout=F + TIMEOUT)
    took = time.monotonic() - t_cut
    t_taken = time.monotonic()
    env.follow(a2)
    # Players still talk to A1 (it has the nick): a private order that
    # completes the round, a question in the channel.
    dave.cmd("6/6/8")
    dave.cmd("bouts", CHANNEL)
    m = env.wait_log_of(a1, STEP_DOWN % ONE + r".*", since=since1, timeout=4 * F + TIMEOUT)
    down = time.monotonic() - t_cut
    q = w.wait(lambda m: m.cmd == "QUIT" and m.nick.lower() == BOT_NICK, "A1's QUIT",
               timeout=TIMEOUT, start=s)
    with w.cond:
        said = [(round(m.t - t_cut, 1), m.target, m.text) for m in w.lines[s:]
                if m.cmd in ("PRIVMSG", "NOTICE") and m.nick.lower() == BOT_NICK and m.t < q.t]
    with dave.cond:
        told = [(round(m.t - t_cut, 1), m.target, m.text) for m in dave.lines
                if m.t > t_cut and m.cmd in ("PRIVMSG", "NOTICE") and
                m.nick.lower() == BOT_NICK and m.t < q.t]
    late = [x for x in said + told if x[0] >= t_taken - t_cut]
    check(not late, "A1 spoke after A2 took its lease (seconds after the cut, target, text): %r"
          % late, tail(a1.log, 30))
    check(not said + told, "A1 spoke after the cut, before A2 took over: %r" % (said + told),
          tail(a1.log, 30))
    pg.mend()
    env.wait_log_of(a1, STANDBY % ONE, since=since1, timeout=F + TIMEOUT)
    for c in (carol, dave):
        identify_any(c, env.pw[c.nick])
    s2 = len(w.lines)
    dave.cmd("6/6/8")
    wait_round(env, y, 1)
    o = env.orders(y)
    check(o.get((1, 0), (None, None))[:2] == (acked, "player"),
          "round 1 not fought with carol's acknowledged %r: %r" % (acked, o))
    for rnd, (oc, od) in ((2, ("4/6/10", "7/6/7")), (3, ("5/5/10", "6/6/8"))):
        order(carol, oc, rnd, "Frazier")
        dave.cmd(od)
        wait_round(env, y, rnd)
    wait_state(env, y, "over")
    heard_once(env, w, y, 3, s, "one's channel")
    wait_records(w, s2)
    no_repeats(w, s, "one's channel")
    out = replayed(env, y)
    check(env.query(LEASE_HELD % ONE)[0][0] == 1, "not one holder of one's lease")
    check(a1.alive() and "connecting to" not in a1.log_text()[since1:],
          "A1 connected to IRC again (or exited) after stepping down", tail(a1.log, 30))
    for c in (carol, dave, w):
        c.quit()
    strict_step_down(down)
    return ["PostgreSQL cut, IRC kept: A2 took the lease %.1f s after the cut; A1 stepped down "
            "%.1f s after it (%s), said nothing before its QUIT; %s" %
            (took, down, m.group(0).strip(), out)]


def heard_counts(env, c, bout_id, rounds, start):
    """How often each round's commentary was said in c's channel."""
    text = stream(c, start)
    counts = []
    for rnd in range(1, rounds + 1):
        plain, packed = round_text(env, bout_id, rnd)
        counts.append(text.count(packed) or text.count(plain))
    return counts


def s_kill_fought(env):
    """kill -9 of the owner the moment a cross-network round is fought (its
    commit seen in the database, its lines maybe not said nor relayed): the
    standby takes over, the bout finishes and replays, and every round is
    heard exactly once in both channels."""
    stop_one(env)
    wa, wb = Client(env, "watchone5", [CHANNEL]), Client(env.two, "watchtwo5", [CHANNEL])
    s = len(wa.lines)
    a1 = env.start("bot-a1e", ONE, env.port)
    env.follow(a1)
    e2e_failover.joined(wa, BOT_NICK, s)
    a2 = env.start("bot-a2e", ONE, env.port)
    env.wait_log_of(a2, STANDBY % ONE)
    alice, bob = Client(env, "alice", [CHANNEL]), Client(env.two, "bob", [CHANNEL])
    identify(alice, env.pw["alice"])
    identify(bob, env.pw["bob"])
    sa, sb = len(wa.lines), len(wb.lines)
    x = cross_challenge(env, alice, bob, wa, wb, 3)
    tell(alice, "5/5/10", STORED % (1, "Rocky"))
    bob.cmd("6/5/9")
    wait_round(env, x, 1)
    wait_said(env, x, 1)
    tell(alice, "6/6/8", STORED % (2, "Rocky"))
    bob.cmd("5/5/10")
    deadline = time.monotonic() + TIMEOUT
    while True:
        row = env.bout(x)
        if (row["round"] or 0) >= 2:
            break
        check(time.monotonic() < deadline, "round 2 was never fought")
    s = len(wa.lines)
    a1.proc.send_signal(signal.SIGKILL)
    a1.proc.wait(10)
    said = env.bout(x)["said"]
    at_kill = "said mark %d, relay rows %d" % (said, env.query(
        "SELECT count(*) FROM relay WHERE said = 0")[0][0])
    env.wait_log_of(a2, ACTIVE % ONE, timeout=F + TIMEOUT)
    e2e_failover.joined(wa, BOT_NICK, s)
    env.follow(a2)
    identify_any(alice, env.pw["alice"])
    tell(alice, "5/6/9", STORED % (3, "Rocky"))
    bob.cmd("7/5/8")
    wait_state(env, x, "over")
    wait_records(wa, sa)
    wait_records(wb, sb)
    relay_empty(env)
    ca, cb = heard_counts(env, wa, x, 3, sa), heard_counts(env, wb, x, 3, sb)
    out = replayed(env, x)
    # A round the server had confirmed (up to the said mark) is heard once;
    # one it had not confirmed when A1 died may have reached the channel
    # and is said again by A2 (no line twice that the server confirmed:
    # the rest at least once). Two's channel hears every round once (the
    # relay's keys, and no round relayed again that two has).
    once = all(n == 1 if r <= said else n in (1, 2) for r, n in enumerate(ca, 1))
    check(once and cb == [1, 1, 1], "bout #%d: rounds 1-3 heard %r times in one's "
          "channel and %r in two's (killed at %s)" % (x, ca, cb, at_kill),
          "one:\n%s\ntwo:\n%s" % ("\n".join(bot_chan(wa, sa)), "\n".join(bot_chan(wb, sb))))
    for c in (alice, bob, wa, wb):
        c.quit()
    return ["killed as round 2 was committed (%s): rounds heard %r in one's channel, %r in two's; "
            "%s" % (at_kill, ca, cb, out)]


def s_cut_two(env):
    """B (network two's bot, not the bout's owner) cut off for real mid
    cross-network bout, with B2 its standby: B2 takes over and says the
    relayed round; B says nothing after the cut but its QUIT; bob's
    acknowledged orders (relayed before the cut) fight the round; every
    round heard once in both channels."""
    b = next(bt for bt in env.bots if bt.name == "bot-b")
    b.proc.send_signal(signal.SIGTERM)
    check(b.proc.wait(30) == 0, "bot-b did not exit 0 after SIGTERM", tail(b.log, 20))
    deadline = time.monotonic() + TIMEOUT
    while env.query(LEASE_HELD % TWO)[0][0]:
        check(time.monotonic() < deadline, "two's lease is still held after its bot stopped")
        time.sleep(0.2)
    irc, pg = blackhole.Proxy(env.two.port), blackhole.Proxy(env.pg_tcp_port)
    env.proxies += [irc, pg]
    wa, wb = Client(env, "watchone6", [CHANNEL]), Client(env.two, "watchtwo6", [CHANNEL])
    s = len(wb.lines)
    b1 = env.start("bot-b1", TWO, irc.port, "postgresql://127.0.0.1:%d/ringside" % pg.port)
    e2e_failover.joined(wb, BOT_NICK, s)
    b2 = env.start("bot-b2", TWO, env.two.port)
    env.wait_log_of(b2, STANDBY % TWO)
    alice, bob = Client(env, "alice", [CHANNEL]), Client(env.two, "bob", [CHANNEL])
    identify_any(alice, env.pw["alice"])
    identify(bob, env.pw["bob"])
    sa, sb = len(wa.lines), len(wb.lines)
    x = cross_challenge(env, alice, bob, wa, wb, 3)
    tell(alice, "5/5/10", STORED % (1, "Rocky"))
    bob.cmd("6/5/9")
    wait_round(env, x, 1)
    relay_empty(env)
    acked = re.match(STORED % (2, "Ivan"), tell(bob, "6/6/8", STORED % (2, "Ivan"))).group(1)
    relay_empty(env)
    e2e_bouts_quiet(wb)
    s = len(wb.lines)
    since1 = len(b1.log_text())
    irc.cut()
    pg.cut()
    t_cut = time.monotonic()
    alice.cmd("5/5/10")  # completes round 2: its lines for two wait in the relay
    wait_round(env, x, 2)
    env.wait_log_of(b2, ACTIVE % TWO, timeout=F + TIMEOUT)
    took = time.monotonic() - t_cut
    o = env.orders(x)
    check(o.get((2, 1), (None, None))[:2] == (acked, "player"),
          "round 2 not fought with bob's acknowledged %r: %r" % (acked, o))
    env.wait_log_of(b1, STEP_DOWN % TWO + r".*", since=since1, timeout=4 * F + TIMEOUT)
    down = time.monotonic() - t_cut
    irc.mend()
    pg.mend()
    q = wb.wait(lambda m: m.cmd == "QUIT" and m.nick.lower() == BOT_NICK, "B1's QUIT",
                timeout=TIMEOUT, start=s)
    with wb.cond:
        said = [m for m in wb.lines[s:] if m.cmd in ("PRIVMSG", "NOTICE") and
                m.nick.lower() == BOT_NICK and m.t < q.t]
    check(not said, "B1 spoke after the cut: %r" % said, tail(b1.log, 30))
    env.wait_log_of(b1, STANDBY % TWO, since=since1, timeout=F + TIMEOUT)
    # B2 takes its nick back once B1's connection is gone.
    wb.wait(lambda m: m.cmd == "NICK" and m.text.lower() == BOT_NICK, "B2 as %s" % BOT_NICK,
            timeout=90, start=s)
    regained = time.monotonic() - t_cut
    identify(bob, env.pw["bob"])
    tell(bob, "7/5/8", STORED % (3, "Ivan"))
    alice.cmd("5/6/9")
    wait_state(env, x, "over")
    wait_records(wa, sa)
    wait_records(wb, sb)
    relay_empty(env)
    ca, cb = heard_counts(env, wa, x, 3, sa), heard_counts(env, wb, x, 3, sb)
    out = replayed(env, x)
    check(ca == [1, 1, 1] and cb == [1, 1, 1], "bout #%d: rounds 1-3 heard %r times in one's "
          "channel and %r in two's" % (x, ca, cb),
          "one:\n%s\ntwo:\n%s" % ("\n".join(bot_chan(wa, sa)), "\n".join(bot_chan(wb, sb))))
    check("connecting to" not in b1.log_text()[since1:], "B1 connected to IRC again")
    for c in (alice, bob, wa, wb):
        c.quit()
    strict_step_down(down, "B1")
    return ["B cut off mid cross bout #%d: B2 took two's lease %.1f s after the cut, B stepped "
            "down after %.1f s, silent but its QUIT; B2 had its nick back after %.1f s; round 2 "
            "fought with bob's acknowledged %s, every round heard once in both channels; %s" %
            (x, took, down, regained, acked, out)]


def settled(env, active, standbys, since):
    """After a restart of the database: waits until one bot runs active's
    network again, the active (the lease back) or a standby that took over
    (then the active steps down); returns (that bot, whether it is a
    standby). A standby asks every F/4 s, so once the lease is held again
    F/2 s more without a standby taking over (its log) leaves it with the
    active."""
    net = active.network
    deadline = time.monotonic() + 4 * F + TIMEOUT
    held_at = None
    while True:
        for bt in standbys:
            if re.search(ACTIVE % net, bt.log_text()[since[bt.name]:]):
                env.wait_log_of(active, STEP_DOWN % net, since=since[active.name],
                                timeout=4 * F + TIMEOUT)
                return bt, True
        log = active.log_text()[since[active.name]:]
        if held_at is None and lease_held(env, net) and not re.search(STEP_DOWN % net, log):
            held_at = time.monotonic()
        if held_at is not None and time.monotonic() - held_at > F / 2.0:
            check(not re.search(STEP_DOWN % net, log), "%s stepped down and no standby took "
                  "over" % active.name, tail(active.log, 20))
            return active, False
        check(time.monotonic() < deadline, "nobody runs %s again after the restart" % net,
              "\n".join(tail(bt.log, 10) for bt in [active] + standbys))
        time.sleep(0.2)


def s_restart_standbys(env):
    """pg_ctl restart mid cross-network round with an active and a standby
    on each network (F = 6: the active steps down unless it has the lease
    back within F/2, and a standby may win it first): one bot runs each
    network after, the acknowledged orders fight the round, the bout
    finishes, every round heard once in both channels, and replays."""
    a = next(bt for bt in env.bots if bt.name == "bot-a2e")
    b, b_standby = [next(bt for bt in env.bots if bt.name == n) for n in ("bot-b2", "bot-b1")]
    check(a.alive() and b.alive() and b_standby.alive(), "test error: a bot is not running")
    a_standby = env.start("bot-a3", ONE, env.port)
    env.wait_log_of(a_standby, STANDBY % ONE)
    wa, wb = Client(env, "watchone7", [CHANNEL]), Client(env.two, "watchtwo7", [CHANNEL])
    alice, bob = Client(env, "alice", [CHANNEL]), Client(env.two, "bob", [CHANNEL])
    identify_any(alice, env.pw["alice"])
    identify_any(bob, env.pw["bob"])
    sa, sb = len(wa.lines), len(wb.lines)
    x = cross_challenge(env, alice, bob, wa, wb, 3)
    acked = re.match(STORED % (1, "Ivan"), tell(bob, "6/5/9", STORED % (1, "Ivan"))).group(1)
    since = {bt.name: len(bt.log_text()) for bt in (a, a_standby, b, b_standby)}
    env.pg_ctl("-m", "fast", "restart")
    run_one, took_one = settled(env, a, [a_standby], since)
    run_two, took_two = settled(env, b, [b_standby], since)
    env.follow(run_one)
    if took_one:
        identify_any(alice, env.pw["alice"])
    if took_two:
        identify_any(bob, env.pw["bob"])
    alice.cmd("5/5/10")
    wait_round(env, x, 1)
    o = env.orders(x)
    check(o.get((1, 1), (None, None))[:2] == (acked, "player"),
          "round 1 not fought with bob's orders acknowledged before the restart %r: %r" %
          (acked, o))
    for rnd, (oa, ob) in ((2, ("5/6/9", "7/5/8")), (3, ("6/6/8", "5/5/10"))):
        tell(alice, oa, STORED % (rnd, "Rocky"))
        bob.cmd(ob)
        wait_round(env, x, rnd)
    wait_state(env, x, "over")
    wait_records(wa, sa)
    wait_records(wb, sb)
    relay_empty(env)
    ca, cb = heard_counts(env, wa, x, 3, sa), heard_counts(env, wb, x, 3, sb)
    out = replayed(env, x)
    check(ca == [1, 1, 1] and cb == [1, 1, 1], "bout #%d: rounds 1-3 heard %r times in one's "
          "channel and %r in two's" % (x, ca, cb),
          "one:\n%s\ntwo:\n%s" % ("\n".join(bot_chan(wa, sa)), "\n".join(bot_chan(wb, sb))))
    no_repeats(wa, sa, "one's channel")
    no_repeats(wb, sb, "two's channel")
    check(env.query(LEASE_HELD % ONE)[0][0] == 1 and env.query(LEASE_HELD % TWO)[0][0] == 1,
          "not one holder of each lease")
    for c in (alice, bob, wa, wb):
        c.quit()
    return ["restart with standbys: one run by %s%s, two by %s%s; round 1 fought with bob's "
            "acknowledged %s; every round heard once in both channels; %s" %
            (run_one.name, " (took over)" if took_one else "", run_two.name,
             " (took over)" if took_two else "", acked, out)]


def e2e_bouts_quiet(w, secs=1.0):
    """Waits until the channel has been quiet for secs (what the bot wrote
    before the cut has arrived)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        n = len(w.lines)
        time.sleep(secs)
        if len(w.lines) == n:
            return


def identify_any(c, pw):
    """identify, answered by whichever bot runs the network now (the nick
    may be the alternative one for a while)."""
    rx = re.compile(IDENTIFIED % c.nick + "|" + NO_CHANNEL)
    # A standby that took over while the old connection still held the
    # nick runs as ringside_ until it takes its nick back: a 401 (no such
    # nick) for one name sends the next try to the other.
    nicks = [BOT_NICK, BOT_NICK + "_"]
    for i in range(8):
        start = len(c.lines)
        c.pace()
        c.raw("PRIVMSG %s :identify %s" % (nicks[i % 2], pw))
        m = c.wait(lambda m: m.cmd == "401" or (
                   m.cmd in ("PRIVMSG", "NOTICE") and m.nick.lower().startswith(BOT_NICK) and
                   m.target.lower() == c.nick.lower() and rx.search(m.text)),
                   "%s identified" % c.nick, start=start)
        if m.cmd != "401" and not re.search(NO_CHANNEL, m.text):
            return
    raise Failure("%s: no bot of the network took identify in eight tries" % c.nick)


def s_stop(env):
    for bt in env.bots:
        if bt.alive():
            bt.proc.send_signal(signal.SIGTERM)
            try:
                rc = bt.proc.wait(30)
            except subprocess.TimeoutExpired:
                raise Failure("%s still runs 30 s after SIGTERM" % bt.name, tail(bt.log, 20))
            check(rc == 0, "%s exited %d after SIGTERM" % (bt.name, rc), tail(bt.log, 20))
        log = bt.log_text()
        for pat in SANITIZER:
            check(pat not in log, "%s's log has a report: %s" % (bt.name, pat), tail(bt.log, 40))
    return ["stopped: %s" % ", ".join(bt.name for bt in env.bots)]


SCENARIOS = [
    ("three bots: kill -9 of A1 mid-bout, A2 takes over, both bouts finish", s_three),
    ("the database restarted mid cross-network bout", s_db_restart),
    ("A1 cut off for real (black hole): A2 takes over, A1 fenced and stays a standby", s_cut),
    ("only A1's PostgreSQL cut off: A1 says nothing more on IRC, steps down", s_pg_cut),
    ("kill -9 of the owner as a cross-network round is fought", s_kill_fought),
    ("the other network's bot cut off mid cross-network bout: its standby relays", s_cut_two),
    ("the database restarted with a standby on each network", s_restart_standbys),
]


def run(env):
    passed = failed = 0
    only = os.environ.get("E2E_ONLY")
    chosen = [sc for i, sc in enumerate(SCENARIOS, 1) if not only or str(i) in only.split(",")]
    for name, fn in chosen + [("SIGTERM to every bot: exit 0, no sanitizer report", s_stop)]:
        t = time.monotonic()
        try:
            notes = fn(env)
            print("ok - %s" % name)
            for n in notes:
                print("#   %s" % n)
            passed += 1
        except Failure as e:
            print("FAIL - %s: %s" % (name, e.args[0]))
            for ln in (e.detail or "").splitlines():
                print("#   " + ln)
            failed += 1
        except Exception:  # noqa: BLE001 - a test error is a failure too
            print("FAIL - %s: %s" % (name, traceback.format_exc()))
            failed += 1
        print("#   (%.1f s)" % (time.monotonic() - t))
        sys.stdout.flush()
        for c in list(env.clients) + list(env.two.clients):
            c.quit()  # the next scenario's players take the same nicks
    if failed:
        for bt in env.bots:
            print("--- %s log (tail)\n%s" % (bt.name, tail(bt.log, 40)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main(argv):
    if len(argv) != 3:
        print("usage: sh tests/pg.sh run python3 tests/e2e/e2e_cluster.py BOT SIM", file=sys.stderr)
        return 2
    uri = os.environ.get("RINGSIDE_TEST_PG")
    if not uri or not os.environ.get("PG_TCP_PORT"):
        pg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg.sh")
        env = dict(os.environ, PG_TCP_PORT=str(ports.free_port()))
        env.pop("RINGSIDE_TEST_PG", None)
        return subprocess.call(["sh", pg, "run", sys.executable] + argv, env=env)
    for tool in ("psql", "inspircd", "ngircd"):
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            print("e2e_cluster: %s is missing; make deps" % tool, file=sys.stderr)
            return 2
    env = ClusterEnv(argv[1], argv[2], uri, int(os.environ["PG_TCP_PORT"]))
    rc = 1
    try:
        env.start_server()
        env.two.start_server()
        rc = run(env)
    finally:
        env.stop_bot()
        for p in env.proxies:
            p.close()
        e2e_cross.shut(env, keep=rc != 0)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
