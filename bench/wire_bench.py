#!/usr/bin/env python3
"""wire_bench.py - what players feel on the wire: the real bot, a real ngircd
with its default flood settings, raw IRC clients.

    python3 bench/wire_bench.py BOT SIM     (from the repository root;
                                             BOT build/ringside, the optimised
                                             bot; SIM build/ringside-sim)

Prints one figure a line, `name value unit`, as the other bench programs do;
nothing else goes to stdout (diagnostics go to stderr):

  wire.five_bouts_commentary_lag_median_s  s
      10 players, 5 boxing bouts at once in one channel (each challenge
      accepted as soon as the channel hears of it), every player answering
      each private prompt ("Bout #N, round R of M: your orders ...") the
      moment it arrives, and round 1's as soon as the channel hears the
      bout's start naming him ("Bout #N is on. Round 1 of M: wp0 (Rocky)
      and wp1 (Apollo), your orders ..."). Per round of each bout: the arrival in the channel
      of the round's last commentary line (the result's, after the last
      round) minus the time the later of the round's two orders was sent;
      the median over all rounds.
  wire.five_bouts_prompt_before_said  rounds
      from the same run: rounds r of a bout where one of its players was
      asked for round r+1 before he had received round r's last line in the
      channel (both on his own connection, so in the order the bot sent
      them).
  wire.prompt_after_round_p50_s  s
  wire.prompt_after_round_max_s  s
      from the same run: for each player's prompt for round r+1 of a bout,
      its arrival minus the arrival of round r's last line in the channel,
      both on his own connection;
      the median and the longest over all of them (a prompt that came first
      counts as 0 here, and in wire.five_bouts_prompt_before_said).
  wire.five_bouts_round_cycle_median_s  s
      from the same run: for each bout and round r, the arrival of the later
      of its two prompts for round r+1 minus that of the later of its two
      for round r; the median over all of them.
  wire.lines_per_bout_round  lines
      from the same run: the lines counted below over the rounds fought.
  wire.bouts_per_hour_at_1_line_s  bouts/h
      from the same run: 3600 / (lines the bot sent / bouts): the lines are
      every line the bot wrote to the server from the first challenge until
      it fell silent for 2 s, whatever its command: PRIVMSGs and NOTICEs
      (a channel message once, a private one per recipient) and its
      delivery markers (PING :rsN), which ngircd counts like any line and no
      client sees. A relay between the bot and ngircd (Tap) notes them. The
      accounts and fighters made before the first challenge are not
      counted (the relay falls silent before it), the bouts are the five;
      stderr says how many lines of each command, and what each line on
      the wire was (wire_kinds: challenges, starts, rounds, the rest of a
      message cut in two, prompts, private ends, delivery markers). A
      bout of R rounds costs 3R lines at least (the challenge, the start,
      which asks for round 1, R rounds, and two prompts for each round
      after the first), so what is above 3 a round is ends said privately
      (a player not in the channel, or training points the channel's last
      message had no room for), messages cut in two, and markers. A
      player's orders confirm delivery as a marker does (bot/outq.c:
      outq_answered), and the marker after the run's last lines (which
      nothing else confirms, and which no clock of the game waits for) is
      idle: it is the keepalive PING the bot sends after 60 s of the
      server's silence anyway (marker_idle, outq_keepalive), so it comes
      after the count's 2 s of silence and costs no line an idle bot would
      not send. So with players who answer at once the five bouts of R
      rounds cost 15R lines, 3.00 a round: the floor (until session 37 the
      run's last marker went at once, and was counted: 15R + 1, 3.05 a
      round at R = 4, 3.07 at R = 3; the count itself is unchanged).
      Bout length: boxing, 4 rounds (3 with WIRE_BENCH_QUICK=1), gentle
      orders so that the bouts go the distance (a stoppage would end one
      sooner: the rounds fought are on stderr).
  wire.bystander_reply_during_flood_max_s  s
      4 hostile nicks flood the bot in private (help, fighter x, standings,
      over and over) as fast as ngircd lets them for 28 s (under the 30 s
      the bot then ignores them: one wave of answers each), while a
      bystander in the channel says !version every 3 s; the longest wait for
      the reply to one of those.
  wire.ack_during_report_max_s  s
      a finished 12-round boxing bout exists (made by a league turn that the
      admin runs: its two fighters' plans are defensive, so it goes the
      distance, and the run needs no 12 rounds of live play at 1 line/s); a
      third user asks `report <id>` in private (over 100 lines); while it
      streams, the two players of a live bout send orders in turn, each as
      soon as the one before was acknowledged (6 orders; 10 without
      WIRE_BENCH_QUICK); the longest wait from an order sent to its
      acknowledgement. The order that completes a round is answered first by
      the round itself in the channel, where its player is (its private
      acknowledgement rides on the next prompt, after the round): for it,
      the earlier of the two counts. Only orders acknowledged before the
      report's last line arrived count, and at least 4 must.

The bot runs with its default pacing (no [flood] section: burst 4, 1 line a
second) and its default [bout] settings; ngircd with tests/e2e/e2e.py's
configuration, which leaves its flood limits at their defaults. Each scenario
has its own ngircd and bot (e2e.py's Env, in a temporary directory), and the
three run at once: nothing in them is CPU-bound (every figure is set by the
bot's 1 line/s), and the run takes as long as the longest, the five bouts
(about 2.5 minutes with today's bot and WIRE_BENCH_QUICK=1, 3 without).

Found without depending on the bot's wording:
  - a round's commentary: after the bouts, `SIM --commentary DB BOUT ROUND`
    (on a copy of the database) gives the round's lines word for word; they
    are looked up, in order, in the bot's messages to the channel put end to
    end and normalised (IRC formatting and all whitespace removed), from the
    later of the round's orders and from the bout's previous round on. So a
    round packed into one message (with a bout tag or not), or a message cut
    over several IRC lines, at a space or not, is found all the same; a
    line's time is the arrival of the message holding its end.
  - the report, likewise: its lines from `SIM --report DB BOUT` in the
    reader's private messages.
  - an acknowledgement: the bot's first private message to the player after
    his order that names the order's round and repeats the order (alone, or
    riding on the next prompt); for the orders of a bout's last round, the
    round's commentary in the channel (the bot says the end there to a
    player who is in the channel, and nothing privately).
  - bouts, challenges, rounds fought, the end of a bout: the database.
What is matched by its words: the prompt and the start's call (above), the bystander's reply
("bystander: Ringside ..."), and the replies to register, create and plan.

Exit status 0 when every figure was measured; 1 when a scenario did not
complete (its figures are not printed; what went wrong is on stderr, and the
temporary directories are kept); 2 for a bad command line. The servers and
bots are always stopped.

Environment:
  WIRE_BENCH_QUICK=1       3 rounds a bout instead of 4, 6 orders instead of
                           10 in the report scenario (make bench-check)
  WIRE_BENCH_ROUNDS=N      N rounds a bout (3 to 15)
  WIRE_BENCH_ONLY=a,b      only these scenarios: five_bouts, flood, report
  WIRE_BENCH_SERIAL=1      the scenarios one after the other
  WIRE_BENCH_KEEP=1        keep the temporary directories
  WIRE_BENCH_VERBOSE=1     every round's lag on stderr

Python 3 standard library only.
"""

import bisect
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
import e2e  # noqa: E402
from e2e import CHANNEL, Client, Failure, check  # noqa: E402

# e2e.py prints what clients receive on stdout with E2E_VERBOSE=1: stdout
# is for the figures here.
e2e.VERBOSE = False

QUICK = os.environ.get("WIRE_BENCH_QUICK") == "1"
SERIAL = os.environ.get("WIRE_BENCH_SERIAL") == "1"
ONLY = [w.strip() for w in os.environ.get("WIRE_BENCH_ONLY", "").split(",") if w.strip()]
KEEP = os.environ.get("WIRE_BENCH_KEEP") == "1"
VERBOSE = os.environ.get("WIRE_BENCH_VERBOSE") == "1"

BOUTS = 5
WIRE_ROUNDS = os.environ.get("WIRE_BENCH_ROUNDS") or (3 if QUICK else 4)
# Under the 30 s the bot ignores a flooder, counted from his 6th command:
# one wave of answers per flooder, never two on a slow day.
FLOOD_SECONDS = 28.0
FLOOD_NICKS = 4
BYSTANDER_EVERY = 3.0
REPORT_ACKS = 6 if QUICK else 10
REPORT_LINES_MIN = 100
# Waits: long enough for a queue of a few hundred lines at 1 line/s.
WAIT = 300.0

# IRC formatting: bold, colour (with its numbers), reset, italics,
# underline, reverse, strike, monospace.
FORMATTING = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")
PROMPT = re.compile(r"Bout #(\d+), round (\d+) of (\d+)\b.*\byour orders")
# The start of a challenged bout, in the channel: "Bout #3 is on. Round 1
# of 4: wp4 (Tyson) and wp5 (Holmes), your orders ...".
CALL = re.compile(r"Bout #(\d+) is on\. Round (\d+) of (\d+): (.*?), your orders")

# Sheets (60 points each) and gentle orders: the bouts go the distance.
SHEETS = [
    ("Rocky", "str=14 spd=12 agl=11 tgh=12 hgt=11"),
    ("Apollo", "str=13 spd=14 agl=12 tgh=11 hgt=10"),
    ("Duran", "str=13 spd=13 agl=12 tgh=11 hgt=11"),
    ("Leonard", "str=11 spd=14 agl=13 tgh=11 hgt=11"),
    ("Tyson", "str=15 spd=13 agl=10 tgh=12 hgt=10"),
    ("Holmes", "str=12 spd=13 agl=12 tgh=12 hgt=11"),
    ("Liston", "str=14 spd=12 agl=11 tgh=12 hgt=11"),
    ("Frazier", "str=13 spd=14 agl=12 tgh=11 hgt=10"),
    ("Hagler", "str=14 spd=11 agl=11 tgh=13 hgt=11"),
    ("Hearns", "str=12 spd=13 agl=12 tgh=11 hgt=12"),
]
ORDERS_A = ["2/8/10", "3/7/10", "2/7/11", "3/8/9", "2/8/10"]
ORDERS_B = ["3/3/14 (clinch)", "2/4/14 (clinch)", "3/4/13 (clinch)", "4/3/13 (clinch)",
            "3/3/14 (clinch)"]


def log(*args):
    print("wire_bench:", *args, file=sys.stderr, flush=True)


def plain(text):
    """Text without IRC formatting."""
    return FORMATTING.sub("", text)


def squash(text):
    """Text as compared: no formatting, no whitespace at all (a message cut
    at a space loses the space; one cut inside a word never had one)."""
    return re.sub(r"\s+", "", plain(text))


def prompt_of(c, m):
    """(bout, round) when m asks c for his orders: a private prompt, or the
    channel's call at a bout's start naming him; else None."""
    if not from_bot(m):
        return None
    t = plain(m.text)
    if m.target.lower() == c.nick.lower():
        p = PROMPT.search(t)
    elif m.target.lower() == CHANNEL.lower():
        p = CALL.search(t)
        if p and not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(c.nick), p.group(4)):
            p = None
    else:
        p = None
    return (int(p.group(1)), int(p.group(2))) if p else None


def ack_of(c, order, rnd):
    """A predicate: m is the bot's acknowledgement to c of his order for
    round rnd, whatever its wording (alone, or riding on the next prompt):
    a private message naming that round and repeating the order."""
    want = squash(order)
    rx = re.compile(r"\bround %d\b" % rnd, re.I)

    def pred(m):
        return from_bot(m) and m.target.lower() == c.nick.lower() and \
            want in squash(m.text) and bool(rx.search(plain(m.text)))
    return pred


def from_bot(m):
    return m.cmd in ("PRIVMSG", "NOTICE") and m.nick.lower() == e2e.BOT_NICK


def lines_of(c, start=0):
    with c.cond:
        return list(c.lines[start:])


def channel_msgs(c, since=0.0):
    """The bot's messages in the channel, as `c` received them."""
    return [m for m in lines_of(c) if from_bot(m) and m.target.lower() == CHANNEL.lower() and
            m.t >= since]


def private_msgs(c, since=0.0):
    return [m for m in lines_of(c) if from_bot(m) and m.target.lower() == c.nick.lower() and
            m.t >= since]


class Tap:
    """A loopback relay between the bot and the server that notes every line
    the bot writes (its arrival time and command): what the bot puts on the
    wire, delivery markers (PING) included, which no client sees."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.lock = threading.Lock()
        self.sent = []  # (time.monotonic(), COMMAND, line) for each line of the bot
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.port = e2e.free_port()
        self.sock.bind(("127.0.0.1", self.port))
        self.sock.listen(4)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                down, _ = self.sock.accept()
                up = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
                up.settimeout(None)
            except OSError:
                return
            threading.Thread(target=self._pump, args=(down, up, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, down, False), daemon=True).start()

    def _pump(self, src, dst, from_bot):
        buf = b""
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if from_bot:
                    t = time.monotonic()
                    buf += data
                    *lines, buf = buf.split(b"\n")
                    with self.lock:
                        self.sent.extend((t, command_of(x), x) for x in lines)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def lines(self, t0, t1):
        """The bot's lines written from t0 to t1: (time, COMMAND, raw)."""
        with self.lock:
            return [x for x in self.sent if t0 <= x[0] <= t1]

    def close(self):
        self.sock.close()


def command_of(raw):
    """The command of an IRC line as bytes: past its tags and prefix."""
    words = raw.decode("utf-8", "replace").strip().split(" ")
    while words and words[0][:1] in ("@", ":"):
        words = words[1:]
    return words[0].upper() if words else ""


class WireEnv(e2e.Env):
    """e2e's Env (ngircd as e2e.py configures it, default flood limits; the
    bot with an empty [flood]: its defaults), with the simulator on a copy of
    the database. The bot reaches the server through a Tap, which counts
    what it writes."""

    def __init__(self, bot_path, sim_path, name):
        super().__init__(bot_path, "ngircd")
        self.sim_path = os.path.abspath(sim_path)
        self.name = name
        self.flood = ""
        self.tap = None
        self.sheets = SHEETS  # the five bouts' fighters (cluster_bench.py renames them)

    def bouts_begin(self):
        """The five bouts' players are ready, their challenges next
        (cluster_bench.py starts several bots' bouts together here)."""

    def start_server(self):
        super().start_server()
        if self.tap:
            self.tap.close()
        self.tap = Tap(self.port)

    def cleanup(self):
        if self.tap:
            self.tap.close()
        super().cleanup()

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra)
        with open(self.bot_conf) as f:
            text = f.read()
        # The bot goes through the tap; the clients straight to the server.
        check(text.count("\nport = %d\n" % self.port) == 1, "no port line in the bot's "
              "configuration", text)
        text = text.replace("\nport = %d\n" % self.port, "\nport = %d\n" % self.tap.port)
        with open(self.bot_conf, "w") as f:
            f.write(text)
        flood = text[text.index("[flood]") + len("[flood]"):].split("[", 1)[0] \
            if "[flood]" in text else ""
        check(not re.search(r"^\s*\w", flood, re.M),
              "the bot's configuration sets [flood] keys: %r" % flood)

    def copy_db(self):
        copy = os.path.join(self.dir, "wire-copy.db")
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(copy + suffix):
                os.unlink(copy + suffix)
        src = self.db()
        dst = sqlite3.connect(copy)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        return copy

    def sim(self, copy, option, *args):
        argv = [self.sim_path, option, copy] + [str(a) for a in args]
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        out = p.stdout.decode("utf-8", "replace")
        check(p.returncode == 0, "%s exited %d" % (" ".join(argv), p.returncode),
              p.stderr.decode("utf-8", "replace"))
        return out

    def bout_row(self, bout_id):
        rows = self.query("SELECT state, round, rounds, kind FROM bouts WHERE id = ?", (bout_id,))
        check(rows, "no bout %d in the database" % bout_id)
        return dict(zip(("state", "round", "rounds", "kind"), rows[0]))


def start(env):
    for attempt in range(3):
        try:
            env.start_server()
            break
        except Failure:
            if attempt == 2:
                raise
            env.stop_server()
            env.port = e2e.free_port()
    env.start_bot()


def reply(c, text, regex, chan=None, timeout=WAIT):
    """A command; waits for the bot's reply to it (privately, or `nick: ` in
    the channel) matching regex, skipping prompts; returns its text."""
    start = len(c.lines)
    c.cmd(text, chan)
    rx = re.compile(regex)

    def ok(m):
        t = c.to_me(m)
        return t is not None and rx.search(plain(t))
    m = c.wait(ok, "/%s/ in reply to %r" % (regex, text), timeout=timeout, start=start)
    return plain(c.to_me(m))


def challenges(env):
    """Bouts other than league bouts in the database (any state)."""
    return env.query("SELECT COUNT(*) FROM bouts WHERE kind != 'league'")[0][0]


def quiet(clients, secs):
    """Waits until the bot has said nothing to any of `clients` for secs;
    returns the arrival of the last thing it said."""
    def last():
        return max([m.t for c in clients for m in lines_of(c) if from_bot(m)] or [0])
    wait_for(lambda: time.monotonic() - last() >= secs, "the bot to fall silent")
    return last()


def tap_quiet(env, secs):
    """Waits until the bot has written nothing to the server for secs;
    returns when it wrote its last line."""
    def last():
        with env.tap.lock:
            return env.tap.sent[-1][0] if env.tap.sent else 0.0
    wait_for(lambda: time.monotonic() - last() >= secs, "the bot to stop writing")
    return last()


def wait_for(pred, desc, timeout=WAIT, every=0.2):
    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise Failure("timed out after %.0f s waiting for %s" % (timeout, desc))
        time.sleep(every)


def account(env, c, sheet=None, plan=None):
    """Registers c's nick (the admin's account is made by the operator and
    he identifies), creates his boxer, sets his plan: the commands
    at once (the bot takes a nick's lines in order), then the replies."""
    start = len(c.lines)
    pw = e2e.secret(env, "%s-wire-%d" % (c.nick, os.getpid() % 1000))
    if c.nick == e2e.ADMIN:
        # An admin's account is made by the operator (ringside --add-admin).
        env.add_admin(c.nick, pw)
        want = [("identify " + pw, r"^you are identified as ")]
    else:
        want = [("register " + pw, r"^account \S+ registered")]
    if sheet:
        want.append(("create %s %s" % sheet, r"^%s \(boxing\) is ready" % sheet[0]))
    if plan:
        want.append(("plan set " + plan, r"plan stored"))
    for text, _ in want:
        c.cmd(text)
    for text, regex in want:
        rx = re.compile(regex)
        c.wait(lambda m: c.to_me(m) is not None and rx.search(plain(c.to_me(m))),
               "/%s/ in reply to %r" % (regex, text.split()[0]), timeout=WAIT, start=start)


# ------------------------------------------------------------------ matching


class Stream:
    """The channel as one text: the squashed messages end to end, with where
    each message ends and when it arrived."""

    def __init__(self, msgs):
        parts, self.ends, self.times = [], [], []
        pos = 0
        for m in msgs:
            s = squash(m.text)
            parts.append(s)
            pos += len(s)
            self.ends.append(pos)
            self.times.append(m.t)
        self.s = "".join(parts)

    def offset_at(self, t):
        """Where the first message arriving at or after t starts."""
        i = bisect.bisect_left(self.times, t)
        return self.ends[i - 1] if i > 0 else 0

    def find(self, lines, start):
        """Finds `lines` in order from `start`; returns (the end offset of
        the last, its arrival time) or None."""
        pos = start
        for line in lines:
            s = squash(line)
            if not s:
                continue
            k = self.s.find(s, pos)
            if k < 0:
                return None
            pos = k + len(s)
        j = bisect.bisect_left(self.ends, pos)
        return pos, self.times[j]


# ------------------------------------------------------------------ five bouts


def s_five_bouts(env):
    """Five bouts at once in one channel; returns the three figures."""
    rounds = WIRE_ROUNDS
    watch = Client(env, "wirewatch", [CHANNEL])
    players = [Client(env, "wp%d" % i, [CHANNEL]) for i in range(2 * BOUTS)]
    # Accounts and fighters: every command sent at once, then the replies.
    errors = []

    def setup(i, c):
        try:
            account(env, c, env.sheets[i])
        except Exception as e:  # reported below
            errors.append("%s: %s" % (c.nick, e))
    ts = [threading.Thread(target=setup, args=(i, c), daemon=True) for i, c in enumerate(players)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not errors, "setting up the players failed", "\n".join(errors))
    log("five bouts: 10 players registered with fighters; challenging")

    stop = threading.Event()
    sent = {}      # (bout, round, nick) -> time the order was sent
    prompted = {}  # (bout, round, nick) -> arrival of the prompt
    bout_of = {}   # nick -> bout
    lock = threading.Lock()

    def play(c, orders, pos):
        """Answers every prompt at once, until the bout is over."""
        answered = 0

        def is_prompt(m):
            p = prompt_of(c, m)
            return bool(p) and p[1] > answered
        try:
            while not stop.is_set() and answered < rounds:
                m = c.wait(is_prompt, "a prompt", timeout=1.0, start=pos, fail=False)
                if m is None:
                    continue
                bout, rnd = prompt_of(c, m)
                c.pace()
                t = time.monotonic()
                c.raw("PRIVMSG %s :%s" % (e2e.BOT_NICK, orders[(rnd - 1) % len(orders)]))
                with lock:
                    bout_of[c.nick] = bout
                    prompted[(bout, rnd, c.nick)] = m.t
                    sent[(bout, rnd, c.nick)] = t
                answered = rnd
        except Exception as e:
            errors.append("%s: %s" % (c.nick, e))

    # What the setup's replies cost is not counted: the tap falls silent
    # before the first challenge.
    tap_quiet(env, 2.0)
    env.bouts_begin()
    t_first = time.monotonic()
    pairs = [(players[2 * k], players[2 * k + 1]) for k in range(BOUTS)]
    threads = []
    for a, b in pairs:
        for c, orders in ((a, ORDERS_A), (b, ORDERS_B)):
            th = threading.Thread(target=play, args=(c, orders, len(c.lines)), daemon=True)
            th.start()
            threads.append(th)
    # The challenges; each accepted when the channel hears of it (a line
    # from the bot naming both players, whatever its words).
    for a, b in pairs:
        a.cmd("challenge %s rounds=%d" % (b.nick, rounds), CHANNEL)
    for a, b in pairs:
        rx = [re.compile(r"(?<![\w-])%s(?![\w-])" % n) for n in (a.nick, b.nick)]
        b.wait(lambda m: from_bot(m) and m.target.lower() == CHANNEL.lower() and
               m.t >= t_first and all(x.search(plain(m.text)) for x in rx),
               "the channel told of %s's challenge" % a.nick, timeout=WAIT)
        b.cmd("accept %s" % a.nick, CHANNEL)
    try:
        wait_for(lambda: len(bout_of) == 2 * BOUTS or errors, "every player asked for round 1")
        check(not errors, "a player failed", "\n".join(errors))
        bouts = sorted(set(bout_of.values()))
        check(len(bouts) == BOUTS, "%d bouts, not %d: %r" % (len(bouts), BOUTS, bout_of))
        log("five bouts: bouts %s live" % ", ".join("#%d" % b for b in bouts))

        def all_over():
            check(not errors, "a player failed", "\n".join(errors))
            return all(env.bout_row(b)["state"] == "over" for b in bouts)
        wait_for(all_over, "the five bouts over", every=0.5)
        t_over = time.monotonic()
    finally:
        stop.set()
    for th in threads:
        th.join(5)

    # What the channel heard of each round, derived from the database.
    copy = env.copy_db()
    want = {}
    for b in bouts:
        row = env.bout_row(b)
        for r in range(1, row["round"] + 1):
            text = env.sim(copy, "--commentary", b, r).rstrip("\n")
            check(text, "bout %d round %d: SIM --commentary printed nothing" % (b, r))
            want[(b, r)] = text.split("\n")
    nicks = {}
    for nick, b in bout_of.items():
        nicks.setdefault(b, []).append(nick)

    def match(c=watch):
        stream = Stream(channel_msgs(c, t_first))
        found = {}
        for b in bouts:
            pos = 0
            r = 1
            while (b, r) in want:
                later = max(sent[(b, r, n)] for n in nicks[b] if (b, r, n) in sent)
                hit = stream.find(want[(b, r)], max(pos, stream.offset_at(later)))
                if hit is None:
                    return None
                pos, found[(b, r)] = hit
                r += 1
        return found
    for b, r in want:
        check(all((b, r, n) in sent for n in nicks[b]),
              "bout %d round %d: not both orders sent by the players (%s)" % (b, r, nicks[b]))
    found = wait_for(match, "every round's commentary in the channel", every=0.5)
    # Each player's prompts are compared with the rounds as his own
    # connection received them (in the order the bot sent them there: a
    # round's last line and the next prompt go within milliseconds, closer
    # than two connections' arrival times can tell apart).
    heard = {c.nick: wait_for(lambda c=c: match(c), "%s's rounds" % c.nick, every=0.5)
             for c in players}
    # The end of the run: nothing more from the bot for 2 s.
    everyone = [watch] + players
    t_end = quiet(everyone, 2.0)
    # Every order was taken (a refused one would leave the round to its
    # deadline, and the figures would mean nothing). The orders of a bout's
    # last round are answered by the round itself in the channel, where
    # the players are (the end of the bout is said there, not privately).
    last = {b: env.bout_row(b)["round"] for b in bouts}
    for c, orders in zip(players, [ORDERS_A, ORDERS_B] * BOUTS):
        for (b, r, n), t in sorted(sent.items()):
            ok = ack_of(c, orders[(r - 1) % len(orders)], r)
            check(n != c.nick or any(ok(m) for m in private_msgs(c, t)) or
                  (r == last[b] and (b, r) in heard[c.nick]),
                  "%s's order for round %d of bout %d was not acknowledged" % (n, r, b),
                  c.recent())

    lags, before = [], 0
    details = []
    for (b, r), t_said in sorted(found.items()):
        later = max(sent[(b, r, n)] for n in nicks[b])
        lags.append(t_said - later)
        early = [n for n in nicks[b] if (b, r + 1, n) in prompted and
                 prompted[(b, r + 1, n)] < heard[n][(b, r)]]
        before += bool(early)
        details.append("bout %d round %d: lag %.1f s%s%s" % (
            b, r, t_said - later, "; round %d prompt %.1f s before the round was said" %
            (r + 1, max(heard[n][(b, r)] - prompted[(b, r + 1, n)] for n in early))
            if early else "", "".join("; %s's next prompt %.2f s after it" %
                                      (n, prompted[(b, r + 1, n)] - heard[n][(b, r)])
                                      for n in nicks[b] if (b, r + 1, n) in prompted)))
    check(all(lag >= 0 for lag in lags), "a round said before its orders were sent",
          "\n".join(details))
    # Each prompt for round r+1 against the arrival of round r's last line.
    waits = [prompted[(b, r + 1, n)] - heard[n][(b, r)] for (b, r) in sorted(found)
             for n in nicks[b] if (b, r + 1, n) in prompted]
    check(waits, "no prompt after a round (bouts of one round?)")
    chan = [m for m in channel_msgs(watch, t_first) if m.t <= t_end]
    priv = sum(len([m for m in private_msgs(c, t_first) if m.t <= t_end]) for c in everyone)
    # What went on the wire: every line the bot wrote from the first
    # challenge until it fell silent (a delivery marker after its last
    # message included), whatever its command.
    wire = env.tap.lines(t_first, tap_quiet(env, 2.0))
    lines = len(wire)
    said = len([x for x in wire if x[1] in ("PRIVMSG", "NOTICE")])
    check(said >= len(chan) + priv, "the tap saw %d messages from the bot, the clients %d" %
          (said, len(chan) + priv))
    commands = {}
    for x in wire:
        commands[x[1]] = commands.get(x[1], 0) + 1
    fought = [env.bout_row(b)["round"] for b in bouts]
    kinds = wire_kinds(wire)
    if VERBOSE:  # the wire as the players saw it: what each line was
        seen = [(m.t, CHANNEL, m.text) for m in chan] + \
            [(m.t, c.nick, m.text) for c in everyone for m in private_msgs(c, t_first)
             if m.t <= t_end] + \
            [(t, "(wire)", raw.decode("utf-8", "replace").strip()) for t, cmd, raw in wire
             if cmd not in ("PRIVMSG", "NOTICE")]
        for t, where, text in sorted(seen):
            log("  %7.2f %-9s %s" % (t - t_first, where, plain(text)[:150]))
    # A bout's round cycle: from the later of its two prompts for round r
    # to the later of its two for round r+1 (what a player waits, a round
    # after a round, with players who answer at once).
    cycles = []
    for b in bouts:
        r = 1
        while all((b, r + 1, n) in prompted for n in nicks[b]):
            cycles.append(max(prompted[(b, r + 1, n)] for n in nicks[b]) -
                          max(prompted[(b, r, n)] for n in nicks[b]))
            r += 1
    check(cycles, "no bout asked for a second round")
    log("five bouts: %d bouts of %s rounds fought (of %d): %d rounds; %d lines from the bot "
        "on the wire (%s; %d in the channel, %d private) in %.0f s from the first challenge "
        "(bouts over after "
        "%.0f s); lag median %.1f s, max %.1f s; %d rounds with the next prompt first; "
        "prompts %.1f s (median) and %.1f s (max) after their round; round cycle %.1f s "
        "(median), %.1f s (max); %.2f lines a bout-round (on the wire: %s)" %
        (len(bouts), "/".join(map(str, fought)), rounds, len(lags), lines,
         ", ".join("%d %s" % (n, k) for k, n in sorted(commands.items())), len(chan), priv,
         t_end - t_first, t_over - t_first, statistics.median(lags), max(lags), before,
         statistics.median(waits), max(waits), statistics.median(cycles), max(cycles),
         lines / sum(fought), ", ".join("%d %s" % (n, k) for k, n in kinds.items())))
    for d in details if VERBOSE else []:
        log("  " + d)
    return [("wire.five_bouts_commentary_lag_median_s", "%.1f" % statistics.median(lags), "s"),
            ("wire.five_bouts_prompt_before_said", "%d" % before, "rounds"),
            ("wire.prompt_after_round_p50_s", "%.1f" % max(0.0, statistics.median(waits)), "s"),
            ("wire.prompt_after_round_max_s", "%.1f" % max(0.0, max(waits)), "s"),
            ("wire.bouts_per_hour_at_1_line_s", "%.1f" % (3600.0 / (lines / len(bouts))),
             "bouts/h"),
            ("wire.five_bouts_round_cycle_median_s", "%.1f" % statistics.median(cycles), "s"),
            ("wire.lines_per_bout_round", "%.2f" % (lines / sum(fought)), "lines")]


def wire_kinds(wire):
    """What the bot's lines on the wire were, for stderr: {kind: lines},
    each line (an IRC line: a message cut in two counts twice) by its own
    words. In the channel: challenges, starts, rounds (tagged or not, the
    last with the result, the records and the training points the winner
    earned), the rest of a message cut over several lines, and other;
    private: prompts, ends ("Bout #N ... is over, and ..."), other; delivery
    markers (PING :rsN); other commands."""
    kinds = {k: 0 for k in ("challenges", "starts", "rounds", "channel, cut", "channel, other",
                            "prompts", "ends", "private, other", "markers", "other")}
    for _, cmd, raw in wire:
        line = raw.decode("utf-8", "replace").strip()
        if cmd == "PING":
            kinds["markers" if " :rs" in line else "other"] += 1
            continue
        if cmd not in ("PRIVMSG", "NOTICE"):
            kinds["other"] += 1
            continue
        target, _, text = line.split(" ", 1)[1].partition(" :")
        t = plain(text)
        if target.lower() == CHANNEL.lower():
            kinds["rounds" if re.match(r"(\[#\d+\] )?Round \d", t) else
                  "challenges" if re.match(r"\S+ challenges ", t) else
                  "starts" if re.match(r"Bout #\d+(, boxing, \d+ rounds:| is on\.)", t) else
                  "channel, other" if re.match(r"(\[#\d+\] |Bout #|\S+: )", t) else
                  "channel, cut"] += 1
        else:
            kinds["prompts" if PROMPT.search(t) else "ends" if " is over, and " in t else
                  "private, other"] += 1
    return kinds


# ------------------------------------------------------------------ flood


def s_flood(env):
    """4 nicks flood in private; a bystander says !version every 3 s."""
    by = Client(env, "bystander", [CHANNEL])
    reply(by, "version", r"^Ringside ", CHANNEL)  # the bot answers him at all
    flooders = [Client(env, "flood%d" % i, [CHANNEL]) for i in range(1, FLOOD_NICKS + 1)]
    commands = ["help", "fighter x", "standings"]
    stats = {}
    errors = []
    t0 = time.monotonic() + 0.5
    t_stop = t0 + FLOOD_SECONDS

    def flood(c):
        """Three commands, then a PING; the next three once ngircd has
        answered the PING (it reads a client no faster than it lets him
        through, so this is as fast as it lets him, with no backlog left
        in the socket when the flood ends)."""
        n = k = 0
        try:
            while time.monotonic() < t0:
                time.sleep(0.01)
            while time.monotonic() < t_stop:
                for _ in range(3):
                    c.raw("PRIVMSG %s :%s" % (e2e.BOT_NICK, commands[n % len(commands)]))
                    n += 1
                k += 1
                tok = "wire%d" % k
                pos = len(c.lines)
                c.raw("PING :" + tok)
                c.wait(lambda m: m.cmd == "PONG" and m.text == tok, "PONG %s" % tok,
                       timeout=60, start=pos)
            stats[c.nick] = n
        except Exception as e:
            errors.append("%s: %s" % (c.nick, e))
    ts = [threading.Thread(target=flood, args=(c,), daemon=True) for c in flooders]
    for t in ts:
        t.start()
    asks = []
    t = t0 + 0.5
    while t < t_stop:
        time.sleep(max(0, t - time.monotonic()))
        asks.append(time.monotonic())
        by.raw("PRIVMSG %s :!version" % CHANNEL)
        t += BYSTANDER_EVERY
    for th in ts:
        th.join(90)
    check(not errors, "a flooder failed", "\n".join(errors))

    def replies():
        got = [m for m in channel_msgs(by, t0) if plain(m.text).startswith("bystander: ")]
        return got if len(got) >= len(asks) else None
    got = wait_for(replies, "the bystander's %d replies" % len(asks))
    check(all(re.search(r"Ringside \d", plain(m.text)) for m in got[:len(asks)]),
          "the bystander got something else than his !version", "\n".join(map(repr, got)))
    delays = [m.t - a for m, a in zip(got, asks)]
    check(all(d >= 0 for d in delays), "a reply before its question")
    answered = {c.nick: len(private_msgs(c, t0)) for c in flooders}
    log("flood: %s commands sent in %.0f s (per nick), %s private lines back; bystander's "
        "delays %s s" % ("/".join(str(stats[c.nick]) for c in flooders), FLOOD_SECONDS,
                        "/".join(str(answered[c.nick]) for c in flooders),
                        " ".join("%.1f" % d for d in delays)))
    return [("wire.bystander_reply_during_flood_max_s", "%.1f" % max(delays), "s")]


# ------------------------------------------------------------------ report


def s_report(env):
    """A 12-round league bout's report streams to a reader while two
    players of a live bout send orders."""
    boss = Client(env, e2e.ADMIN, [CHANNEL])
    a = Client(env, "rep_a", [CHANNEL])
    b = Client(env, "rep_b", [CHANNEL])
    reader = Client(env, "reader", [CHANNEL])
    account(env, boss)
    account(env, a, SHEETS[0], "2/8/10")
    account(env, b, SHEETS[1], "3/3/14 (clinch)")
    boss.cmd("turn rules=boxing", CHANNEL)
    rows = wait_for(lambda: env.query("SELECT id, round, rounds FROM bouts WHERE kind = 'league' "
                                      "AND state = 'over' ORDER BY round DESC, id"),
                    "the league turn's bouts")
    bout_id, rnd, sched = rows[0]
    report = env.sim(env.copy_db(), "--report", bout_id).rstrip("\n").split("\n")
    total = len(report)
    check(total >= REPORT_LINES_MIN, "the longest league bout, #%d (%d rounds of %d), has a "
          "report of %d lines" % (bout_id, rnd, sched, total))
    # The turn's summary is said in the channel: let it go out first.
    quiet([boss, a, b, reader], 2.0)
    a.cmd("challenge rep_b rounds=12", CHANNEL)
    wait_for(lambda: challenges(env) >= 1, "the challenge stored")
    pos = [len(a.lines), len(b.lines)]
    b.cmd("accept", CHANNEL)
    for c, p in zip((a, b), pos):
        c.wait(lambda m: prompt_of(c, m), "%s's round 1 prompt" % c.nick, start=p)
    log("report: league bout #%d, %d rounds, report of %d lines; live bout started" %
        (bout_id, rnd, total))

    t_ask = time.monotonic()
    reader.cmd("report %d" % bout_id)

    # Where the reader is in the report, found as the commentary is (the
    # report's lines from SIM --report, in order, in the reader's private
    # stream, whatever their packing): the arrival of its first line and of
    # its last (None while they have not come).
    first = [line for line in report if squash(line)][:1]

    def arrived(lines):
        hit = Stream(private_msgs(reader, t_ask)).find(lines, 0)
        return hit[1] if hit else None
    wait_for(lambda: arrived(first), "the report's first line")
    delays = []
    orders = [(a, ORDERS_A), (b, ORDERS_B)]
    rnd = 1
    while len(delays) < REPORT_ACKS and arrived(report) is None:
        for c, o in orders:
            p = len(c.lines)
            c.pace()
            t = time.monotonic()
            c.raw("PRIVMSG %s :%s" % (e2e.BOT_NICK, o[(rnd - 1) % len(o)]))
            ack = ack_of(c, o[(rnd - 1) % len(o)], rnd)
            completes = c is b  # b's order completes the round

            def answered(m, ack=ack, completes=completes):
                return ack(m) or (completes and from_bot(m) and m.target.lower() == CHANNEL)
            m = c.wait(answered, "the acknowledgement of %s's round %d order" % (c.nick, rnd),
                       start=p, timeout=WAIT)
            if completes:
                c.wait(ack, "the acknowledgement of %s's round %d order" % (c.nick, rnd),
                       start=p, timeout=WAIT)
            done = arrived(report)
            if done is None or m.t < done:
                delays.append(m.t - t)
        rnd += 1
    check(len(delays) >= 4, "only %d orders acknowledged while the report streamed (%d lines)" %
          (len(delays), total))
    done = arrived(report)
    log("report: %d acknowledgements while the report streamed (%s; %d messages to the reader "
        "%.0f s after the ask): %s s" %
        (len(delays), "all of it %.0f s after the ask" % (done - t_ask) if done else
         "not all of it yet", len(private_msgs(reader, t_ask)), time.monotonic() - t_ask,
         " ".join("%.1f" % d for d in delays)))
    return [("wire.ack_during_report_max_s", "%.1f" % max(delays), "s")]


# ------------------------------------------------------------------ main


SCENARIOS = [("five bouts", s_five_bouts), ("flood", s_flood), ("report", s_report)]


def run(env, fn, results, failures):
    t = time.monotonic()
    try:
        start(env)
        results[env.name] = fn(env)
        check(env.bot_alive(), "the bot is not running any more", e2e.tail(env.bot_log, 20))
        log("%s: done in %.0f s" % (env.name, time.monotonic() - t))
    except Exception as e:
        detail = e.detail if isinstance(e, Failure) else traceback.format_exc()
        failures.append(env.name)
        log("%s: FAILED after %.0f s: %s" % (env.name, time.monotonic() - t, e))
        for line in (detail or "").splitlines():
            log("  " + line)
        log("  bot log (last lines):")
        for line in e2e.tail(env.bot_log, 15).splitlines():
            log("  | " + line)
    finally:
        for c in list(env.clients):
            c.close()


def main(argv):
    if len(argv) != 3:
        print("usage: python3 bench/wire_bench.py BOT SIM   (e.g. build/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    global WIRE_ROUNDS
    try:
        WIRE_ROUNDS = int(WIRE_ROUNDS)
        check(3 <= WIRE_ROUNDS <= 15, "")
    except (ValueError, Failure):
        print("wire_bench: WIRE_BENCH_ROUNDS must be 3 to 15, not %r" % WIRE_ROUNDS,
              file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("wire_bench: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("wire_bench: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2

    def on_term(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)

    t0 = time.monotonic()
    chosen = [(name, fn) for name, fn in SCENARIOS
              if not ONLY or name in ONLY or fn.__name__[2:] in ONLY]
    if not chosen:
        print("wire_bench: WIRE_BENCH_ONLY names no scenario (%s)" %
              ", ".join(fn.__name__[2:] for _, fn in SCENARIOS), file=sys.stderr)
        return 2
    envs = [(WireEnv(argv[1], argv[2], name), fn) for name, fn in chosen]
    results, failures = {}, []
    try:
        threads = []
        for env, fn in envs:
            th = threading.Thread(target=run, args=(env, fn, results, failures), daemon=True)
            th.start()
            if SERIAL:
                th.join()
            threads.append(th)
        for th in threads:
            while th.is_alive():
                th.join(0.5)
    except KeyboardInterrupt:
        failures.append("interrupted")
        log("interrupted")
    finally:
        for env, _ in envs:
            env.cleanup()
            if failures or KEEP:
                log("%s: files kept in %s" % (env.name, env.dir))
            else:
                shutil.rmtree(env.dir, ignore_errors=True)
    for env, _ in envs:
        for name, value, unit in results.get(env.name, []):
            print("%s %s %s" % (name, value, unit))
    sys.stdout.flush()
    log("total %.0f s%s" % (time.monotonic() - t0, "; failed: " + ", ".join(failures)
                            if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
