#!/usr/bin/env python3
"""e2e_tournament.py - knockout tournaments end to end: the real bot (ASan),
a real ngircd, real client connections.

    python3 tests/e2e/e2e_tournament.py BOT SIM   (from the repository root)

Reuses tests/e2e/e2e_bouts.py's environment (ngircd without penalties, the
bot's output paced fast).

Scenarios:
  1. plans: an admin opens an 8-place tournament in the channel; eight
     players join (a ninth is refused: it started when full), the channel
     hears the start with the standard bracket by seed; the admin fights the
     quarter-finals, the bot is killed (kill -9) and started again: nothing
     is fought twice, nor said again round by round (the plans bouts were
     told by their round's line), the semi-finals and the final go on by `tournament
     next`; the channel hears each round's results and the winner, the
     bracket is in the database (7 bouts, each with its winner), `bracket`
     answers in at most three lines with the web address, and the winner's
     `fighter` shows the cup.
  2. live: an 8-place tournament of 3-round bouts fought live, with a short
     order_timeout: every bracket bout starts by itself in the channel, both
     players are prompted and order when the flood limit lets them (else
     their plans fight);
     each round starts when the last bout of the one before ends; the
     channel hears the winner.
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py. Environment: E2E_ONLY, E2E_KEEP, E2E_VERBOSE as e2e.py.
Python 3 standard library only.
"""

import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import ADMIN, CHANNEL, Client, check, secret  # noqa: E402

NAMES = ("Ali", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def chan_wait(c, regex, start, timeout=e2e.TIMEOUT + 40):
    rx = re.compile(regex)
    m = c.wait(lambda m: c.from_bot(m) and m.target.lower() == CHANNEL.lower()
               and rx.search(m.text), "/%s/ in the channel" % regex, start=start,
               timeout=timeout)
    return m.text


def players(env, prefix):
    """Eight players, each with a boxer and a plan; returns the clients."""
    out = []
    for i, name in enumerate(NAMES):
        nick = "%s%d" % (prefix, i)
        c = Client(env, nick, [CHANNEL])
        c.pw = secret(env, nick + "-pw-77")
        c.ask("register " + c.pw, r"^account %s registered" % nick)
        fighter = prefix.capitalize() + name
        c.fighter = fighter
        c.ask("create %s str=%d spd=12 agl=%d tgh=12 hgt=12" % (fighter, 10 + i % 5, 14 - i % 5),
              r"^%s \(boxing\) is ready" % fighter)
        c.ask("plan set 5/5/10 (ring); 4) 4H/8/8 (inside)", r"^%s's plan stored" % fighter)
        out.append(c)
    return out


def boss_client(env):
    pw = secret(env, "boss-tour-pw-1")
    if not env.query("SELECT id FROM accounts WHERE key = ?", (ADMIN,)):
        env.add_admin(ADMIN, pw)
    boss = Client(env, ADMIN, [CHANNEL])
    boss.pw = pw
    boss.ask("identify " + pw, r"^you are identified as boss ")
    return boss


def s_plans(env):
    boss = boss_client(env)
    ps = players(env, "pl")
    w = ps[0]
    start = len(w.lines)
    boss.cmd("tournament open size=8 name=Spring Cup", chan=CHANNEL)
    chan_wait(w, r"^Tournament #1 \(Spring Cup\) is open: boxing, 8 places, bouts of 12 rounds, "
              r"fought from the plans\. Join with !tournament join <fighter>\.$", start)
    for k, c in enumerate(ps):
        pos = len(w.lines)
        c.cmd("tournament join " + c.fighter, chan=CHANNEL)
        chan_wait(w, r"^%s joins tournament #1 \(Spring Cup\): %d of 8\.$" % (c.fighter, k + 1),
                  pos)
    begins = chan_wait(w, r"^Tournament #1 \(Spring Cup\) begins: 8 fighters, boxing, seeded "
                       r"by rating\. Quarter-finals: ", start)
    pairs = re.findall(r"\[(\d)\] v \w+ \[(\d)\]", begins)
    check(pairs == [("1", "8"), ("4", "5"), ("2", "7"), ("3", "6")],
          "the standard bracket: %r" % begins)
    extra = Client(env, "pl_late", [CHANNEL])
    extra.ask("register " + secret(env, "pl-late-pw-9"), r"^account pl_late registered")
    extra.ask("create PlLate str=12 spd=12 agl=12 tgh=12 hgt=12", r"^PlLate \(boxing\) is ready")
    extra.ask("tournament join PlLate",
              r"^tournament #1 \(Spring Cup\) has begun; join the next one$", chan=CHANNEL)
    boss.skip()
    boss.ask("tournament next", r"^Tournament #1 \(Spring Cup\), the quarter-finals: ")
    bouts1 = [r[0] for r in env.query("SELECT bout FROM tournament_bouts WHERE stage = 1 "
                                      "AND winner IS NOT NULL ORDER BY slot")]
    check(len(bouts1) == 4, "the quarter-finals stored: %r" % bouts1)
    # kill -9 and back: the bracket goes on from the database.
    env.kill_bot()
    restarted = len(w.lines)
    env.start_bot()
    boss.skip()
    boss.ask("identify " + boss.pw, r"^you are identified as boss ")
    pos = len(w.lines)
    w.ask("identify " + w.pw, r"^you are identified as ")
    boss.cmd("tournament next", chan=CHANNEL)
    chan_wait(w, r"^Tournament #1 \(Spring Cup\), the semi-finals: .* Next, the final: ", pos)
    boss.cmd("tournament next", chan=CHANNEL)
    won = chan_wait(w, r"^Tournament #1 \(Spring Cup\), the final: .* (\w+) wins the Spring "
                    r"Cup!$", pos)
    winner = re.search(r"(\w+) wins the Spring Cup!$", won).group(1)
    rows = env.query("SELECT stage, bout, winner FROM tournament_bouts ORDER BY stage, slot")
    check(len(rows) == 7 and all(r[1] and r[2] for r in rows), "the bracket stored: %r" % rows)
    check([r[1] for r in rows[:4]] == bouts1, "the quarter-finals were not fought again")
    text = w.ask("bracket 1", r"^Tournament #1 \(Spring Cup\): boxing, 8 places, bouts of 12 "
                 r"rounds, plans; won by ", chan=CHANNEL)
    w.expect(r"^Results: %s (beat|goes through on seed after a draw with) " % winner,
             where=CHANNEL)
    card = w.ask("fighter " + winner, r"^%s \(boxing" % winner, chan=CHANNEL)
    w.expect(r"^%s won the Spring Cup \(boxing, 8\)\.$" % winner, where=CHANNEL)
    # The plans bouts were told by their round's line: the restart said
    # none of them again round by round (it said all, ten lines a bout).
    again = [m.text for m in w.lines[restarted:] if "what I had not said" in m.text]
    check(not again, "the restart said plans bouts again: %r" % again[:3])
    for c in ps + [boss, extra]:
        c.quit()
    return ["start: " + begins, "winner: " + won, "bracket: " + text, "fighter: " + card]


def s_live(env):
    # Ten seconds an order: whoever is slow, his plan fights for him.
    env.reload(10)
    ps = players(env, "lv")
    boss = boss_client(env)
    w = ps[0]
    start = len(w.lines)
    boss.cmd("tournament open size=8 mode=live rounds=3 name=Live Cup", chan=CHANNEL)
    chan_wait(w, r"^Tournament #\d \(Live Cup\) is open: boxing, 8 places, bouts of 3 rounds, "
              r"fought live\.", start)
    for c in ps:
        c.cmd("tournament join " + c.fighter, chan=CHANNEL)
    begins = chan_wait(w, r"^Tournament #\d \(Live Cup\) begins: 8 fighters", start)
    tid = int(re.search(r"#(\d)", begins).group(1))
    # Every player orders when he is prompted, until the winner: an order
    # is an action (it costs 3 of the 5 the bot's flood limit allows in 10
    # seconds), so at most one a player every 11 seconds.
    cursors = {c.nick: 0 for c in ps}
    waiting = {c.nick: 0 for c in ps}
    last = {c.nick: 0.0 for c in ps}
    prompt = re.compile(r"^Bout #(\d+), round (\d+) of 3: your orders for ")
    deadline = time.monotonic() + 600
    done = None
    orders = 0
    while time.monotonic() < deadline and done is None:
        for c in ps:
            with c.cond:
                new = c.lines[cursors[c.nick]:]
                cursors[c.nick] = len(c.lines)
            for m in new:
                if c.from_bot(m) and m.target.lower() == c.nick.lower() and \
                        prompt.search(m.text):
                    waiting[c.nick] = 1
            if waiting[c.nick] and time.monotonic() - last[c.nick] > e2e.RATE_WINDOW_SAFE:
                c.cmd("5/5/10 (ring)", pace=False)
                last[c.nick] = time.monotonic()
                waiting[c.nick] = 0
                orders += 1
        done = w.wait(lambda m: w.from_bot(m) and m.text.endswith("wins the Live Cup!"),
                      "the winner", start=start, timeout=0.5, fail=False)
    check(done is not None, "the live tournament ended: %s" % w.recent())
    rows = env.query("SELECT b.state, t.winner FROM tournament_bouts t JOIN bouts b "
                     "ON b.id = t.bout WHERE t.tournament = ?", (tid,))
    check(len(rows) == 7 and all(r[0] == "over" and r[1] for r in rows),
          "seven live bouts over, each with its winner: %r" % rows)
    for c in ps + [boss]:
        c.quit()
    env.reload(e2e_bouts.ORDER_TIMEOUT)
    return ["live: %s (%d orders sent)" % (done.text, orders)]


SCENARIOS = [
    ("an 8-place tournament from the plans, kill -9 after the quarter-finals", s_plans),
    ("an 8-place tournament fought live", s_live),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_tournament.py BOT SIM", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_tournament: %s is not an executable; run make first" % path,
                  file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_tournament: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_tournament: %s against ngircd" % argv[1],
                         stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
