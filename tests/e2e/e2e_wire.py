#!/usr/bin/env python3
"""e2e_wire.py - the bot on the wire: real IRC servers at their DEFAULT flood
settings (ngircd, and ircd-hybrid 8 which drops and kills), the bot at its
default pacing, several bouts and long answers at once.

    python3 tests/e2e/e2e_wire.py BOT SIM    (from the repository root; BOT e.g.
                                              build/asan/ringside, SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (clients, Env, checks after every scenario) and
tests/e2e/e2e_bouts.py (helpers), but not e2e_bouts' relaxed servers: here
ngircd keeps its penalties and ircd-hybrid runs as tests/e2e/hybrid.sh
prepares it (see e2e.py, E2E_SERVER=hybrid). Every scenario runs on each of
its servers in a fresh environment of its own (server, bot, database), as a
child process of this one; up to E2E_JOBS of them at once (default 4: the
bot's pacing, not the CPU, makes them slow). A client `chanhold` joins the
channel before the bot, so the bot is never a channel operator (hybrid counts
only non-operators' messages against a channel's flood budget).

ircd-hybrid 8.2.43 at its defaults, as measured here: a channel takes at most
8 messages from its non-operators in a window that opens with the first and
closes one to two whole seconds later, and drops the rest, telling the
sender "*** Message to #chan throttled due to flooding"; a user (the bot)
likewise receives at most 8 private messages from everybody per window; a
client's own lines are read at about 1 a second once a burst of about 5 is
spent, and one whose unread lines overflow its receive queue (a few KB) is
killed ("Excess Flood"). So on hybrid every private message a test client
sends the bot is paced (Inbox: at most 7 in any 2.2 s), and so is what the
players say in the channel (Gate, counting what the channel shows).

Scenarios (server: n = ngircd, h = hybrid):
  1. five_bouts (n, h): 10 players, 5 boxing bouts of 3 rounds at once in the
     channel; challenges and accepts paced (the bot's inbound limit, and on
     hybrid Gate and Inbox); once all 5 are live every player
     sends each round's orders the moment he is asked (round 1's all at once).
     Every bout ends, every order is acknowledged, and all of each bout's
     commentary (SIM --commentary) was said in the channel, in order.
  2. report_during_bout (n, h): a spectator asks the report of a finished
     12-round league bout (about 200 lines, 9 KB) while two players fight a
     live 4-round bout, each order sent the moment it is asked; no order
     waits more than 5 s for its acknowledgement ("round R orders stored",
     or, for the order that completes a round, the round itself in the
     channel or "your round R orders ... are in and fought" on the next
     prompt, whichever comes first; bench/wire_bench.py gives the figure);
     the
     report arrives whole (compared with SIM --report) within 60 s plus 1.5 s
     per 400 bytes of it (what one packed IRC line carries at 1 line a
     second).
  3. throttled_resend (h): before each round's last order, 12 clients flood
     the channel for 9 s (about 16 lines a second), so hybrid drops what the
     bot says meanwhile; every commentary line still arrives, in order, and
     the bot's log mentions the throttling (which proves a line of its was
     dropped at least once).
  4. flood_kill (h): the bot with [flood] exempt = yes, burst = 20,
     lines_per_second = 5; reports and two bouts' traffic make hybrid kill it
     ("Excess Flood"); it reconnects, the players identify again when asked,
     both bouts end, all their commentary was said; the log says it was
     killed for flooding and slowed down.
  5. ctcp_trailing (n, h): "\\x01VERSION\\x01 hello" and "\\x01PING 123\\x01xyz" in
     private get no "unknown command" and no echo of the trailing text.
  6. colour_modes (h): the channel operator sets +c (hybrid refuses any
     message with formatting there): the bot learns it from MODE, and from
     324 after a kill -9 and a restart mid-bout (it holds a channel's lines
     until its modes come); every line it says there is plain and the whole
     commentary arrives; after -c the tape is bold and the result coloured.
  7. ctcp_flood (n, h): 4 nicks send CTCP VERSION and PING to the bot as
     fast as the server reads them for 20 s while a bystander says !version
     in the channel every 3 s: every question answered, in order, the bot
     up; the longest wait is reported (measured, not limited).
  8. idle_pings (n): one 3-round bout, then everybody stays silent: in the
     75 s after the bot's last message it sends exactly one PING, the
     delivery marker of its last lines standing for its keepalive (60 s of
     the server's silence), and that marker is answered: an idle bot sends
     no more PINGs after a bout than before it (bot/outq.c: marker_idle).
     When the last lines' marker went with them (OUTQ_MARK_EVERY lines
     after the one before, as the lines happened to be packed), the
     keepalive comes a minute after its answer: two PINGs, a minute apart.
  9. quit_after_bout (n): one 3-round bout, SIGTERM as soon as its last
     commentary arrived: the marker pending goes before the QUIT and its
     PONG marks the bout's rounds said (the database's said mark), so a
     restart says none of it again ("what I had not said yet").

Commentary and reports are compared robustly, since the bot may pack several
lines into one message ("[#7] line line", or "Round 3 | line | line" in a
report) and split a long message over several IRC lines: the bot's messages
are stripped of IRC formatting and of a leading bout tag, joined, and all
whitespace (and, for reports, "|") removed; each derived line, normalised
the same way, must occur in that text, in order, per bout.

Output as e2e.py: `ok - NAME (SERVER)` or `FAIL - NAME (SERVER): why` with `#`
details, then `N passed, N failed`; exit status 1 if anything failed.

Environment: E2E_ONLY=name,... (scenario names, function names or numbers
1-7), E2E_SERVER=ngircd|hybrid (only that server), E2E_JOBS=N (1: one at a
time), E2E_KEEP=1, E2E_VERBOSE=1. Python 3 standard library only.
"""

import calendar
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402

_ngircd_default = e2e.ngircd_config
import e2e_bouts  # noqa: E402

# e2e_bouts relaxes ngircd (MaxPenaltyTime = 0) when imported: not here.
e2e.ngircd_config = _ngircd_default
from e2e import ADMIN, CHANNEL, TIMEOUT, Client, Failure, check, secret, tail  # noqa: E402
from e2e_bouts import chan_from, tell, wait_chan, wait_private  # noqa: E402

KEEPER = "chanhold"
DEFAULT_ORDER_TIMEOUT = 120
# The bot's pacing in flood_kill: far past what hybrid takes from a client.
FLOOD_EXEMPT = "exempt = yes\nburst = 20\nlines_per_second = 5\n"
ACK_LIMIT = 5.0  # seconds an order may wait for its acknowledgement (target: 2)
ACK_LIMIT_STRICT = 8.0  # the same on a server that throttles the channel (strict pacing)
# How long a report may take to arrive whole: this, plus so much per 400
# bytes of it (what one IRC line carries, packed; the bot sends 1 line a
# second). A 12-round report is about 200 lines and 9 KB.
REPORT_GRACE = 60
REPORT_PER_400 = 1.5

PROMPT = re.compile(r"^Bout #(\d+), round (\d+) of (\d+): your orders for (\S+) ")
# A challenged bout's start, in the channel, asks the players who are there
# for their round 1 orders: "Bout #3 is on. Round 1 of 3: ann (Ali) and ben
# (Frazier), your orders (e.g. 5H/8!/7 (inside)) within 2 minutes; ...".
CALL = re.compile(r"^Bout #(\d+) is on\. Round (\d+) of (\d+): (.*?), your orders \(e\.g\. ")
# "round 2 orders stored for Ali: 5/5/10 ..." or, riding on the next prompt
# (or alone after the last round), "your round 2 orders for Ali (5/5/10) are in".
ACK_ALONE = re.compile(r"^round (\d+) orders stored for (\S+): ")
ACK_RIDING = re.compile(r"\byour round (\d+) orders for (\S+) \(.*?\) are in\b")
FORMATTING = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1e\x1f]")
BOUT_TAG = re.compile(r"^\s*(\[#\d+\]|#\d+:)(?=\s)")
KILLED_RX = r"(?i)(excess flood|closed the link for flooding|killed .*flood)"
SLOWED_RX = r"(?i)(slow(ing|ed)? down|sending at most .*lines/s|lines/s from now on)"


# ------------------------------------------------------------------ comparing


def squash(text, bars=False):
    """A message as compared: no IRC formatting, no leading bout tag, no
    whitespace (and no "|" with bars)."""
    text = BOUT_TAG.sub("", FORMATTING.sub("", text))
    if bars:
        text = text.replace("|", "")
    return "".join(text.split())


def missing_in_order(haystack, lines, bars=False):
    """(index, line) of the first of `lines` not found in `haystack` after
    the previous one, or None when all are there in order."""
    pos = 0
    for i, line in enumerate(lines):
        needle = squash(line, bars)
        if not needle:
            continue
        j = haystack.find(needle, pos)
        if j < 0:
            return i, line
        pos = j + len(needle)
    return None


def said_in_channel(w, start):
    """Everything the bot said in the channel from watcher line `start`, squashed."""
    return "".join(squash(m.text) for _, m in chan_from(w, start))


def derived(env, option, bout_id):
    """SIM --commentary or --report DB BOUT: its non-empty lines."""
    p, out, copy = env.sim(option, bout_id)
    check(p.returncode == 0, "ringside-sim %s DB %d exited %d (copy kept as %s)" %
          (option, bout_id, p.returncode, copy), out)
    return [e2e.plain(x) for x in out.split("\n") if x.strip()]


def await_commentary(env, w, start, bouts, timeout):
    """Waits until every bout in `bouts` (ids) is over and all its derived
    commentary was said in the channel (as `w` saw it from line `start`), in
    order. Returns {bout: number of lines}."""
    deadline = time.monotonic() + timeout
    want = {}
    while True:
        for b in bouts:
            if b not in want and env.bout(b)["state"] == "over":
                want[b] = derived(env, "--commentary", b)
        text = said_in_channel(w, start)
        gaps = {b: missing_in_order(text, want[b]) for b in want}
        if len(want) == len(bouts) and not any(gaps.values()):
            return {b: len(want[b]) for b in bouts}
        if time.monotonic() > deadline:
            lines = []
            for b in bouts:
                row = env.bout(b)
                if b not in want:
                    lines.append("bout #%d is %s after round %d" % (b, row["state"], row["round"]))
                elif gaps[b]:
                    i, line = gaps[b]
                    lines.append("bout #%d: commentary line %d of %d never said (in order): %r" %
                                 (b, i + 1, len(want[b]), line))
            said = [m.text for _, m in chan_from(w, start)]
            raise Failure("; ".join(lines) + " (%.0f s)" % timeout,
                          "the bot said in %s (last 25 of %d messages):\n%s" %
                          (CHANNEL, len(said), "\n".join(said[-25:])))
        time.sleep(0.5)


# ------------------------------------------------------------------ the environment


class WireEnv(e2e_bouts.BoutEnv):
    """e2e's Env on any server, the bot at its default pacing unless `flood`
    says otherwise, and a channel operator that is not the bot."""

    def __init__(self, bot_path, sim_path, server, flood="", order_timeout=DEFAULT_ORDER_TIMEOUT):
        e2e.Env.__init__(self, bot_path, server)
        self.sim_path = os.path.abspath(sim_path)
        self.flood = flood  # the [flood] keys: none, the bot's defaults
        self.order_timeout = order_timeout
        self.keeper = None
        self.inbox = Inbox(self)

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        e2e.Env.write_bot_config(self, channels, "\n[bout]\norder_timeout = %d\n%s" %
                                 (self.order_timeout, extra))

    def start_bot(self):
        # First in the channel, so the bot is not its operator; kept out of
        # env.clients, which are closed after every scenario.
        if self.keeper is None or self.keeper.closed:
            self.keeper = Client(self, KEEPER, [CHANNEL])
            self.clients.remove(self.keeper)
        e2e.Env.start_bot(self)

    def cleanup(self):
        if self.keeper is not None:
            self.keeper.close()
        e2e.Env.cleanup(self)


class Inbox:
    """On hybrid, paces every private message to the bot. hybrid counts what
    a user receives from everybody in a window that starts with the first
    message and ends after one to two whole seconds (floodtime 1); past 8
    (measured) it drops the rest ("Message to ringside throttled due to
    flooding"). Here: at most `limit` in any `window` seconds."""

    def __init__(self, env, limit=7, window=2.2):
        self.env, self.limit, self.window = env, limit, window
        self.sent = []
        self.lock = e2e.threading.Lock()
        self.waited = 0.0

    def wait(self):
        if self.env.server != "hybrid":
            return
        with self.lock:
            while True:
                now = time.monotonic()
                self.sent = [t for t in self.sent if t > now - self.window]
                if len(self.sent) < self.limit:
                    self.sent.append(now)
                    return
                pause = self.sent[0] + self.window - now + 0.01
                self.waited += pause
                time.sleep(pause)


class WClient(Client):
    """A client whose private messages to the bot keep within hybrid's
    budget for what the bot receives (env.inbox)."""

    def cmd(self, text, chan=None, pace=True):
        if pace:
            self.pace()
        if not chan:
            self.env.inbox.wait()
        Client.cmd(self, text, chan, pace=False)

    def to_bot(self, text):
        """A raw private message to the bot, paced as commands are."""
        self.pace()
        self.env.inbox.wait()
        self.raw("PRIVMSG %s :%s" % (e2e.BOT_NICK, text))


class Gate:
    """On hybrid, waits before a client speaks in the channel: hybrid counts
    the messages of all non-operators in a channel in windows of one to two
    seconds and drops those past 8 (measured). The messages `w` saw in the
    channel in the last `window` seconds, this one and `then` lines of the
    bot's answer must stay within `limit`."""

    def __init__(self, env, w, limit=7, window=2.2):
        self.env, self.w, self.limit, self.window = env, w, limit, window
        self.waited = 0.0

    def recent(self):
        since = time.monotonic() - self.window
        with self.w.cond:
            return sum(1 for m in self.w.lines if m.t > since and
                       m.cmd in ("PRIVMSG", "NOTICE") and m.target.lower() == CHANNEL)

    def wait(self, then=2):
        if self.env.server != "hybrid":
            return
        t0 = time.monotonic()
        while self.recent() + 1 + then > self.limit:
            time.sleep(0.2)
        self.waited += time.monotonic() - t0


def send(c, text, chan=None):
    """Sends a command; returns the index to look for its answer from."""
    start = len(c.lines)
    c.cmd(text, chan)
    return start


def answer(c, start, text, regex, chan=None, timeout=TIMEOUT):
    """The answer to `text` (sent at line `start`), as e2e_bouts.tell checks it."""
    rx = re.compile(regex)

    def pred(m):
        t = c.to_me(m)
        if t is None:
            return False
        if (chan is None) != (m.target.lower() == c.nick.lower()):
            return False
        return bool(rx.search(t)) or not e2e_bouts.UNASKED.search(t)
    m = c.wait(pred, "/%s/ in reply to %r" % (regex, text), timeout=timeout, start=start)
    got = c.to_me(m)
    check(rx.search(got), "%s sent %r%s and got %r, not /%s/" %
          (c.nick, text, " in " + chan if chan else " privately", got, regex), c.recent())
    return got


def batch(items, per_line=1.5):
    """[(client, text, regex)]: sends all, then waits for every answer (the
    bot's pacing sends them at about 1 a second)."""
    started = [(c, send(c, text), text, rx) for c, text, rx in items]
    for i, (c, start, text, rx) in enumerate(started):
        answer(c, start, text, rx, timeout=TIMEOUT + per_line * (i + 1))


def players(env, specs):
    """[(nick, fighter, sheet)] -> clients in the channel, registered, each
    with his boxer (c.fighter, c.pw)."""
    cs = []
    for nick, fighter, sheet in specs:
        c = WClient(env, nick, [CHANNEL])
        c.pw = secret(env, "%s-pw-%d" % (nick, os.getpid() % 1000))
        c.fighter = fighter
        c.sheet = sheet
        cs.append(c)
    batch([(c, "register " + c.pw, r"^account %s registered, and you are identified" % c.nick)
           for c in cs])
    batch([(c, "create %s %s" % (c.fighter, c.sheet), r"^%s \(boxing\) is ready" % c.fighter)
           for c in cs])
    return cs


def start_bout(env, a, b, w, gate, rounds=3):
    """a challenges b in the channel (the tale of the tape in the same
    line), b accepts; waits for the start, which asks both players (in the
    channel) for their round 1 orders. Returns the bout's number."""
    gate.wait(then=1)
    start = len(w.lines)
    a.cmd("challenge %s rounds=%d" % (b.nick, rounds), CHANNEL)
    m = wait_chan(w, r"^%s challenges %s to bout #(\d+), boxing, %d rounds: %s \(%s\) STR \d+ "
                  r"SPD .* vs %s \(%s\) STR .*\. %s: say !accept or !decline within 5 minutes\.$" %
                  (a.nick, b.nick, rounds, a.fighter, a.nick, b.fighter, b.nick, b.nick), start)
    bout_id = int(re.search(r" to bout #(\d+), ", m.text).group(1))
    gate.wait()
    start = len(w.lines)
    b.cmd("accept", CHANNEL)
    wait_chan(w, r"^Bout #%d is on\. Round 1 of %d: %s \(%s\) and %s \(%s\), your orders \(e\.g\. "
              r"5H/8!/7 \(inside\)\) within \d+ (?:seconds|minutes); send them to me in private\." %
              (bout_id, rounds, a.nick, a.fighter, b.nick, b.fighter), start, timeout=TIMEOUT + 20)
    check(env.bout(bout_id)["state"] == "live", "bout %d is not live after accept" % bout_id)
    return bout_id


def called(c, m):
    """The round a bout's start in the channel asks c for (None if it
    does not name him)."""
    p = CALL.match(m.text) if c.from_bot(m) and m.target.lower() == CHANNEL.lower() else None
    if p and "%s (%s)" % (c.nick, c.fighter) in p.group(4).split(" and "):
        return int(p.group(2))
    return None


class Referee:
    """Plays the players' side of live bouts: each round's orders sent the
    moment the bot asks (identifying first when it says so), every
    acknowledgement timed."""

    def __init__(self, env, cs, orders):
        self.env = env
        self.cs = cs
        self.orders = orders  # (client, round) -> order text
        for c in cs:
            c.seen = getattr(c, "seen", 0)
            c.osent = {}   # round -> time the orders went
            c.oacks = {}   # round -> delay
            c.ochan = {}   # round -> delay of the first channel line after the order
            c.prompts = 0
        self.identified = 0

    def step(self):
        for c in self.cs:
            with c.cond:
                new = c.lines[c.seen:]
                c.seen = len(c.lines)
            for m in new:
                if called(c, m) and called(c, m) not in c.osent:
                    r = called(c, m)
                    c.prompts += 1
                    c.cmd(self.orders(c, r))
                    c.osent[r] = time.monotonic()
                if c.from_bot(m) and m.target.lower() == CHANNEL.lower():
                    for r, t in c.osent.items():
                        if r not in c.ochan and m.t >= t:
                            c.ochan[r] = m.t - t
                    # The end of his bout said there acknowledges his last
                    # orders (nothing private comes to a player in the
                    # channel, the winner's training points are on its
                    # records line): the first channel line after them counts.
                    last = max(c.osent) if c.osent else None
                    if last and last not in c.oacks and re.search(
                            r"Records now: .*\b%s \d+-\d+-\d+" % re.escape(c.fighter), m.text):
                        c.oacks[last] = c.ochan.get(last, m.t - c.osent[last])
                if not (c.from_bot(m) and m.target.lower() == c.nick.lower()):
                    continue
                for rx in (ACK_ALONE, ACK_RIDING):
                    a = rx.search(m.text)
                    if a and a.group(2) == c.fighter:
                        r = int(a.group(1))
                        if r in c.osent and r not in c.oacks:
                            c.oacks[r] = m.t - c.osent[r]
                            # The order that completes a round is answered
                            # by the round itself in the channel (he is
                            # there); its acknowledgement rides on the next
                            # prompt, after the round: the earlier counts.
                            if rx is ACK_RIDING and r in c.ochan:
                                c.oacks[r] = min(c.oacks[r], c.ochan[r])
                p = PROMPT.match(m.text)
                if not p or p.group(4) != c.fighter:
                    continue
                c.prompts += 1
                r = int(p.group(2))
                again = "identify again" in m.text
                if again:
                    c.cmd("identify " + c.pw)
                    self.identified += 1
                    if "are in already" in m.text:
                        continue
                if r in c.osent and not again:
                    continue
                c.cmd(self.orders(c, r))
                c.osent[r] = time.monotonic()

    def play(self, bouts, timeout):
        """Until every bout in `bouts` is over in the database."""
        deadline = time.monotonic() + timeout
        while True:
            self.step()
            rows = {b: self.env.bout(b) for b in bouts}
            if all(r["state"] == "over" for r in rows.values()):
                return rows
            if time.monotonic() > deadline:
                raise Failure("bouts not over after %.0f s: %s" % (timeout, ", ".join(
                    "#%d %s round %d/%d" % (b, r["state"], r["round"], r["rounds"])
                    for b, r in rows.items() if r["state"] != "over")), self.tails())
            time.sleep(0.1)

    def finish(self, timeout=30):
        """Waits for the acknowledgements still on their way."""
        deadline = time.monotonic() + timeout
        while self.unacked() and time.monotonic() < deadline:
            self.step()
            time.sleep(0.2)
        self.step()

    def delays(self):
        return [d for c in self.cs for d in c.oacks.values()]

    def unacked(self):
        return ["%s round %d" % (c.nick, r) for c in self.cs for r in sorted(c.osent)
                if r not in c.oacks]

    def tails(self):
        return "\n".join(c.recent(4) for c in self.cs)


ORDERS = ["5/5/10", "6/6/8", "4H/7/9", "5/6/9 (ins)", "6B/5/9", "4/6/10 (ring)", "7/6/7 (cou)",
          "3/4/13 (clinch)", "5/5/10 (feint)", "6H/6/8"]


def default_orders(c, r):
    return ORDERS[(c.index + r) % len(ORDERS)]


# ------------------------------------------------------------------ scenarios


FIVE = [("Ali", "str=13 spd=13 agl=12 tgh=11 hgt=11"), ("Frazier", "str=14 spd=12 agl=11 tgh=12 hgt=11"),
        ("Foreman", "str=15 spd=10 agl=10 tgh=13 hgt=12"), ("Norton", "str=12 spd=12 agl=12 tgh=12 hgt=12"),
        ("Holmes", "str=12 spd=13 agl=12 tgh=12 hgt=11"), ("Spinks", "str=11 spd=14 agl=13 tgh=11 hgt=11"),
        ("Tyson", "str=15 spd=13 agl=10 tgh=12 hgt=10"), ("Douglas", "str=12 spd=12 agl=11 tgh=12 hgt=13"),
        ("Lewis", "str=13 spd=11 agl=11 tgh=12 hgt=13"), ("Klitschko", "str=13 spd=11 agl=10 tgh=13 hgt=13")]


def s_five_bouts(env):
    """10 players, 5 bouts of 3 rounds at once in one channel."""
    t0 = time.monotonic()
    w = WClient(env, "fivewatch", [CHANNEL])
    wstart = len(w.lines)
    cs = players(env, [("five%d%s" % (i // 2 + 1, "ab"[i % 2]), name, sheet)
                       for i, (name, sheet) in enumerate(FIVE)])
    for i, c in enumerate(cs):
        c.index = i
    t_setup = time.monotonic() - t0
    gate = Gate(env, w)
    bouts = []
    for i in range(5):
        bouts.append(start_bout(env, cs[2 * i], cs[2 * i + 1], w, gate))
    t_live = time.monotonic()
    # All five live: every player answers every prompt at once from now on
    # (round 1's calls in the channel are already there).
    ref = Referee(env, cs, default_orders)
    rows = ref.play(bouts, timeout=300)
    t_over = time.monotonic()
    counts = await_commentary(env, w, wstart, bouts, timeout=120)
    t_said = time.monotonic()
    ref.finish()
    check(not ref.unacked(), "orders never acknowledged: %s" % ", ".join(ref.unacked()),
          ref.tails())
    d = ref.delays()
    for c in cs:
        c.quit()
    w.quit()
    return ["setup %.0f s, 5 bouts started in %.0f s (%.0f s waiting for the channel's budget), "
            "fought in %.0f s, all said %.0f s later" % (t_setup, t_live - t0 - t_setup,
                                                        gate.waited, t_over - t_live,
                                                        t_said - t_over),
            "bouts %s: %s commentary lines; %d orders, acknowledged after %.1f s at most "
            "(median %.1f s)" % (", ".join("#%d" % b for b in bouts),
                                 "+".join(str(counts[b]) for b in bouts), len(d),
                                 max(d) if d else 0, statistics.median(d) if d else 0),
            "results: " + "; ".join("#%d side %d by %s in round %d" %
                                    (b, r["winner"], r["method"], r["round"])
                                    for b, r in rows.items())]


def league_bouts(env, boss, a, b):
    """An admin's league turn (boxing) with two fighters whose plans go the
    distance: two finished 12-round bouts. Returns their numbers."""
    start = len(boss.lines)
    boss.cmd("turn rules=boxing", CHANNEL)
    wait_chan(boss, r"League turn \d+ \(boxing\): \d+ bouts fought from the plans", start,
              timeout=TIMEOUT + 20)
    rows = env.query("SELECT b.id FROM bouts b JOIN fighters f ON f.id IN (b.fighter_a, b.fighter_b)"
                     " WHERE f.name = ? AND b.kind = 'league' AND b.state = 'over' ORDER BY b.id",
                     (a.fighter,))
    check(len(rows) == 2, "%s's league bouts in the database: %r" % (a.fighter, rows))
    return [r[0] for r in rows]


def s_report_during_bout(env):
    """Reports of 100+ lines stream while a live bout is fought: every
    order is acknowledged within ACK_LIMIT seconds; the reports arrive whole."""
    boss = WClient(env, ADMIN, [CHANNEL])
    env.add_admin(ADMIN, "boss-wire-pw-1")
    tell(boss, "identify boss-wire-pw-1", r"^you are identified as %s " % ADMIN)
    # The league first, with its two fighters only; gentle plans: no
    # stoppage, twelve full rounds to report.
    la, lb = players(env, [("leaguea", "Marciano", "str=12 spd=12 agl=12 tgh=12 hgt=12"),
                           ("leagueb", "Walcott", "str=12 spd=12 agl=12 tgh=12 hgt=12")])
    batch([(c, "plan set 3/3/14 (clinch)", r"^%s's plan stored" % c.fighter) for c in (la, lb)])
    league = league_bouts(env, boss, la, lb)[:1]
    pa, pb = players(env, [("livea", "Robinson", "str=13 spd=13 agl=12 tgh=11 hgt=11"),
                           ("liveb", "LaMotta", "str=13 spd=11 agl=11 tgh=13 hgt=12")])
    spec = WClient(env, "reader", [CHANNEL])
    reports = {b: derived(env, "--report", b) for b in league}
    total = sum(len(v) for v in reports.values())
    size = sum(len(x) for v in reports.values() for x in v)
    check(total >= 100, "the league bout's report has only %d lines" % total)
    for b in league:
        check(env.bout(b)["round"] == 12, "league bout %d ended in round %d, not 12" %
              (b, env.bout(b)["round"]))
    w = WClient(env, "reportwatch", [CHANNEL])
    pa.index, pb.index = 0, 5
    bout_id = start_bout(env, pa, pb, w, Gate(env, w), rounds=4)
    # The reports are asked, then orders flow while they stream.
    rstart = len(spec.lines)
    t_asked = time.monotonic()
    for b in league:
        spec.cmd("report %d" % b)
    ref = Referee(env, [pa, pb], default_orders)
    problems = []
    try:
        ref.play([bout_id], timeout=240)
    except Failure as e:
        problems.append(str(e))
    ref.finish()
    d = ref.delays()
    # On ircd-hybrid, once it throttles the channel, each channel line waits
    # for its confirmation and a marker (a line of the budget too), so an
    # acknowledgement riding on a prompt after a round's two channel lines
    # waits about 4 s (measured 3.9-6.0 s on a loaded machine).
    limit = ACK_LIMIT_STRICT if env.server == "hybrid" else ACK_LIMIT
    slow = ["%s round %d: %.1f s" % (c.nick, r, c.oacks[r]) for c in (pa, pb)
            for r in sorted(c.oacks) if c.oacks[r] > limit]
    if slow:
        problems.append("acknowledgements over %.0f s: %s" % (limit, "; ".join(slow)))
    if ref.unacked():
        problems.append("orders never acknowledged: %s" % ", ".join(ref.unacked()))
    # The reports, whole and in order, in private to the reader.
    deadline = t_asked + REPORT_GRACE + REPORT_PER_400 * (size // 400 + 1)
    while True:
        with spec.cond:
            text = "".join(squash(m.text, bars=True) for m in spec.lines[rstart:]
                           if spec.from_bot(m) and m.target.lower() == spec.nick.lower())
        gaps = {b: missing_in_order(text, reports[b], bars=True) for b in league}
        if not any(gaps.values()):
            t_done = time.monotonic() - t_asked
            break
        if time.monotonic() > deadline:
            problems.append("; ".join("report of bout #%d (%d lines, %d bytes): line %d not there "
                                      "(in order) %.0f s after asking: %r" %
                                      (b, len(reports[b]), size, g[0] + 1,
                                       time.monotonic() - t_asked, g[1])
                                      for b, g in gaps.items() if g))
            t_done = None
            break
        time.sleep(0.5)
    if problems:
        raise Failure(" | ".join(problems), "acknowledgement delays: %s\n%s" % (
            ", ".join("%s r%d %.1f s" % (c.nick, r, c.oacks[r]) for c in (pa, pb)
                      for r in sorted(c.oacks)), ref.tails()))
    for c in (boss, la, lb, pa, pb, spec, w):
        c.quit()
    return ["report of bout %s: %d lines, %d bytes (SIM --report), whole %.0f s after asking" %
            (" and ".join("#%d" % b for b in league), total, size, t_done),
            "live bout #%d: %d orders acknowledged after %.1f s at most (median %.1f s)" %
            (bout_id, len(d), max(d), statistics.median(d))]


class Flood:
    """In the background, `clients` say things in the channel, together
    about `rate` lines a second, for `secs` seconds."""

    def __init__(self, clients, rate, secs):
        self.clients, self.rate, self.secs = clients, rate, secs
        self.thread = e2e.threading.Thread(target=self._run, daemon=True)
        self.sent = 0
        self.thread.start()

    def _run(self):
        end = time.monotonic() + self.secs
        while time.monotonic() < end:
            c = self.clients[self.sent % len(self.clients)]
            try:
                c.raw("PRIVMSG %s :flood line %d" % (CHANNEL, self.sent))
            except OSError:
                pass
            self.sent += 1
            time.sleep(1.0 / self.rate)

    def join(self):
        self.thread.join()


FLOODERS = 12      # hybrid reads each about 1 line a second once its burst is spent
FLOOD_SECS = 8     # how long the channel is kept saturated after the round's last order


def s_throttled_resend(env):
    """hybrid drops the bot's commentary while the channel is flooded; the
    bot sends it again."""
    since = env.log_size()
    w = WClient(env, "throtwatch", [CHANNEL])
    wstart = len(w.lines)
    a, b = players(env, [("throta", "Duran", "str=13 spd=13 agl=12 tgh=11 hgt=11"),
                         ("throtb", "Leonard", "str=11 spd=14 agl=13 tgh=11 hgt=11")])
    a.index, b.index = 0, 3
    floods = [WClient(env, "flooder%d" % i, [CHANNEL]) for i in range(1, FLOODERS + 1)]
    bout_id = start_bout(env, a, b, w, Gate(env, w))
    flooded = 0
    rnd = 1
    while True:
        row = env.bout(bout_id)
        if row["state"] == "over":
            break
        check(rnd <= 3, "bout %d still %s after round 3" % (bout_id, row["state"]))
        if rnd > 1:
            for c in (a, b):
                wait_private(c, r"^Bout #%d, round %d of 3: " % (bout_id, rnd), timeout=90)
        tell(a, default_orders(a, rnd), r"^round %d orders stored for Duran: " % rnd)
        # b's order goes in the middle of the flood: any wait is taken now.
        b.pace()
        env.inbox.wait()
        flood = Flood(floods, 1.3 * FLOODERS, FLOOD_SECS + 1)
        time.sleep(1)
        b.raw("PRIVMSG %s :%s" % (e2e.BOT_NICK, default_orders(b, rnd)))
        flood.join()
        flooded += 1
        deadline = time.monotonic() + 30
        while env.bout(bout_id)["round"] < rnd:
            check(time.monotonic() < deadline, "round %d not fought 30 s after both orders" % rnd)
            time.sleep(0.2)
        rnd += 1
    notices = sum(1 for f in floods for m in list(f.lines)
                  if m.cmd == "NOTICE" and "throttled due to flooding" in m.text)
    check(notices, "the flood never made hybrid throttle the channel")
    counts = await_commentary(env, w, wstart, [bout_id], timeout=90)
    log = env.log_text(since)
    check(re.search(r"(?i)throttl", log), "the bot's log never mentions being throttled (the "
          "flooders were throttled %d times)" % notices, tail(env.bot_log, 20))
    for c in [a, b, w] + floods:
        c.quit()
    return ["bout #%d: %d rounds fought in a flooded channel (the flooders were throttled %d "
            "times); all %d commentary lines arrived" % (bout_id, flooded, notices,
                                                          counts[bout_id])] + \
        ["log: " + x for x in re.findall(r"^.*throttl.*$", log, re.M | re.I)[:4]]


def s_flood_kill(env):
    """The bot told it is exempt, at 20 lines at once and 5 a second: hybrid
    kills it; it comes back slower, and every bout ends with all its
    commentary said."""
    since = env.log_size()
    w = WClient(env, "killwatch", [CHANNEL])
    wstart = len(w.lines)
    check(re.search(r"(?i)exempt", env.log_text()), "the bot's log does not say it runs exempt",
          tail(env.bot_log, 10))
    boss = WClient(env, ADMIN, [CHANNEL])
    env.add_admin(ADMIN, "boss-wire-pw-2")
    tell(boss, "identify boss-wire-pw-2", r"^you are identified as %s " % ADMIN)
    cs = players(env, [("killa", "Hagler", "str=14 spd=11 agl=11 tgh=13 hgt=11"),
                       ("killb", "Hearns", "str=13 spd=13 agl=12 tgh=10 hgt=12"),
                       ("killc", "Benitez", "str=11 spd=14 agl=13 tgh=11 hgt=11"),
                       ("killd", "Arguello", "str=13 spd=12 agl=12 tgh=11 hgt=12")])
    spec = WClient(env, "killspec", [CHANNEL])
    for i, c in enumerate(cs):
        c.index = i
    league = league_bouts(env, boss, cs[0], cs[1])
    gate = Gate(env, w)
    bouts = [start_bout(env, cs[0], cs[1], w, gate), start_bout(env, cs[2], cs[3], w, gate)]
    # Long answers and both bouts' traffic at once.
    kstart = len(w.lines)
    for b in league:
        spec.cmd("report %d" % b)
    spec.cmd("help")
    ref = Referee(env, cs, default_orders)
    ref.step()
    quit_msg = w.wait(lambda m: m.cmd == "QUIT" and m.nick.lower() == e2e.BOT_NICK,
                      "the bot's QUIT (killed by hybrid)", start=kstart, timeout=60, fail=False)
    killed_at = time.monotonic()
    check(quit_msg is not None, "hybrid never killed the bot at 20 lines at once, 5 a second",
          tail(env.bot_log, 15))
    # Back: it joins again (its backoff starts at 10 s).
    w.wait(lambda m: m.cmd == "JOIN" and m.nick.lower() == e2e.BOT_NICK,
           "the bot joining again after it was killed", start=kstart, timeout=60)
    back = time.monotonic() - killed_at
    ref.play(bouts, timeout=240)
    counts = await_commentary(env, w, wstart, bouts, timeout=150)
    ref.finish()
    log = env.log_text(since)
    check(re.search(KILLED_RX, log), "the bot's log does not say it was killed for flooding",
          tail(env.bot_log, 25))
    check(re.search(SLOWED_RX, log), "the bot's log does not say it slowed down",
          tail(env.bot_log, 25))
    for c in cs + [spec, boss, w]:
        c.quit()
    return ["hybrid: %r; the bot back in %s %.0f s later" % (quit_msg.text, CHANNEL, back),
            "bouts %s over, %s commentary lines all said; players identified again %d times" %
            (", ".join("#%d" % b for b in bouts), "+".join(str(counts[b]) for b in bouts),
             ref.identified)] + \
        ["log: " + m.group(0) for m in re.finditer(r"(?im)^.*(flood|lines/s).*$", log)][:4]


def s_ctcp_trailing(env):
    """CTCP with text after its closing \\x01: no "unknown command", no echo."""
    c = WClient(env, "ctcper", [CHANNEL])
    start = len(c.lines)
    c.to_bot("\x01VERSION\x01 hello")
    c.to_bot("\x01PING 123\x01xyz")
    time.sleep(4)  # anything the bot answers comes within its pacing
    got = [m for m in c.lines[start:] if c.from_bot(m)]
    bad = []
    for m in got:
        t = m.text
        if "unknown command" in t:
            bad.append("an \"unknown command\" reply: %r" % m)
        elif "hello" in t or "xyz" in t:
            bad.append("an echo of the trailing text: %r" % m)
        elif "\x01" in t and not (m.cmd == "NOTICE" and
                                  re.match(r"^\x01(VERSION Ringside \S+|PING 123)\x01$", t)):
            bad.append("a CTCP that is not a proper reply: %r" % m)
    check(not bad, "; ".join(bad), "\n".join(repr(m) for m in got))
    # Still answering, and nothing more came.
    c.ask("version", r"^Ringside \d", chan=CHANNEL, strict=False)
    c.quit()
    return ["the bot answered: %s" % (", ".join(repr(m.text) for m in got) or "nothing")]


CTCP_FLOODERS = 4
CTCP_FLOOD_SECONDS = 20.0
CTCP_ASK_EVERY = 3.0


def s_ctcp_flood(env):
    """4 nicks send CTCP VERSION and PING to the bot in private as fast as
    the server reads them (three, then a PING of their own, the next three
    once it is answered) for 20 s, while a bystander says !version in the
    channel every 3 s: each of his questions is answered, in order, none
    lost, and the bot stays up. The longest wait is measured, not limited
    (the machine is shared): it is in the report."""
    by = WClient(env, "ctcpby", [CHANNEL])
    answer(by, send(by, "version", CHANNEL), "version", r"^Ringside \d", CHANNEL)
    flooders = [Client(env, "ctcpfl%d" % i, [CHANNEL]) for i in range(1, CTCP_FLOODERS + 1)]
    t0 = time.monotonic() + 0.5
    t_stop = t0 + CTCP_FLOOD_SECONDS
    sent, errors = {}, []

    def flood(c):
        n = k = 0
        try:
            while time.monotonic() < t0:
                time.sleep(0.01)
            while time.monotonic() < t_stop and not c.closed:
                for ctcp in ("VERSION", "PING %d" % n, "VERSION"):
                    c.raw("PRIVMSG %s :\x01%s\x01" % (e2e.BOT_NICK, ctcp))
                    n += 1
                k += 1
                tok = "fl%d" % k
                pos = len(c.lines)
                c.raw("PING :" + tok)
                c.wait(lambda m: m.cmd == "PONG" and m.text == tok, "PONG %s" % tok,
                       timeout=60, start=pos)
            sent[c.nick] = n
        except Exception as e:  # reported below
            errors.append("%s: %s" % (c.nick, e))
    ts = [e2e.threading.Thread(target=flood, args=(c,), daemon=True) for c in flooders]
    for t in ts:
        t.start()
    asks, start = [], len(by.lines)
    t = t0 + 0.5
    while t < t_stop:
        time.sleep(max(0.0, t - time.monotonic()))
        asks.append(time.monotonic())
        by.raw("PRIVMSG %s :!version" % CHANNEL)
        t += CTCP_ASK_EVERY
    for th in ts:
        th.join(90)
    check(not errors, "a flooder failed", "\n".join(errors))

    def replies():
        with by.cond:
            got = [m for m in by.lines[start:] if by.from_bot(m) and
                   m.target.lower() == CHANNEL and m.text.startswith("ctcpby: ")]
        return got if len(got) >= len(asks) else None
    deadline = time.monotonic() + TIMEOUT
    got = replies()
    while got is None and time.monotonic() < deadline:
        time.sleep(0.2)
        got = replies()
    check(got is not None, "the bystander's %d questions were not all answered" % len(asks),
          by.recent())
    check(all(re.match(r"^ctcpby: Ringside \d", m.text) for m in got),
          "the bystander got something else than his !version",
          "\n".join(repr(m.text) for m in got))
    delays = [m.t - a for m, a in zip(got, asks)]
    check(all(d >= 0 for d in delays), "a reply before its question")
    check(env.bot_alive(), "the bot is not running any more", tail(env.bot_log, 20))
    answered = {c.nick: sum(1 for m in c.lines if c.from_bot(m)) for c in flooders}
    return ["CTCP flood on %s: %s CTCPs sent by %d nicks in %.0f s, %s answers back; the "
            "bystander's replies after %s s (max %.1f s)" %
            (env.server, "/".join(str(sent.get(c.nick, 0)) for c in flooders), CTCP_FLOODERS,
             CTCP_FLOOD_SECONDS, "/".join(str(answered[c.nick]) for c in flooders),
             " ".join("%.1f" % d for d in delays), max(delays))]


def s_colour_modes(env):
    """A channel operator sets +c, which hybrid enforces by refusing any
    message with formatting: the bot learns it from MODE while in the
    channel, and from 324 when it joins again after a restart (its bout's
    round said again before the modes came back), and everything it says
    there is plain and arrives; -c brings the bold and the colour back."""
    k = env.keeper
    since = env.log_size()
    k.raw("MODE %s +c" % CHANNEL)
    env.wait_log(r"%s forbids colours" % re.escape(CHANNEL), since)
    w = WClient(env, "colourwatch", [CHANNEL])
    wstart = len(w.lines)
    a, b = players(env, [("plaina", "Ali", FIVE[0][1]), ("plainb", "Frazier", FIVE[1][1])])
    a.index, b.index = 0, 1
    gate = Gate(env, w)
    bout = start_bout(env, a, b, w, gate, rounds=3)
    pa, pb = len(a.lines), len(b.lines)
    a.cmd(default_orders(a, 1))
    b.cmd(default_orders(b, 1))
    for c, s in ((a, pa), (b, pb)):
        wait_private(c, r"^Bout #%d, round 2 of 3: your orders for %s " % (bout, c.fighter), s,
                     timeout=TIMEOUT + 20)
    # Killed before the server confirmed round 1 or not: restarted, the bot
    # says again what was not confirmed, asks again, and knows +c from 324.
    for c in (a, b):
        c.seen = len(c.lines)
    os.kill(env.bot.pid, signal.SIGKILL)
    env.bot.wait()
    since = env.log_size()
    env.start_bot()
    env.wait_log(r"%s forbids colours" % re.escape(CHANNEL), since)
    ref = Referee(env, [a, b], default_orders)
    ref.play([bout], timeout=120)
    counts = await_commentary(env, w, wstart, [bout], timeout=60)
    said = [m for _, m in chan_from(w, wstart)]
    formatted = [m for m in said if FORMATTING.search(m.raw_text)]
    check(not formatted, "formatting in a +c channel: %r" % formatted[:3])
    refused = re.findall(r"(?im)^.*refused a line.*$", env.log_text(since))
    check(not refused, "the server refused lines: %r" % refused[:3])
    # -c: formatting again, from the next line on.
    since = env.log_size()
    k.raw("MODE %s -c" % CHANNEL)
    env.wait_log(r"%s allows colours" % re.escape(CHANNEL), since)
    start = len(w.lines)
    gate.wait(then=1)
    a.cmd("challenge %s rounds=3" % b.nick, CHANNEL)
    # The tale of the tape goes with the challenge.
    tape = wait_chan(w, r"^%s challenges %s to bout #\d+, boxing, 3 rounds: %s " %
                     (a.nick, b.nick, a.fighter), start)
    check("\x02%s\x02" % a.fighter in tape.raw_text, "no bold in the tape after -c: %r" % tape)
    gate.wait()
    b.cmd("accept", CHANNEL)
    wait_chan(w, r"^Bout #\d+ is on\. Round 1 of 3: ", start)
    gate.wait()
    a.cmd("forfeit yes", CHANNEL)
    result = wait_chan(w, r"\bwins by forfeit in round 1\b", start)
    check("\x03" in result.raw_text, "no colour in the result after -c: %r" % result)
    for c in (a, b, w):
        c.quit()
    return ["+c: %d lines in the channel, all plain, bout #%d's %d commentary lines all said "
            "across a kill -9" % (len(said), bout, counts[bout]),
            "-c: %r" % tape.raw_text[:60]]


IDLE_WATCH = 75.0  # s after the bot's last message: its keepalive (60 s) falls in it
PING_AFTER = 60  # s of the server's silence before the bot's keepalive (bot/irc.c)
MARK_SOON = 5  # s after its lines a marker that does not wait for the keepalive goes at most


def stamp(line):
    """The seconds (UTC) of a bot log line's stamp, 2026-11-27T03:09:27Z."""
    return calendar.timegm(time.strptime(line.split(" ", 1)[0], "%Y-%m-%dT%H:%M:%SZ"))


def s_idle_pings(env):
    """After a bout, an idle bot sends no more PINGs than before it: the
    delivery marker of its last lines is its keepalive."""
    w = WClient(env, "idlewatch", [CHANNEL])
    wstart = len(w.lines)
    cs = players(env, [("idle1a", "Ali", FIVE[0][1]), ("idle1b", "Frazier", FIVE[1][1])])
    for i, c in enumerate(cs):
        c.index = i
    bout = start_bout(env, cs[0], cs[1], w, Gate(env, w))
    ref = Referee(env, cs, default_orders)
    ref.play([bout], timeout=120)
    await_commentary(env, w, wstart, [bout], timeout=60)
    # Everybody stays, silent: the server says nothing to the bot (but the
    # answers to its PINGs) until IDLE_WATCH s after its last message.
    sent = re.compile(r" >> (PRIVMSG|NOTICE)\b")
    last, seen, t_last = None, -1, time.monotonic()
    while time.monotonic() - t_last < IDLE_WATCH:
        with open(env.bot_log, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        msgs = [i for i, line in enumerate(lines) if sent.search(line)]
        if len(msgs) != seen:
            seen, last, t_last = len(msgs), msgs[-1] if msgs else 0, time.monotonic()
        time.sleep(1)
    after = lines[last + 1:]
    pings = [line for line in after if " >> PING" in line]
    answered = [line for line in after if re.search(r"outq: marker \d+ answered", line)]
    # One PING: the keepalive carrying the marker of the last lines. Or two,
    # when the last lines' marker could not wait for the keepalive (it went
    # with them, OUTQ_MARK_EVERY lines after the one before, or a few
    # seconds after replies): then the keepalive comes a minute after its
    # answer, no sooner.
    at = [stamp(x) for x in [lines[last]] + pings]
    early = len(pings) == 2 and at[1] - at[0] <= MARK_SOON and at[2] - at[1] >= PING_AFTER - 2
    check((len(pings) == 1 or early) and answered,
          "%d PINGs (%d delivery markers answered) in the %.0f s after the bot's last message: "
          "want 1, its keepalive carrying the marker (or the marker at once and the keepalive "
          "a minute later)" % (len(pings), len(answered), IDLE_WATCH),
          "\n".join(after[-30:]))
    ref.finish()
    for c in cs + [w]:
        c.quit()
    return ["bout #%d over; in the %.0f s after the last message: %s, then %s" %
            (bout, IDLE_WATCH, pings[0].split(" debug ")[0], answered[0].split(" debug ")[-1])]


def bot_silent(env, quiet):
    """Waits until the bot's log shows no line sent for `quiet` seconds."""
    deadline = time.monotonic() + WAIT_SILENT
    seen, since = -1, time.monotonic()
    while time.monotonic() - since < quiet:
        check(time.monotonic() < deadline, "the bot never fell silent", tail(env.bot_log, 20))
        with open(env.bot_log, encoding="utf-8", errors="replace") as f:
            n = sum(1 for line in f if " >> " in line)
        if n != seen:
            seen, since = n, time.monotonic()
        time.sleep(0.2)


WAIT_SILENT = 120.0


def s_quit_after_bout(env):
    """SIGTERM right after a bout: its last lines, whose marker waited for
    the keepalive, are confirmed by a marker sent before the QUIT and marked
    said, so a restart says nothing of the bout again."""
    w = WClient(env, "quitwatch", [CHANNEL])
    wstart = len(w.lines)
    cs = players(env, [("quit1a", "Ali", FIVE[0][1]), ("quit1b", "Frazier", FIVE[1][1])])
    for i, c in enumerate(cs):
        c.index = i
    bout = start_bout(env, cs[0], cs[1], w, Gate(env, w))
    ref = Referee(env, cs, default_orders)
    ref.play([bout], timeout=120)
    await_commentary(env, w, wstart, [bout], timeout=60)
    ref.finish()
    # Everything said has gone out (the bot sent nothing for 3 s: what it
    # queues goes at 1 line a second), then at once the SIGTERM.
    bot_silent(env, 3.0)
    env.stop_bot()
    row = env.bout(bout)
    check(row["state"] == "over" and row["said"] == row["round"],
          "bout #%d after SIGTERM: %s, %d rounds, said up to round %d (the rest would be said "
          "again)" % (bout, row["state"], row["round"], row["said"]), tail(env.bot_log, 30))
    env.start_bot()  # for the checks after the scenario
    for c in cs + [w]:
        c.quit()
    return ["bout #%d: %d rounds, all marked said at the SIGTERM (a restart says none of them "
            "again)" % (bout, row["round"])]


SCENARIOS = [
    ("five_bouts", s_five_bouts, ("ngircd", "hybrid"), {}),
    ("report_during_bout", s_report_during_bout, ("ngircd", "hybrid"), {}),
    ("throttled_resend", s_throttled_resend, ("hybrid",), {}),
    ("flood_kill", s_flood_kill, ("hybrid",), {"flood": FLOOD_EXEMPT, "order_timeout": 30}),
    ("ctcp_trailing", s_ctcp_trailing, ("ngircd", "hybrid"), {}),
    ("colour_modes", s_colour_modes, ("hybrid",), {}),
    ("ctcp_flood", s_ctcp_flood, ("ngircd", "hybrid"), {}),
    ("idle_pings", s_idle_pings, ("ngircd",), {}),
    ("quit_after_bout", s_quit_after_bout, ("ngircd",), {}),
]


# ------------------------------------------------------------------ running


def jobs():
    """(name, server) of every scenario E2E_ONLY and E2E_SERVER pick."""
    only = [w.strip() for w in os.environ.get("E2E_ONLY", "").split(",") if w.strip()]
    server = os.environ.get("E2E_SERVER", "").strip()
    out = []
    for i, (name, fn, servers, _) in enumerate(SCENARIOS, 1):
        if only and not (str(i) in only or name in only or fn.__name__ in only):
            continue
        for s in servers:
            if not server or s == server:
                out.append((name, s))
    return out


def run_one(bot, sim, name, server):
    """In a child: one scenario on one server, in its own environment."""
    _, fn, _, opts = next(s for s in SCENARIOS if s[0] == name)
    env = WireEnv(bot, sim, server, **opts)
    return e2e.run_suite(env, [("%s (%s)" % (name, server), fn)],
                         "e2e_wire: %s on %s" % (name, server))


def run_all(argv, todo):
    """Runs every job as a child process, E2E_JOBS at once; prints their
    reports in order, then the total."""
    n_jobs = max(1, int(os.environ.get("E2E_JOBS", "4")))
    t0 = time.monotonic()
    outdir = tempfile.mkdtemp(prefix="ringside-wire-")
    pending = list(todo)
    running = {}  # index -> (process, output file, start)
    done = {}     # index -> (exit status, output path, seconds)
    passed = failed = 0
    next_print = 0
    print("# e2e_wire: %s and %s; %d jobs, %d at once" % (argv[1], argv[2], len(todo), n_jobs),
          flush=True)
    try:
        while next_print < len(todo):
            while pending and len(running) < n_jobs:
                i = len(todo) - len(pending)
                name, server = pending.pop(0)
                path = os.path.join(outdir, "%d-%s-%s.txt" % (i, name, server))
                out = open(path, "wb")
                env = dict(os.environ, E2E_WIRE_JOB="%s@%s" % (name, server))
                p = subprocess.Popen([sys.executable, os.path.abspath(__file__)] + argv[1:3],
                                     stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=subprocess.STDOUT, env=env)
                out.close()
                running[i] = (p, path, time.monotonic())
            for i, (p, path, t) in list(running.items()):
                if p.poll() is not None:
                    done[i] = (p.returncode, path, time.monotonic() - t)
                    del running[i]
            while next_print in done:
                rc, path, secs = done.pop(next_print)
                name, server = todo[next_print]
                with open(path, "rb") as f:
                    lines = f.read().decode("utf-8", "replace").splitlines()
                results = 0
                for line in lines:
                    if re.match(r"^\d+ passed, \d+ failed$", line):
                        continue
                    if line.startswith("FAIL - start:"):
                        line = "FAIL - %s (%s): could not start:%s" % (
                            name, server, line[len("FAIL - start:"):])
                    if line.startswith("ok - "):
                        passed += 1
                        results += 1
                    elif line.startswith("FAIL - "):
                        failed += 1
                        results += 1
                    print(line)
                if not results:
                    failed += 1
                    print("FAIL - %s (%s): the test process exited %d without a result" %
                          (name, server, rc))
                print("# %s (%s): %.1f s" % (name, server, secs), flush=True)
                next_print += 1
            time.sleep(0.2)
    except KeyboardInterrupt:
        print("# interrupted", flush=True)
        failed += 1
    finally:
        for p, _, _ in running.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p, _, _ in running.values():
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(outdir, ignore_errors=True)
    print("# total %.1f s" % (time.monotonic() - t0))
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_wire.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_wire: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    job = os.environ.get("E2E_WIRE_JOB")
    if job:
        name, _, server = job.partition("@")
        return run_one(argv[1], argv[2], name, server)
    todo = jobs()
    if not todo:
        print("e2e_wire: E2E_ONLY/E2E_SERVER pick nothing", file=sys.stderr)
        return 2
    if any(s == "ngircd" for _, s in todo) and not shutil.which("ngircd") and \
            not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_wire: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    if any(s == "hybrid" for _, s in todo):
        try:
            e2e.hybrid_binary()  # prepared once, before the children start
        except Failure as e:
            print("e2e_wire: %s\n%s" % (e, e.detail), file=sys.stderr)
            return 2
    return run_all(argv, todo)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
