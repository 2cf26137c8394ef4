#!/usr/bin/env python3
"""e2e_network.py - a single bot's database grown into several networks'
(issue 29, [bot] network), end to end: the real bot (ASan), a real ngircd,
real client connections.

    python3 tests/e2e/e2e_network.py BOT SIM   (from the repository root)

Reuses tests/e2e/e2e_bouts.py's environment.

Scenarios:
  1. a bot without [bot] network: alice registers and makes a fighter; the
     bot is stopped and started again with network = libera: the log says
     once that the account made before is libera's, the row says so, and
     alice identifies with her password as before; her fighter's card and
     her list name her plainly, word for word as a single bot;
  2. oftc's player bob (his account written as oftc's bot would, with a
     fighter): `fighters bob@oftc` and `fighter Iron` name him bob@oftc;
     `challenge bob@oftc` is refused in one line saying why and what to do,
     and makes no bout; `challenge bob` finds no one (bob is not libera's);
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py. Environment: E2E_ONLY, E2E_KEEP, E2E_VERBOSE as e2e.py.
Python 3 standard library only.
"""

import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import CHANNEL, Client, check, secret  # noqa: E402


class NetworkEnv(e2e_bouts.BoutEnv):
    """e2e_bouts' environment with [bot] network = self.network when set."""

    def __init__(self, bot_path, sim_path):
        super().__init__(bot_path, sim_path)
        self.network = ""

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        net = "\n[bot]\nnetwork = %s\n" % self.network if self.network else ""
        super().write_bot_config(channels, extra + net)


def s_grown(env):
    pw = secret(env, "alice-pw-1234")
    a = Client(env, "alice", [CHANNEL])
    a.ask("register " + pw, r"^account alice registered, and you are identified\.")
    a.ask("create Ada str=14 spd=12 agl=11 tgh=12 hgt=11", r"^Ada \(boxing\) is ready")
    a.quit()
    env.stop_bot()
    since = env.log_size()
    env.network = "libera"
    env.start_bot()
    env.wait_log(r"\[bot\] network = libera: the 1 account made before the database had networks "
                 r"is libera's from now on", since)
    rows = env.query("SELECT network FROM accounts WHERE key = 'alice'")
    check(rows == [("libera",)], "alice's account: %r" % rows)
    a = Client(env, "alice", [CHANNEL])
    a.ask("identify " + pw, r"^you are identified as alice ")
    a.ask("fighter Ada", r"^Ada \(boxing, alice\): STR 14 SPD 12 AGL 11 TGH 12 HGT 11; "
          r"record 0-0-0, 0 by KO; rating 1500 \u00b1 350$", chan=CHANNEL)
    a.ask("fighters", r"^alice's fighters: Ada \(boxing, 0-0-0\)$")
    a.ask("fighters alice@libera", r"^alice's fighters: Ada \(boxing, 0-0-0\)$")
    a.quit()
    return ["a single bot's account became libera's; alice identifies and is named plainly"]


def s_elsewhere(env):
    con = sqlite3.connect(env.db_path, timeout=10)
    try:
        with con:
            cur = con.execute("INSERT INTO accounts (key, name, hash, created, network) VALUES "
                              "('bob', 'bob', '$y$j9T$oftcbot', 1, 'oftc')")
            con.execute("INSERT INTO fighters (account_id, key, name, rules, str, spd, agl, tgh, "
                        "hgt, created) VALUES (?, 'iron', 'Iron', 'boxing', 12, 12, 12, 12, 12, 2)",
                        (cur.lastrowid,))
    finally:
        con.close()
    pw = secret(env, "alice-pw-1234")
    a = Client(env, "alice", [CHANNEL])
    a.ask("identify " + pw, r"^you are identified as alice ")
    a.ask("fighters bob@oftc", r"^bob@oftc's fighters: Iron \(boxing, 0-0-0\)$")
    a.ask("fighter Iron", r"^Iron \(boxing, bob@oftc\): STR 12 SPD 12 AGL 12 TGH 12 HGT 12; ",
          chan=CHANNEL)
    a.ask("challenge bob@oftc", r"^bob@oftc plays on oftc, and bouts between two networks "
          r"need PostgreSQL \(this bot's database is SQLite\): challenge a player of libera, "
          r"or join oftc and challenge bob there$", chan=CHANNEL)
    a.ask("challenge bob", r"^no one called bob is here, and no account has that name; "
          r"check the nick", chan=CHANNEL)
    bouts = env.query("SELECT count(*) FROM bouts")
    check(bouts == [(0,)], "a refused challenge made a bout: %r" % bouts)
    a.quit()
    return ["bob@oftc named so; challenge bob@oftc refused in one line, no bout made"]


SCENARIOS = [
    ("a single bot's database, then [bot] network = libera", s_grown),
    ("a player of oftc seen from libera", s_elsewhere),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_network.py BOT SIM", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_network: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_network: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = NetworkEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_network: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
