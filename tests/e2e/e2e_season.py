#!/usr/bin/env python3
"""e2e_season.py - a season ends, end to end: the real bot (ASan) with
[league] season_turns = 2, a real ngircd, real client connections.

    python3 tests/e2e/e2e_season.py BOT SIM   (from the repository root)

Reuses tests/e2e/e2e_bouts.py's environment (ngircd without penalties, the
bot's output paced fast).

Scenarios:
  1. three SUGAR RAY players; `season` says season 1 and two turns left; a
     player's `season end` is refused (admins only), and the admin's for
     boxing, where nothing was played; the admin runs two turns in private:
     after the second turn's summary the channel hears that season 1 is
     over (each league's winner, the vacant title, the moves, season 2
     begins), the admin the same in private; the archive and the hall of
     fame are in the database; `halloffame rules=sugarray` in the channel
     lists the winners; `season` says season 2 with two turns left; the
     standings show the season's records at 0 while the careers stay;
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

PLAYERS = (("ss_att", "Attila", "4/0"), ("ss_def1", "Doris", "0/3"), ("ss_def2", "Dora", "0/3"))
TITLE_VACANT = "The title stays vacant: GOLD needs two fighters."
OVER = ("Season 1 (sugarray) is over after 2 league turns: SILVER Attila (2-0-0), BRONZE Doris "
        "(0-1-3); the title is vacant.")
NEXT = ("up: Attila (to GOLD), Doris (to SILVER). Season 2 begins: the season's records start "
        "at 0, careers carry on.")


class SeasonEnv(e2e_bouts.BoutEnv):
    """BoutEnv with seasons of two league turns."""

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra + "\n[league]\nseason_turns = 2\n")


def run_turn(boss, watcher, last):
    """boss runs a SUGAR RAY turn in private; returns the channel's lines
    (seen by watcher) up to `last`."""
    start = len(watcher.lines)
    boss.cmd("turn rules=sugarray")

    def chan_lines(m):
        return watcher.from_bot(m) and m.target.lower() == CHANNEL.lower()
    watcher.wait(lambda m: chan_lines(m) and m.text == last, "the line %r" % last,
                 start=start, timeout=e2e.TIMEOUT + 20)
    return [m.text for m in watcher.lines[start:] if chan_lines(m)]


def s_season_ends(env):
    pw = secret(env, "boss-season-pw-1")
    env.add_admin(ADMIN, pw)
    boss = Client(env, ADMIN, [CHANNEL])
    boss.ask("identify " + pw, r"^you are identified as boss ")
    players = []
    for nick, fighter, plan in PLAYERS:
        c = Client(env, nick, [CHANNEL])
        c.ask("register " + secret(env, nick + "-pw-42"), r"^account %s registered" % nick)
        c.ask("create %s rules=sugarray" % fighter, r"^%s \(sugarray\) is ready" % fighter)
        c.ask("plan set " + plan, r"^%s's plan stored" % fighter)
        players.append(c)
    watcher = players[1]
    said = []
    text = watcher.ask("season rules=sugarray", r"^Season ", chan=CHANNEL)
    check(text == "Season 1 (sugarray): 0 of 2 league turns played, 2 left; the standings rank "
          "by the season's record.", "season 1 said: %r" % text)
    said.append(text)
    text = watcher.ask("season end rules=sugarray", r"season end", chan=CHANNEL)
    check(text == "season end is for the bot's admins only; !season says where the season "
          "stands", "a player's season end refused: %r" % text)
    text = boss.ask("season end rules=boxing", r"^season ")
    check(text == "season 1 (boxing) has had no league turn and no bout yet: there is nothing "
          "to close; season rules=boxing says where it stands",
          "an empty season is not closed: %r" % text)
    said.append(text)

    got1 = run_turn(boss, watcher, TITLE_VACANT)
    check(not any("is over" in t for t in got1), "turn 1 ends no season: %r" % got1)
    bstart = len(boss.lines)
    got2 = run_turn(boss, watcher, NEXT)
    check(got2[-3:] == [TITLE_VACANT, OVER, NEXT],
          "after turn 2's summary, the season's end: %r" % got2)
    said += got2[-2:]
    boss.wait(lambda m: boss.from_bot(m) and m.target.lower() == ADMIN.lower() and m.text == NEXT,
              "the admin's copy", start=bstart)
    mine = [m.text for m in boss.lines[bstart:] if boss.from_bot(m)
            and m.target.lower() == ADMIN.lower()]
    check(mine[-2:] == [OVER, NEXT], "the admin's private copy: %r" % mine)

    rows = env.query("SELECT league, position, name, wins, losses, draws, moved FROM "
                     "season_standings WHERE rules = 'sugarray' AND season = 1 ORDER BY league, "
                     "position")
    check(sorted(rows) == sorted([("bronze", 1, "Doris", 0, 1, 3, 1),
                                  ("bronze", 2, "Dora", 0, 1, 3, 0),
                                  ("silver", 1, "Attila", 2, 0, 0, 1)]),
          "the archive: %r" % rows)
    fame = env.query("SELECT honour, name FROM hall_of_fame WHERE rules = 'sugarray'")
    check(sorted(fame) == [("bronze", "Doris"), ("silver", "Attila")], "hall of fame: %r" % fame)
    careers = env.query("SELECT name, wins, losses, draws, season_wins + season_losses + "
                        "season_draws, league FROM fighters ORDER BY name")
    check(careers == [("Attila", 2, 0, 0, 0, "gold"), ("Dora", 0, 1, 3, 0, "bronze"),
                      ("Doris", 0, 1, 3, 0, "silver")],
          "careers kept, season records at 0, moved: %r" % careers)

    watcher.skip()
    text = watcher.ask("halloffame rules=sugarray", r"^Hall of fame", chan=CHANNEL)
    check(text == "Hall of fame: season 1 (sugarray): SILVER Attila (2-0-0), BRONZE Doris "
          "(0-1-3); the title is vacant.", "halloffame in the channel: %r" % text)
    said.append(text)
    text = watcher.ask("season rules=sugarray", r"^Season ", chan=CHANNEL)
    check(text == "Season 2 (sugarray): 0 of 2 league turns played, 2 left; the standings rank "
          "by the season's record.", "season 2 said: %r" % text)
    said.append(text)
    text = watcher.ask("standings rules=sugarray", r"^Standings \(", chan=CHANNEL)
    check(re.match(r"^Standings \(sugarray\): GOLD: 1\. Attila \(ss_att\) 0-0-0 gold 0 \| SILVER: "
                   r"1\. Doris \(ss_def1\) 0-0-0 gold 0 \| BRONZE: 1\. Dora \(ss_def2\) 0-0-0 "
                   r"gold 0$", text), "standings by the season's records: %r" % text)
    said.append(text)
    for c in players + [boss]:
        c.quit()
    return said


SCENARIOS = [
    ("a season of two turns ends at the second: the channel hears it, the archive and the hall "
     "of fame, halloffame lists the winners, season 2 starts at zero", s_season_ends),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_season.py BOT SIM", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_season: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_season: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = SeasonEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_season: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
