#!/usr/bin/env python3
"""e2e_integrity.py - the database is the truth, end to end: the real bot
(ASan build), a real ngircd, and another process holding the database's
write lock, killing a league turn, and deleting the file under the bot.

    python3 tests/e2e/e2e_integrity.py BOT SIM   (from the repository root;
                                                  BOT e.g. build/asan/ringside)

Reuses tests/e2e/e2e.py and tests/e2e/e2e_bouts.py (BoutEnv, player,
challenge, order).

Scenarios:
  1. a held write lock (another connection's BEGIN IMMEDIATE, held open): a
     bystander's !help is answered within 1 s, a player's orders are said
     NOT stored because the database is busy, and once the lock goes the
     same orders are stored;
  2. a league turn killed before its commit (SIGKILL once the log says it
     began, in a league of thousands of fighters): nothing of it is stored
     but its begun record; the next start says so in the log and to the
     admins in the channel; the turn runs again as turn 1, once;
  3. the database deleted under the running bot: register is refused with
     "the database file is gone; an operator must restore it", the log says
     so once; after a restart the bot refuses to start (the marker
     ringside.db.id names the lost database) with how to restore or start
     afresh; ringside --init starts afresh; --init on an existing database
     is refused;
  and last: SIGTERM, exit 0, no sanitizer report.

Output as e2e.py. Python 3 standard library only.
"""

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import ADMIN, CHANNEL, TIMEOUT, Client, Failure, check, secret, tail  # noqa: E402

GONE = "the database file is gone; an operator must restore it"
BUSY = "the database is busy; try again in a moment"
# A league big enough that its turn takes seconds under ASan: the kill
# lands inside its transaction.
LEAGUE_FIGHTERS = 40000


def lock_hold(env):
    """Another process's write lock on the database, held until released."""
    con = sqlite3.connect(env.db_path, isolation_level=None, timeout=10)
    con.execute("BEGIN IMMEDIATE")
    con.execute("INSERT INTO audit (time, who, what) VALUES (0, 'e2e', 'a held lock')")
    return con


def s_lock(env):
    w = Client(env, "bystander", [CHANNEL])
    a = e2e_bouts.player(env, "lockA", "create Lockjaw str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = e2e_bouts.player(env, "lockB", "create Latch str=13 spd=14 agl=12 tgh=11 hgt=10")
    bout_id = e2e_bouts.challenge(env, a, b, "rounds=3", "Lockjaw", "Latch")
    since = env.log_size()
    con = lock_hold(env)
    notes = []
    try:
        took = []
        for _ in range(3):
            start = len(w.lines)
            t0 = time.monotonic()
            w.cmd("help", CHANNEL)
            w.wait(lambda m: (w.to_me(m) or "").startswith("commands: "),
                   "the answer to !help", start=start, timeout=10)
            took.append(time.monotonic() - t0)
            time.sleep(0.3)
        check(max(took) < 1.0, "!help took %.2f s while the lock was held" % max(took))
        notes.append("!help answered in %s s while another process held the write lock" %
                     ", ".join("%.2f" % t for t in took))
        got = e2e_bouts.tell(a, "5/5/10", r"^sorry, your orders were NOT stored")
        check(got == "sorry, your orders were NOT stored (%s); send them again" % BUSY,
              "the orders refused under the lock", got)
        check(not env.orders(bout_id), "orders are stored: %r" % env.orders(bout_id))
    finally:
        con.execute("ROLLBACK")
        con.close()
    env.wait_log(r"database is locked", since)
    e2e_bouts.order(a, "5/5/10", 1, "Lockjaw")
    check(env.orders(bout_id).get((1, 0)) is not None, "the orders after the lock are not stored")
    for c in (a, b, w):
        c.quit()
    return notes


def league_fill(env, n):
    """n SUGAR RAY fighters with a plan each, in BRONZE, written straight
    into the database (the bot reads them at its turn)."""
    con = sqlite3.connect(env.db_path, isolation_level=None, timeout=10)
    try:
        con.execute("BEGIN IMMEDIATE")
        cur = con.execute("INSERT INTO accounts (key, name, hash, created) VALUES "
                          "('crowd', 'crowd', '$y$j9T$e2e$none', 0)")
        acc = cur.lastrowid
        for i in range(n):
            cur = con.execute("INSERT INTO fighters (account_id, key, name, rules, skill, "
                              "endurance, created) VALUES (?, ?, ?, 'sugarray', 10, 10, 0)",
                              (acc, "crowd%d" % i, "Crowd%d" % i))
            con.execute("INSERT INTO plans (fighter, text, updated) VALUES (?, ?, 0)",
                        (cur.lastrowid, "4/0" if i % 2 else "0/3"))
        con.execute("COMMIT")
    finally:
        con.close()


def s_turn_killed(env):
    bpw = secret(env, "boss-integrity-77")
    boss = Client(env, ADMIN, [CHANNEL])
    env.add_admin(ADMIN, bpw)  # the operator makes the admin (ringside --add-admin)
    e2e_bouts.tell(boss, "identify " + bpw, r"^you are identified as boss")
    league_fill(env, LEAGUE_FIGHTERS)
    since = env.log_size()
    boss.cmd("turn rules=sugarray", CHANNEL)
    deadline = time.monotonic() + TIMEOUT * 3
    rx = re.compile(r"league turn of sugarray begins")
    while not rx.search(env.log_text(since)):
        if time.monotonic() > deadline:
            raise Failure("the turn never began", tail(env.bot_log, 10))
        time.sleep(0.01)
    env.kill_bot()
    boss.close()
    check("League turn" not in env.log_text(since) and
          not re.search(r"league turn \d+ of sugarray", env.log_text(since)),
          "the turn finished before the kill: make LEAGUE_FIGHTERS larger", tail(env.bot_log, 5))
    check(env.query("SELECT count(*) FROM turns")[0][0] == 0, "a turn is stored")
    check(env.query("SELECT count(*) FROM bouts WHERE kind <> 'exhibition'")[0][0] == 0,
          "league bouts are stored")
    check(env.query("SELECT rules FROM turns_begun") == [("sugarray",)],
          "the begun record: %r" % env.query("SELECT * FROM turns_begun"))
    # The next start: the log, then the channel.
    since = env.log_size()
    w = Client(env, "adminwatch", [CHANNEL])
    start = len(w.lines)
    env.start_bot()
    env.wait_log(r"warn the sugarray league turn begun at .* did not finish", since)
    w.wait(lambda m: w.from_bot(m) and m.text.startswith("Admins: the sugarray league turn "
                                                         "begun at ") and
           "did not finish" in m.text and "!turn rules=sugarray" in m.text,
           "the admins told in the channel", start=start, timeout=TIMEOUT)
    # Run again: turn 1, its bouts once, the record gone.
    boss = Client(env, ADMIN, [CHANNEL])
    e2e_bouts.tell(boss, "identify " + bpw, r"^you are identified as boss")
    start = len(w.lines)
    boss.cmd("turn rules=sugarray", CHANNEL)
    w.wait(lambda m: w.from_bot(m) and re.match(r"League turn 1 \(sugarray\): \d+ bouts", m.text),
           "the turn run again", start=start, timeout=TIMEOUT * 6)
    check(env.query("SELECT rules, number FROM turns") == [("sugarray", 1)],
          "turns: %r" % env.query("SELECT rules, number FROM turns"))
    check(env.query("SELECT count(*) FROM turns_begun")[0][0] == 0, "the begun record stays")
    per = env.query("SELECT max(c) FROM (SELECT count(*) AS c FROM bouts b JOIN fighters f "
                    "ON f.id IN (b.fighter_a, b.fighter_b) WHERE b.kind = 'league' "
                    "GROUP BY f.id)")[0][0]
    check(per is not None and per <= 2, "a fighter fought %r league bouts in one turn" % per)
    for c in (boss, w):
        c.quit()
    return ["the turn killed in its transaction (%d fighters), reported, run again once" %
            LEAGUE_FIGHTERS]


def run_bot(env, *args):
    """The bot started by hand; it must exit at once: (status, output)."""
    p = subprocess.run([env.bot_path, "-c", env.bot_conf] + list(args), cwd=env.dir,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def s_gone(env):
    c = Client(env, "goner", [CHANNEL])
    since = env.log_size()
    os.unlink(env.db_path)
    pw = secret(env, "goner-pw-31")
    got = e2e_bouts.tell(c, "register " + pw, r"^sorry, I could not register you")
    check(got == "sorry, I could not register you (%s); try again later" % GONE,
          "register with the file gone", got)
    got = e2e_bouts.tell(c, "register " + pw, r"^sorry, I could not register you")
    check(GONE in got, "register again with the file gone", got)
    log = env.log_text(since)
    check(len(re.findall(r"error the database file \S+ is gone \(deleted or replaced while "
                         r"ringside ran\): nothing more is stored; an operator must restore it "
                         r"and restart ringside$", log, re.M)) == 1,
          "the log does not say once that the file is gone", tail(env.bot_log, 10))
    c.quit()
    env.stop_bot()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(env.db_path + suffix):
            os.unlink(env.db_path + suffix)
    check(os.path.exists(env.db_path + ".id"), "no marker beside the database")
    rc, out = run_bot(env)
    check(rc == 1 and re.search(r"ringside\.db is missing, but \S+ringside\.db\.id says "
                                r"database [0-9a-f]{32} was kept there: restore it from a "
                                r"backup .* or start afresh with ringside --init", out),
          "the start without the database: status %d" % rc, out)
    check(not os.path.exists(env.db_path), "a start without --init created the database")
    old = open(env.db_path + ".id").read()
    since = env.log_size()
    env.write_bot_config()
    env.bot = subprocess.Popen([env.bot_path, "-c", env.bot_conf, "--init"], cwd=env.dir,
                               stdin=subprocess.DEVNULL, stdout=open(env.bot_log, "ab"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    env.wait_bot_in(CHANNEL)
    env.wait_log(r"--init: a new, empty database", since)
    new = open(env.db_path + ".id").read()
    check(new != old and re.match(r"^[0-9a-f]{32}\n$", new), "the marker after --init: %r" % new)
    rc, out = run_bot(env, "--init")
    check(rc == 1 and "--init: " in out and "exists already" in out,
          "--init on an existing database: status %d" % rc, out)
    c = Client(env, "goner2", [CHANNEL])
    e2e_bouts.tell(c, "register " + secret(env, "goner2-pw-32"), r"^account goner2 registered")
    c.quit()
    return ["the deleted file refused writes, the restart refused, --init started afresh"]


SCENARIOS = [
    ("a held write lock: help answered, orders said not stored", s_lock),
    ("a league turn killed before its commit", s_turn_killed),
    ("the database deleted under the bot", s_gone),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_integrity.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_integrity: %s is not an executable; run make first" % path,
                  file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_integrity: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_integrity: %s against ngircd" % argv[1],
                         stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
