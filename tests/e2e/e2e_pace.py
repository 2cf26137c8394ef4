#!/usr/bin/env python3
"""e2e_pace.py - never a stale or out-of-order line: the real bot at its
default pacing, a real ngircd at its default flood settings, quick players.

    python3 tests/e2e/e2e_pace.py BOT SIM   (from the repository root;
                                             BOT e.g. build/asan/ringside,
                                             SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (the IRC client, the Env that runs ngircd and the bot
in a temporary directory, the checks after every scenario); ngircd keeps its
default penalties and the bot its default output pacing (burst 4, 1 line/s),
so that three bouts at once keep the output queue busy.

Scenarios:
  1. three 3-round boxing bouts at once in one channel. In two of them both
     players order each round the moment they are asked (quick players); in
     the third both order each round the moment the round before is fought
     (the database says so), before they are asked, as players who read the
     channel do. Each player is in the channel, so his own connection shows
     in which order the bot sent the channel's lines and his own. For every
     player: every prompt ("Bout #N, round R of 3: your orders ...") comes
     after the whole of round R-1's commentary (found word for word with
     `SIM --commentary` on a copy of the database) and before round R's (a
     prompt for a round already fought is dropped, never sent); the quick
     players get exactly one prompt a round; after his own end of the bout
     ("Bout #N ... is over, and ...", at most once; for a player in the
     channel, none: the end of the commentary in the channel, with the
     training points the bout earned on its records line, is his) nothing about bout N reaches him, in
     private or in the channel, until the bot has been silent for 3 s.
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Processes are always stopped.
Environment: E2E_ONLY, E2E_KEEP=1, E2E_VERBOSE=1 (as e2e.py).
Python 3 standard library only. Waits are for events, never for times, but
the 3 s of silence that ends a run.
"""

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import CHANNEL, Client, Failure, check  # noqa: E402

ROUNDS = 3
# Long enough for a queue of a few hundred lines at 1 line/s.
WAIT = 300.0
FORMATTING = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")
PROMPT = re.compile(r"^Bout #(\d+), round (\d+) of (\d+): your orders for ")
# A challenged bout's start asks the players in the channel for round 1.
CALL = re.compile(r"^Bout #(\d+) is on\. Round (\d+) of (\d+): (.*?), your orders \(")


def asked(c, m):
    """The match (bout, round, rounds) when m asks c for orders: a private
    prompt, or the start in the channel naming him; else None."""
    if not from_bot(m):
        return None
    if m.target.lower() == c.nick.lower():
        return PROMPT.search(plain(m.text))
    p = CALL.search(plain(m.text)) if m.target.lower() == CHANNEL.lower() else None
    return p if p and re.search(r"(^| and )%s \(" % re.escape(c.nick), p.group(4)) else None
SHEETS = [
    ("Rocky", "str=14 spd=12 agl=11 tgh=12 hgt=11"),
    ("Apollo", "str=13 spd=14 agl=12 tgh=11 hgt=10"),
    ("Duran", "str=13 spd=13 agl=12 tgh=11 hgt=11"),
    ("Leonard", "str=11 spd=14 agl=13 tgh=11 hgt=11"),
    ("Tyson", "str=15 spd=13 agl=10 tgh=12 hgt=10"),
    ("Holmes", "str=12 spd=13 agl=12 tgh=12 hgt=11"),
]
# Gentle orders: the bouts go the distance (a stoppage ends one sooner,
# which the checks allow).
ORDERS = (["2/8/10", "3/7/10", "2/7/11"], ["3/3/14 (clinch)", "2/4/14 (clinch)",
                                           "3/4/13 (clinch)"])


def plain(text):
    return FORMATTING.sub("", text)


def squash(text):
    """Text as compared: no formatting, no whitespace (a message cut at a
    space loses the space)."""
    return re.sub(r"\s+", "", plain(text))


def from_bot(m):
    return m.cmd in ("PRIVMSG", "NOTICE") and m.nick.lower() == e2e.BOT_NICK


def bot_msgs(c):
    """(index, message) of every message from the bot c received."""
    with c.cond:
        return [(i, m) for i, m in enumerate(c.lines) if from_bot(m)]


class PaceEnv(e2e.Env):
    """e2e's Env: ngircd at its defaults, the bot at its default pacing; the
    simulator on a copy of the database."""

    def __init__(self, bot_path, sim_path):
        super().__init__(bot_path, "ngircd")
        self.sim_path = os.path.abspath(sim_path)

    def commentary(self, bout_id, rnd):
        copy = os.path.join(self.dir, "pace-copy.db")
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(copy + suffix):
                os.unlink(copy + suffix)
        src, dst = self.db(), sqlite3.connect(copy)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        p = subprocess.run([self.sim_path, "--commentary", copy, str(bout_id), str(rnd)],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        check(p.returncode == 0, "ringside-sim --commentary %d %d exited %d" %
              (bout_id, rnd, p.returncode), p.stderr.decode("utf-8", "replace"))
        lines = [x for x in p.stdout.decode("utf-8", "replace").split("\n") if squash(x)]
        check(lines, "bout %d round %d: no commentary" % (bout_id, rnd))
        return lines

    def bout_row(self, bout_id):
        rows = self.query("SELECT state, round FROM bouts WHERE id = ?", (bout_id,))
        check(rows, "no bout %d" % bout_id)
        return {"state": rows[0][0], "round": rows[0][1]}


def wait_for(pred, desc, timeout=WAIT, every=0.05):
    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise Failure("timed out after %.0f s waiting for %s" % (timeout, desc))
        time.sleep(every)


def account(env, c, sheet):
    """Registers c's nick and creates his boxer: both commands at once, then
    the replies."""
    start = len(c.lines)
    pw = e2e.secret(env, "%s-pace-%d" % (c.nick, os.getpid() % 1000))
    want = [("register " + pw, r"^account \S+ registered"),
            ("create %s %s" % sheet, r"^%s \(boxing\) is ready" % sheet[0])]
    for text, _ in want:
        c.cmd(text)
    for text, regex in want:
        rx = re.compile(regex)
        c.wait(lambda m: c.to_me(m) is not None and rx.search(plain(c.to_me(m))),
               "/%s/ in reply to %r" % (regex, text.split()[0]), timeout=WAIT, start=start)


def channel_ends(c, lines_of_round):
    """Where in c's lines each round's commentary ends: {round: index of the
    message holding its last line}, found in order in the bot's channel
    messages put end to end (squashed), each round from where the one
    before ended."""
    parts, ends, idx = [], [], []
    pos = 0
    for i, m in bot_msgs(c):
        if m.target.lower() != CHANNEL.lower():
            continue
        s = squash(m.text)
        parts.append(s)
        pos += len(s)
        ends.append(pos)
        idx.append(i)
    stream = "".join(parts)
    out, at = {}, 0
    for r in sorted(lines_of_round):
        for line in lines_of_round[r]:
            k = stream.find(squash(line), at)
            if k < 0:
                return None
            at = k + len(squash(line))
        j = next(n for n, e in enumerate(ends) if e >= at)
        out[r] = idx[j]
    return out


def s_three_bouts(env):
    """Two bouts of quick players and one of players who order before they
    are asked, at once in one channel."""
    players = [Client(env, "pace%d" % i, [CHANNEL]) for i in range(6)]
    errors = []
    def setup(i, c):
        try:
            account(env, c, SHEETS[i])
        except Exception as e:  # reported below
            errors.append("%s: %s" % (c.nick, e))
    ts = [threading.Thread(target=setup, args=(i, c), daemon=True) for i, c in enumerate(players)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not errors, "setting up the players failed", "\n".join(errors))
    pairs = [(players[0], players[1]), (players[2], players[3]), (players[4], players[5])]
    eager = {players[2].nick, players[3].nick}
    bout_of = {}
    lock = threading.Lock()
    stop = threading.Event()

    def quick(c, orders, start):
        """Orders each round the moment he is asked for it."""
        done = 0
        try:
            while not stop.is_set() and done < ROUNDS:
                m = c.wait(lambda m: asked(c, m) and int(asked(c, m).group(2)) > done,
                           "a prompt", timeout=1.0, start=start, fail=False)
                if m is None:
                    continue
                p = asked(c, m)
                with lock:
                    bout_of[c.nick] = int(p.group(1))
                done = int(p.group(2))
                c.cmd(orders[done - 1])
        except Exception as e:
            errors.append("%s: %s" % (c.nick, e))

    def early(c, orders, start):
        """Orders round 1 when asked, and each next round the moment the
        round before is fought, before he is asked."""
        try:
            m = c.wait(lambda m: asked(c, m), "the round 1 prompt", timeout=WAIT, start=start)
            bout = int(asked(c, m).group(1))
            with lock:
                bout_of[c.nick] = bout
            c.cmd(orders[0])
            for r in range(2, ROUNDS + 1):
                def fought(r=r):
                    row = env.bout_row(bout)
                    return stop.is_set() or row["state"] != "live" or row["round"] >= r - 1
                wait_for(fought, "round %d of bout %d fought" % (r - 1, bout))
                if stop.is_set() or env.bout_row(bout)["state"] != "live":
                    return
                c.cmd(orders[r - 1])
        except Exception as e:
            errors.append("%s: %s" % (c.nick, e))

    threads = []
    for a, b in pairs:
        for k, c in enumerate((a, b)):
            fn = early if c.nick in eager else quick
            th = threading.Thread(target=fn, args=(c, ORDERS[k], len(c.lines)), daemon=True)
            th.start()
            threads.append(th)
    t0 = time.monotonic()
    for a, b in pairs:
        start = len(b.lines)
        a.cmd("challenge %s rounds=%d" % (b.nick, ROUNDS), CHANNEL)
        b.wait(lambda m: from_bot(m) and m.target.lower() == CHANNEL.lower() and
               re.search(r"\b%s challenges %s\b" % (a.nick, b.nick), plain(m.text)),
               "the channel told of %s's challenge" % a.nick, timeout=WAIT, start=start)
        b.cmd("accept %s" % a.nick, CHANNEL)
    try:
        wait_for(lambda: len(bout_of) == 6 or errors, "every player asked for round 1",
                 every=0.2)
        check(not errors, "a player failed", "\n".join(errors))
        bouts = sorted(set(bout_of.values()))
        check(len(bouts) == 3, "3 bouts wanted: %r" % bout_of)

        def all_over():
            check(not errors, "a player failed", "\n".join(errors))
            return all(env.bout_row(b)["state"] == "over" for b in bouts)
        wait_for(all_over, "the three bouts over", every=0.5)
    finally:
        stop.set()
    for th in threads:
        th.join(10)
    check(not errors, "a player failed", "\n".join(errors))
    # The end of the run: nothing from the bot to anyone for 3 s.

    def silent():
        last = max([m.t for c in players for _, m in bot_msgs(c)] or [0])
        return time.monotonic() - last >= 3.0
    wait_for(silent, "the bot to fall silent", every=0.2)
    took = time.monotonic() - t0

    fought = {b: env.bout_row(b)["round"] for b in bouts}
    said = {b: {r: env.commentary(b, r) for r in range(1, fought[b] + 1)} for b in bouts}
    withdrawn = 0
    for c in players:
        b = bout_of[c.nick]
        ends = channel_ends(c, said[b])
        check(ends is not None, "%s: bout %d's commentary not all in the channel" %
              (c.nick, b), c.recent(30))
        msgs = bot_msgs(c)
        mine = [(i, plain(m.text)) for i, m in msgs if m.target.lower() == c.nick.lower()]
        prompts = {}
        for i, m in msgs:
            p = asked(c, m)
            text = plain(m.text)
            if p and int(p.group(1)) == b:
                check(int(p.group(3)) == ROUNDS, "%s: %r" % (c.nick, text))
                prompts.setdefault(int(p.group(2)), []).append(i)
        for r, at in sorted(prompts.items()):
            check(len(at) == 1, "%s was asked %d times for round %d of bout %d" %
                  (c.nick, len(at), r, b), c.recent(30))
            check(r == 1 or at[0] > ends[r - 1],
                  "%s was asked for round %d of bout %d before round %d was in the channel" %
                  (c.nick, r, b, r - 1), c.recent(40))
            check(r not in ends or at[0] < ends[r],
                  "%s was asked for round %d of bout %d after it was fought and said" %
                  (c.nick, r, b), c.recent(40))
        if c.nick not in eager:
            check(sorted(prompts) == list(range(1, fought[b] + 1)),
                  "%s (answers when asked) got prompts for rounds %r of bout %d (%d fought)" %
                  (c.nick, sorted(prompts), b, fought[b]), c.recent(40))
        withdrawn += fought[b] - len(prompts)
        over = [i for i, text in mine if re.match(r"^Bout #%d\b.* is over, and " % b, text)]
        check(len(over) <= 1, "%s was told %d times that bout %d is over" %
              (c.nick, len(over), b), c.recent(20))
        if not over:  # in the channel: the end said there (points and all) is his
            over = [ends[fought[b]]]
        tag = re.compile(r"#%d\b" % b)
        after = [(i, m) for i, m in msgs if i > over[0] and tag.search(plain(m.text))]
        check(not after, "%s heard of bout %d after its end: %r" % (c.nick, b, after[:3]),
              c.recent(20))
    for c in players:
        c.quit()
    return ["bouts %s (%s rounds) in %.0f s; %d prompts for rounds already fought dropped" %
            (", ".join("#%d" % b for b in bouts), "/".join(str(fought[b]) for b in bouts), took,
             withdrawn)]


def s_stop(env):
    """The last: SIGTERM; the bot exits 0, and (built with ASan) reports no
    leak or error at exit."""
    since = env.log_size()
    env.bot.send_signal(signal.SIGTERM)
    try:
        rc = env.bot.wait(20)
    except subprocess.TimeoutExpired:
        raise Failure("the bot still runs 20 s after SIGTERM", e2e.tail(env.bot_log, 10))
    log = env.log_text(since)
    check(rc == 0, "the bot exited with status %d after SIGTERM" % rc, e2e.tail(env.bot_log, 40))
    for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        check(pat not in log, "the bot's log has a report at exit: %s" % pat,
              e2e.tail(env.bot_log, 40))


SCENARIOS = [
    ("three bouts, quick and early players: no prompt out of order or after the end",
     s_three_bouts),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_pace.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_pace: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_pace: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = PaceEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_pace: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
