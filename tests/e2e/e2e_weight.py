#!/usr/bin/env python3
"""e2e_weight.py - the relay stepping aside on a plain server (ngircd).

    python3 tests/e2e/e2e_weight.py BOT   (from the repository root; BOT e.g.
                                           build/asan/ringside)

On a server without TLS that offers none of the capabilities conn.c reads
(ngircd), the bot hands the server's socket to libircclient once the welcome
is over (bot/conn.c, splice):
  1. the log says so, once, and the bot then holds exactly one socket: the
     server's (the loopback listener and the socket pair are closed); it
     answers in private and in the channel, word for word;
  2. the server goes away and comes back on the same port: the bot sees the
     connection end, connects again, steps aside again, and answers;
  3. SIGTERM: exit 0, no sanitizer report.
(TLS and servers with capabilities keep the relay: e2e_net.py, e2e_caps.py.)
"""

import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import CHANNEL, Client, check  # noqa: E402

SPLICED = r"debug a plain server: libircclient reads and writes its socket directly"
VERSION = re.compile(r"^Ringside \S+, an IRC boxing bot \(rules: [a-z, ]+\)$")


def sockets(env):
    """The bot's open sockets (their /proc fd targets)."""
    pid = env.bot.pid
    out = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            t = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if t.startswith("socket:"):
            out.append(t)
    return out


def answers(env, nick):
    """The bot answers `version` in private and `!version` in the channel
    (expect checks where the answer went), word for word."""
    c = Client(env, nick, channels=(CHANNEL,))
    for chan in (None, CHANNEL):
        text = c.ask("version", VERSION.pattern, chan=chan)
        check(VERSION.match(text), "the answer to version: %r" % text)
    c.quit()


def s_spliced(env):
    env.wait_log(SPLICED, 0)
    check(len(re.findall(SPLICED, env.log_text())) == 1, "the log says it more than once")
    socks = sockets(env)
    check(len(socks) == 1, "the bot holds %d sockets, not just the server's: %s" %
          (len(socks), socks))
    answers(env, "weigher")


def s_reconnect(env):
    since = env.log_size()
    env.stop_server()
    env.wait_log(r"(disconnected|connection|closed)", since, timeout=30)
    env.start_server()
    env.wait_bot_in(CHANNEL, timeout=60)
    env.wait_log(SPLICED, since, timeout=30)
    check(len(sockets(env)) == 1, "after reconnecting the bot holds %s" % sockets(env))
    answers(env, "weigher2")


SCENARIOS = [
    ("a plain server: the relay steps aside, one socket, answers word for word", s_spliced),
    ("the server goes and comes back: connects again, steps aside again", s_reconnect),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: python3 tests/e2e/e2e_weight.py BOT   (e.g. build/asan/ringside)",
              file=sys.stderr)
        return 2
    if not os.access(argv[1], os.X_OK):
        print("e2e_weight: %s is not an executable; run make first" % argv[1], file=sys.stderr)
        return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_weight: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e.Env(argv[1], "ngircd")
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_weight: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
