#!/usr/bin/env python3
"""e2e_replies.py - replies that fit the situation (issue 24, point 6), end to
end: the real bot, a real ngircd, and real client connections saying what a
new player says, each reply checked word for word.

    python3 tests/e2e/e2e_replies.py BOT SIM   (from the repository root;
                                                BOT e.g. build/asan/ringside,
                                                SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (the IRC client, the Env that runs ngircd and the bot
in a temporary directory) and tests/e2e/e2e_bouts.py (BoutEnv, player, tell,
challenge).

Scenarios:
  1. nobody there, no bout: `!challenge` of a nick nobody uses, then of a nick
     in the channel without an account; `bouts` in private and in the channel
     (challenge is said with the channel it works in); `!score` with no live
     bout, in the channel and in private, of a bout that does not exist, of a
     word that is no bout number, of a challenge not yet accepted and of one
     declined; each reply exact and the database unchanged by the refusals;
  2. names and owners: `create` of "Zoë" (UTF-8 on the wire), of a name of 33
     characters and of a name in two words; `plan set` of another's fighter;
     `equip Xena axe` (the nearest piece of the armoury); `help ban` with its
     tag once;
  3. the order line explained once per player: with the round 1 prompt of a
     player's first bout, not with his second fighter's first bout, and again
     for a new player;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Processes are always stopped.
Environment: E2E_ONLY=name,number (as e2e.py), E2E_KEEP=1, E2E_VERBOSE=1.
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
from e2e import CHANNEL, Client, check  # noqa: E402
from e2e_bouts import BoutEnv, challenge, player, tell  # noqa: E402

BOT = e2e.BOT_NICK
ORDER_HELP_BOXING = "Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many"


def exact(c, text, want, chan=None):
    """c says `text`; the reply is exactly `want`."""
    return tell(c, text, "^%s$" % re.escape(want), chan)


def unchanged(env, before, what):
    after = env.snapshot()
    changed = sorted(t for t in set(before) | set(after) if before.get(t) != after.get(t))
    check(not changed, "%s changed the database (tables %s)" % (what, ", ".join(changed)))


def s_nobody(env):
    """No such nick, no account, no live bout: each reply says which."""
    ann = player(env, "rp_ann", "create Ada str=14 spd=12 agl=11 tgh=12 hgt=11")
    before = env.snapshot()
    exact(ann, "challenge rp_bobby", "no one called rp_bobby is here, and no account has that "
          "name; check the nick (/names %s lists who is here)" % CHANNEL, CHANNEL)
    bobby = Client(env, "rp_bobby", [CHANNEL])
    exact(ann, "challenge rp_bobby", "rp_bobby is here but has no account: rp_bobby must "
          "register first (/msg %s register <password>)" % BOT, CHANNEL)
    exact(ann, "bouts", "no live bouts; challenge someone: say !challenge <nick> in %s" % CHANNEL)
    exact(ann, "bouts", "no live bouts; challenge someone: !challenge <nick>", CHANNEL)
    exact(ann, "score", "there is no live bout in %s; !bouts lists the live ones, !report <bout> "
          "tells a finished one" % CHANNEL, CHANNEL)
    exact(ann, "score", "no bout is live; bouts lists the live ones, report <bout> tells a "
          "finished one")
    exact(ann, "score #999", "there is no bout #999; !bouts lists the live ones", CHANNEL)
    exact(ann, "score x", "\"x\" is not a bout number; e.g. !score #12 (!bouts lists the live "
          "ones)", CHANNEL)
    exact(ann, "5/5/10", "you have no live bout; say !challenge <nick> in %s first" % CHANNEL)
    unchanged(env, before, "the refusals")
    # A challenge not yet accepted, then a bout that is over.
    ben = player(env, "rp_ben", "create Ben str=13 spd=14 agl=12 tgh=11 hgt=10")
    start = len(ann.lines)
    ann.cmd("challenge rp_ben rounds=3", CHANNEL)
    m = e2e_bouts.wait_chan(ann, r"^rp_ann challenges rp_ben to bout #(\d+), boxing, 3 rounds: ",
                            start)
    bout = int(re.search(r" to bout #(\d+), ", m.text).group(1))
    exact(ann, "score #%d" % bout, "bout #%d has not started: rp_ben has not accepted the "
          "challenge yet" % bout, CHANNEL)
    ben.cmd("decline", CHANNEL)
    e2e_bouts.wait_chan(ann, r"^rp_ben declines the challenge \(bout #%d, " % bout, start)
    exact(ann, "score #%d" % bout, "bout #%d never started: the challenge was declined, "
          "withdrawn or not answered in time" % bout, CHANNEL)
    check(bobby.nick == "rp_bobby", "rp_bobby is still there")


def s_names(env):
    """Names and owners: each refusal says exactly what is wrong."""
    cat = player(env, "rp_cat", "create Cleo str=14 spd=12 agl=11 tgh=12 hgt=11")
    dan = player(env, "rp_dan", "create Dino str=14 spd=12 agl=11 tgh=12 hgt=11")
    rule = "names are 2 to 20 letters A-Z, digits, _ - ', starting with a letter"
    before = env.snapshot()
    exact(cat, "create Zoë str=12 spd=12 agl=12 tgh=12 hgt=12", "\"Zoë\" is not a fighter's "
          "name: 'ë' is not allowed (%s); try Zoe" % rule)
    exact(cat, "create José str=12 spd=12 agl=12 tgh=12 hgt=12", "\"José\" is not a fighter's "
          "name: 'é' is not allowed (%s); try Jose" % rule, CHANNEL)
    exact(cat, "create Apollo_the_Magnificent_x_xxxxxxxx str=12 spd=12 agl=12 tgh=12 hgt=12",
          "\"Apollo_the_Magnificent_x...\" is not a fighter's name: it is 33 characters, at "
          "most 20")
    exact(cat, "create Iron Mike str=12 spd=12 agl=12 tgh=12 hgt=12", "a fighter's name is one "
          "word: write Iron_Mike or IronMike, e.g. create Iron_Mike str=12 spd=12 agl=12 "
          "tgh=12 hgt=12")
    exact(dan, "plan set Cleo 1) 5/5/10", "Cleo belongs to rp_cat, not to you; your fighters: "
          "Dino")
    unchanged(env, before, "the refusals")
    tell(cat, "create Xena rules=duel str=18 dex=14 con=14 int=10", r"^Xena \(duel\) is ready")
    before = env.snapshot()
    exact(cat, "equip Xena axe", "\"axe\" is not in the armoury; did you mean war_axe? armoury "
          "lists it all")
    exact(cat, "equip Xena sword", "\"sword\" is not in the armoury; did you mean short_sword or "
          "longsword? !armoury lists it all", CHANNEL)
    unchanged(env, before, "equip's refusals")
    exact(cat, "help ban", "ban <account>: bans an account: it can no longer identify (admins "
          "only)")


def s_first_bout(env):
    """The order line is explained with a player's first bout only."""
    eve = player(env, "rp_eve", "create Evita str=14 spd=12 agl=11 tgh=12 hgt=11")
    tell(eve, "create Edna str=14 spd=12 agl=11 tgh=12 hgt=11", r"^Edna \(boxing\) is ready")
    fay = player(env, "rp_fay", "create Faye str=13 spd=14 agl=12 tgh=11 hgt=10")
    gus = player(env, "rp_gus", "create Gust str=13 spd=14 agl=12 tgh=11 hgt=10")
    starts = len(eve.lines), len(fay.lines)
    challenge(env, eve, fay, "rounds=3 with=Evita", "Evita", "Faye")
    # The order line explained with the start's call for round 1 (both
    # are in the channel: it asks them there).
    for c, s in zip((eve, fay), starts):
        e2e_bouts.wait_chan(c, r"^Bout #\d+ is on\. Round 1 of .*; send them to me in private\. " +
                            re.escape(ORDER_HELP_BOXING), s)
    # Her second fighter's first bout: she knows the orders; gus does not,
    # and the call explains them (for him); nothing private teaches her.
    e0, g0 = len(eve.lines), len(gus.lines)
    bout = challenge(env, eve, gus, "rounds=3 with=Edna", "Edna", "Gust")
    e2e_bouts.wait_chan(gus, r"^Bout #%d is on\. Round 1 of .*; send them to me in private\. " %
                        bout + re.escape(ORDER_HELP_BOXING), g0)
    time.sleep(1.5)  # what would come with her prompt has come
    told = [m.text for m in eve.lines[e0:]
            if eve.from_bot(m) and m.target.lower() == eve.nick.lower()]
    check(not any("Boxing orders are" in t for t in told),
          "rp_eve was taught the orders again in bout #%d" % bout, "\n".join(told))


SCENARIOS = [
    ("nobody there, no bout: say which", s_nobody),
    ("names and owners: exactly what is wrong", s_names),
    ("the order line once per player", s_first_bout),
]
STOP = e2e_bouts.STOP


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_replies.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_replies: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_replies: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = BoutEnv(argv[1], argv[2])

    def before_restart(e):
        e.order_timeout = e2e_bouts.ORDER_TIMEOUT

    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_replies: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=STOP[1], before_restart=before_restart)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
