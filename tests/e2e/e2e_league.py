#!/usr/bin/env python3
"""e2e_league.py - league turns are the channel's news, end to end: the real
bot (ASan), a real ngircd, real client connections.

    python3 tests/e2e/e2e_league.py BOT SIM   (from the repository root)

Reuses tests/e2e/e2e_bouts.py's environment (ngircd without penalties, the
bot's output paced fast).

Scenarios:
  1. an admin (made by the operator: ringside --add-admin) runs a SUGAR RAY
     turn in private: the channel gets the summary, three lines, with the
     bouts' numbers as the database has them, the move up and the vacant
     title; the admin gets the same three lines in private; the next turn,
     run the same way: the lone fighter of SILVER is said to have a bye;
     `standings` with no ruleset named shows the ruleset that has fighters
     (not the empty boxing one), its leagues with fighters only;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py. Environment: E2E_ONLY, E2E_KEEP, E2E_VERBOSE as e2e.py.
Python 3 standard library only.
"""

import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import ADMIN, CHANNEL, Client, check, secret  # noqa: E402

PLAYERS = (("lg_att", "Attila", "4/0"), ("lg_def1", "Doris", "0/3"), ("lg_def2", "Dora", "0/3"))
TITLE_VACANT = "The title stays vacant: GOLD needs two fighters."

def turn_bouts(env, number):
    """The numbers of the league bouts of SUGAR RAY turn `number`, in order."""
    return [r[0] for r in env.query("SELECT id FROM bouts WHERE rules = 'sugarray' AND "
                                    "kind = 'league' AND turn = ? ORDER BY id", (number,))]


def summary(env, boss, watcher, number, want_leagues):
    """boss runs a SUGAR RAY turn in private; the channel (seen by watcher)
    and boss get the same three lines, the first naming the turn's bouts by
    number. Returns the lines."""
    start, bstart = len(watcher.lines), len(boss.lines)
    boss.cmd("turn rules=sugarray")

    def chan_lines(m):
        return watcher.from_bot(m) and m.target.lower() == CHANNEL.lower()
    # The watcher may not have heard all of the turn before yet (another
    # client watched it): this turn's lines begin with its own head.
    head_m = watcher.wait(lambda m: chan_lines(m) and
                          m.text.startswith("League turn %d (" % number), "the turn's first line",
                          start=start, timeout=e2e.TIMEOUT + 20)
    with watcher.cond:
        first = watcher.lines.index(head_m)
    watcher.wait(lambda m: chan_lines(m) and m.text == TITLE_VACANT, "the turn's last line",
                 start=first, timeout=e2e.TIMEOUT + 20)
    with watcher.cond:
        got = [m.text for m in watcher.lines[first:] if chan_lines(m)]
    ids = turn_bouts(env, number)
    head = "League turn %d (sugarray): %d bouts fought from the plans: BRONZE #%d-#%d." % (
        number, len(ids), ids[0], ids[-1]) if ids else None
    want = [head, want_leagues, TITLE_VACANT]
    check(got == want, "the channel's summary of turn %d" % number,
          "got %r\nwant %r" % (got, want))
    boss.wait(lambda m: boss.from_bot(m) and m.target.lower() == ADMIN.lower()
              and m.text == TITLE_VACANT, "the admin's copy", start=bstart,
              timeout=e2e.TIMEOUT + 20)
    mine = [m.text for m in boss.lines[bstart:]
            if boss.from_bot(m) and m.target.lower() == ADMIN.lower()]
    check(mine == want, "the admin's private copy of turn %d" % number,
          "got %r\nwant %r" % (mine, want))
    return got


def s_private_turns(env):
    pw = secret(env, "boss-league-pw-1")
    env.add_admin(ADMIN, pw)
    boss = Client(env, ADMIN, [CHANNEL])  # in the channel (to stay identified), asks in private
    boss.ask("identify " + pw, r"^you are identified as boss ")
    players = []
    for nick, fighter, plan in PLAYERS:
        c = Client(env, nick, [CHANNEL])
        c.ask("register " + secret(env, nick + "-pw-42"), r"^account %s registered" % nick)
        c.ask("create %s rules=sugarray" % fighter, r"^%s \(sugarray\) is ready" % fighter)
        c.ask("plan set " + plan, r"^%s's plan stored" % fighter)
        players.append(c)
    # Attila beats both defenders (up); the defenders draw with each other
    # and lose to him: a loss and a tie, BRONZE does not go down.
    got1 = summary(env, boss, players[0], 1, "BRONZE: 3 fought; up: Attila.")
    # The next turn: Attila, alone in SILVER, has a bye.
    got = summary(env, boss, players[1], 2,
                  "SILVER: a bye for Attila (nobody else to fight). BRONZE: 2 fought.")
    watcher = players[1]
    watcher.skip()
    text = watcher.ask("standings", r"^Standings \(", chan=CHANNEL)
    want = (r"^Standings \(sugarray\): SILVER: 1\. Attila \(lg_att\) 2-0-0 gold 0 \| BRONZE: "
            r"1\. D\w+ \(lg_def\d\) 0-1-3 gold 0; 2\. D\w+ \(lg_def\d\) 0-1-3 gold 0$")
    check(re.match(want, text), "standings with no ruleset named: %r" % text)
    for c in players + [boss]:
        c.quit()
    return ["private turn 1, in the channel: " + " / ".join(got1),
            "private turn 2, in the channel: " + " / ".join(got), "standings: " + text]


SCENARIOS = [
    ("an admin's private turns: the channel's summary with bout numbers and a bye; standings "
     "of the ruleset with fighters", s_private_turns),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_league.py BOT SIM", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_league: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_league: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_league: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
