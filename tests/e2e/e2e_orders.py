#!/usr/bin/env python3
"""e2e_orders.py - where orders go and what the command limit says, end to
end: the real bot, a real ngircd, real client connections.

    python3 tests/e2e/e2e_orders.py BOT SIM    (from the repository root;
                                               BOT e.g. build/asan/ringside,
                                               SIM build/ringside-sim)

Reuses tests/e2e/e2e_bouts.py's environment (ngircd without penalties, the
bot paced fast; the command limit e2e.py's: 5 commands at once, then one every
2 s, a flood held off up to 30 s).

Scenarios:
  1. the command limit: help counts a third (fifteen helps in a row are all
     answered), a burst past it is told once when he may go on and gets
     nothing more for 5 s, and a command every 5.5 s after it is answered or
     told how long is left, until answered (slowed, not ignored);
  2. orders said in the channel without the prefix: a private hint to the
     player, nothing stored, no second hint for the next ones;
  3. forfeit asks first (the bout goes on); forfeit yes concedes it;
  4. a player in a boxing and a SUGAR RAY bout: each bare order goes to the
     bout whose ruleset reads it;
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
from e2e import CHANNEL, RATE_CMDS, Client, check  # noqa: E402
from e2e_bouts import STORED, challenge, player, tell, wait_private_at  # noqa: E402

TELL_EVERY = 5.0  # bot/bot.h USERS_RATE_TELL_EVERY
LIMITED = re.compile(r"^too many commands")


def bot_private(c, start):
    """What the bot said to c in private from his line `start`."""
    with c.cond:
        return [m.text for m in c.lines[start:]
                if c.from_bot(m) and m.target.lower() == c.nick.lower()]


def s_limit(env):
    """The command limit: learning counts a third; a burst past it is told
    once when to go on, then nothing for 5 s; slowed, never ignored: a
    command every few seconds is answered or told how long is left."""
    c = Client(env, "learner", [CHANNEL])
    start = len(c.lines)
    helps = 3 * RATE_CMDS
    c.raw_bytes(b"".join(b"PRIVMSG ringside :help\r\n" for _ in range(helps)))
    c.wait(lambda m: len([t for t in bot_private(c, start) if t.startswith("commands: ")]) >=
           helps, "%d answers to help" % helps)
    pos = len(c.lines)
    burst = 8
    c.raw_bytes(b"".join(b"PRIVMSG ringside :version\r\n" for _ in range(burst)))
    _, m = wait_private_at(c, r"^too many commands", pos)
    told = time.monotonic()
    got = re.match(r"^too many commands: I take yours again in (\d+) seconds?; at most %d at once, "
                   r"then one every 2 seconds, please \(help, typos and refused commands count a "
                   r"third, and so does each command sent meanwhile; orders for your own bout "
                   r"are always taken\)$" % RATE_CMDS, m.text)
    check(got and 1 <= int(got.group(1)) <= 30, "the first limit reply: %r" % m.text)
    time.sleep(max(0.0, told + TELL_EVERY - 0.5 - time.monotonic()))
    said = bot_private(c, pos)
    n = len([t for t in said if LIMITED.search(t)])
    check(n == 1, "%d limit replies within 5 s to a burst of %d (want 1): %r" % (n, burst, said))
    ran = len([t for t in said if t.startswith("Ringside ")])
    check(ran < burst, "all %d of the burst answered: %r" % (burst, said))
    # Slowed, not ignored: one command every 5.5 s, each answered or told
    # how long is left, until one is answered, within the 30 s a flood is
    # held off at most.
    tells = 0
    while True:
        pos = len(c.lines)
        c.cmd("version", pace=False)
        _, m = wait_private_at(c, r"^(too many commands|Ringside )", pos)
        if m.text.startswith("Ringside "):
            break
        check(re.match(r"^too many commands: I take yours again in \d+ seconds? \(orders for your "
                       r"own bout are always taken\)$", m.text), "a later limit reply: %r" % m.text)
        tells += 1
        check(time.monotonic() - told < 35, "still refused %.1f s after the first reply" %
              (time.monotonic() - told))
        time.sleep(TELL_EVERY + 0.5)
    c.quit()
    return ["%d helps answered; %d of a burst of %d answered, told once; answered again %.1f s "
            "after (%d more replies)" % (helps, ran, burst, time.monotonic() - told, tells)]


def s_hint(env):
    """Orders said in the channel: a private hint, nothing stored."""
    a = player(env, "hint1", "create Hearns str=13 spd=13 agl=12 tgh=11 hgt=11")
    b = player(env, "hint2", "create Benitez str=11 spd=14 agl=13 tgh=11 hgt=11")
    bout_id = challenge(env, a, b, "rounds=3", "Hearns", "Benitez")
    pos = len(a.lines)
    a.raw("PRIVMSG %s :5/5/10" % CHANNEL)
    _, m = wait_private_at(a, r"^orders go to me", pos)
    check(m.text == "orders go to me in private: /msg ringside 5/5/10 - here the channel sees "
          "them", "the hint: %r" % m.text)
    pos = len(a.lines)
    a.raw("PRIVMSG %s :6/6/8" % CHANNEL)
    tell(a, "version", r"^Ringside ")  # after the second chat line: nothing for it
    again = [t for t in bot_private(a, pos) if t.startswith("orders go")]
    check(again == [], "a second hint: %r" % again)
    check(env.orders(bout_id) == {}, "orders said in the channel were stored: %r" %
          env.orders(bout_id))
    tell(b, "forfeit yes", r"^you conceded bout #%d$" % bout_id)
    for c in (a, b):
        c.quit()


def s_forfeit(env):
    """forfeit asks; forfeit yes concedes."""
    a = player(env, "conf1", "create Hagler str=14 spd=11 agl=11 tgh=13 hgt=11")
    b = player(env, "conf2", "create Mugabi str=13 spd=13 agl=12 tgh=11 hgt=11")
    bout_id = challenge(env, a, b, "rounds=3", "Hagler", "Mugabi")
    tell(b, "forfeit", r"^Forfeit bout #%d \(Mugabi vs Hagler\)\? This ends it as a loss\. Say "
         r"forfeit yes \(or forfeit #%d yes\) to confirm\.$" % (bout_id, bout_id))
    check(env.bout(bout_id)["state"] == "live", "the bout ended without a yes")
    tell(b, "forfeit #%d yes" % bout_id, r"^you conceded bout #%d$" % bout_id)
    row = env.bout(bout_id)
    check(row["state"] == "over" and row["winner"] == 0, "after forfeit yes: %r" % row)
    for c in (a, b):
        c.quit()


def s_two_rulesets(env):
    """A boxing and a SUGAR RAY bout: each bare order finds its own."""
    a = player(env, "both1", "create Pryor str=13 spd=13 agl=12 tgh=11 hgt=11")
    tell(a, "create Pep rules=sugarray", r"^Pep \(sugarray\) is ready")
    b = player(env, "both2", "create Arguello str=12 spd=13 agl=12 tgh=12 hgt=11")
    c = player(env, "both3", "create Saddler rules=sugarray")
    box = challenge(env, a, b, "rounds=3", "Pryor", "Arguello")
    sug = challenge(env, c, a, "rules=sugarray", "Saddler", "Pep")
    tell(a, "3/2", STORED % (1, "Pep"))
    tell(a, "5/5/10", STORED % (1, "Pryor"))
    check(env.orders(box).get((1, 0), ("",))[0] == "5/5/10", "boxing: %r" % env.orders(box))
    check(env.orders(sug).get((1, 1), ("",))[0] == "3/2", "SUGAR RAY: %r" % env.orders(sug))
    tell(a, "forfeit #%d yes" % box, r"^you conceded bout #%d$" % box)
    tell(a, "forfeit #%d yes" % sug, r"^you conceded bout #%d$" % sug)
    for x in (a, b, c):
        x.quit()


SCENARIOS = [
    ("the command limit: help counts a third, each command past it told", s_limit),
    ("orders in the channel without the prefix: a private hint", s_hint),
    ("forfeit asks, forfeit yes concedes", s_forfeit),
    ("bare orders find the bout of their ruleset", s_two_rulesets),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_orders.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_orders: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_orders: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_orders: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
