#!/usr/bin/env python3
"""e2e_restart.py - restarts that don't punish: the real bot (kill -9 and
started again on the same database), a real ngircd that keeps running, and
players who stay connected and identify again one at a time.

    python3 tests/e2e/e2e_restart.py BOT SIM     (from the repository root;
                                                 BOT e.g. build/asan/ringside,
                                                 SIM build/ringside-sim)

Reuses tests/e2e/e2e_bouts.py (ngircd without penalties, the bot paced fast)
and e2e_duel.py's duellists, with [bout] rejoin_grace set (a long one, then a
short one) and duel_round_seconds = 1.

Scenarios:
  1. two boxing bouts (bob in both) and a duel, live; the bot is killed and
     started again with order_timeout = 10: the channel hears once per bout
     that it waits for its players and until when; each player away is told
     in private; nobody back: no deadline runs out and no duel round is
     fought; alice back: asked for her orders (the clock waits for bob), her
     bout still waits; one duellist back: the duel still waits; bob back:
     identify lists both bouts waiting for his orders, his bout with alice
     goes on, and he is asked in each of his two bouts; carol and the second
     duellist back: their bouts go on (the duel fights its next round).
  2. one player never returns: rejoin_grace = 8s; the bout goes on without
     him once it has passed (not before), and his default orders fight the
     round at its deadline.
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Environment: E2E_ONLY, E2E_KEEP,
E2E_VERBOSE as e2e.py. Python 3 standard library only.
"""

import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
import e2e_duel  # noqa: E402
from e2e import CHANNEL, Client, check  # noqa: E402
from e2e_bouts import challenge, order, order_last, player, tell, wait_chan, wait_private  # noqa: E402

LONG_GRACE = "10m"
SHORT_GRACE = 8  # seconds
SHORT_TIMEOUT = 10  # order_timeout after the restarts (the least the configuration takes)
IDENTIFIED = r"^you are identified as %s until you quit or leave my channels"


class RestartEnv(e2e_bouts.BoutEnv):
    """e2e_bouts' environment with duels at a round a second and a grace."""

    def __init__(self, bot_path, sim_path):
        super().__init__(bot_path, sim_path)
        self.grace = LONG_GRACE

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra + "duel_round_seconds = %d\nrejoin_grace = %s\n"
                                 % (e2e_duel.ROUND_SECONDS, self.grace))

    def restart(self, order_timeout):
        """kill -9, and started again on the same database with order_timeout."""
        self.kill_bot()
        self.order_timeout = order_timeout
        self.start_bot()


def away_notice(c, bout_id, names, start, until):
    """c, not identified after the restart, is told that the bout waits for him."""
    wait_private(c, r"^Bout #%d \(%s vs %s\) waits for you until %s: identify again \(identify "
                 r"<password>\) and it goes on\.$" % ((bout_id,) + names + (until,)), start)


def waits_line(w, bout_id, names, who, rnd, rounds, start, until):
    """The channel's one line: the bout waits for `who` until a time."""
    m = wait_chan(w, r"^Bout #%d, %s vs %s, waits for %s to come back, until (%s) at the latest: "
                  r"round %d of %d is next\.$" % ((bout_id,) + names + (who, until, rnd, rounds)),
                  start, timeout=e2e.RECONNECT_TIMEOUT)
    return m


def said_in_channel(w, regex, start):
    rx = re.compile(regex)
    with w.cond:
        lines = w.lines[start:]
    return [m for m in lines if w.from_bot(m) and m.target.lower() == CHANNEL and
            rx.search(m.text)]


def unchanged(env, rows, what):
    """The bouts' rounds and orders are as they were (nothing ran out)."""
    for bout_id, (rnd, orders) in rows.items():
        row = env.bout(bout_id)
        check(row["round"] == rnd and row["state"] == "live",
              "%s: bout #%d is at round %d (%s), was %d" % (what, bout_id, row["round"],
                                                            row["state"], rnd))
        if orders is not None:
            check(env.orders(bout_id) == orders, "%s: bout #%d's orders changed: %r" %
                  (what, bout_id, env.orders(bout_id)))


def s_one_at_a_time(env):
    """Two bouts and a duel wait for their players, who come back one at a time."""
    w = Client(env, "rswatch", [CHANNEL])
    a = player(env, "rs_alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "rs_bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10")
    tell(b, "create Drago str=15 spd=12 agl=11 tgh=12 hgt=10", r"^Drago \(boxing\) is ready")
    c = player(env, "rs_carol", "create Creed str=13 spd=13 agl=12 tgh=12 hgt=10")
    x = challenge(env, a, b, "rounds=3 vs=Apollo", "Rocky", "Apollo")
    y = challenge(env, c, b, "rounds=3 vs=Drago", "Creed", "Drago")
    order(a, "5/5/10", 1, "Rocky")
    d = e2e_duel.duellist(env, "rs_dan", "Hector", e2e_duel.SHEET_A, e2e_duel.KIT_A)
    e = e2e_duel.duellist(env, "rs_eve", "Achilles", e2e_duel.SHEET_B, e2e_duel.KIT_B)
    z, _ = e2e_duel.duel(env, d, e, "Hector", "Achilles")
    row = e2e_duel.wait_round(env, z, 1)
    check(row["state"] == "live", "the duel ended before the kill: %r" % row)

    starts = {cl: len(cl.lines) for cl in (w, a, b, c, d, e)}
    env.restart(SHORT_TIMEOUT)
    t_back = time.monotonic()
    dz = env.bout(z)["round"]
    until = r"\d\d:\d\d UTC"
    waits = {
        x: waits_line(w, x, ("Rocky", "Apollo"), "rs_alice and rs_bob", 1, 3, starts[w], until),
        y: waits_line(w, y, ("Creed", "Drago"), "rs_carol and rs_bob", 1, 3, starts[w], until),
        z: waits_line(w, z, ("Hector", "Achilles"), "rs_dan and rs_eve", dz + 1, 23, starts[w],
                      until)}
    when = {k: re.search(r"until (\d\d:\d\d UTC)", m.text).group(1) for k, m in waits.items()}
    away_notice(a, x, ("Rocky", "Apollo"), starts[a], when[x])
    away_notice(b, x, ("Rocky", "Apollo"), starts[b], when[x])
    away_notice(b, y, ("Creed", "Drago"), starts[b], when[y])
    away_notice(c, y, ("Creed", "Drago"), starts[c], when[y])
    away_notice(d, z, ("Hector", "Achilles"), starts[d], when[z])
    away_notice(e, z, ("Hector", "Achilles"), starts[e], when[z])
    rows = {x: (0, env.orders(x)), y: (0, env.orders(y)), z: (dz, None)}

    # Nobody back: past the order timeout, nothing has run out.
    time.sleep(max(0, t_back + SHORT_TIMEOUT + 3 - time.monotonic()))
    unchanged(env, rows, "nobody back, %d s after the restart" % (SHORT_TIMEOUT + 3))

    # alice is back: asked for her orders, the clock waits for bob.
    s = len(a.lines)
    tell(a, "identify " + a.pw, IDENTIFIED % "rs_alice" + "$")
    wait_private(a, r"^Bout #%d, round 1 of 3: your orders for Rocky \(e\.g\. .+\) within "
                 r"%d seconds; your orders for it are in already; the clock starts once rs_bob "
                 r"is back(?:\. Boxing orders are .*)?$" % (x, SHORT_TIMEOUT), s)
    # dan is back: his duel still waits for eve.
    tell(d, "identify " + d.pw, IDENTIFIED % "rs_dan" + "$")
    t_half = time.monotonic()
    time.sleep(SHORT_TIMEOUT + 2)
    unchanged(env, rows, "alice and dan back, %.0f s later" % (time.monotonic() - t_half))

    # bob is back: identify lists both his bouts; bout x goes on; he is
    # asked in each of his two bouts.
    s, sw = len(b.lines), len(w.lines)
    tell(b, "identify " + b.pw, IDENTIFIED % "rs_bob" +
         r"\. Waiting for your orders: bout #%d \(Rocky vs Apollo, round 1 of 3\), bout #%d "
         r"\(Creed vs Drago, round 1 of 3\)\.$" % (x, y))
    wait_chan(w, r"^Bout #%d, Rocky vs Apollo, goes on: round 1 of 3 is next\.$" % x, sw)
    wait_private(b, r"^Bout #%d, round 1 of 3: your orders for Apollo \(e\.g\. .+\) within "
                 r"%d seconds\.(?: Boxing orders are .*)?$" % (x, SHORT_TIMEOUT), s)
    wait_private(b, r"^Bout #%d, round 1 of 3: your orders for Drago \(e\.g\. .+\) within "
                 r"%d seconds; the clock starts once rs_carol is back"
                 r"(?:\. Boxing orders are .*)?$" % (y, SHORT_TIMEOUT), s)
    told = order_last(env, b, "order #%d 6/6/8" % x, 1, "Apollo", x)
    unchanged(env, {y: rows[y], z: rows[z]}, "bob back, carol and eve away")

    # carol is back: her bout goes on; she is asked.
    s, sw = len(c.lines), len(w.lines)
    tell(c, "identify " + c.pw, IDENTIFIED % "rs_carol" +
         r"\. Waiting for your orders: bout #%d \(Creed vs Drago, round 1 of 3\)\.$" % y)
    wait_chan(w, r"^Bout #%d, Creed vs Drago, goes on: round 1 of 3 is next\.$" % y, sw)
    wait_private(c, r"^Bout #%d, round 1 of 3: your orders for Creed \(e\.g\. .+\) within "
                 r"%d seconds\.(?: Boxing orders are .*)?$" % (y, SHORT_TIMEOUT), s)
    unchanged(env, {z: rows[z]}, "eve away")

    # eve is back: the duel goes on and fights its next round.
    sw = len(w.lines)
    tell(e, "identify " + e.pw, IDENTIFIED % "rs_eve" + "$")
    wait_chan(w, r"^Bout #%d, Hector vs Achilles, goes on: round %d of 23 is next\.$" %
              (z, dz + 1), sw)
    row = e2e_duel.wait_round(env, z, dz + 1)
    check(row["round"] > dz or row["state"] == "over", "the duel did not go on: %r" % row)

    # Each bout was said to wait once, in one line.
    for k in (x, y, z):
        n = len(said_in_channel(w, r"^Bout #%d, .* waits for " % k, starts[w]))
        check(n == 1, "bout #%d: %d lines said it waits" % (k, n))
    for cl in (w, a, b, c, d, e):
        cl.quit()
    return ["bouts #%d, #%d and duel #%d waited %.0f s for their players; round 1 of #%d "
            "fought with bob's orders (%s)" % (x, y, z, time.monotonic() - t_back, x,
                                               told.stored)]


def s_never_back(env):
    """One player never returns: the bout goes on without him after the grace."""
    env.grace = "%ds" % SHORT_GRACE
    env.restart(e2e_bouts.ORDER_TIMEOUT)
    w = Client(env, "rswatch2", [CHANNEL])
    f = player(env, "rs_fay", "create Liston str=14 spd=12 agl=11 tgh=12 hgt=11")
    g = player(env, "rs_gus", "create Frazier str=13 spd=14 agl=12 tgh=11 hgt=10")
    x = challenge(env, f, g, "rounds=3", "Liston", "Frazier")
    order(f, "2/8/10", 1, "Liston")
    starts = {cl: len(cl.lines) for cl in (w, f, g)}
    env.restart(SHORT_TIMEOUT)
    m = waits_line(w, x, ("Liston", "Frazier"), "rs_fay and rs_gus", 1, 3, starts[w],
                   r"\d\d:\d\d:\d\d UTC")
    t_wait = m.t
    s = len(f.lines)
    tell(f, "identify " + f.pw, IDENTIFIED % "rs_fay" + "$")
    wait_private(f, r"^Bout #%d, round 1 of 3: your orders for Liston \(e\.g\. .+\) within "
                 r"%d seconds; your orders for it are in already; the clock starts once rs_gus "
                 r"is back(?:\. Boxing orders are .*)?$" % (x, SHORT_TIMEOUT), s)
    m = wait_chan(w, r"^Bout #%d, Liston vs Frazier, goes on without rs_gus: round 1 of 3 is "
                  r"next\.$" % x, starts[w], timeout=SHORT_GRACE + e2e.TIMEOUT)
    waited = m.t - t_wait
    check(waited >= SHORT_GRACE - 1.5, "the bout went on %.1f s after it said it waits "
          "(the grace is %d s)" % (waited, SHORT_GRACE))
    check(env.bout(x)["round"] == 0, "a round was fought before the grace ended: %r" % env.bout(x))
    t_on = m.t
    deadline = time.monotonic() + SHORT_TIMEOUT + e2e.TIMEOUT
    while env.bout(x)["round"] < 1:
        check(time.monotonic() < deadline, "round 1 of bout #%d was not fought at its deadline" % x)
        time.sleep(0.2)
    fought = time.monotonic() - t_on
    check(fought >= SHORT_TIMEOUT - 1.5, "round 1 was fought %.1f s after the bout went on "
          "(order_timeout %d s)" % (fought, SHORT_TIMEOUT))
    rows = env.orders(x)
    check(rows.get((1, 0), (None, None))[:2] == ("2/8/10", "player") and
          rows.get((1, 1), (None, "player"))[1] != "player",
          "round 1's orders: %r" % rows)
    for cl in (w, f, g):
        cl.quit()
    env.grace = LONG_GRACE
    return ["bout #%d went on without gus %.1f s after it said it waits (grace %d s); round 1 "
            "fought %.1f s later with his %s orders" % (x, waited, SHORT_GRACE, fought,
                                                       rows[(1, 1)][1])]


SCENARIOS = [
    ("two bouts and a duel wait for their players, back one at a time", s_one_at_a_time),
    ("a player never returns: the grace ends", s_never_back),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_restart.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_restart: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_restart: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = RestartEnv(argv[1], argv[2])

    def before_restart(e):
        e.order_timeout = e2e_bouts.ORDER_TIMEOUT
        e.grace = LONG_GRACE

    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_restart: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=e2e_bouts.s_stop, before_restart=before_restart)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
