#!/usr/bin/env python3
"""e2e_bouts.py - live bouts end to end: the real bot, a real ngircd, and
several real client connections playing whole bouts.

    python3 tests/e2e/e2e_bouts.py BOT SIM      (from the repository root;
                                                 BOT e.g. build/asan/ringside,
                                                 SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (its IRC client, its Env that runs ngircd and the bot
in a temporary directory, its checks after every scenario) with a faster
configuration: the bot's [flood] burst = 10, lines_per_second = 5, and ngircd
with [Limits] MaxPenaltyTime = 0 so that it does not throttle the bot.

Scenarios:
  1. a whole boxing bout (3 rounds), checked in the channel, in private, in
     the database, and by SIM --replay;
  2. the SUGAR RAY example of the seed (004): sheets set by the admin, the
     orders of the example, the classic report lines at the end;
  3. a round resolved at the deadline (order_timeout = 10, set by SIGHUP) from
     the silent player's stored plan;
  4. a third, identified user cannot give orders in someone else's bout;
  5. two bouts at once in one channel: commentary not mixed, bouts, score;
  6. kill -9 twice in a bout (right after an acknowledged order, and in the
     middle of a later round), restarts, the bout finished: no acknowledged
     order lost, and the bout replays identically;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why` (with `#` detail lines and
the tail of the bot's log), then `N passed, N failed`; exit status 1 if
anything failed. Processes are always stopped.

Environment: E2E_ONLY=name,number (as e2e.py), E2E_KEEP=1, E2E_VERBOSE=1.
Python 3 standard library only.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import ADMIN, CHANNEL, TIMEOUT, Client, Failure, check, secret, tail  # noqa: E402

# The bot's pacing in these tests ([flood]), and the default order timeout.
BURST = 10
RATE = 5
ORDER_TIMEOUT = 120
SHORT_TIMEOUT = 10  # scenario 3's, set by SIGHUP

# Private messages that come by themselves (not replies to a command).
UNASKED = re.compile(r"^(Bout #\d+[,:]|\S+ earned \d+ training points?:)")
ACK = r"^round %s orders stored for %s: (.+?)( \(you may change them until the round is fought\))?$"
# A boxing result line (render.c: result_add, after an optional lead).
RESULT = re.compile(r"\bwins (by (KO|TKO|DQ) in round \d+|a \w+ decision \(|on the cards \(|"
                    r"on points)|\bdraw \(|^(.*! )?Draw[: ]")


# ngircd without penalties: the bot may send faster than ~3 lines a second.
_ngircd_config = e2e.ngircd_config


def ngircd_config(env):
    text = _ngircd_config(env)
    if "MaxPenaltyTime" not in text:
        text = text.replace("[Limits]\n", "[Limits]\nMaxPenaltyTime = 0\n", 1)
    if "MaxPenaltyTime" not in text:
        raise Failure("cannot set ngircd's MaxPenaltyTime: no [Limits] in e2e.ngircd_config")
    return text


e2e.ngircd_config = ngircd_config


class BoutEnv(e2e.Env):
    """e2e's Env with the bout configuration and the simulator."""

    def __init__(self, bot_path, sim_path):
        super().__init__(bot_path, "ngircd")
        self.sim_path = os.path.abspath(sim_path)
        self.order_timeout = ORDER_TIMEOUT

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, """
[flood]
burst = {burst}
lines_per_second = {rate}

[bout]
order_timeout = {timeout}
{extra}""".format(burst=BURST, rate=RATE, timeout=self.order_timeout, extra=extra))

    def reload(self, order_timeout):
        """Rewrites the configuration and sends SIGHUP; waits for the reload."""
        self.order_timeout = order_timeout
        since = self.log_size()
        self.write_bot_config()
        self.bot.send_signal(signal.SIGHUP)
        self.wait_log(r"configuration reloaded", since)

    def kill_bot(self):
        """kill -9, and reaps it."""
        self.bot.send_signal(signal.SIGKILL)
        self.bot.wait(10)

    # -- the database

    def bout(self, bout_id):
        con = self.db()
        con.row_factory = e2e.sqlite3.Row
        try:
            row = con.execute("SELECT * FROM bouts WHERE id = ?", (bout_id,)).fetchone()
            return dict(row) if row else None
        finally:
            con.close()

    def orders(self, bout_id):
        """{(round, side): (text, source, line)}"""
        rows = self.query("SELECT round, side, text, source, line FROM orders WHERE bout = ?",
                          (bout_id,))
        return {(r, s): (t, src, ln) for r, s, t, src, ln in rows}

    def summary(self, bout_id, rnd):
        """What the channel must have heard of round `rnd`: the commentary
        that SIM --commentary derives from the stored seed and orders (no
        text of it is stored)."""
        p, out, copy = self.sim("--commentary", bout_id, rnd)
        check(p.returncode == 0, "ringside-sim --commentary DB %d %d exited %d (on a copy of "
              "the database, kept as %s)" % (bout_id, rnd, p.returncode, copy), out)
        return out.rstrip("\n")

    def sim(self, option, bout_id, *more):
        """Runs SIM option DB BOUT [more...] on a consistent copy of the
        database (SQLite's backup), so the simulator never reads a file the
        bot is writing; returns (the process, its output, the copy)."""
        copy = os.path.join(self.dir, "replay.db")
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(copy + suffix):
                os.unlink(copy + suffix)
        src = self.db()
        dst = e2e.sqlite3.connect(copy)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        try:
            p = subprocess.run([self.sim_path, option, copy, str(bout_id)] +
                               [str(m) for m in more],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=60)
        except subprocess.TimeoutExpired:
            raise Failure("%s %s %s %d took over 60 s" % (self.sim_path, option, copy, bout_id))
        return p, p.stdout.decode("utf-8", "replace"), copy

    def replay(self, bout_id):
        """SIM --replay: must exit 0 and say that the replay matches."""
        p, out, copy = self.sim("--replay", bout_id)
        check(p.returncode == 0 and "replay matches the stored bout" in out,
              "ringside-sim --replay DB %d exited %d (on a copy of the database, kept as %s)" %
              (bout_id, p.returncode, copy), out)
        return out


# ------------------------------------------------------------------ helpers


def tell(c, text, regex, chan=None, timeout=TIMEOUT):
    """Sends a command (privately, or in `chan` with the prefix) and returns
    the bot's reply to it, which must match regex. Messages the bot sends by
    itself (requests for orders, reminders, training points) are skipped; any
    other reply first is a failure."""
    start = len(c.lines)
    c.cmd(text, chan)
    rx = re.compile(regex)

    def pred(m):
        t = c.to_me(m)
        if t is None:
            return False
        if chan is None and m.target.lower() != c.nick.lower():
            return False
        if chan is not None and m.target.lower() != chan.lower():
            return False
        return bool(rx.search(t)) or not UNASKED.search(t)
    m = c.wait(pred, "/%s/ in reply to %r" % (regex, text), timeout=timeout, start=start)
    got = c.to_me(m)
    check(rx.search(got), "%s sent %r%s and got %r, not /%s/" %
          (c.nick, text, " in " + chan if chan else " privately", got, regex), c.recent())
    return got


# Lines the bot says in the channel as replies (outq's reply queue), which
# may go ahead of commentary still waiting: challenges and the tale of the
# tape. Replies to a command start with "nick: ".
CHANNEL_REPLY = re.compile(r"^(\S+ challenges \S+: .*\(bout #\d+\)\. |Bout #\d+, \w+, \d+ rounds: |"
                           r"vs \S+ \(\S+\) |Bout #\d+ \(.*\) is cancelled by |"
                           r"\S+ (declines|withdraws) the challenge \(bout #\d+)")


def chan_from(c, start=0, chatter=False):
    """(index, message) of every line the bot said in the channel from
    `start`; with `chatter`, leaving out what the bot said as a reply."""
    with c.cond:
        lines = c.lines[start:]
    nicks = tuple(cl.nick + ": " for cl in c.env.clients)
    return [(start + i, m) for i, m in enumerate(lines)
            if m.cmd == "PRIVMSG" and m.nick.lower() == e2e.BOT_NICK and
            m.target.lower() == CHANNEL and
            not (chatter and (m.text.startswith(nicks) or CHANNEL_REPLY.search(m.text)))]


def wait_chan(c, regex, start=0, timeout=TIMEOUT):
    """The first thing the bot says in the channel from `start` matching regex."""
    rx = re.compile(regex)
    return c.wait(lambda m: m.cmd == "PRIVMSG" and m.nick.lower() == e2e.BOT_NICK and
                  m.target.lower() == CHANNEL and rx.search(m.text),
                  "/%s/ from the bot in %s" % (regex, CHANNEL), timeout=timeout, start=start)


def wait_private(c, regex, start=0, timeout=TIMEOUT):
    """The first private message from the bot to `c` from `start` matching regex."""
    rx = re.compile(regex)
    m = c.wait(lambda m: c.from_bot(m) and m.target.lower() == c.nick.lower() and
               rx.search(m.text), "/%s/ in private" % regex, timeout=timeout, start=start)
    return m.text


def private_texts(c):
    with c.cond:
        return [m.text for m in c.lines if c.from_bot(m) and m.target.lower() == c.nick.lower()]


def player(env, nick, create):
    """A client in the channel with an account and a fighter."""
    c = Client(env, nick, [CHANNEL])
    c.pw = secret(env, "%s-pw-%d" % (nick, os.getpid() % 1000))
    tell(c, "register " + c.pw, r"^account %s registered, and you are identified" % nick)
    tell(c, create, r"^\S+ \((boxing|sugarray)\) is ready")
    return c


def challenge(env, a, b, args, fa, fb):
    """a challenges b in the channel, b accepts; returns the bout's number.
    Checks the announcement and the tale of the tape in the channel."""
    start = len(a.lines)
    a.cmd("challenge %s %s" % (b.nick, args), CHANNEL)
    m = wait_chan(a, r"^%s challenges %s: %s vs %s, " % (a.nick, b.nick, fa, fb) +
                  r".*\(bout #(\d+)\)\. %s: say !accept or !decline" % b.nick, start)
    bout_id = int(re.search(r"\(bout #(\d+)\)", m.text).group(1))
    check(env.bout(bout_id)["state"] == "challenge",
          "bout %d is not stored as a challenge" % bout_id)
    start_b = len(b.lines)
    start = len(a.lines)
    b.cmd("accept", CHANNEL)
    wait_chan(a, r"^Bout #%d, \w+, \d+ rounds: %s \(%s\) " % (bout_id, fa, a.nick), start)
    wait_chan(a, r"^vs %s \(%s\) " % (fb, b.nick), start)
    for c, f, s in ((a, fa, start), (b, fb, start_b)):
        wait_private(c, r"^Bout #%d, round 1 of \d+: your orders for %s \(e\.g\. .*\) within "
                     r"\d+ seconds; send them here, in private$" % (bout_id, f), s)
    check(env.bout(bout_id)["state"] == "live", "bout %d is not live after accept" % bout_id)
    return bout_id


def order(c, text, rnd, fighter, acks=None, side=None):
    """Private orders for round `rnd`; returns the text acknowledged."""
    got = tell(c, text, ACK % (rnd, re.escape(fighter)))
    stored = re.match(ACK % (rnd, re.escape(fighter)), got).group(1)
    if acks is not None:
        acks.append((rnd, side, stored, c.nick))
    return stored


def await_round(env, bout_id, rnd, watcher, start, timeout=TIMEOUT):
    """Waits for round `rnd` of the bout in the database, then for exactly its
    commentary (derived from the database) in the channel (as `watcher` sees it), from watcher line
    `start` on. Returns (the lines said, the watcher index after them, the
    bout's row)."""
    deadline = time.monotonic() + timeout
    while True:
        b = env.bout(bout_id)
        if b["round"] >= rnd:
            break
        if time.monotonic() > deadline:
            raise Failure("bout %d: round %d is not in the database after %.0f s (round %d, "
                          "state %s)" % (bout_id, rnd, timeout, b["round"], b["state"]),
                          tail(env.bot_log, 15))
        time.sleep(0.1)
    summary = env.summary(bout_id, rnd)
    check(summary, "bout %d round %d: no commentary derived from the database" % (bout_id, rnd))
    want = summary.split("\n")
    while True:
        said = chan_from(watcher, start, chatter=True)
        if len(said) >= len(want):
            break
        if time.monotonic() > deadline:
            raise Failure("bout %d round %d: %d of its %d lines said in the channel within "
                          "%.0f s" % (bout_id, rnd, len(said), len(want), timeout),
                          "derived:\n%s\nsaid:\n%s" % (summary, "\n".join(m.text for _, m in said)))
        time.sleep(0.05)
    got = [m.text for _, m in said[:len(want)]]
    check(got == want, "bout %d round %d: the channel did not get the derived commentary" %
          (bout_id, rnd), "derived:\n%s\nsaid:\n%s" % (summary, "\n".join(got)))
    return got, said[len(want) - 1][0] + 1, b


def quiet(c, start, secs=1.5):
    """Waits `secs`, then returns what the bot said in the channel from `start`."""
    time.sleep(secs)
    return [m.text for _, m in chan_from(c, start)]


def check_records(env, bout_id, names):
    """The fighters' records after the finished bout (they had none before)."""
    b = env.bout(bout_id)
    check(b["state"] == "over", "bout %d: state %s, not over" % (bout_id, b["state"]))
    f = [env.fighter(n) for n in names]
    got = [(x["wins"], x["losses"], x["draws"]) for x in f]
    w = b["winner"]
    want = [(0, 0, 1), (0, 0, 1)] if w < 0 else \
        [(1, 0, 0) if s == w else (0, 1, 0) for s in (0, 1)]
    check(got == want, "bout %d (winner %d by %s): records (w, l, d) %r, want %r" %
          (bout_id, w, b["method"], got, want))
    if w >= 0:
        ko = 1 if b["method"] in ("ko", "tko") else 0
        check(f[w]["kos"] == ko, "the winner's KOs: %d after a win by %s" % (f[w]["kos"],
                                                                            b["method"]))
    return b


def check_acks(env, bout_id, acks):
    """Every acknowledged order is in the database, as acknowledged, from the
    player (the last acknowledgement of a round counts)."""
    rows = env.orders(bout_id)
    last = {}
    for rnd, side, text, nick in acks:
        last[(rnd, side)] = (text, nick)
    for (rnd, side), (text, nick) in sorted(last.items()):
        row = rows.get((rnd, side))
        check(row is not None and row[0] == text and row[1] == "player",
              "bout %d: %s's acknowledged round %d order %r is stored as %r" %
              (bout_id, nick, rnd, text, row), "orders: %r" % rows)


def check_secrecy(a, b, acks):
    """Neither player was ever told the other's orders in private."""
    for c, mine in ((a, 0), (b, 1)):
        theirs = set(t for (_, side, t, _) in acks if side != mine) - \
            set(t for (_, side, t, _) in acks if side == mine)
        for text in private_texts(c):
            m = re.match(ACK % (r"\d+", r"\S+"), text)
            if m:  # his own acknowledgement: exactly one order, his
                check(m.group(1) not in theirs, "%s was told his opponent's order %r: %r" %
                      (c.nick, m.group(1), text))
                continue
            for o in theirs:
                check(o not in text, "%s was told his opponent's order %r: %r" % (c.nick, o, text))


# ------------------------------------------------------------------ scenarios


def s_boxing(env):
    """A whole boxing bout of 3 rounds."""
    w = Client(env, "ringwatch1", [CHANNEL])
    a = player(env, "alice1", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "bob1", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10")
    wstart = len(w.lines)
    bout_id = challenge(env, a, b, "rounds=3", "Rocky", "Apollo")
    tape = [m.text for _, m in chan_from(w, wstart)]
    want = ["Bout #%d, boxing, 3 rounds: Rocky (alice1) STR 14 SPD 12 AGL 11 TGH 12 HGT 11, "
            "0-0-0" % bout_id, "vs Apollo (bob1) STR 13 SPD 14 AGL 12 TGH 11 HGT 10, 0-0-0"]
    check(tape[1:3] == want,
          "the tale of the tape as the channel saw it", "\n".join(tape))
    check(env.bout(bout_id)["rounds"] == 3, "bout %d is not of 3 rounds" % bout_id)
    orders_a = ["5/5/10 (ring)", "6H/6/8 (ins)", "5/6/9 (cou)"]
    orders_b = ["4H/6/10", "4/7/9", "3H/7/10"]
    acks = []
    wpos = len(w.lines)
    rounds = 0
    for r in range(1, 4):
        n_before = len(chan_from(w, wpos))
        oa = order(a, orders_a[r - 1], r, "Rocky", acks, 0)
        # Nothing in the channel before both orders are in.
        time.sleep(0.3)
        check(len(chan_from(w, wpos)) == n_before, "round %d: the channel heard something before "
              "both orders were in" % r, "\n".join(m.text for _, m in chan_from(w, wpos)))
        ob = order(b, orders_b[r - 1], r, "Apollo", acks, 1)
        check(oa != ob, "test error: both sides sent %r" % oa)
        said, wpos, row = await_round(env, bout_id, r, w, wpos)
        rounds = r
        over = row["state"] == "over"
        commentary = said[:-1] if over else said
        check(1 <= len(commentary) <= 4, "round %d: %d lines of commentary (1 to 4)" %
              (r, len(commentary)), "\n".join(said))
        if over:
            check(RESULT.search(said[-1]), "the last line is not a result: %r" % said[-1],
                  "\n".join(said))
            break
        for c, f in ((a, "Rocky"), (b, "Apollo")):
            wait_private(c, r"^Bout #%d, round %d of 3: your orders for %s " % (bout_id, r + 1, f))
    rest = quiet(w, wpos)
    check(not rest, "the bot said more in the channel after the result", "\n".join(rest))

    check_secrecy(a, b, acks)
    # Both were asked for every round, privately.
    for c in (a, b):
        for r in range(1, rounds + 1):
            check(any(t.startswith("Bout #%d, round %d of 3: your orders for " % (bout_id, r))
                      for t in private_texts(c)), "%s was not asked for round %d" % (c.nick, r))

    # The database: over, both orders of every round from the players, records.
    row = check_records(env, bout_id, ("Rocky", "Apollo"))
    check(row["round"] == rounds and row["ended"] > 0 and row["started"] > 0,
          "bout row: %r" % row)
    rows = env.orders(bout_id)
    check(len(rows) == 2 * rounds, "%d order rows for %d rounds" % (len(rows), rounds), repr(rows))
    check_acks(env, bout_id, acks)
    n_rounds = env.query("SELECT count(*) FROM rounds WHERE bout = ?", (bout_id,))[0][0]
    check(n_rounds == rounds, "%d rounds rows for %d rounds" % (n_rounds, rounds))
    if row["winner"] >= 0:
        wc = (a, b)[row["winner"]]
        wn = ("Rocky", "Apollo")[row["winner"]]
        wait_private(wc, r"^%s earned [12] training points?: train <ability> %s$" % (wn, wn))
    env.replay(bout_id)
    for c in (a, b, w):
        c.quit()
    return ["bout #%d: %d rounds, winner side %d by %s" % (bout_id, rounds, row["winner"],
                                                            row["method"])]


def s_sugarray(env):
    """The seed's SUGAR RAY example (004), played live."""
    w = Client(env, "ringwatch2", [CHANNEL])
    mill = player(env, "mill", "create Miller rules=sugarray")
    murf = player(env, "murf", "create Murphy rules=sugarray")
    boss = Client(env, ADMIN, [CHANNEL])
    tell(boss, "register " + secret(env, "boss-bouts-pw-1"), r"^account %s registered" % ADMIN)
    tell(mill, "set Miller skill=10 end=26", r"^set is for the bot's admins only$", CHANNEL)
    tell(boss, "set Miller skill=10 end=26", r"^done: set Miller: skill=10 end=26$", CHANNEL)
    tell(boss, "set Murphy skill=12 end=21", r"^done: set Murphy: skill=12 end=21$", CHANNEL)
    boss.quit()
    bout_id = challenge(env, mill, murf, "rules=sugarray", "Miller", "Murphy")
    check(env.bout(bout_id)["rounds"] == 5, "a SUGAR RAY bout of %d rounds" %
          env.bout(bout_id)["rounds"])
    miller = ["2/3", "3/0", "2/2", "0/5", "3/1"]
    murphy = ["6/0", "3/3", "3/4", "4/2", "3/3"]
    acks = []
    wpos = len(w.lines)
    for r in range(1, 6):
        order(mill, miller[r - 1], r, "Miller", acks, 0)
        order(murf, murphy[r - 1], r, "Murphy", acks, 1)
        said, wpos, row = await_round(env, bout_id, r, w, wpos)
        check(row["state"] == ("over" if r == 5 else "live"), "after round %d the bout is %s" %
              (r, row["state"]))
    time.sleep(1.5)
    chan = [m.text for _, m in chan_from(w)]
    want = ["Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW",
            "Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)"]
    check(chan[-2:] == want, "the channel does not end with the example's two lines",
          "\n".join(chan[-6:]))
    row = check_records(env, bout_id, ("Miller", "Murphy"))
    check(row["winner"] == 1 and row["method"] == "points", "bout row: %r" % row)
    check_acks(env, bout_id, acks)
    # After the bout: a points win is an endurance point, a loss costs one.
    fm, fu = env.fighter("Miller"), env.fighter("Murphy")
    check((fm["skill"], fm["endurance"], fu["skill"], fu["endurance"]) == (10, 25, 12, 22),
          "sheets after the bout: Miller %d,%d Murphy %d,%d (want 10,25 and 12,22)" %
          (fm["skill"], fm["endurance"], fu["skill"], fu["endurance"]))
    env.replay(bout_id)
    for c in (mill, murf, w):
        c.quit()
    return ["bout #%d: %s" % (bout_id, " / ".join(want))]


def s_deadline(env):
    """order_timeout = 10: the silent player's plan fights round 1."""
    env.reload(SHORT_TIMEOUT)
    try:
        w = Client(env, "ringwatch3", [CHANNEL])
        act = player(env, "actv", "create Hare str=12 spd=13 agl=12 tgh=12 hgt=11")
        sil = player(env, "plnr", "create Tortoise str=12 spd=11 agl=12 tgh=13 hgt=12")
        tell(sil, "plan set 1) 3/3/14 (clinch)", r"^Tortoise's plan stored: ")
        tell(sil, "plan show", r"^Tortoise's plan: 1\) 3/3/14 \(clinch\)$")
        wstart = len(w.lines)
        sstart = len(sil.lines)
        bout_id = challenge(env, act, sil, "rounds=3", "Hare", "Tortoise")
        t0 = wait_chan(w, r"^Bout #%d, boxing" % bout_id, wstart).t
        wait_private(sil, r"within %d seconds" % SHORT_TIMEOUT, sstart)
        acks = []
        order(act, "6/6/8", 1, "Hare", acks, 0)
        wpos0 = len(w.lines)
        said, wpos, row = await_round(env, bout_id, 1, w, wpos0, timeout=SHORT_TIMEOUT + 15)
        took = chan_from(w, wpos0)[0][1].t - t0
        check(SHORT_TIMEOUT - 2 <= took <= SHORT_TIMEOUT + 8,
              "round 1 was said %.1f s after the tape (deadline %d s)" % (took, SHORT_TIMEOUT))
        # The silent one was reminded, and never sent anything but accept.
        rem = wait_private(sil, r"^Bout #%d: \d+ seconds left for your round 1 orders; without "
                           r"them your plan \(or your last orders\) will fight$" % bout_id, sstart)
        check(not any(re.search(r"seconds left", t) for t in private_texts(act)),
              "the player whose orders were in was reminded too")
        rows = env.orders(bout_id)
        check(rows.get((1, 1)) == ("3/3/14 (clinch)", "plan", 1),
              "the silent player's round 1 order: %r (want the plan's line 1)" %
              (rows.get((1, 1)),),
              repr(rows))
        check(rows.get((1, 0)) == ("6/6/8", "player", 0), "the other's: %r" % (rows.get((1, 0)),))
        check(len(rows) == 2, "order rows: %r" % rows)
        # End it: Hare concedes round 2.
        tell(act, "forfeit", r"^you conceded bout #%d$" % bout_id)
        _, _, row = await_round(env, bout_id, 2, w, wpos)
        check(row["state"] == "over" and row["winner"] == 1 and row["method"] == "tko" and
              row["reason"] == "towel", "after the forfeit: %r" % row)
        check(env.orders(bout_id).get((2, 0), ("",))[0] == "towel", "no towel order for round 2")
        env.replay(bout_id)
        for c in (act, sil, w):
            c.quit()
    finally:
        if env.bot_alive():
            env.reload(ORDER_TIMEOUT)
    return ["bout #%d: round 1 said %.1f s after the tape; reminder %r" % (bout_id, took, rem)]


def s_third_user(env):
    """A third, identified user cannot give orders in someone else's bout."""
    a = player(env, "own1", "create Duran str=13 spd=13 agl=12 tgh=11 hgt=11")
    b = player(env, "own2", "create Leonard str=11 spd=14 agl=13 tgh=11 hgt=11")
    t = player(env, "third", "create Hagler str=14 spd=11 agl=11 tgh=13 hgt=11")
    bout_id = challenge(env, a, b, "rounds=3", "Duran", "Leonard")
    acks = []
    order(a, "5/5/10", 1, "Duran", acks, 0)
    before = env.snapshot()
    tell(t, "5/5/10", r"^you have no live bout; challenge someone")
    tell(t, "order #%d 5/5/10" % bout_id,
         r"^bout #%d is not yours: only its two players may act in it$" % bout_id)
    tell(t, "forfeit #%d" % bout_id, r"^bout #%d is not yours" % bout_id)
    # Nor can someone without an account.
    o = Client(env, "lurker", [CHANNEL])
    tell(o, "5/5/10", r"^identify first \(/msg ringside identify <password>\), then send your "
         r"orders$")
    tell(o, "order #%d 5/5/10" % bout_id, r"^order needs an account")
    check(env.snapshot() == before, "the refused orders changed the database")
    rows = env.orders(bout_id)
    check(rows == {(1, 0): ("5/5/10", "player", 0)}, "order rows: %r" % rows)
    check(env.bout(bout_id)["round"] == 0, "a round was fought")
    # The bout goes on as if nothing happened; then Leonard concedes.
    apos = len(a.lines)
    order(b, "4/6/10", 1, "Leonard", acks, 1)
    await_round(env, bout_id, 1, a, apos)
    check_acks(env, bout_id, acks)
    apos = len(a.lines)
    tell(b, "forfeit", r"^you conceded bout #%d$" % bout_id)
    said, _, row = await_round(env, bout_id, 2, a, apos)
    check(row["state"] == "over" and row["winner"] == 0 and row["reason"] == "towel",
          "after the forfeit: %r" % row)
    check(RESULT.search(said[-1]) and said[-1].find("Duran wins by TKO in round 2") >= 0,
          "the result after the forfeit: %r" % said[-1], "\n".join(said))
    for c in (a, b, t, o):
        c.quit()


def s_two_bouts(env):
    """Two bouts at once in one channel."""
    w = Client(env, "ringwatch6", [CHANNEL])
    a = player(env, "tyson6", "create Tyson str=15 spd=13 agl=10 tgh=12 hgt=10")
    b = player(env, "holmes6", "create Holmes str=12 spd=13 agl=12 tgh=12 hgt=11")
    c = player(env, "ivan6", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12")
    d = player(env, "clubber6", "create Clubber str=15 spd=10 agl=10 tgh=13 hgt=12")
    x = challenge(env, a, b, "rounds=3", "Tyson", "Holmes")
    y = challenge(env, c, d, "rounds=3", "Ivan", "Clubber")
    names = {x: ("Tyson", "Holmes", "tyson6", "holmes6"),
             y: ("Ivan", "Clubber", "ivan6", "clubber6")}
    tell(w, "bouts", r"^2 live: #%d Tyson vs Holmes \(boxing, round 1/3, #ringside\); #%d Ivan vs "
         r"Clubber \(boxing, round 1/3, #ringside\)$" % (x, y), CHANNEL)
    tell(w, "score", r"^2 bouts are live here; say which: !score <bout>$", CHANNEL)
    orders = {x: (["5/5/10", "6/5/9", "5/6/9"], ["4H/6/10", "4/6/10", "5/5/10 (ring)"]),
              y: (["6/6/8", "5/7/8", "6/5/9"], ["4/6/10", "3H/7/10", "5/5/10"])}
    players = {x: (a, b), y: (c, d)}
    live = {x: True, y: True}
    acks = {x: [], y: []}
    blocks = {x: [], y: []}
    for r in range(1, 4):
        wpos = len(w.lines)
        # Both first orders in, then bout y's second, then bout x's: y's
        # round is fought first, x's right after.
        first = [bt for bt in (x, y) if live[bt]]
        for bt in first:
            order(players[bt][0], orders[bt][0][r - 1], r, names[bt][0], acks[bt], 0)
        for bt in sorted(first, key=lambda bt: bt != y):
            order(players[bt][1], orders[bt][1][r - 1], r, names[bt][1], acks[bt], 1)
        for bt in sorted(first, key=lambda bt: bt != y):
            said, wpos, row = await_round(env, bt, r, w, wpos)
            blocks[bt].append(said)
            other = names[x if bt == y else y]
            text = "\n".join(said)
            for n in other:
                check(not re.search(r"\b%s\b" % n, text), "bout %d round %d: its lines name %s "
                      "of the other bout" % (bt, r, n), text)
            check(re.search(r"\b(%s|%s)\b" % names[bt][:2], text), "bout %d round %d: its lines "
                  "name neither of its fighters" % (bt, r), text)
            live[bt] = row["state"] == "live"
        rest = quiet(w, wpos, 0.5)
        check(not rest, "round %d: more lines in the channel than the two rounds' summaries" % r,
              "\n".join(rest))
        if r == 1:
            for bt in (x, y):
                if live[bt]:
                    tell(w, "score %d" % bt, r"^After round 1 of 3: \(%s-%s\) \d+-\d+, \d+-\d+, "
                         r"\d+-\d+ " % names[bt][:2], CHANNEL)
            tell(w, "bouts", r"^2 live: #%d Tyson vs Holmes \(boxing, round 2/3, #ringside\); "
                 r"#%d Ivan vs Clubber \(boxing, round 2/3" % (x, y), CHANNEL)
        if not live[x] and not live[y]:
            break
    for bt in (x, y):
        check_secrecy(players[bt][0], players[bt][1], acks[bt])
        check(not live[bt], "bout %d is still live" % bt)
        check_records(env, bt, names[bt][:2])
        check_acks(env, bt, acks[bt])
        env.replay(bt)
    tell(w, "bouts", r"^no live bouts", CHANNEL)
    for cl in (a, b, c, d, w):
        cl.quit()
    return ["bouts #%d and #%d: %d and %d rounds, each round's lines its own" %
            (x, y, len(blocks[x]), len(blocks[y]))]


def s_kill(env):
    """kill -9 right after an acknowledged order, and again mid-round."""
    w = Client(env, "ringwatch5", [CHANNEL])
    a = player(env, "kill_a", "create Liston str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "kill_b", "create Frazier str=13 spd=14 agl=12 tgh=11 hgt=10")
    bout_id = challenge(env, a, b, "rounds=4", "Liston", "Frazier")
    # Gentle orders: the bout goes the distance (no stoppage in 50000 simulations).
    oa = ["2/8/10", "3/7/10", "2/7/11", "3/8/9"]
    ob = ["3/3/14 (clinch)", "2/4/14 (clinch)", "3/4/13 (clinch)", "4/3/13 (clinch)"]
    acks = []
    notes = []
    wpos = len(w.lines)
    order(a, oa[0], 1, "Liston", acks, 0)
    order(b, ob[0], 1, "Frazier", acks, 1)
    _, wpos, row = await_round(env, bout_id, 1, w, wpos)
    check(row["state"] == "live", "the bout ended in round 1: %r" % row)

    def restart(rnd, have):
        """kill -9 now; start again; the channel and the players are told."""
        pid = env.bot.pid
        env.kill_bot()
        starts = (len(w.lines), len(a.lines), len(b.lines))
        t0 = time.monotonic()
        env.start_bot()
        wait_chan(w, r"^Bout #%d, Liston vs Frazier, goes on: round %d of 4 is next\.$" %
                  (bout_id, rnd), starts[0], timeout=e2e.RECONNECT_TIMEOUT)
        for c, f, s, side in ((a, "Liston", starts[1], 0), (b, "Frazier", starts[2], 1)):
            if side in have:
                rx = r"your orders for it are in already; to change them, identify again first"
            else:
                rx = r"; identify again first \(identify <password>\)$"
            wait_private(c, r"^Bout #%d, round %d of 4: your orders for %s .*%s" %
                         (bout_id, rnd, f, rx), s)
        notes.append("killed pid %d in round %d; back and telling the channel %.2f s later" %
                     (pid, rnd, time.monotonic() - t0))
        # Identities ended with the bot: orders are refused until identify.
        if rnd == 2:
            tell(b, ob[rnd - 1], r"^identify first \(/msg ringside identify <password>\)")
        for c in (a, b):
            tell(c, "identify " + c.pw, r"^you are identified as %s " % c.nick)

    # Round 2: Liston's order acknowledged, then kill -9 at once.
    ack2 = order(a, oa[1], 2, "Liston", acks, 0)
    restart(2, {0})
    rows = env.orders(bout_id)
    check(rows.get((2, 0)) == (ack2, "player", 0), "after the restart Liston's round 2 order is "
          "stored as %r, acknowledged %r" % (rows.get((2, 0)), ack2))
    wpos = len(w.lines)
    order(b, ob[1], 2, "Frazier", acks, 1)
    _, wpos, row = await_round(env, bout_id, 2, w, wpos)
    rows = env.orders(bout_id)
    check(rows.get((2, 0)) == (ack2, "player", 0), "round 2 was fought with Liston's %r, not the "
          "acknowledged %r" % (rows.get((2, 0)), ack2))
    check(row["state"] == "live", "the bout ended in round 2: %r" % row)

    # Round 3: one order in, a moment, then kill -9 mid-round.
    order(a, oa[2], 3, "Liston", acks, 0)
    time.sleep(0.5)
    restart(3, {0})
    wpos = len(w.lines)
    order(b, ob[2], 3, "Frazier", acks, 1)
    _, wpos, row = await_round(env, bout_id, 3, w, wpos)
    if row["state"] == "live":
        order(a, oa[3], 4, "Liston", acks, 0)
        order(b, ob[3], 4, "Frazier", acks, 1)
        _, wpos, row = await_round(env, bout_id, 4, w, wpos)
    check(row["state"] == "over", "the bout is %s after round %d" % (row["state"], row["round"]))
    check_acks(env, bout_id, acks)
    rows = env.orders(bout_id)
    check(all(v[1] == "player" for v in rows.values()) and len(rows) == 2 * row["round"],
          "order rows: %r" % rows)
    check_records(env, bout_id, ("Liston", "Frazier"))
    check_secrecy(a, b, acks)
    out = env.replay(bout_id)
    check(out.count(": match") == row["round"] + 1, "replay output", out)
    for c in (a, b, w):
        c.quit()
    return notes + ["bout #%d over after %d rounds; %d acknowledged orders all stored" %
                    (bout_id, row["round"], len(acks))]


def s_stop(env):
    """The last: SIGTERM; the bot exits 0, and (built with ASan) reports no
    leak or error at exit, after all those bouts and restarts."""
    since = env.log_size()
    env.bot.send_signal(signal.SIGTERM)
    try:
        rc = env.bot.wait(20)
    except subprocess.TimeoutExpired:
        raise Failure("the bot still runs 20 s after SIGTERM", tail(env.bot_log, 10))
    log = env.log_text(since)
    check(rc == 0, "the bot exited with status %d after SIGTERM" % rc, tail(env.bot_log, 40))
    for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        check(pat not in log, "the bot's log has a report at exit: %s" % pat,
              tail(env.bot_log, 40))


SCENARIOS = [
    ("a whole boxing bout", s_boxing),
    ("the SUGAR RAY example bout", s_sugarray),
    ("a round at the deadline from a plan", s_deadline),
    ("orders from a third user refused", s_third_user),
    ("two bouts at once in one channel", s_two_bouts),
    ("kill -9 in a bout, twice", s_kill),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_bouts.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_bouts: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_bouts: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = BoutEnv(argv[1], argv[2])

    def before_restart(e):
        e.order_timeout = ORDER_TIMEOUT

    # The clean stop always comes last, whatever E2E_ONLY picks.
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_bouts: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=s_stop, before_restart=before_restart)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
