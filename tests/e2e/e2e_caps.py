#!/usr/bin/env python3
"""e2e_caps.py - the IRCv3 capabilities the bot asks for and uses.

    python3 tests/e2e/e2e_caps.py BOT  (from the repository root; BOT e.g. build/asan/ringside)

  InspIRCd 3 linked to Atheme, with account-tag but WITHOUT its ircv3 module
  (so neither extended-join nor account-notify: the tag alone tells):
  1. account_tag: a player logged in to NickServ, in the bot's channel
     (JOIN without an account: no extended-join), creates a fighter in
     private: identified by the account tag of his message, no WHOIS sent
     (the bot's wire log); one logged in nowhere is told to get an account,
     again without a WHOIS. With echo-message and labeled-response each line
     the bot sends is confirmed by its labelled echo: no PING marker goes.
  A scripted server (this file), to send exactly the lines under test:
  2. scripted: the bot asks for account-tag, batch, server-time and
     standard-replies; a PRIVMSG's account tag identifies its sender (no
     WHOIS reaches the server); a netjoin batch passes; a command inside a
     chathistory batch (said before) is not run while the same command said
     live is; a FAIL on a PRIVMSG is logged and slows that channel.
     A private answer to a channel command carries
     +draft/channel-context=<channel> (message-tags offered), one to a
     private command none.
  ngircd (no such capabilities) is covered by every other suite, unchanged.

Prints `ok - NAME` or `FAIL - NAME: why` per scenario, then `N passed, N failed`;
exit status 1 on any failure. E2E_KEEP=1 keeps the temporary directory;
E2E_ONLY=name,... runs some.
"""

import os
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_net  # noqa: E402
from e2e import BOT_NICK, CHANNEL, TIMEOUT, Client, Failure, check, tail  # noqa: E402

IRCV3_MODULES = ("ircv3_accounttag", "ircv3_batch", "ircv3_servertime", "ircv3_msgid",
                 "ircv3_echomessage", "ircv3_labeledresponse")


class CapsNetEnv(e2e_net.NetEnv):
    """e2e_net's InspIRCd + Atheme, with the IRCv3 modules above loaded."""

    def start_server(self):
        orig = e2e_net.inspircd_config

        def config(env):
            extra = "".join('<module name="%s">\n' % m for m in IRCV3_MODULES)
            return orig(env).replace('<module name="cap">\n', '<module name="cap">\n' + extra)

        e2e_net.inspircd_config = config
        try:
            super().start_server()
        finally:
            e2e_net.inspircd_config = orig

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra)
        if getattr(self, "plain", False):
            with open(self.bot_conf) as f:
                t = f.read()
            with open(self.bot_conf, "w") as f:
                f.write(re.sub(r"tls = yes\ntls_ca_file = [^\n]*\n", "tls = no\n", t))


def s_account_tag(env):
    """Identified by the account tag alone: no WHOIS."""
    env.bot_port = env.port
    env.plain = True  # only the tag is under test
    since = env.log_size()
    env.start_bot()
    log = env.log_text(since)
    check(re.search(r"capabilities on: .*\baccount-tag\b", log), "the bot did not ask for account-tag",
          tail(env.bot_log, 20))
    a = e2e_net.services_user(env, "tagged", "tagged-ns-pw-4")
    e2e_net.tell(a, "create Tagger str=12 spd=12 agl=12 tgh=12 hgt=12",
                 r"^Tagger \(boxing\) is ready")
    c = Client(env, "untagged", [CHANNEL])
    e2e_net.tell(c, "create Nobody str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account")
    log = env.log_text(since)
    check(">> WHOIS" not in log, "the bot sent a WHOIS", tail(env.bot_log, 30))
    # Delivery confirmed by the labelled echoes: no PING marker.
    check("delivery confirmed by the server's echo of each message" in log,
          "labels were not used", tail(env.bot_log, 30))
    check(">> PING" not in log, "the bot sent a PING marker", tail(env.bot_log, 30))
    check(re.search(r"outq: marker \d+ answered, [1-9]\d* lines confirmed", log),
          "no line was confirmed", tail(env.bot_log, 30))
    check("account tagged made for tagged's services account" in log,
          "tagged was not identified by his account tag", tail(env.bot_log, 30))
    a.quit()
    c.quit()
    env.stop_bot()
    env.sanitizers_quiet()


class Scripted:
    """A one-connection IRC server on loopback that registers the bot,
    offers `offer`, records every line the bot sends, and sends what the
    test says."""

    def __init__(self, port, offer):
        self.offer = offer
        self.lines = []
        self.cond = threading.Condition()
        self.sock = None
        self.lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsock.bind(("127.0.0.1", port))
        self.lsock.listen(1)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def send(self, line):
        self.sock.sendall((line + "\r\n").encode())

    def serve(self):
        self.sock, _ = self.lsock.accept()
        buf = b""
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                with self.cond:
                    self.lines.append(line)
                    self.cond.notify_all()
                self.answer(line)

    def answer(self, line):
        words = line.split(" ")
        verb = words[0].upper()
        if verb == "CAP" and words[1:2] == ["LS"]:
            self.send(":fake.test CAP * LS :" + self.offer)
        elif verb == "CAP" and words[1:2] == ["REQ"]:
            self.send(":fake.test CAP * ACK " + " ".join(words[2:]))
        elif verb == "USER":
            for n, text in (("001", ":Welcome"), ("002", ":Your host is fake.test"),
                            ("003", ":made today"), ("004", "fake.test 1 i nt"),
                            ("005", "CHANTYPES=# CASEMAPPING=ascii :are supported"),
                            ("422", ":No MOTD")):
                self.send(":fake.test %s %s %s" % (n, BOT_NICK, text))
        elif verb == "JOIN":
            chan = words[1]
            self.send(":%s!bot@fake JOIN %s" % (BOT_NICK, chan))
            self.send(":fake.test 353 %s = %s :%s" % (BOT_NICK, chan, BOT_NICK))
            self.send(":fake.test 366 %s %s :End of NAMES" % (BOT_NICK, chan))
        elif verb == "PING":
            self.send(":fake.test PONG fake.test " + " ".join(words[1:]))

    def wait(self, pred, what, start=0, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(start, len(self.lines)):
                    if pred(self.lines[i]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure("the scripted server never got %s" % what,
                                  "\n".join(self.lines[-15:]))
                self.cond.wait(left)

    def close(self):
        for s in (self.sock, self.lsock):
            if s:
                try:
                    s.close()
                except OSError:
                    pass


class ScriptedEnv(e2e.Env):
    def start_server(self):
        self.script = Scripted(self.port, "account-tag batch server-time standard-replies "
                                          "message-tags multi-prefix")

    def stop_server(self):
        self.script.close()

    def wait_bot_in(self, chan, timeout=TIMEOUT, nick=None):
        self.script.wait(lambda l: l.startswith("JOIN ") and chan in l, "the bot's JOIN",
                         timeout=timeout)


def plain(line):
    """A line without its tags."""
    return line.split(" ", 1)[1] if line.startswith("@") and " " in line else line


def to(nick):
    return lambda l: re.match(r"(PRIVMSG|NOTICE) %s :" % re.escape(nick), plain(l)) is not None


def s_scripted(env):
    """Tags, batches and a FAIL, line by line."""
    since = env.log_size()
    env.start_bot()
    s = env.script
    s.wait(lambda l: l == "CAP REQ :account-tag server-time batch standard-replies message-tags",
           "the request for account-tag server-time batch standard-replies message-tags")
    s.wait(lambda l: l.startswith("JOIN "), "the JOIN")
    stamp = "@time=2026-11-26T00:00:00.000Z;account=alice"
    s.send(":alice!a@h JOIN %s" % CHANNEL)
    start = len(s.lines)
    s.send("%s :alice!a@h PRIVMSG %s :create Ally str=12 spd=12 agl=12 tgh=12 hgt=12" %
           (stamp, BOT_NICK))
    s.wait(lambda l: to("alice")(l) and "Ally (boxing) is ready" in l, "alice's fighter",
           start=start)
    check(not any(l.startswith("WHOIS") for l in s.lines), "the bot sent a WHOIS",
          "\n".join(s.lines[-10:]))
    answer = [l for l in s.lines[start:] if to("alice")(l)]
    check(not any("channel-context" in l for l in answer),
          "an answer to a private command carries a channel context", "\n".join(answer))
    # A netjoin passes; a command said before (history playback) is not run.
    s.send(":fake.test BATCH +nj1 netjoin irc.a irc.b")
    s.send("@batch=nj1 :carol!c@h JOIN %s" % CHANNEL)
    s.send(":fake.test BATCH -nj1")
    s.send(":fake.test BATCH +h1 chathistory %s" % CHANNEL)
    s.send("@batch=h1;account=olive :olive!o@h PRIVMSG %s :!help" % CHANNEL)
    s.send(":fake.test BATCH -h1")
    start = len(s.lines)
    s.send("@account=carol :carol!c@h PRIVMSG %s :!armoury" % CHANNEL)
    s.wait(lambda l: to("carol")(l), "a private answer to carol's live !armoury", start=start)
    answer = [l for l in s.lines[start:] if to("carol")(l)]
    check(all(l.startswith("@+draft/channel-context=%s " % CHANNEL) for l in answer),
          "a private answer to a channel command without +draft/channel-context",
          "\n".join(answer))
    check(not any(to("olive")(l) or ("olive" in l and l.startswith("PRIVMSG")) for l in s.lines),
          "the bot answered a command from a history playback", "\n".join(s.lines[-10:]))
    # A FAIL on a PRIVMSG: logged, and the channel slowed.
    s.send(":fake.test FAIL PRIVMSG TOO_FAST %s :slow down" % CHANNEL)
    env.wait_log(r"the server says FAIL PRIVMSG TOO_FAST %s: slow down" % CHANNEL, since)
    env.wait_log(r"the server throttled a line to %s" % CHANNEL, since)
    log = env.log_text(since)
    check("batch nj1 (netjoin) opens" in log, "the netjoin batch was not read",
          tail(env.bot_log, 20))
    env.stop_bot()
    for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        check(pat not in env.log_text(), "the bot's log has a report: %s" % pat,
              tail(env.bot_log, 40))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    only = [x for x in os.environ.get("E2E_ONLY", "").split(",") if x]
    passed = failed = 0
    certdir = tempfile.mkdtemp(prefix="ringside-certs-")
    try:
        fingerprint = e2e_net.make_certs(certdir)
        runs = [
            ("account_tag", lambda: CapsNetEnv(sys.argv[1], "inspircd", fingerprint, certdir),
             s_account_tag),
            ("scripted", lambda: ScriptedEnv(sys.argv[1], "scripted"), s_scripted),
        ]
        for name, make, fn in runs:
            if only and name not in only:
                continue
            env = make()
            if isinstance(env, e2e_net.NetEnv):
                env.no_ircv3 = True
            t0 = time.monotonic()
            try:
                env.start_server()
                fn(env)
                print("ok - %s (%.1f s)" % (name, time.monotonic() - t0), flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported
                failed += 1
                print("FAIL - %s: %s" % (name, e), flush=True)
                detail = getattr(e, "detail", "") or traceback.format_exc()
                for line in detail.splitlines():
                    print("#   " + line)
                print("#   bot log tail:")
                for line in tail(env.bot_log, 25).splitlines():
                    print("#   " + line)
                env.keep = True
            finally:
                env.cleanup()
                if env.keep:
                    print("#   files kept in %s" % env.dir)
                else:
                    shutil.rmtree(env.dir, ignore_errors=True)
    finally:
        shutil.rmtree(certdir, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
