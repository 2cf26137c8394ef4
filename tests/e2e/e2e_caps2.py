#!/usr/bin/env python3
"""e2e_caps2.py - the rest of issue 27's capabilities: draft/multiline, sts
and draft/relaymsg, against the real (ASan) bot.

    python3 tests/e2e/e2e_caps2.py BOT  (from the repository root; BOT e.g. build/asan/ringside)

  1. multiline: a scripted server (e2e_caps.py's, answering each labelled
     line with an ACK) offers batch, echo-message, labeled-response and
     draft/multiline=max-bytes=4096,max-lines=24: a player's private `help`
     (a long answer) arrives as multiline batches, line by line: BATCH +ref
     draft/multiline <nick> with the label, every PRIVMSG tagged batch=ref,
     BATCH -ref, no other line between, none over the limits, no PING
     marker (the labels confirm it);
  2. plain_ngircd and 3. plain_inspircd: the same `help` on ngircd and on
     InspIRCd 3 (neither offers draft/multiline) arrives as the same lines,
     plain;
  4. sts: InspIRCd 3 with ircv3_sts, a plaintext port and a TLS port whose
     certificate comes from a CA the test makes with openssl; the bot is
     configured with tls = no on the plaintext port, and trusts the test's
     CA through OpenSSL's SSL_CERT_FILE (no tls_ca_file: the default verify
     store). Offered sts=port=P, it logs so, reconnects at once with TLS on
     P, the certificate verified, joins its channel; the policy is in
     <database>.sts; started again, it goes straight to TLS;
  5. sts_bad: a scripted server offers sts=port=notaport: logged and
     ignored, the bot registers in plaintext;
  6. relaymsg: a scripted server offers draft/relaymsg=/: a relayed
     `alice/d` is served in the channel with the commands that need no
     account, and told how to play for the others.

Prints `ok - NAME` or `FAIL - NAME: why` per scenario, then `N passed, N failed`;
exit status 1 on any failure. E2E_KEEP=1 keeps the temporary directory;
E2E_ONLY=name,... runs some.
"""

import os
import re
import shutil
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_caps  # noqa: E402
import e2e_net  # noqa: E402
from e2e import BOT_NICK, CHANNEL, TIMEOUT, Client, Failure, check, tail  # noqa: E402

MULTILINE_OFFER = ("batch echo-message labeled-response message-tags "
                   "draft/multiline=max-bytes=4096,max-lines=24")
PLAYER = "dave"
LAST_LINE = "A duel needs no orders"
HELP_LINES = []  # the help as the scripted server got it, line by line


# The bot's host as the scripted server shows it (its JOIN): long, so that
# whenever the bot learns its prefix the help's longest lines are cut.
LONG_HOST = "a-rather-long-cloak-for-the-bot.users.example.net"


class AckScripted(e2e_caps.Scripted):
    """e2e_caps' scripted server, answering a labelled line with ACK (as a
    server with labeled-response does when it has nothing else to say), a
    labelled batch once it is closed; the bot's JOIN shows LONG_HOST."""

    open_label = None

    def send(self, line):
        super().send(line.replace("%s!bot@fake JOIN" % BOT_NICK,
                                  "%s!ringside@%s JOIN" % (BOT_NICK, LONG_HOST)))

    def answer(self, line):
        tags, plain = tags_of(line)
        if "label" in tags and plain.startswith("BATCH +"):
            self.open_label = tags["label"]
        elif "label" in tags:
            self.send("@label=%s :fake.test ACK" % tags["label"])
        elif plain.startswith("BATCH -") and self.open_label:
            self.send("@label=%s :fake.test ACK" % self.open_label)
            self.open_label = None
        super().answer(plain)


class ScriptedEnv(e2e_caps.ScriptedEnv):
    offer = MULTILINE_OFFER

    def start_server(self):
        self.script = AckScripted(self.port, self.offer)


def tags_of(line):
    """A line's tags as a dict, and the line without them."""
    if not line.startswith("@"):
        return {}, line
    tags, _, rest = line.partition(" ")
    out = {}
    for t in tags[1:].split(";"):
        k, _, v = t.partition("=")
        out[k] = v
    return out, rest


def batches(lines, nick):
    """The multiline batches to nick in the lines the server got, each a
    list of (concat, text) (a line sent alone: a batch of one); fails on
    anything else inside a batch."""
    out, cur, ref = [], None, None
    for line in lines:
        tags, plain = tags_of(line)
        m = re.match(r"BATCH \+(\S+) draft/multiline (\S+)$", plain)
        if m:
            check(cur is None, "a batch opened inside another", line)
            check(m.group(2) == nick, "a batch to %s" % m.group(2), line)
            check(re.match(r"rs\d+$", tags.get("label", "")), "BATCH + without its label", line)
            cur, ref = [], m.group(1)
            continue
        if plain == "BATCH -%s" % ref and cur is not None:
            out.append(cur)
            cur = None
            continue
        if cur is not None:
            m = re.match(r"PRIVMSG %s :(.*)$" % re.escape(nick), plain)
            check(m and tags.get("batch") == ref, "a line inside the batch %s: %r" % (ref, line))
            concat = "draft/multiline-concat" in tags
            check(not concat or cur, "a batch's first line with the concat tag", line)
            cur.append((concat, m.group(1)))
        else:
            m = re.match(r"PRIVMSG %s :(.*)$" % re.escape(nick), plain)
            if m:  # a line alone (the rest of an answer) goes plain
                out.append([(False, m.group(1))])
    check(cur is None, "a batch never closed", "\n".join(lines[-10:]))
    return out


def s_multiline(env):
    """A long private answer as multiline batches, within the limits."""
    since = env.log_size()
    env.start_bot()
    s = env.script
    s.wait(lambda l: l.startswith("CAP REQ :") and "draft/multiline" in l,
           "the request for draft/multiline")
    env.wait_log(r"joined %s" % CHANNEL, since)  # its prefix known: LONG_HOST's
    start = len(s.lines)
    s.send(":%s!d@h PRIVMSG %s :help order" % (PLAYER, BOT_NICK))
    # The duel's help, the last ruleset's, is the answer's last line.
    i = s.wait(lambda l: LAST_LINE in l, "the help's last line", start=start)
    if "batch" in tags_of(s.lines[i])[0]:  # else it went alone, plain
        s.wait(lambda l: tags_of(l)[1].startswith("BATCH -"), "the last batch closed", start=i)
    env.wait_log(r"outq: marker \d+ answered, \d+ lines confirmed", since)
    got = batches(s.lines[start:], PLAYER)
    check(any(len(b) >= 2 for b in got), "no batch held two lines: %r" % got)
    # With the prefix the bot knows (its JOIN's, 67 bytes) the help's
    # longest lines are cut, and go on with the concat tag.
    check(any(c and t.startswith(" ") for b in got for c, t in b),
          "no cut line went on with draft/multiline-concat", "%r" % got)
    for b in got:
        check(len(b) <= 24, "a batch of %d lines (max-lines=24)" % len(b))
        size = sum(len(t.encode()) for _, t in b) + sum(1 for c, _ in b if not c) - 1
        check(size <= 4096, "a batch of %d bytes (max-bytes=4096)" % size)
    # The messages a reader sees: a concat line goes on the one before.
    HELP_LINES[:] = []
    for b in got:
        for concat, t in b:
            if concat:
                HELP_LINES[-1] += t
            else:
                HELP_LINES.append(t)
    check(len(HELP_LINES) >= 4, "the help had %d messages" % len(HELP_LINES))
    check(not any(tags_of(l)[1].startswith("PING :rs") for l in s.lines[start:]),
          "a PING marker went with labels on", "\n".join(s.lines[start:][:20]))
    log = env.log_text(since)
    check(re.search(r"capabilities on: .*draft/multiline", log), "draft/multiline not on",
          tail(env.bot_log, 20))
    env.stop_bot()
    env.sanitizers()


def same_messages(msgs, lines):
    """Whether the plain lines say the messages, in order: each message is
    one line, or several lines it was cut into (at a space or not: the
    server's prefix may differ, and with it where lines are cut)."""
    i = 0
    for m in msgs:
        acc = None
        while acc != m:
            if i >= len(lines):
                return False
            nxt = [lines[i]] if acc is None else [acc + " " + lines[i], acc + lines[i]]
            ok = [x for x in nxt if m.startswith(x)]
            if not ok:
                return False
            acc = ok[0]
            i += 1
    return i == len(lines)


def plain_help(env):
    """The same help on a server without draft/multiline: plain lines."""
    env.start_bot()
    c = Client(env, PLAYER, [CHANNEL])
    start = len(c.lines)
    c.cmd("help order")
    check(HELP_LINES, "the multiline scenario did not run first")
    c.wait(lambda m: LAST_LINE in (c.to_me(m) or ""), "the help's last line")
    got = [m.text for m in c.bot_replies(start)]
    check(same_messages(HELP_LINES, got), "the help differs from the batches' messages",
          "\n".join("plain:    %r" % t for t in got) + "\n" +
          "\n".join("multiline: %r" % t for t in HELP_LINES))
    c.quit()
    env.stop_bot()
    env.sanitizers()


class StsEnv(e2e_net.NetEnv):
    """InspIRCd 3 with ircv3_sts (TLS port: the test CA's certificate), no
    services; the bot configured for plaintext."""

    def start_server(self):
        orig = e2e_net.inspircd_config

        def config(env):
            return orig(env) + ('<module name="ircv3_sts">\n'
                                '<sts host="127.0.0.1" port="%d" duration="600">\n'
                                % env.tls_port)

        e2e_net.inspircd_config = config
        try:
            super().start_server()
        finally:
            e2e_net.inspircd_config = orig

    def start_services(self):
        pass  # no accounts here

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra)
        with open(self.bot_conf) as f:
            t = f.read()
        t = re.sub(r"port = \d+\ntls = yes\ntls_ca_file = [^\n]*\n",
                   "port = %d\ntls = no\n" % self.port, t)
        with open(self.bot_conf, "w") as f:
            f.write(t)


def s_sts(env):
    """Upgraded to TLS by the server's policy, kept across a restart."""
    os.environ["SSL_CERT_FILE"] = os.path.join(env.dir, "ca.crt")
    since = env.log_size()
    env.start_bot()
    log = env.log_text(since)
    check(re.search(r"sts: 127\.0\.0\.1 asks for TLS on port %d for \d+ s: reconnecting with TLS"
                    % env.tls_port, log), "no upgrade logged", tail(env.bot_log, 30))
    check(re.search(r"TLS with 127\.0\.0\.1:%d: TLS\S*, \S+, certificate verified" % env.tls_port,
                    log), "no verified TLS connection", tail(env.bot_log, 30))
    check(re.search(r"reconnecting in 0 s", log), "the upgrade waited", tail(env.bot_log, 30))
    with open(env.db_path + ".sts") as f:
        policy = f.read().split()
    check(policy[:2] == ["127.0.0.1", str(env.tls_port)] and int(policy[2]) > time.time(),
          "the policy file holds %r" % policy)
    # Its channel line seen by a plaintext client: the bot is really in.
    c = Client(env, "watcher", [CHANNEL])
    c.quit()
    env.stop_bot()
    since = env.log_size()
    env.start_bot()
    log = env.log_text(since)
    check(re.search(r"sts: 127\.0\.0\.1 asked for TLS \(policy in .*\.sts\): connecting with TLS on "
                    r"port %d" % env.tls_port, log), "the restart did not go straight to TLS",
          tail(env.bot_log, 30))
    check("asks for TLS" not in log, "the restart went through plaintext again",
          tail(env.bot_log, 30))
    env.stop_bot()
    env.sanitizers_quiet()


def s_sts_bad(env):
    """A bad sts value: logged, ignored; plaintext as configured."""
    since = env.log_size()
    env.start_bot()
    env.script.wait(lambda l: l.startswith("JOIN "), "the JOIN")
    log = env.log_text(since)
    check("the server's sts=port=notaport is ignored: port=notaport is no port from 1 to 65535"
          in log, "the bad value was not logged", tail(env.bot_log, 20))
    check(not os.path.exists(env.db_path + ".sts"), "a policy file was written")
    env.stop_bot()
    env.sanitizers()


def s_relaymsg(env):
    """A RELAYMSG-relayed user, served as a bridged one."""
    env.start_bot()
    s = env.script
    s.wait(lambda l: l == "CAP REQ :batch draft/relaymsg", "the request for draft/relaymsg")
    s.wait(lambda l: l.startswith("JOIN "), "the JOIN")
    start = len(s.lines)
    s.send("@draft/relaymsg=relay :alice/d!relay@fake PRIVMSG %s :!version" % CHANNEL)
    i = s.wait(lambda l: l.startswith("PRIVMSG %s :alice/d: Ringside " % CHANNEL),
               "the version for alice/d in the channel", start=start)
    start = i + 1
    s.send("@draft/relaymsg=relay :alice/d!relay@fake PRIVMSG %s :!create Rocky str=14 spd=12 "
           "agl=12 tgh=12 hgt=10" % CHANNEL)
    s.wait(lambda l: l == "PRIVMSG %s :alice/d: create works only from IRC, where I can tell who "
           "you are: join %s with an IRC client (through a bridge you can use !standings, "
           "fighter, score, bouts, report and help)" % (CHANNEL, CHANNEL),
           "the refusal of create for alice/d", start=start)
    check(not any("alice/d" in l and not l.startswith("PRIVMSG %s :" % CHANNEL)
                  for l in s.lines), "something went to alice/d elsewhere than the channel",
          "\n".join(s.lines[-10:]))
    env.stop_bot()
    env.sanitizers()


def sanitizers(env):
    for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
        check(pat not in env.log_text(), "the bot's log has a report: %s" % pat,
              tail(env.bot_log, 40))


e2e.Env.sanitizers = sanitizers


def scripted(offer):
    def make():
        env = ScriptedEnv(sys.argv[1], "scripted")
        env.offer = offer
        return env
    return make


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
            ("multiline", scripted(MULTILINE_OFFER), s_multiline),
            ("plain_ngircd", lambda: e2e.Env(sys.argv[1], "ngircd"), plain_help),
            ("plain_inspircd", lambda: e2e.Env(sys.argv[1], "inspircd"), plain_help),
            ("sts", lambda: StsEnv(sys.argv[1], "inspircd", fingerprint, certdir), s_sts),
            ("sts_bad", scripted("batch sts=port=notaport"), s_sts_bad),
            ("relaymsg", scripted("batch draft/relaymsg=/"), s_relaymsg),
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
                try:
                    env.stop_bot()
                except Exception:  # noqa: BLE001 - cleanup goes on
                    pass
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
