#!/usr/bin/env python3
"""e2e.py - Ringside's end-to-end tests: the real bot against a real IRC server.

    python3 tests/e2e/e2e.py BOT [SIM]  (from the repository root; BOT e.g. build/ringside,
                                        SIM build/ringside-sim: else the one beside BOT)

Starts an IRC server on a free loopback port (ngircd; E2E_SERVER=inspircd for
InspIRCd 3), starts the bot with a configuration and a database in a temporary
directory, and drives it with IRC clients speaking the protocol over raw
sockets. Every scenario prints one line, `ok - NAME` or `FAIL - NAME: why`
(details follow as `#` lines, with the tail of the bot's log); the last line is
`N passed, N failed`, and the exit status is 1 if anything failed.

After every scenario the database is opened read-only and inspected, the bot
must still be running, its log must hold no password used in the run and no
sanitizer report. Processes are always stopped, even on failure or Ctrl-C.

Environment:
  E2E_SERVER=ngircd|inspircd|hybrid   the IRC server (default ngircd); hybrid is
                               ircd-hybrid 8, prepared by tests/e2e/hybrid.sh
                               (root the first time) and run as ringside-e2e
  E2E_ONLY=name,name           run only these scenarios (by name, function name
                               without s_, or number 1-16; SIGTERM is the last)
  E2E_KEEP=1                   keep the temporary directory (it is kept anyway on failure)
  E2E_VERBOSE=1                print every line the clients receive from the bot

Python 3 standard library only. The bot's inbound flood limit is 5 commands at
once, then one every 2 s per nick (a flood held off up to 30 s): every client
paces its commands below that.
"""

import collections
import json
import math
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ports  # noqa: E402

BOT_NICK = "ringside"
CHANNEL = "#ringside"
CHANNEL2 = "#second"
ADMIN = "boss"
# The bot's defaults ([flood] is left out of the generated configuration).
PACING_BURST = 4
PACING_RATE = 1.0
# The bot's inbound flood limit (bot.h), and the pace our clients keep.
RATE_CMDS = 5
RATE_WINDOW_SAFE = 11.0
# The bot's [flood] inbound limit in these tests.
INBOUND_LIMIT = "commands = %d\ncommands_seconds = 10\nignore_seconds = 30\n" % RATE_CMDS
# The bot's [bot] limits of register: every client here comes from one host
# (127.0.0.1), so the defaults (3 a host a day) would refuse the 4th nick.
REGISTRATIONS = "registrations_per_host = 10000\nregistrations_per_hour = 100000\n"
# Generous: shared, slow machines.
TIMEOUT = 20.0
RECONNECT_TIMEOUT = 45.0

VERBOSE = os.environ.get("E2E_VERBOSE") == "1"
# Invalid UTF-8 from the bot (user text cut inside a character) is only noted
# for now; True makes it a failure.
STRICT_UTF8 = True


class Failure(Exception):
    """A scenario's check failed: `args[0]` one line, `detail` more lines."""

    def __init__(self, msg, detail=""):
        super().__init__(msg)
        self.detail = detail


def check(cond, msg, detail=""):
    if not cond:
        raise Failure(msg, detail)


def fold(name):
    """The bot's database key of a name: RFC 1459 case folding."""
    return name.lower().translate(str.maketrans("[]\\~", "{}|^"))


# A loopback port reserved for this process: suites run at the same time
# (tests/e2e/ports.py).
free_port = ports.free_port


def port_open(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


# ------------------------------------------------------------------ IRC client


# IRC formatting: colour codes and bold, reset, reverse, italics, strike,
# underline. Scenarios read what a player reads: the words (Msg.text).
FORMATTING = re.compile(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1e\x1f]")


def plain(text):
    """text without IRC formatting."""
    return FORMATTING.sub("", text)


class Msg:
    """One line received: arrival time, prefix, command, parameters."""

    __slots__ = ("t", "raw", "prefix", "nick", "cmd", "params", "utf8")

    def __init__(self, raw, t):
        self.t = t
        self.raw = raw
        try:
            line = raw.decode("utf-8")
            self.utf8 = True
        except UnicodeDecodeError:
            line = raw.decode("utf-8", "replace")
            self.utf8 = False
        self.prefix = self.nick = ""
        if line.startswith(":"):
            self.prefix, _, line = line[1:].partition(" ")
            self.nick = re.split(r"[!@]", self.prefix, 1)[0]
        trailing = None
        if " :" in line:
            line, trailing = line.split(" :", 1)
        elif line.startswith(":"):
            line, trailing = "", line[1:]
        words = line.split()
        self.cmd = words[0].upper() if words else ""
        self.params = words[1:] + ([trailing] if trailing is not None else [])

    @property
    def text(self):
        """The last parameter as a player reads it: no formatting."""
        return plain(self.params[-1]) if self.params else ""

    @property
    def raw_text(self):
        return self.params[-1] if self.params else ""

    @property
    def target(self):
        return self.params[0] if self.params else ""

    def __repr__(self):
        return self.raw.decode("utf-8", "replace")


class Client:
    """An IRC client over a raw socket; a thread reads, answers PING and keeps
    every line with its arrival time."""

    def __init__(self, env, nick, channels=(), wait_welcome=True):
        self.env = env
        self.nick = nick
        self.lines = []
        self.cond = threading.Condition()
        self.wlock = threading.Lock()
        self.closed = False
        self.cursor = 0
        self.sent = collections.deque()
        self.sock = socket.create_connection(("127.0.0.1", env.port), timeout=10)
        self.sock.settimeout(None)
        env.clients.append(self)
        self.thread = threading.Thread(target=self._reader, daemon=True)
        self.thread.start()
        self.raw("NICK " + nick)
        self.raw("USER %s 0 * :e2e test client" % nick[:10])
        if wait_welcome:
            m = self.wait(lambda m: m.cmd in ("001", "432", "433", "ERROR"),
                          "the server's welcome (001) for %s" % nick)
            check(m.cmd == "001", "%s could not register with the server: %r" % (nick, m))
        for ch in channels:
            self.join(ch)

    def _reader(self):
        buf = b""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                break
            if not data:
                break
            t = time.monotonic()
            buf += data
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                raw = raw.rstrip(b"\r")
                if not raw:
                    continue
                m = Msg(raw, t)
                if m.cmd == "PING":
                    try:
                        self.raw("PONG :" + m.text)
                    except OSError:
                        pass
                if VERBOSE and m.nick.lower() == BOT_NICK:
                    print("#   %.2f [%s] %r" % (t % 1000, self.nick, m), flush=True)
                with self.cond:
                    self.lines.append(m)
                    self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    # -- sending

    def raw(self, line):
        """Sends one line (str or bytes) with CR LF."""
        data = line.encode("utf-8") if isinstance(line, str) else line
        with self.wlock:
            self.sock.sendall(data + b"\r\n")

    def raw_bytes(self, data):
        with self.wlock:
            self.sock.sendall(data)

    def pace(self):
        """Waits so that this nick never sends more than RATE_CMDS commands in
        RATE_WINDOW_SAFE seconds (the bot is configured to allow 5 in 10)."""
        now = time.monotonic()
        if len(self.sent) >= RATE_CMDS:
            wait = self.sent[0] + RATE_WINDOW_SAFE - now
            if wait > 0:
                time.sleep(wait)
            self.sent.popleft()
        self.sent.append(time.monotonic())

    def cmd(self, text, chan=None, pace=True):
        """A command to the bot: in private, or in `chan` with the prefix."""
        if pace:
            self.pace()
        if chan:
            self.raw("PRIVMSG %s :!%s" % (chan, text))
        else:
            self.raw("PRIVMSG %s :%s" % (BOT_NICK, text))

    def join(self, chan):
        self.raw("JOIN " + chan)
        self.wait(lambda m: m.cmd == "366" and len(m.params) > 1 and
                  m.params[1].lower() == chan.lower(), "joining %s" % chan)

    def quit(self, why="bye"):
        try:
            self.raw("QUIT :" + why)
        except OSError:
            pass
        self.wait_closed(10)
        self.close()

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        if self in self.env.clients:
            self.env.clients.remove(self)

    # -- receiving

    def wait(self, pred, desc, timeout=TIMEOUT, start=None, fail=True):
        """The first line from `start` (default: all) matching pred."""
        deadline = time.monotonic() + timeout
        i = 0 if start is None else start
        with self.cond:
            while True:
                while i < len(self.lines):
                    if pred(self.lines[i]):
                        return self.lines[i]
                    i += 1
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    if not fail:
                        return None
                    raise Failure("%s: timed out after %.0f s waiting for %s" %
                                  (self.nick, timeout, desc) if not self.closed else
                                  "%s: connection closed while waiting for %s" % (self.nick, desc),
                                  self.recent())
                self.cond.wait(min(left, 0.5))

    def wait_closed(self, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not self.closed and time.monotonic() < deadline:
                self.cond.wait(0.2)
            return self.closed

    def recent(self, n=12):
        with self.cond:
            tail = self.lines[-n:]
        return "\n".join("%s received: %r" % (self.nick, m) for m in tail) or \
            "%s received nothing" % self.nick

    def from_bot(self, m):
        return m.cmd in ("PRIVMSG", "NOTICE") and m.nick.lower() == BOT_NICK

    def to_me(self, m):
        """The text of a bot message meant for this client (privately, or in a
        channel starting with "nick: "), else None."""
        if not self.from_bot(m):
            return None
        if m.target.lower() == self.nick.lower():
            return m.text
        lead = self.nick + ": "
        if m.target.startswith(("#", "&")) and m.text.startswith(lead):
            return m.text[len(lead):]
        return None

    def bot_replies(self, start=0):
        with self.cond:
            return [m for m in self.lines[start:] if self.to_me(m) is not None]

    def expect(self, regex, timeout=TIMEOUT, strict=True, where=None):
        """Waits for a message from the bot to this client matching regex and
        returns its text (without the "nick: " of channel replies). strict: any
        other bot message to this client arriving first is a failure (so every
        command gets exactly its one line). where: "private" or a channel."""
        rx = re.compile(regex)
        deadline = time.monotonic() + timeout
        seen = []
        with self.cond:
            while True:
                while self.cursor < len(self.lines):
                    m = self.lines[self.cursor]
                    self.cursor += 1
                    text = self.to_me(m)
                    if text is None:
                        continue
                    place_ok = where is None or \
                        (where == "private" and m.target.lower() == self.nick.lower()) or \
                        (m.target.lower() == str(where).lower())
                    if rx.search(text) and place_ok:
                        return text
                    seen.append(m)
                    if strict:
                        raise Failure("%s: expected /%s/%s from the bot, got %r" %
                                      (self.nick, regex, " in " + where if where else "", m),
                                      self.recent())
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    got = "; ".join(repr(m) for m in seen[-4:]) or "nothing from the bot"
                    raise Failure("%s: no /%s/ from the bot within %.0f s%s; got: %s" %
                                  (self.nick, regex, timeout,
                                   " (connection closed)" if self.closed else "", got),
                                  self.recent())
                self.cond.wait(min(left, 0.5))

    def saw(self, regex, where=None, start=0, timeout=TIMEOUT):
        """Waits for a bot message to this client matching regex, from line
        `start` on, in any order with others (expect's cursor stays)."""
        rx = re.compile(regex)

        def ok(m):
            text = self.to_me(m)
            return text is not None and rx.search(text) and \
                (where is None or m.target.lower() ==
                 (self.nick.lower() if where == "private" else where.lower()))
        return self.wait(ok, "/%s/ from the bot" % regex, timeout=timeout, start=start)

    def ask(self, text, regex, chan=None, **kw):
        """cmd + expect; in a channel the reply must come in that channel."""
        self.cmd(text, chan)
        return self.expect(regex, where=chan or "private", **kw)

    def skip(self):
        """Forgets what arrived so far (for expect)."""
        with self.cond:
            self.cursor = len(self.lines)


# ------------------------------------------------------------------ servers


def ngircd_config(env):
    return """\
# Generated by tests/e2e/e2e.py
[Global]
Name = e2e.ringside.test
Info = Ringside end-to-end tests
Listen = 127.0.0.1
Ports = {port}
MotdPhrase = Ringside e2e
[Limits]
MaxConnectionsIP = 0
MaxNickLength = 30
[Options]
DNS = no
Ident = no
PAM = no
""".format(port=env.port)


def inspircd_config(env):
    d = env.dir
    return """\
<config format="xml">
<server name="e2e.ringside.test" description="Ringside e2e" network="RingsideE2E">
<admin name="e2e" nick="e2e" email="e2e@ringside.test">
<bind address="127.0.0.1" port="{port}" type="clients">
<connect allow="*" name="main" maxchans="50" timeout="30" pingfreq="120" hardsendq="1048576"
  softsendq="8192" recvq="8192" threshold="10" commandrate="1000" fakelag="on" localmax="1000"
  globalmax="1000" useident="no" limit="5000">
<class name="Everything" commands="*" privs="*" usermodes="*" chanmodes="*">
<type name="NetAdmin" classes="Everything">
<pid file="{d}/inspircd.pid">
<files motd="{d}/motd.txt">
<dns timeout="1">
<options prefixquit="" suffixquit="" fixedquit="" hostintopic="yes" defaultmodes="nt">
<security hidesplits="no" hideulines="no" announceinvites="dynamic" flatlinks="no" hidewhois=""
  userstats="Pu" customversion="" runasuser="" runasgroup="">
<performance netbuffersize="10240" somaxconn="128" softlimit="1024" clonesonconnect="no"
  timeskipwarn="2s" quietbursts="yes" nouserdns="yes">
<limits maxnick="30" maxchan="64" maxmodes="20" maxident="11" maxhost="64" maxquit="255"
  maxtopic="307" maxkick="255" maxreal="128" maxgecos="128" maxaway="200">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{d}/inspircd-file.log">
""".format(port=env.port, d=d)


def hybrid_config(env):
    """ircd-hybrid 8 at its default flood settings: no can_flood, default
    floodcount; clients by the hundred from 127.0.0.1, nicks of 30."""
    return """\
/* Generated by tests/e2e/e2e.py */
serverinfo {{
    name = "e2e.ringside.test";
    description = "Ringside end-to-end tests";
    network_name = "RingsideE2E";
    hub = no;
    max_nick_length = 30;
}};
admin {{
    name = "e2e";
    description = "Ringside e2e";
    email = "<e2e@ringside.test>";
}};
class {{
    name = "users";
    number_per_ip_local = 1000;
    number_per_ip_global = 1000;
    number_per_cidr = 1000;
    max_number = 1000;
}};
listen {{
    host = "127.0.0.1";
    port = {port};
}};
auth {{
    user = "*@*";
    class = "users";
}};
general {{
    disable_auth = yes;
    /* throttle_count = 0 alone still refuses a second connection within
       throttle_time ("connect too fast -- throttled"): 0 turns it off. */
    throttle_count = 0;
    throttle_time = 0;
}};
""".format(port=env.port)


HYBRID_USER = "ringside-e2e"
_hybrid_bin = []


def hybrid_binary():
    """The ircd-hybrid binary that tests/e2e/hybrid.sh prepared (it runs once
    per process); raises Failure with its complaint."""
    if not _hybrid_bin:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hybrid.sh")
        p = subprocess.run(["sh", script], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=600)
        out = p.stdout.decode("utf-8", "replace").strip()
        if p.returncode != 0 or not out:
            raise Failure("tests/e2e/hybrid.sh failed (exit %d)" % p.returncode,
                          p.stderr.decode("utf-8", "replace"))
        _hybrid_bin.append(out.splitlines()[-1])
    return _hybrid_bin[0]


# ------------------------------------------------------------------ the harness


class Env:
    def __init__(self, bot_path, server):
        self.bot_path = os.path.abspath(bot_path)
        self.server = server
        self.keep = os.environ.get("E2E_KEEP") == "1"
        self.dir = tempfile.mkdtemp(prefix="ringside-e2e-")
        self.port = free_port()
        self.ircd = None
        self.bot = None
        self.clients = []
        self.secrets = set()  # every password used: never in the log or the database
        self.bot_conf = os.path.join(self.dir, "ringside.conf")
        self.db_path = os.path.join(self.dir, "ringside.db")
        self.bot_log = os.path.join(self.dir, "bot.log")
        self.ircd_log = os.path.join(self.dir, "ircd.log")
        self.bot_starts = 0
        self.sim_path = None  # ringside-sim, to compare the sim command with
        # The [flood] keys: the inbound limit these tests pace themselves to
        # (the defaults, 12 a minute, would make them slow).
        self.flood = INBOUND_LIMIT
        # The [bot] limits of register (REGISTRATIONS, raised for these tests).
        self.registrations = REGISTRATIONS

    # -- the IRC server

    def start_server(self):
        if self.server == "inspircd":
            conf = os.path.join(self.dir, "inspircd.conf")
            with open(conf, "w") as f:
                f.write(inspircd_config(self))
            with open(os.path.join(self.dir, "motd.txt"), "w") as f:
                f.write("Ringside e2e\n")
            argv = [shutil.which("inspircd") or "/usr/sbin/inspircd", "--nofork",
                    "--config", conf]
            if os.geteuid() == 0:
                argv.append("--runasroot")
        elif self.server == "hybrid":
            # It refuses root: as root, run it as HYBRID_USER, in a folder
            # of its own that it may write.
            hdir = os.path.join(self.dir, "hybrid")
            os.makedirs(hdir, exist_ok=True)
            conf = os.path.join(hdir, "ircd.conf")
            with open(conf, "w") as f:
                f.write(hybrid_config(self))
            argv = [hybrid_binary(), "-foreground", "-configfile", conf,
                    "-logfile", os.path.join(hdir, "ircd-hybrid.log"),
                    "-pidfile", os.path.join(hdir, "ircd.pid")] + \
                [x for db in ("kline", "dline", "xline", "resv")
                 for x in ("-%sfile" % db, os.path.join(hdir, db + ".db"))]
            if os.geteuid() == 0:
                os.chmod(self.dir, 0o711)
                shutil.chown(hdir, HYBRID_USER, HYBRID_USER)
                shutil.chown(conf, HYBRID_USER, HYBRID_USER)
                argv = ["setpriv", "--reuid=" + HYBRID_USER, "--regid=" + HYBRID_USER,
                        "--clear-groups"] + argv
        else:
            conf = os.path.join(self.dir, "ngircd.conf")
            with open(conf, "w") as f:
                f.write(ngircd_config(self))
            argv = [shutil.which("ngircd") or "/usr/sbin/ngircd", "-n", "-f", conf]
        log = open(self.ircd_log, "ab")
        self.ircd = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + TIMEOUT
        while not port_open(self.port):
            if self.ircd.poll() is not None or time.monotonic() > deadline:
                raise Failure("the IRC server (%s) did not start on port %d" %
                              (self.server, self.port), tail(self.ircd_log, 20) + "\n" +
                              tail(os.path.join(self.dir, "hybrid", "ircd-hybrid.log"), 10)
                              if self.server == "hybrid" else tail(self.ircd_log, 20))
            time.sleep(0.1)

    def stop_server(self):
        if self.ircd and self.ircd.poll() is None:
            self.ircd.terminate()
            try:
                self.ircd.wait(10)
            except subprocess.TimeoutExpired:
                self.ircd.kill()
                self.ircd.wait()
        self.ircd = None

    # -- the bot

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        # Live bouts do not wait for their players after a restart unless
        # the suite says so (e2e_restart.py): the suites written before
        # [bout] rejoin_grace test the clocks starting at once.
        if "rejoin_grace" not in extra:
            extra += "\n[bout]\nrejoin_grace = 0\n"
        with open(self.bot_conf, "w") as f:
            f.write("""\
; Generated by tests/e2e/e2e.py
[irc]
server = 127.0.0.1
port = {port}
nick = {nick}
channels = {channels}

[bot]
admins = {admin}
database = {db}
log_level = debug
{reg}
[flood]
{flood}
{extra}""".format(port=self.port, nick=BOT_NICK, channels=",".join(channels), admin=ADMIN,
                  db=self.db_path, reg=self.registrations, flood=self.flood,
                  extra=extra))

    def add_admin(self, name, pw):
        """The operator makes `name` an admin with password pw: ringside
        --add-admin, the password on stdin (a name in [bot] admins alone
        gives no rights without services)."""
        self.secrets.add(pw)
        r = subprocess.run([self.bot_path, "-c", self.bot_conf, "--add-admin", name],
                           input=pw + "\n", capture_output=True, text=True, cwd=self.dir,
                           timeout=120)
        check(r.returncode == 0, "ringside --add-admin %s failed: %s" % (name, r.stderr))

    def start_bot(self):
        self.write_bot_config()
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
        log = open(self.bot_log, "ab")
        self.bot = subprocess.Popen([self.bot_path, "-c", self.bot_conf], cwd=self.dir, env=env,
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    start_new_session=True)
        log.close()
        self.bot_starts += 1
        self.wait_bot_in(CHANNEL)

    def bot_alive(self):
        return self.bot is not None and self.bot.poll() is None

    def stop_bot(self):
        if self.bot and self.bot.poll() is None:
            self.bot.terminate()
            try:
                self.bot.wait(10)
            except subprocess.TimeoutExpired:
                self.bot.kill()
                self.bot.wait()

    def wait_bot_in(self, chan, timeout=TIMEOUT, nick="e2ewait"):
        """Waits until the bot is in `chan`: a client joins and sees it in
        NAMES, or sees it join."""
        deadline = time.monotonic() + timeout
        c = None
        try:
            c = Client(self, nick)
            start = len(c.lines)
            c.raw("JOIN " + chan)
            def bot_there(m):
                return (m.cmd == "353" and BOT_NICK in
                        [w.lstrip("~&@%+!").lower() for w in m.text.split()]) or \
                    (m.cmd == "JOIN" and m.nick.lower() == BOT_NICK)
            while True:
                m = c.wait(bot_there, "the bot in %s" % chan, start=start, fail=False,
                           timeout=max(0.1, min(3, deadline - time.monotonic())))
                if m:
                    return
                if self.bot is not None and not self.bot_alive():
                    raise Failure("the bot exited (status %s) before joining %s" %
                                  (self.bot.returncode, chan), tail(self.bot_log, 20))
                if time.monotonic() > deadline:
                    raise Failure("the bot did not join %s within %.0f s" % (chan, timeout),
                                  tail(self.bot_log, 20))
                c.raw("NAMES " + chan)
        finally:
            if c:
                c.quit()

    # -- the log and the database

    def log_text(self, since=0):
        with open(self.bot_log, "rb") as f:
            f.seek(since)
            return f.read().decode("utf-8", "replace")

    def log_size(self):
        try:
            return os.path.getsize(self.bot_log)
        except OSError:
            return 0

    def wait_log(self, regex, since, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        rx = re.compile(regex, re.M)
        while True:
            m = rx.search(self.log_text(since))
            if m:
                return m
            if time.monotonic() > deadline:
                raise Failure("the bot's log never said /%s/ within %.0f s" % (regex, timeout),
                              tail(self.bot_log, 15))
            time.sleep(0.2)

    def db(self):
        return sqlite3.connect("file:%s?mode=ro" % self.db_path, uri=True, timeout=10)

    def query(self, sql, args=()):
        con = self.db()
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()

    def account(self, name):
        rows = self.query("SELECT id, name, hash, banned FROM accounts WHERE key = ?",
                          (fold(name),))
        return dict(zip(("id", "name", "hash", "banned"), rows[0])) if rows else None

    def fighter(self, name):
        con = self.db()
        con.row_factory = sqlite3.Row
        try:
            row = con.execute("SELECT f.*, a.name AS owner FROM fighters f JOIN accounts a "
                              "ON a.id = f.account_id WHERE f.key = ?", (fold(name),)).fetchone()
            return dict(row) if row else None
        finally:
            con.close()

    def snapshot(self):
        """Every row of every table, to compare."""
        con = self.db()
        try:
            out = {}
            for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                    "AND name NOT LIKE 'sqlite_%' ORDER BY name"):
                out[t] = con.execute('SELECT * FROM "%s" ORDER BY 1' % t).fetchall()
            return out
        finally:
            con.close()

    def common_checks(self, log_from, expect_alive=True):
        """After every scenario: the bot runs, its log holds no password and no
        sanitizer report, the database is sound and holds no password."""
        if expect_alive:
            check(self.bot_alive(), "the bot is not running any more (exit status %s)" %
                  (self.bot.returncode if self.bot else None), tail(self.bot_log, 30))
        log = self.log_text(log_from)
        for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:",
                    "ringside: out of memory"):
            check(pat not in log, "the bot's log has a report: %s" % pat, tail(self.bot_log, 40))
        full = self.log_text()
        for s in self.secrets:
            check(s not in full, "the bot's log contains the password %r" % s)
        con = self.db()
        try:
            ok = con.execute("PRAGMA integrity_check").fetchone()[0]
            check(ok == "ok", "database integrity_check: %s" % ok)
            dump = "\n".join(con.iterdump())
            for (h,) in con.execute("SELECT hash FROM accounts"):
                check(h.startswith("$y$"), "an account's hash is not yescrypt: %r" % h[:8])
        finally:
            con.close()
        for s in self.secrets:
            check(s not in dump, "the database contains the password %r" % s)

    def cleanup(self):
        for c in list(self.clients):
            try:
                c.close()
            except OSError:
                pass
        self.stop_bot()
        self.stop_server()


def tail(path, n):
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError as e:
        return "(no %s: %s)" % (path, e)
    return "\n".join(lines[-n:])


def secret(env, pw):
    env.secrets.add(pw)
    return pw


# ------------------------------------------------------------------ scenarios
#
# Each uses its own nicks, so the bot's per-nick flood limit of one scenario
# never spills into the next.


CORE_COMMANDS = {"help", "version", "register", "identify", "logout", "passwd", "create",
                 "fighter", "fighters", "train", "retire"}
ADMIN_COMMANDS = {"ban", "unban", "resetpass", "set", "cancel", "turn"}  # listed to admins only


def s_help(env):
    before = env.snapshot()
    c = Client(env, "helper1", [CHANNEL])
    for chan, p in ((CHANNEL, "!"), (None, "")):
        text = c.ask("help", r"^commands: [a-z ]+\. Say %shelp <command> for one\.$" % p,
                     chan=chan)
        listed = set(text[len("commands: "):text.index(".")].split())
        check(CORE_COMMANDS <= listed, "help does not list %s" % sorted(CORE_COMMANDS - listed),
              text)
        check(not ADMIN_COMMANDS & listed, "help lists admin commands %s to a newcomer" %
              sorted(ADMIN_COMMANDS & listed), text)
    c.ask("help create", r"^create <name> .*str=N spd=N agl=N tgh=N hgt=N: creates a fighter"
          r".*\(identify first\)$")
    # ... and what each ruleset's abilities do, a line each.
    c.expect(r"^Boxing abilities, 60 points over five, each 5 to 20: str \(strength: ", where="private")
    c.expect(r"^SUGAR RAY boxers start alike ", where="private")
    c.ask("version", r"^Ringside \d+\.\d+\.\d+\b", chan=CHANNEL)
    c.ask("frobnicate", r'^unknown command "frobnicate"; say !help for the list$', chan=CHANNEL)
    # Nothing more comes: each command was answered by its lines.
    time.sleep(1.5)
    extra = c.bot_replies(c.cursor)
    check(not extra, "more replies than commands: %r" % extra)
    c.quit()
    check(env.snapshot() == before, "help and version changed the database")


def s_register(env):
    pw = secret(env, "correct-horse-42")
    wrong = secret(env, "wrong-horse-43")
    c = Client(env, "boxer2", [CHANNEL])
    c.ask("register " + pw, r"^account boxer2 registered, and you are identified\.")
    c.ask("create Apollo str=14 spd=12 agl=11 tgh=12 hgt=11",
          r"^Apollo \(boxing\) is ready: STR 14 SPD 12 AGL 11 TGH 12 HGT 11$")
    # Bad sheets: one line each, and no fighter.
    c.ask("create Drago str=15 spd=12 agl=11 tgh=12 hgt=11",
          r"^the abilities add up to 61; spread exactly 60 points$")
    c.ask("create Drago str=4 spd=20 agl=20 tgh=8 hgt=8",
          r"^str=4 is under 5; a new boxer's abilities are each 5 to 20, 60 points in all: "
          r"e\.g\. str=12 spd=12 agl=12 tgh=12 hgt=12$")
    c.ask("create Drago str=30 spd=12 agl=12 tgh=3 hgt=3",
          r"^str=30 is over 20; a new boxer's abilities are each 5 to 20, 60 points in all: "
          r"e\.g\. str=12 spd=12 agl=12 tgh=12 hgt=12$")
    c.ask("create Drago str=15 spd=15 agl=15 tgh=15", r"^missing hgt=")
    check(env.fighter("Drago") is None, "a refused sheet left a fighter in the database",
          repr(env.fighter("Drago")))
    look = Client(env, "looker2", [CHANNEL])
    look.ask("fighter Apollo", r"^Apollo \(boxing, boxer2\): STR 14 SPD 12 AGL 11 TGH 12 HGT 11; "
             r"record 0-0-0, 0 by KO; rating 1500 \u00b1 350$", chan=CHANNEL)
    look.ask("fighters boxer2", r"^boxer2's fighters: Apollo \(boxing, 0-0-0\)$")
    look.quit()
    c.ask("fighters", r"^boxer2's fighters: Apollo \(boxing, 0-0-0\)$")
    c.ask("logout", r"^logged out of boxer2$")
    c.ask("create Drago str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account")
    c.ask("identify " + wrong, r"^wrong password for boxer2$")
    c.ask("identify " + pw, r"^you are identified as boxer2 ")
    c.quit()

    acc = env.account("boxer2")
    check(acc is not None, "no accounts row for boxer2")
    check(acc["name"] == "boxer2" and acc["banned"] == 0, "accounts row: %r" % acc)
    check(acc["hash"].startswith("$y$"), "the hash is not yescrypt: %r" % acc["hash"][:10])
    check(pw not in acc["hash"], "the hash contains the password")
    f = env.fighter("Apollo")
    check(f is not None, "no fighters row for Apollo")
    got = (f["name"], f["rules"], f["str"], f["spd"], f["agl"], f["tgh"], f["hgt"], f["owner"],
           f["retired"], f["wins"], f["losses"])
    check(got == ("Apollo", "boxing", 14, 12, 11, 12, 11, "boxer2", 0, 0, 0),
          "fighters row for Apollo: %r" % (got,))
    mine = env.query("SELECT f.name FROM fighters f JOIN accounts a ON a.id = f.account_id "
                     "WHERE a.key = 'boxer2'")
    check(mine == [("Apollo",)], "boxer2's fighters in the database: %r" % mine)


def s_impersonation(env):
    pw = secret(env, "alice-secret-9")
    a = Client(env, "alice", [CHANNEL])
    a.ask("register " + pw, r"^account alice registered")
    a.ask("create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11", r"^Rocky \(boxing\) is ready")
    before = env.snapshot()
    since = env.log_size()
    a.quit("gone fishing")
    env.wait_log(r"alice quit: identity ended", since)

    m = Client(env, "alice", [CHANNEL])
    m.ask("create Xerxes str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account: "
          r"identify first")
    m.ask("retire Rocky", r"^retire needs an account", chan=CHANNEL)
    m.ask("train str Rocky", r"^train needs an account")
    m.ask("passwd a b", r"^passwd needs an account")
    m.ask("logout", r"^logout needs an account")
    m.quit()

    after = env.snapshot()
    check(after == before, "the database changed under an impostor",
          "before: %r\nafter:  %r" % (before, after))
    f = env.fighter("Rocky")
    check(f and f["retired"] == 0 and f["str"] == 14 and f["owner"] == "alice",
          "Rocky changed: %r" % f)
    check(env.fighter("Xerxes") is None, "the impostor created Xerxes")


def s_password_in_channel(env):
    pw = secret(env, "hunter22")
    pw2 = secret(env, "hunter23")
    pw3 = secret(env, "hunter24")
    since = env.log_size()
    c = Client(env, "leaky", [CHANNEL])
    w = Client(env, "watcher4", [CHANNEL])
    seen = r"^never say a password in a channel: everyone in #ringside saw it"
    # Said with register before the account exists: never taken for it.
    c.ask("register " + pw, seen + r", so I will never take it for leaky\. Register in private "
          r"with another one: /msg ringside register <password>$", chan=CHANNEL)
    check(env.account("leaky") is None, "an account was created from a channel: %r" %
          env.account("leaky"))
    c.ask("register " + pw, r"^that password was said in a channel, where everyone saw it; "
          r"choose another: register <password>$")
    c.ask("register " + pw2, r"^account leaky registered")
    c.ask("logout", r"^logged out of leaky$")
    # The account's password said in the channel: burnt, and its owner told
    # in one line how to set a new one (he is identified: he said it first).
    c.ask("identify " + pw2, seen + r", so that password of leaky no longer works\. You are "
          r"identified as leaky: set a new one now with /msg ringside passwd <new password>$",
          chan=CHANNEL)
    # The warning is public: the others see it too, and the password is of
    # no use to them.
    w.wait(lambda m: w.from_bot(m) and m.text.startswith("leaky: never say a password"),
           "the warning in the channel")
    w.ask("identify leaky " + pw2, r"^that password of leaky was said in a channel and no "
          r"longer works: set a new one with passwd <new password> from a nick still identified "
          r"as leaky, or ask an admin to resetpass it$")
    c.ask("passwd " + pw2, r"^that password was said in a channel, where everyone saw it; "
          r"choose another: passwd <new password>$")
    c.ask("passwd " + pw3, r"^password changed$")
    c.ask("logout", r"^logged out of leaky$")
    c.ask("identify " + pw2, r"^wrong password for leaky$")
    c.ask("identify " + pw3, r"^you are identified as leaky ")
    # ... and told of the wrong one (bot/cmd-account.c, failures_told).
    c.expect(r"^1 failed attempt to identify as leaky since your last login, the last from \S+ "
             r"at \d{4}-\d\d-\d\d \d\d:\d\d UTC$")
    c.ask("passwd a b", seen + r", so I will never take that new password for leaky\. Change it "
          r"in private: /msg ringside passwd <old password> <new password>$", chan=CHANNEL)
    c.quit()
    w.quit()
    acc = env.account("leaky")
    check(acc is not None and pw3 not in acc["hash"], "leaky's account: %r" % acc)
    burnt = env.query("SELECT count(*) FROM burnt_passwords WHERE key = 'leaky'")
    check(burnt == [(3,)], "burnt passwords of leaky: %r" % burnt)
    log = env.log_text(since)
    check(pw not in log and pw2 not in log and pw3 not in log, "the log shows the password")
    check(re.search(r"leaky said a password in #ringside \(register\): refused", log),
          "the log does not note the refusal", tail(env.bot_log, 10))
    check(re.search(r"the password of leaky, said in #ringside by leaky, is burnt", log),
          "the log does not note the burn", tail(env.bot_log, 10))


def s_hostile(env):
    pw = secret(env, "hostile-pw-77")
    by = Client(env, "bystander", [CHANNEL])
    h = Client(env, "hostile", [CHANNEL])
    h.ask("register " + pw, r"^account hostile registered")
    h.ask("create Punchbag str=12 spd=12 agl=12 tgh=12 hgt=12", r"^Punchbag \(boxing\) is ready")
    before = env.snapshot()
    notes = []

    # Format strings, in the channel and in private, identified.
    h.ask("fighter %s%n%x%p", r'^"%s%n%x%p" is not a fighter\'s name', chan=CHANNEL)
    h.ask("create %n%n%n str=%s%s spd=%x agl=%p tgh=12 hgt=12", r"^\"%n%n%n\" is not a fighter's name: '%' is not allowed \(names are 2 to "
          r"20 letters A-Z, digits, _ - ', starting with a letter\)$")
    h.ask("create Evil %n%n%n str=%s spd=12 agl=12 tgh=12 hgt=12",
          r'^expected key=value, e\.g\. str=\d+; got "%n%n%n"$')

    # Very long words, unicode, control characters, 30 arguments.
    h2 = Client(env, "hostile2", [CHANNEL])
    h2.ask("fighter " + "x" * 400, r'^"x{24}\.\.\." is not a fighter\'s name: it is 400 '
           r'characters, at most 20$', chan=CHANNEL)
    h2.ask("x" * 450, r'^unknown command "x+"; say help for the list$')
    h2.ask("fighter Ромео", r"^there is no fighter Ромео|is not a fighter's name",
           chan=CHANNEL)
    h2.ask("fighter xЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ", r"is not a fighter's name")
    h2.ask("fighter \x01\x02\x03\x07\x1b[31mred\x0f", r"is not a fighter's name", chan=CHANNEL)
    h3 = Client(env, "hostile3", [CHANNEL])
    h3.ask("fighter " + " ".join("a%d" % i for i in range(30)),
           r"^too many words: a command takes at most 24 arguments; see !help$", chan=CHANNEL)
    h3.ask("create " + " ".join("w%d" % i for i in range(24)), r"^create needs an account")
    h3.ask("🥊🥊🥊 ümlaut 💥", r'^unknown command "🥊🥊🥊"')
    by.ask("Ж" * 30, r'^unknown command "Ж+')
    by.ask("fighters " + "Ж" * 30, r"^there is no account Ж+", chan=CHANNEL)
    h.ask("create Evil2 str=%d%d%d spd=12 agl=12 tgh=12 hgt=12",
          r"^str=%d%d%d is not a whole number", chan=CHANNEL)
    h.ask("help %s%s%s%s%s%s%n", r'^no command "%s%s%s%s%s%s%n"; say help for the list$')

    # Bot output must be valid UTF-8 (a cut inside a character is a bug to report).
    bad = list({m.raw: m for cl in (h, h2, h3, by) for m in cl.lines
                if cl.from_bot(m) and not m.utf8}.values())
    if bad and STRICT_UTF8:
        raise Failure("the bot sent invalid UTF-8", "\n".join(repr(m) for m in bad))
    for m in bad:
        notes.append("note: the bot sent invalid UTF-8 (a character cut in two): %r" % m)

    # Embedded CR and LF. ngircd cuts the line at a lone CR, so what follows
    # is a command of the client's own (here QUIT: this client goes) and the
    # bot gets "help"; InspIRCd relays the CR inside the message, so the bot
    # gets "help\rQUIT :split by CR" as one command.
    h4 = Client(env, "hostile4", [CHANNEL])
    since = env.log_size()
    h4.raw_bytes(b"PRIVMSG ringside :help\rQUIT :split by CR\r\n")
    if h4.wait_closed(5):
        env.wait_log(r" hostile4: help \(0 args\)$", since)
    else:
        h4.expect(r'^unknown command "help', strict=False)
        h4.quit()
    h4.close()
    h5 = Client(env, "hostile5", [CHANNEL])
    # (Private replies go before channel ones: any order.)
    h5.raw_bytes(b"PRIVMSG #ringside :!version\nPRIVMSG ringside :help fighter\r\n")
    h5.saw(r"^Ringside ", where=CHANNEL)
    h5.saw(r"^fighter \[name\]: shows ", where="private")
    start = len(h5.lines)
    h5.raw_bytes(b"PRIVMSG #ringside :!fighter Punchbag\rPRIVMSG #ringside :!version\r\n")
    # (InspIRCd passes the CR on: one command with too many arguments.)
    h5.saw(r"^Punchbag \(boxing|^too many arguments; usage: !fighter", where=CHANNEL, start=start)
    h5.quit()

    # A 600-byte line: the server may drop the client that sends it (ngircd
    # does); the bot must not notice anything.
    h6 = Client(env, "hostile6", [CHANNEL])
    h6.raw("PRIVMSG #ringside :!fighter " + "A" * 580)
    h6.raw("PRIVMSG ringside :help " + "B" * 580)
    h6.wait_closed(3)
    h6.close()
    # A NUL byte: ngircd stops reading that client at the NUL (nothing it
    # sends afterwards is ever processed); other servers may cut the line
    # there. Either way the bot must not care.
    h7 = Client(env, "hostile7", [CHANNEL])
    h7.raw_bytes(b"PRIVMSG ringside :version \x00QUIT\r\nPRIVMSG #ringside :!help\x00x\r\n")
    time.sleep(1)
    h7.close()

    # Nothing the bot sent held a CR or a NUL (the reader splits at LF).
    for cl in (h, h2, h3, h5, by):
        for m in cl.lines:
            check(not (cl.from_bot(m) and (b"\r" in m.raw or b"\0" in m.raw)),
                  "the bot sent a CR or NUL inside a line: %r" % m.raw)
    by.ask("version", r"^Ringside \d", chan=CHANNEL)
    by.ask("fighter Punchbag", r"^Punchbag \(boxing, hostile\): STR 12 ", chan=CHANNEL)
    for cl in (h, h2, h3):
        cl.quit()
    by.quit()
    check(env.bot_alive(), "the bot died", tail(env.bot_log, 30))
    after = env.snapshot()
    check(after == before, "hostile input changed the database",
          "before: %r\nafter:  %r" % (before, after))
    return notes



# What the bot may send: the bytes of its own formatting (bold, colour,
# reset) and printable UTF-8; never a control byte that came from a user.
BOT_CONTROLS_KEPT = b"\x02\x03\x0f"
FFFD = "\ufffd"


def foreign_bytes(raw):
    """Why the raw line the bot sent is not clean UTF-8 without a user's
    control bytes, or None when it is."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return "invalid UTF-8 (%s)" % e.reason
    # The line as relayed: ":prefix PRIVMSG target :text"; a CTCP reply's
    # framing \x01 is the bot's own.
    body = raw.split(b" :", 1)[1] if b" :" in raw else raw
    if body.startswith(b"\x01") and body.endswith(b"\x01") and raw.split(b" ")[1] == b"NOTICE":
        body = body[1:-1]
    for c in body:
        if (c < 0x20 and bytes([c]) not in BOT_CONTROLS_KEPT) or c == 0x7f:
            return "control byte 0x%02x" % c
    for ch in text:
        if 0x80 <= ord(ch) <= 0x9f:
            return "C1 control U+%04X" % ord(ch)
    return None


def s_hostile_bytes(env):
    """Invalid UTF-8 and control bytes in a command, a fighter's name and a
    chat order: every line the bot sends is valid UTF-8 with no control byte
    of the user's (U+FFFD instead), checked on the raw bytes received."""
    u = Client(env, "bytesman", [CHANNEL])
    by = Client(env, "onlooker", [CHANNEL])
    # An unknown command, and help for one, with a cut character and
    # controls (no command "\xe2\x82" went out raw).
    u.raw(b"PRIVMSG ringside :help \xe2\x82\x16\x1b[31m\x7f")
    u.expect(r'^no command "%s{2}%s{2}\[31m%s"; say help for the list$' % (FFFD, FFFD, FFFD),
             where="private")
    u.pace()
    u.raw(b"PRIVMSG ringside :\xff\xfebad\x02bold\x0f\x03" + b"4red")
    u.expect(r'^unknown command "%s{2}bad%sbold%s%s4red"; say help for the list$' %
             (FFFD, FFFD, FFFD, FFFD), where="private")
    # A fighter's name: formatting typed by a user never reaches the channel.
    u.pace()
    u.raw(b"PRIVMSG #ringside :!fighter Ab\x02c\x03" + b"4\xc3")
    u.expect(r'^"Ab%sc%s4%s" is not a fighter\'s name' % (FFFD, FFFD, FFFD), where=CHANNEL)
    # A chat order: orders said in the channel are quoted back.
    u.pace()
    u.raw(b"PRIVMSG #ringside :!3/2 \x02jab\x03" + b"04 \xe2\x82\xac \xe2\x82 \x7f")
    u.expect(r"^send your orders to me in private, not here: /msg ringside 3/2 %sjab%s04 € %s{2} %s$"
             % (FFFD, FFFD, FFFD, FFFD), where=CHANNEL)
    # A CTCP PING's argument comes back cleaned, inside the bot's framing.
    u.pace()
    u.raw(b"PRIVMSG ringside :\x01PING 12\x02\xff34\x01")
    u.wait(lambda m: u.from_bot(m) and m.cmd == "NOTICE" and b"PING 12" in m.raw,
           "the CTCP PING reply")
    by.ask("version", r"^Ringside \d", chan=CHANNEL)
    bad = ["%s: %r" % (why, m.raw) for cl in (u, by) for m in cl.lines
           if cl.from_bot(m) for why in [foreign_bytes(m.raw)] if why]
    check(not bad, "the bot sent bytes a user typed", "\n".join(bad))
    ping = [m.raw for m in u.lines if u.from_bot(m) and m.cmd == "NOTICE"]
    check(ping and ping[-1].endswith(b":\x01PING 12\xef\xbf\xbd\xef\xbf\xbd34\x01"),
          "the CTCP PING reply was not cleaned: %r" % ping)
    u.quit()
    by.quit()


def s_identity(env):
    """An identity follows its nick through a change and ends when its owner
    leaves the bot's channels; the old nick carries nothing. Someone in none
    of the bot's channels cannot register. CTCP VERSION and PING answer."""
    pw = secret(env, "carol-pw-314")
    a = Client(env, "carol", [CHANNEL])
    a.ask("register " + pw, r"^account carol registered")
    a.ask("create Carla str=12 spd=12 agl=12 tgh=12 hgt=12", r"^Carla \(boxing\) is ready")
    a.raw("NICK carol_away")
    a.wait(lambda m: m.cmd == "NICK" and m.text == "carol_away", "the nick change")
    a.nick = "carol_away"
    m = Client(env, "carol", [CHANNEL])
    m.ask("retire Carla", r"^retire needs an account", chan=CHANNEL)
    m.quit()
    a.ask("fighter", r"^Carla \(boxing, carol\): STR 12 ")
    start = len(a.lines)
    a.raw("PART %s :brb" % CHANNEL)
    a.wait(lambda m: m.cmd == "PART", "leaving the channel", start=start)
    a.ask("fighter", r"^which fighter\? fighter <name> \(or identify to see yours\)$")
    a.join(CHANNEL)
    a.ask("train str", r"^train needs an account")
    a.quit()
    check(env.fighter("Carla")["retired"] == 0, "Carla was retired")

    o = Client(env, "outsider", [])
    o.ask("register " + secret(env, "outsider-pw-1"), r"^join #ringside first: I only keep you identified while "
          r"we share a channel$")
    check(env.account("outsider") is None, "an account was made for someone outside")
    o.pace()
    o.raw("PRIVMSG %s :\x01VERSION\x01" % BOT_NICK)
    o.expect(r"^\x01VERSION Ringside \d+\.\d+\.\d+\x01$")
    o.pace()
    o.raw("PRIVMSG %s :\x01PING 1234567\x01" % BOT_NICK)
    o.expect(r"^\x01PING 1234567\x01$")
    o.quit()


def s_restart(env):
    pw = secret(env, "sleeper-pw-5")
    c = Client(env, "sleeper", [CHANNEL])
    c.ask("register " + pw, r"^account sleeper registered, and you are identified")
    c.ask("create Sleepy str=12 spd=12 agl=12 tgh=12 hgt=12", r"^Sleepy \(boxing\) is ready")
    since = env.log_size()
    t0 = time.monotonic()
    env.stop_server()
    c.wait_closed(10)
    c.close()
    env.wait_log(r"disconnected \(", since, timeout=10)
    env.start_server()
    env.wait_bot_in(CHANNEL, timeout=RECONNECT_TIMEOUT)
    took = time.monotonic() - t0
    log = env.log_text(since)
    check(re.search(r"registered on 127\.0\.0\.1:%d as ringside" % env.port, log),
          "no new registration in the log", tail(env.bot_log, 10))
    c = Client(env, "sleeper", [CHANNEL])
    # (A reply the server had not confirmed when it stopped is sent again
    # after the reconnection: it may come first.)
    c.ask("version", r"^Ringside \d", chan=CHANNEL, strict=False)
    # The identity did not survive the reconnection; the account did.
    c.ask("create Sleepier str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account")
    c.ask("identify " + pw, r"^you are identified as sleeper ")
    c.ask("fighter", r"^Sleepy \(boxing, sleeper\): STR 12 ")
    c.quit()
    check(env.fighter("Sleepy") is not None, "Sleepy is gone from the database")
    check(env.fighter("Sleepier") is None, "Sleepier was created without an identity")
    return ["reconnected and rejoined %.1f s after the server stopped" % took]


# The limit's first reply (when the next command is taken: a few seconds,
# at most the 30 s a flood is held off past the pace), and how many it may
# give in those 30 s: one every 5 s (bot/bot.h USERS_RATE_TELL_EVERY).
WARNED = re.compile(r"too many commands: I take yours again in ([1-9]|[12]\d|3[0-2]) seconds?; "
                    r"at most %d at once, then one every 2 seconds, please " % RATE_CMDS)
TOLD_MAX = 1 + 30 // 5


def s_burst(env):
    """50 commands as fast as possible from two nicks; the bot answers 5 each,
    warns each once (then says how long is left at most every 5 s), paces its
    output and stays connected."""
    since = env.log_size()
    before = env.snapshot()
    w = Client(env, "observer7", [CHANNEL])
    f1 = Client(env, "flood1", [CHANNEL])
    f2 = Client(env, "flood2", [CHANNEL])
    t0 = time.monotonic()
    f1.raw_bytes(b"".join(b"PRIVMSG #ringside :!version\r\n" for _ in range(25)))
    f2.raw_bytes(b"".join(b"PRIVMSG ringside :version\r\n" for _ in range(25)))

    # Lines from the bot: channel ones as the observer saw them, private ones
    # as their addressee saw them.
    def bot_lines():
        out = []
        for m in w.lines:
            if w.from_bot(m) and m.target.lower() == CHANNEL:
                out.append(m)
        for cl in (f1, f2):
            for m in list(cl.lines):
                if cl.from_bot(m) and m.target.lower() == cl.nick:
                    out.append(m)
        return sorted((m for m in out if m.t >= t0), key=lambda m: m.t)

    # Wait for the answers: 5 replies + 1 notice per nick at most; stop when
    # 12 came or nothing came for 6 s.
    deadline = t0 + 60
    last_n, last_change = 0, time.monotonic()
    while time.monotonic() < deadline:
        n = len(bot_lines())
        if n != last_n:
            last_n, last_change = n, time.monotonic()
        if n >= 12 or (n and time.monotonic() - last_change > 6):
            break
        time.sleep(0.2)
    time.sleep(2)  # anything late still counts below
    lines = bot_lines()
    detail = "\n".join("%+.2f s %r" % (m.t - t0, m) for m in lines)

    def count(pred):
        return sum(1 for m in lines if pred(m))
    r1 = count(lambda m: m.target.lower() == CHANNEL and m.text.startswith("flood1: Ringside"))
    # The first word past the limit says it all; a later one (ngircd may
    # pass the burst on slowly) only how long is left, at most every 5 s.
    w1 = count(lambda m: m.target == "flood1" and WARNED.match(m.text))
    w2 = count(lambda m: m.target == "flood2" and WARNED.match(m.text))
    n1 = count(lambda m: m.target == "flood1" and m.text.startswith("too many commands"))
    r2 = count(lambda m: m.target == "flood2" and m.text.startswith("Ringside "))
    n2 = count(lambda m: m.target == "flood2" and m.text.startswith("too many commands"))
    other = len(lines) - r1 - n1 - r2 - n2
    check(other == 0, "%d unexpected lines from the bot" % other, detail)
    check(1 <= r1 <= RATE_CMDS and 1 <= r2 <= RATE_CMDS,
          "replies per flooding nick: flood1 %d, flood2 %d (want 1 to %d)" % (r1, r2, RATE_CMDS),
          detail)
    check(w1 == 1 and w2 == 1, "'too many commands' warnings: flood1 %d, flood2 %d (want 1 each)"
          % (w1, w2), detail)
    check(n1 <= TOLD_MAX and n2 <= TOLD_MAX, "'too many commands' notices: flood1 %d, flood2 %d "
          "(want at most %d each)" % (n1, n2, TOLD_MAX), detail)
    check(lines[-1].t - t0 < 40, "the last reply came %.1f s after the burst" %
          (lines[-1].t - t0), detail)
    # Pacing: any 10 s window holds at most burst + 10 lines; and, looser
    # than a token bucket by 3 lines of jitter, any shorter window too.
    times = [m.t for m in lines]
    for i in range(len(times)):
        for j in range(i, len(times)):
            span, k = times[j] - times[i], j - i + 1
            if span <= 10:
                check(k <= PACING_BURST + 10, "%d lines within 10 s" % k, detail)
            check(k <= PACING_BURST + PACING_RATE * span + 3,
                  "%d lines within %.2f s: faster than the pacing (burst %d, %g/s)" %
                  (k, span, PACING_BURST, PACING_RATE), detail)
    # Still connected, still in the channel, still answering.
    log = env.log_text(since)
    check("disconnected" not in log, "the bot was disconnected during the burst",
          tail(env.bot_log, 20))
    fresh = Client(env, "fresh7", [CHANNEL])
    names = fresh.wait(lambda m: m.cmd == "353", "NAMES of #ringside")
    check(BOT_NICK in [x.lstrip("~&@%+!") for x in names.text.split()],
          "the bot is not in #ringside after the burst: %r" % names)
    fresh.ask("version", r"^Ringside \d", chan=CHANNEL)
    for cl in (fresh, f1, f2, w):
        cl.quit()
    check(env.snapshot() == before, "the burst changed the database")
    spread = lines[-1].t - lines[0].t
    return ["burst: %d lines from the bot over %.1f s (flood1 %d+%d, flood2 %d+%d)" %
            (len(lines), spread, r1, n1, r2, n2)]


def s_admin(env):
    bpw = secret(env, "boss-pw-2024")
    vpw = secret(env, "victim-pw-11")
    boss = Client(env, ADMIN, [CHANNEL])
    v = Client(env, "victim", [CHANNEL])
    env.add_admin(ADMIN, bpw)
    boss.ask("identify " + bpw, r"^you are identified as boss ")
    v.ask("register " + vpw, r"^account victim registered")
    v.ask("ban boss", r"^ban is for the bot's admins only$", chan=CHANNEL)
    boss.ask("ban victim", r"^victim is banned and was logged out$", chan=CHANNEL)
    check(env.account("victim")["banned"] == 1, "victim is not banned in the database")
    v.ask("create Vic str=12 spd=12 agl=12 tgh=12 hgt=12",
          r"^the account victim is banned: only what needs no account is open to you \(help, "
          r"version, .*bouts, score, report, standings")
    v.ask("identify " + vpw, r"^the account victim is banned; ask an admin$")
    boss.ask("unban victim", r"^victim is no longer banned$")
    check(env.account("victim")["banned"] == 0, "victim is still banned in the database")
    v.ask("identify " + vpw, r"^you are identified as victim ")
    boss.ask("ban nobody-here", r"^there is no account nobody-here$")
    boss.ask("unban boss", r"^boss is not banned$", chan=CHANNEL)
    o = Client(env, "outsider8", [CHANNEL])
    o.ask("ban victim", r"^ban needs an account", chan=CHANNEL)
    for cl in (boss, v, o):
        cl.quit()
    check(env.account("victim")["banned"] == 0 and env.account("boss")["banned"] == 0,
          "ban flags: %r %r" % (env.account("victim"), env.account("boss")))


def s_sighup(env):
    c = Client(env, "hupper", [CHANNEL2])
    since = env.log_size()
    env.write_bot_config(channels=(CHANNEL, CHANNEL2))
    start = len(c.lines)
    env.bot.send_signal(signal.SIGHUP)
    c.wait(lambda m: m.cmd == "JOIN" and m.nick.lower() == BOT_NICK and
           m.text.lower() == CHANNEL2, "the bot joining %s after SIGHUP" % CHANNEL2, start=start)
    env.wait_log(r"configuration reloaded", since)
    c.ask("version", r"^Ringside \d", chan=CHANNEL2)

    # A bad file: refused, the bot keeps running as it was.
    since = env.log_size()
    with open(env.bot_conf, "w") as f:
        f.write("[irc]\nserver = 127.0.0.1\nno_such_key = 1\n[bot]\nlog_level = loud\n")
    env.bot.send_signal(signal.SIGHUP)
    env.wait_log(r" error reload refused, keeping the running configuration: .*no_such_key", since)
    time.sleep(0.5)
    check(env.bot_alive(), "the bot died on a bad configuration", tail(env.bot_log, 20))
    c.ask("help version", r"^!version: says which Ringside this is$", chan=CHANNEL2)

    # The first configuration again: the bot leaves #second.
    env.write_bot_config()
    start = len(c.lines)
    env.bot.send_signal(signal.SIGHUP)
    c.wait(lambda m: m.cmd == "PART" and m.nick.lower() == BOT_NICK,
           "the bot leaving %s after SIGHUP" % CHANNEL2, start=start)
    c.quit()


def s_kick_rejoin(env):
    """Kicked by a channel operator, the bot comes back after its delay;
    identities held only through that channel end with the kick."""
    chan = "#kickme"
    op = Client(env, "kickop", [chan])  # first in: a channel operator
    pw = secret(env, "kicked-pw-77")
    env.write_bot_config(channels=(CHANNEL, chan))
    start = len(op.lines)
    env.bot.send_signal(signal.SIGHUP)
    op.wait(lambda m: m.cmd == "JOIN" and m.nick.lower() == BOT_NICK and m.text.lower() == chan,
            "the bot joining %s" % chan, start=start)
    op.ask("register " + pw, r"^account kickop registered")
    since = env.log_size()
    kicked_at = time.monotonic()
    start = len(op.lines)
    op.raw("KICK %s %s :testing the rejoin" % (chan, BOT_NICK))
    env.wait_log(r"kicked from #kickme; rejoining in 15 s", since)
    # kickop shared only #kickme with the bot: his identity ended.
    op.ask("create Kicky str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account")
    op.wait(lambda m: m.cmd == "JOIN" and m.nick.lower() == BOT_NICK and m.text.lower() == chan,
            "the bot rejoining %s" % chan, start=start, timeout=40)
    waited = time.monotonic() - kicked_at
    check(waited >= 14, "the bot rejoined after %.1f s, before its 15 s delay" % waited)
    op.ask("version", r"^Ringside \d", chan=chan)
    env.write_bot_config()
    env.bot.send_signal(signal.SIGHUP)
    op.quit()
    return ["rejoined %.1f s after the kick" % waited]


def s_nick_regain(env):
    """Someone holds the bot's nick when it connects: it takes the
    alternative, answers under it, and takes its nick back when it frees."""
    env.stop_bot()
    # In the channel, so the bot sees him quit (else it retries each minute).
    # The server may take a moment to free the nick of the bot that quit.
    for attempt in range(20):
        try:
            squatter = Client(env, BOT_NICK, [CHANNEL])
            break
        except Failure:
            if attempt == 19:
                raise
            time.sleep(0.5)
    env.write_bot_config()
    # The alternative nick goes in [irc].
    with open(env.bot_conf) as f:
        conf = f.read()
    conf = conf.replace("nick = %s\n" % BOT_NICK, "nick = %s\nalt_nick = ringside_alt\n" % BOT_NICK)
    with open(env.bot_conf, "w") as f:
        f.write(conf)
    since = env.log_size()
    envvars = dict(os.environ)
    envvars.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    log = open(env.bot_log, "ab")
    env.bot = subprocess.Popen([env.bot_path, "-c", env.bot_conf], cwd=env.dir, env=envvars,
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                               start_new_session=True)
    log.close()
    env.wait_log(r"registered on .* as ringside_alt", since)
    c = Client(env, "regainer", [CHANNEL])
    c.raw("PRIVMSG ringside_alt :version")
    c.wait(lambda m: m.cmd == "PRIVMSG" and m.nick.lower() == "ringside_alt" and
           m.text.startswith("Ringside "), "a reply from ringside_alt")
    since = env.log_size()
    squatter.quit()
    env.wait_log(r"now known as ringside$", since, timeout=30)
    c.ask("version", r"^Ringside \d", chan=CHANNEL)
    c.quit()
    # Back to the usual configuration for what follows.
    env.stop_bot()
    env.start_bot()


def s_sigterm(env):
    c = Client(env, "closer", [CHANNEL])
    start = len(c.lines)
    t0 = time.monotonic()
    env.bot.send_signal(signal.SIGTERM)
    m = c.wait(lambda m: m.cmd == "QUIT" and m.nick.lower() == BOT_NICK,
               "the bot's QUIT", start=start, timeout=10)
    try:
        rc = env.bot.wait(15)
    except subprocess.TimeoutExpired:
        raise Failure("the bot still runs 15 s after SIGTERM", tail(env.bot_log, 10))
    took = time.monotonic() - t0
    c.quit()
    check(rc == 0, "the bot exited with status %d after SIGTERM" % rc, tail(env.bot_log, 30))
    check(took < 8, "the bot took %.1f s to exit" % took)
    check(re.search(r"going to sleep", m.text), "QUIT message: %r" % m)
    check(re.search(r" info stopped$", env.log_text(), re.M), "the log does not end with 'stopped'",
          tail(env.bot_log, 5))
    return ["exited 0 %.1f s after SIGTERM" % took]


def s_league(env):
    """An admin runs a SUGAR RAY league turn in the channel; standings,
    league and report show its effect. The plans decide the bouts: the
    attacker (4/0) outpoints both defenders (0/3), who draw each other."""
    bpw = secret(env, "boss-pw-2024")
    boss = Client(env, ADMIN, [CHANNEL])
    env.add_admin(ADMIN, bpw)
    boss.ask("identify " + bpw, r"^you are identified as boss |^you are already")
    players = []
    for nick, fighter, plan in (("lg_att", "Attila", "4/0"), ("lg_def1", "Doris", "0/3"),
                                ("lg_def2", "Dora", "0/3")):
        c = Client(env, nick, [CHANNEL])
        c.ask("register " + secret(env, nick + "-pw-99"), r"^account %s registered" % nick)
        c.ask("create %s rules=sugarray" % fighter, r"^%s \(sugarray\) is ready" % fighter)
        c.ask("plan set " + plan, r"^%s's plan stored" % fighter)
        c.ask("league " + fighter, r"^%s is in BRONZE \(sugarray\)" % fighter)
        players.append(c)
    watcher = players[0]
    before = len(watcher.lines)

    def said(regex):
        rx = re.compile(regex)
        return watcher.wait(lambda m: watcher.from_bot(m) and m.target.lower() == CHANNEL.lower()
                            and rx.search(m.text), "/%s/ in %s" % (regex, CHANNEL), start=before)
    boss.cmd("turn rules=sugarray", CHANNEL)
    said(r"^League turn \d+ \(sugarray\): 3 bouts fought from the plans: BRONZE #\d+-#\d+\.$")
    said(r"^BRONZE: 3 fought; up: [^;]*Attila")
    # The summary is a few lines, never one per bout.
    time.sleep(3)
    summary = [m for m in watcher.lines[before:]
               if watcher.from_bot(m) and m.target.lower() == CHANNEL.lower()]
    check(len(summary) <= 5, "the turn's summary has %d lines" % len(summary),
          "\n".join(repr(m) for m in summary))
    watcher.skip()
    watcher.ask("standings silver rules=sugarray", r"^SILVER \(sugarray\): .*Attila \(lg_att\) 2-0-0",
                chan=CHANNEL)
    watcher.ask("league Attila", r"^Attila is in SILVER \(sugarray\): record 2-0-0")
    row = env.fighter("Attila")
    check(row is not None and row["league"] == "silver" and row["wins"] == 2,
          "Attila in the database: %r" % (dict(row) if row else None,))
    bouts = env.query("SELECT b.id FROM bouts b JOIN fighters f ON f.id IN (b.fighter_a, b.fighter_b)"
                      " WHERE f.name = 'Attila' AND b.kind = 'league' AND b.state = 'over'")
    check(len(bouts) == 2, "Attila's league bouts in the database: %r" % (bouts,))
    # Asked in the channel, the report comes in private, and one line there.
    start = len(watcher.lines)
    watcher.cmd("report %d" % bouts[0][0], CHANNEL)
    watcher.saw(r"^bout #%d, \w+ vs \w+ \(\w+\): .* The report of rounds 1 to \d+ is sent to "
                r"you in private\.$" % bouts[0][0], where=CHANNEL, start=start)
    watcher.saw(r"^Report of bout #%d, rounds 1 to \d+:" % bouts[0][0], where="private",
                start=start)
    watcher.saw(r"^Round 1 of 5", where="private", start=start)
    for c in players + [boss]:
        c.quit()


def sim_figures(env, argv):
    """ringside-sim --json ARGV's bouts, counted from side a's point of view:
    (bouts, wins, losses, draws, rounds, {method: wins}, {method: losses})."""
    out = subprocess.run([env.sim_path, "--json"] + argv, check=True,
                         stdout=subprocess.PIPE, timeout=120).stdout.decode()
    n = [0, 0, 0, 0, 0, collections.Counter(), collections.Counter()]
    for line in out.splitlines():
        bout = json.loads(line)
        if "stats" in bout:
            continue
        res = bout["result"]
        n[0] += 1
        n[4] += res["round"]
        if res["winner"] == "a":
            n[1] += 1
            n[5][res["method"].lower()] += 1
        elif res["winner"] == "b":
            n[2] += 1
            n[6][res["method"].lower()] += 1
        else:
            n[3] += 1
    return n


def sim_percent(k, of):
    """A share as the sim command writes it (game/simulate.c)."""
    p = int(math.floor(100.0 * k / of + 0.5))  # halves up
    if k > 0 and p == 0:
        return "<1%"
    if k < of and p == 100:
        return ">99%"
    return "%d%%" % p


def s_sim(env):
    """sim, in private: one line, later, whose figures are ringside-sim's for
    the same sheets, plans and seed (his stored plan never read); in the
    channel one line telling to /msg the bot; bad words one line each; a
    second one at once must wait. Nothing in the database changes."""
    sheet_a = "str=14 spd=12 agl=11 tgh=12 hgt=11"
    sheet_b = "str=12 spd=13 agl=11 tgh=13 hgt=11"
    plan = "5/6/9; if opp is weak then 8/8/4 (allout); 10) if score < 0 then 6H/8!/6 (inside)"
    hisplan = "6/6/8 (inside); if opp is weak then 8/8/4 (allout)"
    a = Client(env, "simmer", [CHANNEL])
    a.ask("register " + secret(env, "simmer-pw-1"), r"^account simmer registered")
    a.ask("create Simba " + sheet_a, r"^Simba \(boxing\) is ready")
    a.ask("plan set " + plan, r"^Simba's plan stored")
    o = Client(env, "simfoe", [CHANNEL])
    o.ask("register " + secret(env, "simfoe-pw-1"), r"^account simfoe registered")
    o.ask("create Nala " + sheet_b, r"^Nala \(boxing\) is ready")
    o.ask("create Kovu rules=sugarray", r"^Kovu \(sugarray\) is ready")
    # Read, this plan would lose every bout in round 1.
    o.ask("plan set Nala if round >= 1 then towel", r"^Nala's plan stored")
    o.quit()
    before = env.snapshot()

    a.ask("sim Simba vs Nala", r"^sim works only in private: /msg ringside sim "
          r"\.\.\.$", chan=CHANNEL)
    a.ask("sim Simba vs Nala bouts=0", r"^bouts=0: give a whole number of bouts from 1 to "
          r"10,000 \(without it: 1,000\)$")
    a.ask("sim Simba vs Nala bouts=10001", r"^bouts=10001: give a whole number")
    a.ask("sim Simba vs Nala bouts=lots", r"^bouts=lots: give a whole number")
    a.ask("sim Simba vs Nobody", r"^there is no fighter Nobody")
    a.ask("sim Simba vs Kovu", r"^Kovu is a SUGAR RAY fighter and Simba a boxing one")
    a.ask("sim Nala vs Simba", r"^Nala belongs to simfoe, not to you")
    a.ask("sim Simba vs Nala plan=5/5/10; 8/8/8",
          r"^plan= refused, nothing simulated: line 2, column 2: AGG\+POW\+DEF = 24, the most is 20$")

    seed, bouts = 4242, 2000
    a.pace()
    t0 = time.monotonic()
    a.cmd("sim Simba vs Nala bouts=%d seed=%d hisplan=%s" % (bouts, seed, hisplan), pace=False)
    text = a.expect(r"^Simba \(stored plan\) vs Nala \(plan given\), 2,000 bouts, seed 4242: ",
                    where="private", timeout=60)
    took = time.monotonic() - t0
    a.ask("sim Simba vs Nala", r"^one simulation every 30 seconds, please: try again in "
          r"\d+ seconds?$")
    time.sleep(1.5)
    extra = a.bot_replies(a.cursor)
    check(not extra, "more replies than commands: %r" % extra)
    a.quit()
    check(env.snapshot() == before, "sim changed the database")

    m = re.match(r"^Simba \(stored plan\) vs Nala \(plan given\), 2,000 bouts, seed 4242: "
                 r"Simba wins ([\d,]+)(?: \(([^)]*)\))?, loses ([\d,]+)(?: \(([^)]*)\))?, "
                 r"draws ([\d,]+); ([\d.]+) rounds? on average\.$", text)
    check(m, "the answer's wording: %r" % text)
    notes = ["%d bouts answered %.2f s after the command: %s" % (bouts, took, text)]
    if not env.sim_path:
        notes.append("no ringside-sim beside the bot (nor given): figures not compared")
        return notes
    n = sim_figures(env, ["--seed", str(seed), "--bouts", str(bouts), "--a", "Simba " + sheet_a,
                          "--b", "Nala " + sheet_b, "--plan-a", plan, "--plan-b", hisplan])
    want_methods = ("ko", "tko", "dq", "decision")

    def methods(c):
        return ", ".join("%s %s" % (k.upper() if k != "decision" else k, sim_percent(c[k], n[0]))
                         for k in want_methods)
    rounds = n[4] / n[0]
    want = ("Simba (stored plan) vs Nala (plan given), 2,000 bouts, seed 4242: Simba wins "
            "{:,}{}, loses {:,}{}, draws {:,}; {} on average.".format(
                n[1], " (%s)" % methods(n[5]) if n[1] else "", n[2],
                " (%s)" % methods(n[6]) if n[2] else "", n[3],
                "%d round%s" % (n[4] // n[0], "" if n[4] == n[0] else "s")
                if n[4] % n[0] == 0 else "%.1f rounds" % rounds))
    check(text == want, "the bot and ringside-sim differ",
          "bot:          %s\nringside-sim: %s" % (text, want))
    notes.append("ringside-sim --seed %d --bouts %d agrees: %d-%d-%d, %d rounds in all" %
                 (seed, bouts, n[1], n[2], n[3], n[4]))
    return notes


SCENARIOS = [
    ("help", s_help),
    ("register, identify, create, look up", s_register),
    ("impersonation after quit", s_impersonation),
    ("password said in a channel", s_password_in_channel),
    ("hostile input", s_hostile),
    ("invalid UTF-8 and control bytes never echoed", s_hostile_bytes),
    ("server restart and reconnection", s_restart),
    ("burst of 50 commands", s_burst),
    ("admin ban and unban", s_admin),
    ("SIGHUP reload", s_sighup),
    ("nick change, part, outsider, CTCP", s_identity),
    ("league turn by an admin, standings", s_league),
    ("sim in private, against ringside-sim", s_sim),
    ("kicked, then back after the delay", s_kick_rejoin),
    ("nick in use: alternative nick, then regained", s_nick_regain),
    ("SIGTERM goodbye", s_sigterm),
]


def selected(scenarios):
    """The scenarios E2E_ONLY names (numbers, names or function names), in
    their order; all of them when it is not set."""
    only = os.environ.get("E2E_ONLY", "").strip()
    if not only:
        return list(scenarios)
    want = [w.strip() for w in only.split(",") if w.strip()]
    return [(name, fn) for i, (name, fn) in enumerate(scenarios, 1)
            if str(i) in want or name in want or fn.__name__ in want or fn.__name__[2:] in want]


def run_suite(env, scenarios, label, stopping=None, before_restart=None):
    """Runs `scenarios` against `env` (server and bot started first),
    reporting each as ok/FAIL and, last, "N passed, N failed"; returns the
    exit status. `stopping` is the scenario that stops the bot on purpose;
    `before_restart(env)` runs before the bot is started again after a
    scenario left it down. Processes are always cleaned up."""
    def on_term(sig, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)  # even when started with SIGINT ignored

    passed = failed = 0
    t_start = time.monotonic()
    stop_names = {n for n, f in scenarios if f is stopping}
    print("# %s, files in %s" % (label, env.dir), flush=True)

    def report_failure(name, e, t):
        print("FAIL - %s: %s" % (name, e if isinstance(e, Failure) else
                                  "%s: %s" % (type(e).__name__, e)), flush=True)
        detail = e.detail if isinstance(e, Failure) else traceback.format_exc()
        if env.bot is not None and env.bot.poll() is not None and name not in stop_names:
            print("#   the bot is not running: exit status %s" % env.bot.returncode)
        for line in (detail or "").splitlines():
            print("#   " + line)
        print("#   bot log (last lines):")
        for line in tail(env.bot_log, 25).splitlines():
            print("#   | " + line)
        print("#   (%.1f s)" % (time.monotonic() - t), flush=True)

    try:
        t = time.monotonic()
        try:
            for attempt in range(3):
                try:
                    env.start_server()
                    break
                except Failure:
                    # Someone may have taken the free port meanwhile.
                    if attempt == 2:
                        raise
                    env.stop_server()
                    env.port = free_port()
            print("# %s on 127.0.0.1:%d" % (env.server, env.port), flush=True)
            env.start_bot()
            started = True
        except Exception as e:
            report_failure("start", e, t)
            failed += 1
            started = False
        for name, fn in scenarios if started else []:
            t = time.monotonic()
            log_from = env.log_size()
            try:
                # A scenario before may have left the server or the bot down.
                if env.ircd is None or env.ircd.poll() is not None:
                    print("#   (the IRC server was down: started it again)")
                    env.start_server()
                if not env.bot_alive() and fn is not stopping:
                    print("#   (the bot was not running: started it again)")
                    if before_restart:
                        before_restart(env)
                    env.start_bot()
                notes = fn(env)
                env.common_checks(log_from, expect_alive=fn is not stopping)
                passed += 1
                print("ok - %s" % name, flush=True)
                for n in notes or []:
                    print("#   %s" % n)
                print("#   (%.1f s)" % (time.monotonic() - t), flush=True)
            except Exception as e:  # a failed check, or a broken test: report, go on
                failed += 1
                report_failure(name, e, t)
            finally:
                for c in list(env.clients):
                    c.close()
    except KeyboardInterrupt:
        print("# interrupted", flush=True)
        failed += 1
    finally:
        env.cleanup()
        if failed or env.keep:
            print("# files kept in %s" % env.dir)
        else:
            shutil.rmtree(env.dir, ignore_errors=True)
    print("# total %.1f s" % (time.monotonic() - t_start))
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: python3 tests/e2e/e2e.py BOT [SIM]   (e.g. build/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    bot = argv[1]
    if not os.access(bot, os.X_OK):
        print("e2e: %s is not an executable; run make first" % bot, file=sys.stderr)
        return 2
    server = os.environ.get("E2E_SERVER", "ngircd")
    if server not in ("ngircd", "inspircd", "hybrid"):
        print("e2e: E2E_SERVER must be ngircd, inspircd or hybrid", file=sys.stderr)
        return 2
    exe = "inspircd" if server == "inspircd" else "ngircd"
    if server == "hybrid":
        try:
            hybrid_binary()
        except Failure as e:
            print("e2e: %s\n%s" % (e, e.detail), file=sys.stderr)
            return 2
    elif not shutil.which(exe) and not os.path.exists("/usr/sbin/" + exe):
        print("e2e: %s is missing; apt-get install -y %s" % (exe, exe), file=sys.stderr)
        return 2
    env = Env(bot, server)
    # The simulator, to compare `sim` with: given, else beside the bot.
    for cand in argv[2:] + [os.path.join(os.path.dirname(bot), "ringside-sim"),
                            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(bot))),
                                         "ringside-sim")]:
        if os.access(cand, os.X_OK):
            env.sim_path = os.path.abspath(cand)
            break
    return run_suite(env, selected(SCENARIOS), "e2e: %s against %s" % (bot, server),
                     stopping=s_sigterm)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
