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
  3. idle, the bot sleeps until its next timer is due: some stretch of
     3 s passes without its being woken at all (its threads' context
     switches, /proc/PID/task/*/status), where it used to wake every
     second (each wakeup costs 15-35 us of CPU on a small VM);
  4. a quiet spell of 60 s after some commands: the bot gives the memory
     they used back (the log says so, once for the spell);
  5. glibc's malloc keeps only chunks of up to 128 bytes in its per-thread
     cache (bot/main.c, malloc_tune): the bot executed itself again, once,
     with GLIBC_TUNABLES set (the same process, name and arguments); started
     with a GLIBC_TUNABLES of the user's own, it keeps that one and answers;
  6. SIGTERM: exit 0, no sanitizer report.
(TLS and servers with capabilities keep the relay: e2e_net.py, e2e_caps.py.)

OpenSSL is loaded only for a TLS connection (bot/tls.c): the plaintext bot
above never maps libssl or libcrypto (checked in 1 and 2), and then, in a
run of its own on ngircd over TLS with the certificate verified:
  7. the bot maps libssl once connected, answers word for word, and exits 0
     on SIGTERM with no sanitizer report.
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
import e2e_bouts  # noqa: E402
import e2e_net  # noqa: E402
from e2e import CHANNEL, Client, check, tail  # noqa: E402

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


def openssl_maps(env):
    """The OpenSSL libraries the bot has mapped (file names, once each)."""
    out = set()
    with open("/proc/%d/maps" % env.bot.pid) as f:
        for line in f:
            name = os.path.basename(line.split()[-1]) if len(line.split()) > 5 else ""
            if name.startswith(("libssl.so", "libcrypto.so")):
                out.add(name)
    return sorted(out)


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
    check(not openssl_maps(env), "a plaintext bot mapped OpenSSL: %s" % openssl_maps(env))


def switches(env):
    """The context switches the bot's threads have made so far."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % env.bot.pid):
        with open("/proc/%d/task/%s/status" % (env.bot.pid, tid)) as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split()[1])
    return total


def s_idle(env):
    """Nobody talks to the bot: a stretch of 3 s without a wakeup comes
    (what the last commands left, such as a delivery marker and its answer,
    settles first); the old loop woke every second, so never."""
    deadline = time.monotonic() + 90
    seen = []
    while time.monotonic() < deadline:
        before = switches(env)
        time.sleep(3)
        seen.append(switches(env) - before)
        if seen[-1] == 0:
            check(env.bot_alive(), "the bot died while idle")
            return
    check(False, "the idle bot was woken in every stretch of 3 s: %s" % seen,
          tail(env.bot_log, 15))


GAVE_BACK = r"debug quiet: memory given back"


def s_give_back(env):
    """Commands, then nobody talks: 60 s after the server's last line the
    bot gives memory back, once (the next spell needs a message first)."""
    answers(env, "spender")
    since = env.log_size()  # a spell before the answers ended with them
    env.wait_log(GAVE_BACK, since, timeout=120)
    first = len(re.findall(GAVE_BACK, env.log_text(since)))
    check(first == 1, "memory given back %d times in one spell" % first, tail(env.bot_log, 15))
    time.sleep(3)  # a second give-back would come at once, not a spell on
    again = len(re.findall(GAVE_BACK, env.log_text(since)))
    check(again == 1, "memory given back again with nothing said: %d" % again,
          tail(env.bot_log, 15))


TUNED = "GLIBC_TUNABLES=glibc.malloc.tcache_max=128"


def proc_list(env, name):
    """/proc/PID/NAME of the bot (environ, cmdline): its NUL-separated
    strings."""
    with open("/proc/%d/%s" % (env.bot.pid, name), "rb") as f:
        return f.read().decode("utf-8", "replace").rstrip("\0").split("\0")


def s_malloc_tuned(env):
    """The bot runs with glibc's malloc cache kept to small chunks: it
    executed itself again with GLIBC_TUNABLES set, in the same process with
    the same name and arguments; a GLIBC_TUNABLES of the user's own is kept
    as it is."""
    tunables = [e for e in proc_list(env, "environ") if e.startswith("GLIBC_TUNABLES=")]
    check(tunables == [TUNED], "the bot's GLIBC_TUNABLES: %s, not %s" % (tunables, TUNED))
    argv = proc_list(env, "cmdline")
    check(argv == [env.bot_path, "-c", env.bot_conf], "the bot's arguments now: %s" % argv)
    with open("/proc/%d/comm" % env.bot.pid) as f:
        name = f.read().strip()
    want = os.path.basename(env.bot_path)[:15]  # ps, pkill and make stop look for it
    check(name == want, "the bot's process is named %r, not %r" % (name, want))
    env.stop_bot()
    own = "glibc.malloc.tcache_count=7"
    before = os.environ.get("GLIBC_TUNABLES")
    os.environ["GLIBC_TUNABLES"] = own
    try:
        env.start_bot()
    finally:
        if before is None:
            del os.environ["GLIBC_TUNABLES"]
        else:
            os.environ["GLIBC_TUNABLES"] = before
    tunables = [e for e in proc_list(env, "environ") if e.startswith("GLIBC_TUNABLES=")]
    check(tunables == ["GLIBC_TUNABLES=" + own], "the user's GLIBC_TUNABLES became %s" % tunables)
    answers(env, "tuner")


def s_reconnect(env):
    since = env.log_size()
    env.stop_server()
    env.wait_log(r"(disconnected|connection|closed)", since, timeout=30)
    env.start_server()
    env.wait_bot_in(CHANNEL, timeout=60)
    env.wait_log(SPLICED, since, timeout=30)
    check(len(sockets(env)) == 1, "after reconnecting the bot holds %s" % sockets(env))
    answers(env, "weigher2")
    check(not openssl_maps(env), "after reconnecting, OpenSSL mapped: %s" % openssl_maps(env))


def s_tls_loads(env):
    """ngircd over TLS: OpenSSL is loaded for the connection, which is
    verified, and the bot answers; SIGTERM: exit 0, no sanitizer report."""
    env.start_bot()
    check(re.search(r"TLS with 127\.0\.0\.1:%d: .*certificate verified" % env.tls_port,
                    env.log_text()), "no verified TLS in the log", tail(env.bot_log, 15))
    maps = openssl_maps(env)
    check(any(m.startswith("libssl.so") for m in maps),
          "connected over TLS without libssl mapped: %s" % maps)
    answers(env, "tlsweigher")
    e2e_bouts.s_stop(env)


SCENARIOS = [
    ("a plain server: the relay steps aside, one socket, answers word for word", s_spliced),
    ("the server goes and comes back: connects again, steps aside again", s_reconnect),
    ("idle, the bot sleeps until a timer is due (not woken every second)", s_idle),
    ("a quiet spell after commands: memory given back once", s_give_back),
    ("glibc's malloc cache kept to small chunks (GLIBC_TUNABLES), or the user's own",
     s_malloc_tuned),
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
    rc = e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                       "e2e_weight: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)
    return tls_run(argv[1]) or rc


def tls_run(bot):
    """Scenario 7, on an ngircd with a TLS port of its own: 0 or 1."""
    name = "TLS: OpenSSL loaded for the connection, verified, answers"
    if os.environ.get("E2E_ONLY") and not e2e.selected([(name, s_tls_loads)]):
        return 0
    certdir = tempfile.mkdtemp(prefix="ringside-certs-")
    env = None
    t0 = time.monotonic()
    try:
        env = e2e_net.NetEnv(bot, "ngircd", e2e_net.make_certs(certdir), certdir)
        env.start_server()
        s_tls_loads(env)
        print("ok - %s (%.1f s)" % (name, time.monotonic() - t0), flush=True)
        return 0
    except Exception as e:  # noqa: BLE001 - every failure is reported
        print("FAIL - %s: %s" % (name, e), flush=True)
        for line in (getattr(e, "detail", "") or traceback.format_exc()).splitlines():
            print("#   " + line)
        if env:
            for line in tail(env.bot_log, 25).splitlines():
                print("#   | " + line)
            env.keep = True
        return 1
    finally:
        if env:
            env.cleanup()
            if not env.keep:
                shutil.rmtree(env.dir, ignore_errors=True)
        shutil.rmtree(certdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
