#!/usr/bin/env python3
"""e2e_bouts.py - live bouts end to end: the real bot, a real ngircd, and
several real client connections playing whole bouts.

    python3 tests/e2e/e2e_bouts.py BOT SIM      (from the repository root;
                                                 BOT e.g. build/asan/ringside,
                                                 SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (its IRC client, its Env that runs ngircd and the bot
in a temporary directory, its checks after every scenario) with a faster
configuration: the bot's [flood] burst = 10, lines_per_second = 5 (with
exempt = yes: the test server exempts it), and ngircd with [Limits]
MaxPenaltyTime = 0 so that it does not throttle the bot.

What the bot says, as these tests check it:
  - orders that do not complete a round get a reply at once: "round R orders
    stored for NAME: ORDER (you may change them until the round is fought)";
    the orders that complete it (the second of the two) get no reply of their
    own: the round is fought, and the acknowledgement rides on that player's
    next prompt ("Bout #N, round R+1 of M: your orders for NAME (e.g. ...)
    within S seconds; your round R orders for NAME (ORDER) are in and
    fought"), or comes alone once the bout is over ("Bout #N: your round R
    orders for NAME (ORDER) are in and fought."); the other player's prompt
    acknowledges nothing ("... within S seconds.");
  - a player is in the channel too, and on his own connection the round's
    commentary always comes before his prompt for the next round (or his
    acknowledgement alone), and the tale of the tape before his prompt for
    round 1; the channel reaches other connections in its own time, so a
    test that saw a private line still waits for the channel's;
  - a round is said in the channel exactly as SIM --commentary derives it
    from the database: line by line while the bout is alone in the channel;
    while other bouts are live there (as the round is resolved), as one
    message "[#ID] " + its lines joined by spaces, and after the last round
    the result lines as another such message (a long message may come cut,
    at spaces, into several IRC lines).

Scenarios:
  1. a whole boxing bout (3 rounds), checked in the channel, in private, in
     the database, and by SIM --replay;
  2. the SUGAR RAY example of the seed (004): sheets set by the admin, the
     orders of the example, the classic report lines at the end;
  3. a round resolved at the deadline (order_timeout = 10, set by SIGHUP) from
     the silent player's stored plan;
  4. a third, identified user cannot give orders in someone else's bout;
  5. two bouts at once in one channel: each round one tagged message, not
     mixed with the other bout's, bouts, score;
  6. kill -9 twice in a bout (right after an acknowledged order, and in the
     middle of a later round), restarts, the bout finished: no acknowledged
     order lost, and the bout replays identically;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

The scenarios share one bot and one channel, and each finishes its bouts
(a scenario that fails midway may leave its bout live: then the rounds of
later ones come packed, and await_round, told by the database, expects so).

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why` (with `#` detail lines and
the tail of the bot's log), then `N passed, N failed`; exit status 1 if
anything failed. Processes are always stopped.

Environment: E2E_ONLY=name,number (as e2e.py), E2E_SERVER=ngircd|inspircd (default
ngircd), E2E_KEEP=1, E2E_VERBOSE=1.
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

# The order line explained (parse/boxing.c and parse/sugarray.c: order_help),
# in full (help order).
ORDER_HELPS = (
    "Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches you throw "
    "(8 for each point), POW how hard they are, DEF how well you guard; each is at least 1 "
    "and AGG+POW+DEF is at most 20. Optional: H (head) or B (body) after AGG aims the "
    "punches; ! after POW fights dirty (harder, but the referee may warn and disqualify); a "
    "style in parentheses after DEF: inside, clinch, feint, counter, ring, cut, outside or "
    "allout.",
    "SUGAR RAY orders are attack/defence, e.g. 3/2, each 0 to 99: an attack above the "
    "opponent's defence takes twice the difference off his endurance. Every round first "
    "costs you endurance for its effort, 3 x attack + 2 x defence - skill: nothing for 0 or "
    "less, 1 for 1-4, 2 for 5-7, 3 for 8-9, then 4, 5, 6, 7, 8 and 10 for 10 to 15, and "
    "2 x (effort - 10) above 15. Whoever is not knocked out and has the larger total of "
    "attack wins on points.")

# What the round 1 prompt of a player's first bout of the ruleset says of
# it (game/bout.c help_first): the first sentence, and where the rest is.
PROMPT_HELPS = tuple(h[:h.index(". %s" % w) + 1] + " The rest: help order."
                     for h, w in zip(ORDER_HELPS, ("Optional", "Every")))


class _Unasked:
    """Private messages that come by themselves (not replies to a command):
    prompts for orders (with or without an acknowledgement on them),
    reminders, the end of a bout, and the rest of a round 1 prompt that
    explains the order line (a piece of PROMPT_HELPS: a server's long
    origin may still cut it)."""
    RX = re.compile(r"^(Bout #\d+[,: ]|Boxing orders are |SUGAR RAY orders are )")

    def search(self, text):
        t = text.strip()
        return bool(self.RX.search(text)) or (len(t) >= 20 and any(t in h for h in PROMPT_HELPS))


UNASKED = _Unasked()
# The reply to orders that do not complete their round (round, fighter).
STORED = r"^round %s orders stored for %s: (.+) \(you may change them until the round is fought\)$"
# The acknowledgement of the orders that complete a round (round, fighter):
# on the player's next prompt, or alone after the last round.
FOUGHT = r"your round %s orders for %s \((.+)\) are in and fought"
# A prompt for orders (bout, round, rounds, fighter), up to what follows the
# seconds: "." (nothing acknowledged), "; " and an acknowledgement, or
# "; send them here, in private" (round 1), or more after a restart.
PROMPT = (r"^Bout #%s, round %s of %s: your orders for %s \(e\.g\. .+\) within "
          r"\d+ (?:seconds?|minutes?)")
# What fought a round for a player who sent no orders, on his next prompt.
FELL = r"(; (your plan's line \d+|no line of your plan applied: its default|your last orders|" \
       r"the default orders) \(.+\) fought round \d+ for you)?"
# What the corner sees, on every prompt after round 1 (render_corner_report).
CORNER = r"(\. Your corner: .+ has \d+ endurance \(\d+% of the start\).* looks (strong|tired|weak).*" \
         r" Score: .+\.)?"
# A finished bout's end after its result (render_aftermath): the plain
# winner where the result lines do not name him, changes, the records.
AFTERMATH = re.compile(r"^(.+ )?Records now: .+\.$")
# A bout's start says until when spectators may predict it, at its end when
# that costs no IRC line more, else in a message of its own right after.
PREDICT_OPEN = (r" Predictions open (?:for \d+ seconds? \(until round \d+ is fought\)|until "
                r"round \d+ is fought): !predict \d+ <fighter>\.")


def unpredicted(text):
    """A start line without the predictions' window at its end."""
    return re.sub(PREDICT_OPEN + "$", "", text)
# The lines of a finished bout's result, by rules (render_result).
RESULT_LINES = {"boxing": 1, "sugarray": 2}
# A boxing result line (render.c: result_add, after an optional lead).
RESULT = re.compile(r"\bwins (by (KO|TKO|DQ|forfeit) in round \d+|a \w+ decision \(|on the cards \(|"
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

    def __init__(self, bot_path, sim_path, server=None):
        super().__init__(bot_path, server or os.environ.get("E2E_SERVER", "ngircd"))
        self.sim_path = os.path.abspath(sim_path)
        self.order_timeout = ORDER_TIMEOUT

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        self.flood = "burst = %d\nlines_per_second = %d\nexempt = yes\n%s" % (
            BURST, RATE, e2e.INBOUND_LIMIT)
        super().write_bot_config(channels, """
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
        return e2e.plain(out.rstrip("\n"))

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


# Lines the bot says in the channel that are no round's commentary: the
# challenge, the tale of the tape, a cancelled challenge (a bout's live
# traffic, like the commentary), and replies to commands, which start with
# "nick: " and may come between a round's lines.
CHANNEL_REPLY = re.compile(r"^(\S+ challenges \S+ to bout #\d+, |Bout #\d+ is on\.|"
                           r"Bout #\d+, \w+, \d+ rounds: |"
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


def index_of(c, m, start=0):
    """Where message m is among c's lines."""
    with c.cond:
        for i in range(start, len(c.lines)):
            if c.lines[i] is m:
                return i
    raise Failure("test error: %r is not among %s's lines from %d" % (m, c.nick, start))


def wait_private_at(c, regex, start=0, timeout=TIMEOUT):
    """(index, message): the first private message from the bot to `c` from
    `start` matching regex."""
    rx = re.compile(regex)
    m = c.wait(lambda m: c.from_bot(m) and m.target.lower() == c.nick.lower() and
               rx.search(m.text), "/%s/ in private" % regex, timeout=timeout, start=start)
    return index_of(c, m, start), m


def wait_private(c, regex, start=0, timeout=TIMEOUT):
    """The first private message from the bot to `c` from `start` matching regex."""
    return wait_private_at(c, regex, start, timeout)[1].text


def norm(text):
    """Whitespace collapsed (how the pieces of a message cut at spaces are
    compared with the message)."""
    return " ".join(text.split())


class Told:
    """A private line the bot sent a player by itself: the client, the index
    of his lines we looked from (`start`), where it came (`index`), its text;
    for an acknowledgement, the order it names (`stored`) and whether it came
    alone, the bout over (`over`)."""

    def __init__(self, client, start, index, text, stored=None, over=False):
        self.client, self.start, self.index, self.text = client, start, index, text
        self.stored, self.over = stored, over


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
    Checks the announcement with the tale of the tape (one message, both
    corners), and the start, which asks both players (they are in the
    channel) for their round 1 orders there, on each player's own
    connection; nothing private asks them. Returns when both saw the
    start: the channel may not have reached anybody else yet."""
    start = len(a.lines)
    a.cmd("challenge %s %s" % (b.nick, args), CHANNEL)
    m = wait_chan(a, r"^%s challenges %s to bout #(\d+), \w+, \d+ rounds: %s \(%s\) .* vs %s "
                  r"\(%s\) .*\. %s: say !accept or !decline within " %
                  (a.nick, b.nick, fa, a.nick, fb, b.nick, b.nick), start)
    bout_id = int(re.search(r" to bout #(\d+), ", m.text).group(1))
    check(env.bout(bout_id)["state"] == "challenge",
          "bout %d is not stored as a challenge" % bout_id)
    starts = [(a, fa, len(a.lines)), (b, fb, len(b.lines))]
    b.cmd("accept", CHANNEL)
    for c, f, s in starts:
        # (In a player's first bout of the ruleset, the order line explained.)
        wait_chan(c, r"^Bout #%d is on\. Round 1 of \d+: %s \(%s\) and %s \(%s\), your orders "
                  r"\(e\.g\. .*\) within \d+ (?:seconds?|minutes?); send them to me in private\."
                  r"(?: (?:Boxing|SUGAR RAY) orders are .*?)?(?:%s)?$" %
                  (bout_id, a.nick, fa, b.nick, fb, PREDICT_OPEN), s)
        with c.cond:
            asked = [m.text for m in c.lines[s:] if c.from_bot(m) and
                     m.target.lower() == c.nick.lower() and
                     m.text.startswith("Bout #%d, round 1 " % bout_id)]
        check(not asked, "bout %d: %s, in the channel, was asked privately too" % (bout_id, c.nick),
              "\n".join(asked))
    check(env.bout(bout_id)["state"] == "live", "bout %d is not live after accept" % bout_id)
    return bout_id


def order(c, text, rnd, fighter, acks=None, side=None):
    """Private orders for round `rnd` that do not complete it (the other
    side's are not in): the bot replies at once that they are stored, and
    may change until the round is fought. Returns the text acknowledged (the
    orders' normal form)."""
    rx = STORED % (rnd, re.escape(fighter))
    got = tell(c, text, rx)
    stored = re.match(rx, got).group(1)
    if acks is not None:
        acks.append((rnd, side, stored, c.nick, "stored"))
    return stored


def order_last(env, c, text, rnd, fighter, bout_id, acks=None, side=None, timeout=TIMEOUT):
    """Private orders that complete round `rnd` (the other side's are in):
    they get no reply of their own; the round is fought, and the
    acknowledgement rides on c's prompt for the next round, or, the bout
    over, comes alone ("Bout #N: your round R orders for NAME (ORDER) are
    in and fought. It is over, and you won: ..."), both after the round's
    commentary; or, the bout over and c in its channel, the end said there
    (its records line, with the training points the winner earned) is all
    he gets.
    Any other answer first (a reply that they are stored, an error) is a
    failure, and so is a prompt for the next round that does not
    acknowledge them. Returns a Told (stored: the orders' normal form;
    over: the acknowledgement came alone, or in the channel; index: after
    the records line for the latter)."""
    rounds = env.bout(bout_id)["rounds"]
    fought = FOUGHT % (rnd, re.escape(fighter))
    on_prompt = re.compile(PROMPT % (bout_id, rnd + 1, rounds, re.escape(fighter)) +
                           "; " + fought + CORNER + "$")
    alone = re.compile(r"^Bout #%d: %s\. It is over, and (you won|you lost|it is a draw): .+\.$" %
                       (bout_id, fought))
    # Anything that could be meant as this acknowledgement (to fail on it if
    # it is wrong), or is not a message the bot sends by itself.
    near = re.compile(r"^Bout #%d, round %d of |are in and fought" % (bout_id, rnd + 1))
    ended = re.compile(r"Records now: .*\b%s \d+-\d+-\d+" % re.escape(fighter))
    start = len(c.lines)
    c.cmd(text)

    def in_channel(m):
        """The end in the channel, where nothing comes privately: the
        records line says the training points the bout earned (on a server
        with ngircd's short origin, a bout alone in its channel always has
        room for them)."""
        return bool(c.from_bot(m) and m.target.lower() == CHANNEL.lower() and
                    ended.search(m.text))

    def pred(m):
        if in_channel(m):
            return True
        if not c.from_bot(m) or m.target.lower() != c.nick.lower():
            return False
        return bool(near.search(m.text)) or not UNASKED.search(m.text)
    m = c.wait(pred, "the acknowledgement of %s's round %d orders %r (bout #%d)" %
               (fighter, rnd, text, bout_id), timeout=timeout, start=start)
    if in_channel(m):
        rows = env.orders(bout_id) if side is not None else {}
        stored = rows[(rnd, side)][0] if (rnd, side) in rows else None
        if acks is not None:
            acks.append((rnd, side, stored, c.nick, "channel"))
        return Told(c, start, index_of(c, m, start) + 1, m.text, stored, True)
    got = on_prompt.search(m.text) or alone.search(m.text)
    check(got, "%s sent the orders %r that complete round %d of bout #%d and got %r, not their "
          "acknowledgement on the prompt for round %d, nor alone" %
          (c.nick, text, rnd, bout_id, m.text, rnd + 1), c.recent())
    stored = got.group(1)
    if acks is not None:
        acks.append((rnd, side, stored, c.nick, "fought"))
    return Told(c, start, index_of(c, m, start), m.text, stored, bool(alone.search(m.text)))


def prompt(env, c, bout_id, rnd, fighter, start=0, timeout=TIMEOUT):
    """c's prompt for round `rnd` of the bout, which must acknowledge
    nothing (his orders did not complete the round before): "... within S
    seconds." Returns a Told."""
    rounds = env.bout(bout_id)["rounds"]
    i, m = wait_private_at(c, r"^Bout #%d, round %d of " % (bout_id, rnd), start, timeout)
    rx = PROMPT % (bout_id, rnd, rounds, re.escape(fighter)) + FELL + \
        (r"\.$" if rnd == 1 else CORNER[:-1] + "$")  # the corner required after round 1
    check(re.search(rx, m.text), "%s's prompt for round %d of bout #%d: %r, not /%s/" %
          (c.nick, rnd, bout_id, m.text, rx))
    return Told(c, start, i, m.text)


def live_others(env, bout_id):
    """How many other bouts of the channel are live (in the database)."""
    return env.query("SELECT count(*) FROM bouts WHERE state = 'live' AND lower(channel) = "
                     "lower(?) AND id <> ?", (CHANNEL, bout_id))[0][0]


def ratings_line(env, bout_id):
    """The end's ratings line of finished bout `bout_id` as rating_history
    has it ("Ratings: Apollo 1662 (+162), Rocky 1338 (-162)", the winner
    first), or None when the bout moved no rating."""
    rows = env.query("SELECT h.side, f.name, h.before, h.rating FROM rating_history h JOIN "
                     "fighters f ON f.id = h.fighter WHERE h.bout = ? ORDER BY h.side",
                     (bout_id,))
    if len(rows) != 2:
        return None
    winner = env.bout(bout_id)["winner"]
    first = 1 if winner == 1 else 0

    def part(row):
        now, was = round(row[3]), round(row[2])  # both are never at .5 in practice
        return "%s %d (%+d)" % (row[1], now, now - was)
    return "Ratings: %s, %s" % (part(rows[first]), part(rows[1 - first]))


def await_round(env, bout_id, rnd, watcher, start, timeout=TIMEOUT, packed=None, heard=(),
                ratings=False):
    """Waits for round `rnd` of the bout in the database, then for exactly its
    commentary (derived from the database) in the channel (as `watcher` sees
    it; the bot's replies there left out), from watcher line `start` on.

    Alone in the channel, the bout's lines come one by one, each its own IRC
    line, exactly as derived. `packed` (None: worked out from the database:
    another bout of the channel is live): other bouts were live in the
    channel as the round was resolved (or before: a bout that shared its
    channel stays packed), so the round is one message, "[#ID] " and its
    lines joined by spaces; after the last round, with a result in words
    (boxing), the result, the records and the ratings end that message,
    else (SUGAR RAY's table) the result lines are another such message; the
    output may cut a message at spaces into several IRC lines, whose texts
    joined (whitespace collapsed) must be the message, nothing more.

    `heard`: Told prompts or acknowledgements the round's commentary must
    have come before, whole, on the player's own connection.

    `ratings`: after a bout's last round, the end's ratings line too (a
    tagged message of its own when packed), as rating_history has it.

    Returns (the derived lines, which the channel got; the watcher index
    after them; the bout's row)."""
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
    nres = RESULT_LINES[b["rules"]] if b["state"] == "over" and b["round"] == rnd else 0
    check(len(want) > nres, "bout %d round %d: %d lines derived, and %d result lines" %
          (bout_id, rnd, len(want), nres), summary)
    if packed is None:
        packed = live_others(env, bout_id) > 0
    plain = b["rules"] != "sugarray"  # render_result_plain
    # Packed, a result in words: the ratings end the round's one message.
    rline = ratings_line(env, bout_id) if nres and ratings and packed and plain else None
    if packed and plain:
        msgs = ["[#%d] %s" % (bout_id, " ".join(want))]
    elif packed:
        msgs = ["[#%d] %s" % (bout_id, " ".join(want[:len(want) - nres]))]
        if nres:
            msgs.append("[#%d] %s" % (bout_id, " ".join(want[len(want) - nres:])))
    else:
        msgs = list(want)
    pos, got = start, []

    def detail():
        return "derived%s:\n%s\nsaid:\n%s" % (" (packed)" if packed else "", "\n".join(msgs),
                                               "\n".join(" / ".join(p) for p in got))
    for msg in msgs:
        pieces = []
        got.append(pieces)
        while not pieces or (packed and len(norm(" ".join(pieces))) < len(norm(msg))):
            said = chan_from(watcher, pos, chatter=True)
            if not said:
                if time.monotonic() > deadline:
                    raise Failure("bout %d round %d: %d of its %d messages said in the channel "
                                  "within %.0f s" % (bout_id, rnd, len(got) - 1, len(msgs),
                                                     timeout), detail())
                time.sleep(0.05)
                continue
            pos = said[0][0] + 1
            pieces.append(said[0][1].text)
        ok = norm(" ".join(pieces)) == norm(msg) if packed else pieces == [msg]
        if packed and nres and msg is msgs[-1]:
            # The result's message ends with the aftermath (and the ratings,
            # rline): wait for all of it.
            def done(j):
                return j.endswith(" " + norm(rline)) if rline else AFTERMATH.match(j)
            while not done(norm(" ".join(pieces))):
                said = chan_from(watcher, pos, chatter=True)
                if not said:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
                    continue
                pos = said[0][0] + 1
                pieces.append(said[0][1].text)
            joined = norm(" ".join(pieces))
            rest = joined[len(norm(msg)):].strip()
            if rline and rest.endswith(norm(rline)):
                rest = rest[:-len(norm(rline))].strip()
            ok = joined.startswith(norm(msg)) and AFTERMATH.match(rest)
        check(ok, "bout %d round %d: the channel did not get the derived commentary%s" %
              (bout_id, rnd, " packed" if packed else ""), detail())
    if nres and not packed:
        # After the result: the end said in full (records).
        while True:
            said = chan_from(watcher, pos, chatter=True)
            if said:
                break
            if time.monotonic() > deadline:
                raise Failure("bout %d: no records line after the result within %.0f s" %
                              (bout_id, timeout), detail())
            time.sleep(0.05)
        pos = said[0][0] + 1
        check(AFTERMATH.match(said[0][1].text), "bout %d: after the result, not its end: %r" %
              (bout_id, said[0][1].text), detail())
    if nres and ratings and not rline:
        want_line = ratings_line(env, bout_id)
        check(want_line, "bout %d: no ratings stored for it" % bout_id)
        if packed:
            want_line = "[#%d] %s" % (bout_id, want_line)
        while True:
            said = chan_from(watcher, pos, chatter=True)
            if said:
                break
            if time.monotonic() > deadline:
                raise Failure("bout %d: no ratings line after the records within %.0f s" %
                              (bout_id, timeout), detail())
            time.sleep(0.05)
        pos = said[0][0] + 1
        check(said[0][1].text == want_line, "bout %d: after the records %r, not the ratings %r" %
              (bout_id, said[0][1].text, want_line), detail())
    whole = norm(" ".join(msgs))
    for h in heard:
        before = [m.text for i, m in chan_from(h.client, h.start, chatter=True) if i < h.index]
        check(whole in norm(" ".join(before)), "bout %d round %d: %s got %r before the round's "
              "commentary in the channel" % (bout_id, rnd, h.client.nick, h.text),
              "derived:\n%s\n%s had in the channel:\n%s" % ("\n".join(msgs), h.client.nick,
                                                           "\n".join(before)))
    return want, pos, b


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
        # How the win ended, counted apart (migration 9): a towel is a forfeit
        # when the loser sent it himself, his plan's towel otherwise.
        how = {"ko": "kos", "dq": "dqs"}.get(b["method"])
        if b["method"] == "tko":
            how = "tkos" if b["reason"] != "towel" else None
        counts = {k: f[w][k] for k in ("kos", "tkos", "towels", "dqs", "forfeits")}
        want = {k: 1 if k == how else 0 for k in counts}
        if b["method"] == "tko" and b["reason"] == "towel":
            check(counts["towels"] + counts["forfeits"] == 1, "the winner's counts: %r after a "
                  "towel" % counts)
            counts.pop("towels"), counts.pop("forfeits"), want.pop("towels"), want.pop("forfeits")
        check(counts == want, "the winner's counts: %r after a win by %s" % (counts,
                                                                           b["method"]))
    return b


def check_acks(env, bout_id, acks):
    """Every acknowledged order is in the database, as acknowledged, from the
    player (the last acknowledgement of a round counts)."""
    rows = env.orders(bout_id)
    last = {}
    for rnd, side, text, nick, _ in acks:
        last[(rnd, side)] = (text, nick)
    for (rnd, side), (text, nick) in sorted(last.items()):
        row = rows.get((rnd, side))
        check(row is not None and row[0] == text and row[1] == "player",
              "bout %d: %s's acknowledged round %d order %r is stored as %r" %
              (bout_id, nick, rnd, text, row), "orders: %r" % rows)


def check_secrecy(a, b, acks):
    """Neither player was ever told the other's orders in private; and each
    had exactly one acknowledgement of every order he gave: a reply that it
    was stored for each that did not complete its round, "are in and fought"
    (on a prompt, or alone) for each that did."""
    for c, mine in ((a, 0), (b, 1)):
        theirs = set(t for (_, side, t, _, _) in acks if side != mine) - \
            set(t for (_, side, t, _, _) in acks if side == mine)
        n = {"stored": 0, "fought": 0}
        for text in private_texts(c):
            m = re.match(STORED % (r"\d+", r"\S+"), text)
            if m:  # his own acknowledgement: exactly one order, his
                n["stored"] += 1
                check(m.group(1) not in theirs, "%s was told his opponent's order %r: %r" %
                      (c.nick, m.group(1), text))
                continue
            m = re.search(FOUGHT % (r"\d+", r"\S+"), text)
            if m:  # his own, on a prompt or alone; the rest must not tell
                n["fought"] += 1
                check(m.group(1) not in theirs, "%s was told his opponent's order %r: %r" %
                      (c.nick, m.group(1), text))
                text = text[:m.start()] + text[m.end():]
            for o in theirs:
                check(o not in text, "%s was told his opponent's order %r: %r" % (c.nick, o, text))
        want = {k: sum(1 for (_, side, _, _, how) in acks if side == mine and how == k)
                for k in n}
        check(n == want, "%s had %d replies that his orders were stored and %d acknowledgements "
              "that they were fought, for %d and %d such orders" %
              (c.nick, n["stored"], n["fought"], want["stored"], want["fought"]),
              "\n".join(private_texts(c)))


# ------------------------------------------------------------------ scenarios


def s_boxing(env):
    """A whole boxing bout of 3 rounds."""
    w = Client(env, "ringwatch1", [CHANNEL])
    a = player(env, "alice1", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "bob1", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10")
    wstart = len(w.lines)
    bout_id = challenge(env, a, b, "rounds=3", "Rocky", "Apollo")
    # challenge() returns on the players' calls; the watcher's copy of the
    # channel comes in its own time: wait for the start (one message).
    last = index_of(w, wait_chan(w, r"^Bout #%d is on\. " % bout_id, wstart), wstart)
    tape = [unpredicted(m.text) for i, m in chan_from(w, wstart) if i <= last]
    want = ["alice1 challenges bob1 to bout #%d, boxing, 3 rounds: Rocky (alice1) STR 14 SPD 12 "
            "AGL 11 TGH 12 HGT 11, 0-0-0 vs Apollo (bob1) STR 13 SPD 14 AGL 12 TGH 11 HGT 10, "
            "0-0-0. bob1: say !accept or !decline within 5 minutes." % bout_id,
            "Bout #%d is on. Round 1 of 3: alice1 (Rocky) and bob1 (Apollo), your orders (e.g. "
            "5H/8!/7 (inside)) within 2 minutes; send them to me in private. Boxing orders are "
            "AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches you throw (8 for each "
            "point), POW how hard they are, DEF how well you guard; each is at least 1 and "
            "AGG+POW+DEF is at most 20. The rest: help order." % bout_id]
    check(tape == want,
          "the tale of the tape as the channel saw it (the challenge with the tape, then the "
          "start)", "\n".join(tape))
    check(env.bout(bout_id)["rounds"] == 3, "bout %d is not of 3 rounds" % bout_id)
    orders_a = ["5/5/10 (ring)", "6H/6/8 (ins)", "5/6/9 (cou)"]
    orders_b = ["4H/6/10", "4/7/9", "3H/7/10"]
    acks = []
    wpos = len(w.lines)
    rounds = 0
    for r in range(1, 4):
        n_before = len(chan_from(w, wpos))
        astart = len(a.lines)
        oa = order(a, orders_a[r - 1], r, "Rocky", acks, 0)
        # Nothing in the channel before both orders are in.
        time.sleep(0.3)
        check(len(chan_from(w, wpos)) == n_before, "round %d: the channel heard something before "
              "both orders were in" % r, "\n".join(m.text for _, m in chan_from(w, wpos)))
        # Apollo's orders complete the round: acknowledged on his prompt for
        # the next round (alone if the bout is over); Rocky's prompt
        # acknowledges nothing; both after the round in the channel.
        told = order_last(env, b, orders_b[r - 1], r, "Apollo", bout_id, acks, 1)
        ob = told.stored
        check(oa != ob, "test error: both sides sent %r" % oa)
        heard = [told]
        if not told.over:
            heard.append(prompt(env, a, bout_id, r + 1, "Rocky", astart))
        said, wpos, row = await_round(env, bout_id, r, w, wpos, heard=heard, ratings=True)
        rounds = r
        over = row["state"] == "over"
        check(told.over == over, "round %d: the bout is %s, and Apollo's acknowledgement came %s" %
              (r, row["state"], "alone" if told.over else "on a prompt"), told.text)
        commentary = said[:-1] if over else said
        check(1 <= len(commentary) <= 4, "round %d: %d lines of commentary (1 to 4)" %
              (r, len(commentary)), "\n".join(said))
        if over:
            check(RESULT.search(said[-1]), "the last line is not a result: %r" % said[-1],
                  "\n".join(said))
            break
    rest = quiet(w, wpos)
    check(not rest, "the bot said more in the channel after the result", "\n".join(rest))

    check_secrecy(a, b, acks)
    # Both were asked for every round: round 1 in the channel (the start,
    # challenge() saw it), the others privately.
    for c in (a, b):
        for r in range(2, rounds + 1):
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
        # His training points on the channel's records line, where he is:
        # nothing private.
        wait_chan(w, r"^Records now: %s 1-0-0, %s 0-1-0\. %s earned [12] training points? "
                  r"\(!train <ability> %s\)\.$" % (wn, ("Rocky", "Apollo")[1 - row["winner"]],
                                                    wn, wn))
        check(not any(" is over, and " in t for t in private_texts(wc)),
              "%s was told the end privately" % wc.nick, "\n".join(private_texts(wc)))
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
    env.add_admin(ADMIN, "boss-bouts-pw-1")
    tell(boss, "identify boss-bouts-pw-1", r"^you are identified as %s " % ADMIN)
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
        told = order_last(env, murf, murphy[r - 1], r, "Murphy", bout_id, acks, 1)
        said, wpos, row = await_round(env, bout_id, r, w, wpos, heard=[told], ratings=True)
        check(row["state"] == ("over" if r == 5 else "live"), "after round %d the bout is %s" %
              (r, row["state"]))
        check(told.over == (r == 5), "round %d: Murphy's acknowledgement came %s" %
              (r, "alone" if told.over else "on a prompt"), told.text)
    # The channel got the last round and its result as derived (await_round),
    # the ratings, and nothing after; the result is the example's two lines.
    rest = quiet(w, wpos)
    check(not rest, "the bot said more in the channel after the result", "\n".join(rest))
    want = ["Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW",
            "Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)"]
    check(said[-2:] == want, "the bout does not end with the example's two lines",
          "\n".join(said))
    check_secrecy(mill, murf, acks)
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
        t0 = wait_chan(w, r"^Bout #%d is on\. Round 1 of 3: .* within %d seconds; " %
                       (bout_id, SHORT_TIMEOUT), wstart).t
        acks = []
        astart, sstart1 = len(act.lines), len(sil.lines)
        order(act, "6/6/8", 1, "Hare", acks, 0)
        wpos0 = len(w.lines)
        # The deadline fights the round: no orders completed it, so neither
        # prompt for round 2 acknowledges anything; both come after the round.
        heard = [prompt(env, act, bout_id, 2, "Hare", astart, timeout=SHORT_TIMEOUT + 15),
                 prompt(env, sil, bout_id, 2, "Tortoise", sstart1, timeout=SHORT_TIMEOUT + 15)]
        said, wpos, row = await_round(env, bout_id, 1, w, wpos0, timeout=SHORT_TIMEOUT + 15,
                                      heard=heard)
        took = chan_from(w, wpos0)[0][1].t - t0
        check(SHORT_TIMEOUT - 2 <= took <= SHORT_TIMEOUT + 8,
              "round 1 was said %.1f s after the start (deadline %d s)" % (took, SHORT_TIMEOUT))
        # The silent one was reminded, and never sent anything but accept.
        rem = wait_private(sil, r"^Bout #%d: \d+ seconds? left for your round 1 orders; without "
                           r"them your plan will fight$" % bout_id, sstart)
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
        tell(act, "forfeit yes", r"^you conceded bout #%d$" % bout_id)
        _, _, row = await_round(env, bout_id, 2, w, wpos)
        check(row["state"] == "over" and row["winner"] == 1 and row["method"] == "tko" and
              row["reason"] == "towel", "after the forfeit: %r" % row)
        check(env.orders(bout_id).get((2, 0), ("",))[0] == "towel", "no towel order for round 2")
        # Hare's order was acknowledged once, as stored; the plan's and the
        # towel are nobody's orders to acknowledge (a moment for anything
        # wrongly sent after the round to come).
        time.sleep(1.0)
        check_secrecy(act, sil, acks)
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
    tell(t, "5/5/10", r"^you have no live bout; say !challenge <nick> in %s first$" % re.escape(CHANNEL))
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
    told = order_last(env, b, "4/6/10", 1, "Leonard", bout_id, acks, 1)
    check(not told.over, "the bout ended in round 1", told.text)
    await_round(env, bout_id, 1, a, apos, heard=[told, prompt(env, a, bout_id, 2, "Duran", apos)])
    check_acks(env, bout_id, acks)
    apos = len(a.lines)
    tell(b, "forfeit yes", r"^you conceded bout #%d$" % bout_id)
    said, _, row = await_round(env, bout_id, 2, a, apos)
    check(row["state"] == "over" and row["winner"] == 0 and row["reason"] == "towel",
          "after the forfeit: %r" % row)
    check(RESULT.search(said[-1]) and
          said[-1].find("Duran wins by forfeit in round 2 (Leonard conceded)!") >= 0,
          "the result after the forfeit: %r" % said[-1], "\n".join(said))
    check_secrecy(a, b, acks)
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
    n_packed = 0
    for r in range(1, 4):
        wpos = len(w.lines)
        # Both first orders in, then bout y's second, then bout x's: y's
        # round is fought first (its acknowledgement, on the prompt, comes
        # after its commentary), x's right after.
        first = [bt for bt in (x, y) if live[bt]]
        for bt in first:
            order(players[bt][0], orders[bt][0][r - 1], r, names[bt][0], acks[bt], 0)
        told = {}
        for bt in sorted(first, key=lambda bt: bt != y):
            told[bt] = order_last(env, players[bt][1], orders[bt][1][r - 1], r, names[bt][1], bt,
                                  acks[bt], 1)
        # Both bouts were live in the channel as round 1 was fought: every
        # round of both is packed, to their ends.
        packed = {y: True, x: True}
        for bt in sorted(first, key=lambda bt: bt != y):
            said, wpos, row = await_round(env, bt, r, w, wpos, packed=packed[bt],
                                          heard=[told[bt]], ratings=True)
            n_packed += packed[bt]
            check(told[bt].over == (row["state"] == "over"), "bout %d round %d: the bout is %s, "
                  "and the acknowledgement came %s" % (bt, r, row["state"], "alone" if
                                                       told[bt].over else "on a prompt"),
                  told[bt].text)
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
    check(n_packed >= 2, "test error: %d rounds packed" % n_packed)
    return ["bouts #%d and #%d: %d and %d rounds, %d of them one tagged message each, not "
            "mixed" % (x, y, len(blocks[x]), len(blocks[y]), n_packed)]


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
    told = order_last(env, b, ob[0], 1, "Frazier", bout_id, acks, 1)
    _, wpos, row = await_round(env, bout_id, 1, w, wpos, heard=[told])
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
                rx = r"; identify again first \(identify <password>\)" + CORNER + "$"
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
    told = order_last(env, b, ob[1], 2, "Frazier", bout_id, acks, 1)
    _, wpos, row = await_round(env, bout_id, 2, w, wpos, heard=[told])
    rows = env.orders(bout_id)
    check(rows.get((2, 0)) == (ack2, "player", 0), "round 2 was fought with Liston's %r, not the "
          "acknowledged %r" % (rows.get((2, 0)), ack2))
    check(row["state"] == "live", "the bout ended in round 2: %r" % row)

    # Round 3: one order in, a moment, then kill -9 mid-round.
    order(a, oa[2], 3, "Liston", acks, 0)
    time.sleep(0.5)
    restart(3, {0})
    wpos = len(w.lines)
    told = order_last(env, b, ob[2], 3, "Frazier", bout_id, acks, 1)
    _, wpos, row = await_round(env, bout_id, 3, w, wpos, heard=[told])
    if row["state"] == "live":
        order(a, oa[3], 4, "Liston", acks, 0)
        told = order_last(env, b, ob[3], 4, "Frazier", bout_id, acks, 1)
        _, wpos, row = await_round(env, bout_id, 4, w, wpos, heard=[told])
    check(told.over, "the last acknowledgement came on a prompt: %r" % told.text)
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
