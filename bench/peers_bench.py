#!/usr/bin/env python3
"""peers_bench.py - the bot's weight beside Eggdrop's: CPU per command and
private memory, both bots on one ngircd at its defaults.

    python3 bench/peers_bench.py BOT     (from the repository root; BOT the
                                          optimised build/ringside, not ASan)

Prints one figure a line, `name value unit`, as the other bench programs do
(diagnostics go to stderr):

  bot.cpu_us_per_command  us
      the bot's CPU time (user and system, from /proc/PID/task/*/schedstat,
      which counts in nanoseconds; /proc/PID/stat's utime and stime, in
      clock ticks, when schedstat is missing) from just before the first
      command of a round to the arrival of its last reply, divided by the
      round's commands; the median of the rounds.
  bot.private_kb  KiB
      the bot's private memory after the rounds: Private_Clean +
      Private_Dirty of /proc/PID/smaps_rollup (the pages no other process
      shares: its anonymous memory and the library pages it wrote).
  peers.cpu_per_command_ratio  x
      Eggdrop's CPU per command divided by the bot's, per pair of rounds
      (each pair run back to back, the order alternating); the median.
  peers.private_memory_ratio  x
      the bot's private memory divided by Eggdrop's (at most 0.33 is the
      target of issue 28: "at most a third").
  peers.anon_memory_ratio  x
      the same of their anonymous memory (RssAnon).

The command: `version` in private, which each bot answers with one line
(Ringside's own command; for Eggdrop a two-line Tcl bind this script writes,
`bind msg - version`, answering through its server queue). CLIENTS clients
each send their share of a round's commands one at a time, the next as soon
as the reply to the one before arrived, so both bots see the same closed
loop; the rounds of the two bots alternate (ringside, eggdrop, eggdrop,
ringside, ...), after a warm-up round each that is not counted. Both bots
keep their default logging; their flood limits are opened so that every
command is answered, and neither bot's own pacing holds its replies back
(Ringside: [flood] commands = 100 a second, exempt, burst 20, 20 lines a
second; Eggdrop: flood-msg 0:0, and the reply sent with putnow, past its
queues, whose msg-rate sends one line a second at best). ngircd's own limits
stay at their defaults: it reads each client at its pace, so a round takes
seconds and the CPU a bot spends idle (its timers) counts too, as it does in
use.

Before outq_set_allowance one rule of Ringside's output queue held replies
back still: a nick answered more than 15 times lately (OUTQ_REPLY_OWNER_MAX,
decaying over 30 s) had his replies sent as bulk, one line only while the
bucket is full, so every reply after the first of a batch cost the bot a
wakeup of its own timer, whatever [flood] commands allowed him. Each client
sends 20 commands a round, so the third round (right after the second) was
answered mostly as bulk: 129.8 us a command against 35.0 and 35.8 in the
other two (1.26 wakeups a command against 0.63-0.70; ratio 2.91, the pairs
2.91, 3.98, 0.79). That limit now grows with what the bot takes from a nick
([flood] commands in commands_seconds, at their full rate over 30 s;
outq_set_allowance), so here it is out of reach as Eggdrop's flood-msg is:
the next run gave 37.0, 33.0 and 34.3 us a command (0.53-0.66 wakeups),
ratio 2.80 (pairs 2.80, 2.72, 3.02). With the default allowance (12 commands
a minute) the limit stays 15.

The clients' replies are waited for together (share_cond: one condition for
all their readers), so a client sends its next command as soon as its reply
came, whichever client it is. Until cpu6 the driver waited for each client in
turn, up to 50 ms each, so a reply that came before the one of the client
waited for was seen late; the figures moved within their noise (three runs of
the old driver: ringside 38.1, 41.3 and 49.6 us a command, ratio 2.88, 2.45
and 2.72, 0.52-0.62 wakeups a command; one of the new, during a make check:
32.6 us, ratio 2.71, 0.65 wakeups).

  bot.anon_kb  KiB
      the bot's anonymous memory (RssAnon of /proc/PID/status): its heap
      and stack and the library pages it relocated, without the pages of
      its own program file (which bot.private_kb counts when no other
      process runs the same file).
  bot.tls_cpu_us_per_command  us
  bot.tls_private_kb  KiB
      as bot.cpu_us_per_command and bot.private_kb, the bot alone on the
      same kind of ngircd over TLS (the certificate verified): every line
      then goes through the bot's relay (bot/conn.c) and OpenSSL is loaded
      (bot/tls.c); the difference with bot.cpu_us_per_command is what the
      relay and TLS cost a command. PEERS_TLS=0 leaves it out.

  bot.wakeups_per_command  /command
  peers.eggdrop_wakeups_per_command  /command
      the context switches of each bot's threads over a round
      (voluntary_ctxt_switches + nonvoluntary_ctxt_switches of
      /proc/PID/task/*/status), divided by the round's commands, the median
      of the rounds: how often it was woken (a wakeup costs 25-90 us of
      CPU on this VM, floor.* below, far more than answering `version`
      itself). Both bots are counted the same way.

  bot.cpu_us_per_wakeup  us
  peers.eggdrop_cpu_us_per_wakeup  us
      each bot's CPU over its rounds divided by its context switches then
      (all rounds together): what one wakeup costs it, the kernel's part
      (the switch, the wait call, the socket calls) and the bot's own work.
  floor.answer_us  us
  floor.paced_us  us
      the same machine's floor, measured between the rounds (so under the
      same load) by `ringside-bench-bot floor` (bench/bench_bot.c), found
      beside BOT: the CPU a minimal loop, alone in its process, spends on
      one wakeup against a peer on loopback TCP: woken by a line, read it
      and answer one line (answer), or woken by its own timeout and send
      one line (paced: what a line the output queue holds back costs, one
      wakeup each); the median of the runs. A bot's CPU per command cannot
      go under its wakeups per command times these, whatever it does
      itself.
  floor.minimal_bot_cpu_us_per_command  us
  floor.minimal_bot_wakeups_per_command  /command
  peers.minimal_bot_cpu_per_command_ratio  x
      the least a bot can do in the same bench: `ringside-bench-bot minbot`
      (bench/bench_bot.c) registers on the same ngircd and answers each
      private `version` at once, all a read brought in one send, with no
      pacing, parsing, log or database. Its rounds (ROUNDS, with the same
      clients, after a warm-up) come after the two bots' rounds, so that
      theirs keep their spacing; measured as theirs. The ratio is Eggdrop's
      median CPU per command divided by the minimal bot's: the most any bot
      could reach in this bench on this machine (not interleaved: it sees
      the machine a few minutes later).

  bot.idle_cpu_us_per_s  us/s
      the bot's CPU while nobody talks to it, over IDLE_SECONDS after the
      warm-up (Eggdrop's on stderr).
  bot.marginal_cpu_us_per_command  us
  peers.marginal_cpu_per_command_ratio  x
      as the two CPU figures above, less what each bot spends idle over the
      round (its idle rate times the round's length): what a command itself
      costs, whichever bot's round is the longer (ngircd reads a bot that
      sends more lines, delivery markers among them, more slowly).

Eggdrop is Debian's `eggdrop` package (make bench-peers installs it through
scripts/deps.sh); it refuses to run as root, so as root it runs as the user
tests/e2e uses for ircd-hybrid (ringside-e2e, made if missing). Without Eggdrop the bot's own
figures are still printed and the script exits 1.

Environment:
  PEERS_COMMANDS=N   commands a round (default 120)
  PEERS_ROUNDS=N     counted rounds per bot (default 3)
  PEERS_CLIENTS=N    clients sending at once (default 6)
  PEERS_KEEP=1       keep the temporary directory
  PEERS_TLS=0        no TLS run (bot.tls_* figures)
  PEERS_FLOOR=PATH   the ringside-bench-bot to measure the floor with
                     (default: beside BOT)

Exit status 0 when every figure was measured, 1 otherwise.
Python 3 standard library only.
"""

import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
import e2e  # noqa: E402
import e2e_net  # noqa: E402
from e2e import Client, Failure  # noqa: E402

COMMANDS = int(os.environ.get("PEERS_COMMANDS", "120"))
ROUNDS = int(os.environ.get("PEERS_ROUNDS", "3"))
CLIENTS = int(os.environ.get("PEERS_CLIENTS", "6"))
KEEP = os.environ.get("PEERS_KEEP") == "1"
TLS = os.environ.get("PEERS_TLS", "1") != "0"
EGG_NICK = "eggbench"
MIN_NICK = "minbench"  # ringside-bench-bot minbot
EGG_USER = "ringside-e2e"  # tests/e2e's unprivileged user (e2e.HYBRID_USER)
REPLY_TIMEOUT = 60.0
IDLE_SECONDS = 5.0
FLOOR_WAKEUPS = 200  # of each kind, a run of `ringside-bench-bot floor` (about 2.5 s)
CLK_TCK = os.sysconf("SC_CLK_TCK")


def note(msg):
    print("peers_bench: " + msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------ measuring


def cpu_ns(pid):
    """The CPU time process `pid` has used, in ns: its threads' schedstat
    (exact), or utime + stime from stat (clock ticks)."""
    total = 0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        if total:
            return total
    except (OSError, ValueError, IndexError):
        pass
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1_000_000_000 // CLK_TCK


def switches(pid):
    """The context switches process `pid`'s threads have made (voluntary
    and not): how many times it was put to sleep or preempted."""
    total = 0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:",
                                        "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return total


def memory_kb(pid):
    """{field: KiB} of /proc/PID/smaps_rollup, with Private (Clean + Dirty)."""
    out = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                out[parts[0].rstrip(":")] = int(parts[1])
    out["Private"] = out.get("Private_Clean", 0) + out.get("Private_Dirty", 0)
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(("RssAnon:", "RssFile:", "VmRSS:")):
                k, v = line.split(":", 1)
                out[k] = int(v.split()[0])
    return out


def floor_path(bot_path):
    return os.environ.get("PEERS_FLOOR") or os.path.join(
        os.path.dirname(os.path.abspath(bot_path)), "ringside-bench-bot")


def floor_run(path, into):
    """One run of `ringside-bench-bot floor`: its figures appended to
    into[name]; a note when it cannot run."""
    try:
        out = subprocess.run([path, "floor", str(FLOOR_WAKEUPS)], capture_output=True, text=True,
                             timeout=120, check=True).stdout
    except (OSError, subprocess.SubprocessError) as e:
        note("floor: %s" % e)
        return
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("floor."):
            into.setdefault(parts[0], []).append(float(parts[1]))


# ------------------------------------------------------------ the bots


def start_ringside(env, tls=""):
    with open(env.bot_conf, "w") as f:
        f.write("""\
; Generated by bench/peers_bench.py
[irc]
server = 127.0.0.1
port = {port}
nick = {nick}
channels = {chan}
{tls}
[bot]
database = {db}

[flood]
exempt = yes
burst = 20
lines_per_second = 20
commands = 100
commands_seconds = 1
ignore_seconds = 1
""".format(port=env.tls_port if tls else env.port, nick=e2e.BOT_NICK, chan=e2e.CHANNEL,
           db=env.db_path, tls=tls))
    log = open(env.bot_log, "ab")
    env.bot = subprocess.Popen([env.bot_path, "-c", env.bot_conf], cwd=env.dir,
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                               start_new_session=True)
    log.close()
    env.wait_bot_in(e2e.CHANNEL, timeout=60)


EGG_CONF = """\
# Generated by bench/peers_bench.py
set mod-path "/usr/lib/eggdrop/modules/"
set help-path "/usr/share/eggdrop/help/"
loadmodule blowfish
loadmodule dns
loadmodule channels
loadmodule server
loadmodule ctcp
loadmodule irc
loadmodule console
set nick "{nick}"
set altnick "{nick}_"
set realname "peers bench"
set username "egg"
set admin "bench"
set network "bench"
set servers {{ 127.0.0.1:{port} }}
set default-port {port}
logfile mco * "{dir}/eggdrop.log"
set userfile "{dir}/egg.user"
set chanfile "{dir}/egg.chan"
set pidfile "{dir}/egg.pid"
set botnet-nick "{nick}"
set listen-addr "127.0.0.1"
set flood-msg 0:0
set flood-ctcp 0:0
set msg-rate 0
set quiet-save 1
set ctcp-mode 0
channel add {chan}
bind msg - version egg:version
proc egg:version {{nick uhost hand text}} {{
  putnow "PRIVMSG $nick :Eggdrop $::version, an IRC bot"
}}
"""


def ensure_user(name):
    """Creates the system user `name` (no home, no shell) unless it exists,
    as tests/e2e/hybrid.sh does for ircd-hybrid: on a fresh machine the
    bench may run before any end-to-end test made it."""
    try:
        pwd.getpwnam(name)
        return
    except KeyError:
        pass
    note("creating the system user " + name)
    subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                    "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name],
                   check=True)


def start_eggdrop(env):
    """Eggdrop in env's folder, as an unprivileged user when we are root;
    returns its Popen once it is in the channel."""
    egg = shutil.which("eggdrop")
    if not egg:
        raise Failure("eggdrop is not installed (make bench-peers installs it)")
    edir = os.path.join(env.dir, "egg")
    os.makedirs(edir, exist_ok=True)
    conf = os.path.join(edir, "egg.conf")
    with open(conf, "w") as f:
        f.write(EGG_CONF.format(nick=EGG_NICK, port=env.port, dir=edir, chan=e2e.CHANNEL))
    argv = [egg, "-n", "-m", conf]
    if os.geteuid() == 0:
        ensure_user(EGG_USER)
        os.chmod(env.dir, 0o711)
        for p in (edir, conf):
            shutil.chown(p, EGG_USER, EGG_USER)
        argv = ["setpriv", "--reuid=" + EGG_USER, "--regid=" + EGG_USER,
                "--clear-groups"] + argv
    log = open(os.path.join(edir, "stdout.log"), "ab")
    p = subprocess.Popen(argv, cwd=edir, stdin=subprocess.DEVNULL, stdout=log,
                         stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    probe = Client(env, "eggprobe")
    try:
        deadline = time.monotonic() + 60
        while True:
            if p.poll() is not None:
                raise Failure("eggdrop exited (status %s)" % p.returncode,
                              e2e.tail(os.path.join(edir, "stdout.log"), 20))
            start = len(probe.lines)
            probe.raw("PRIVMSG %s :version" % EGG_NICK)
            if probe.wait(lambda m: m.nick.lower() == EGG_NICK and m.cmd == "PRIVMSG",
                          "eggdrop's reply", start=start, timeout=2, fail=False):
                break
            if time.monotonic() > deadline:
                raise Failure("eggdrop did not answer within 60 s",
                              e2e.tail(os.path.join(edir, "stdout.log"), 20))
    finally:
        probe.quit()
    return p


def bot_pid(p):
    """The bot's own pid (setpriv execs it, so the Popen's pid is it)."""
    return p.pid


# ------------------------------------------------------------ a round


def share_cond(clients):
    """One condition for all the clients' readers (e2e.Client notifies its
    own on every line): one_round wakes on whichever reply comes first."""
    cond = threading.Condition()
    for c in clients:
        c.cond = cond
    return clients


def one_round(clients, target, pid, n):
    """n `version` commands to `target`, shared among the clients (made
    with share_cond), each client sending its next as soon as its previous
    reply came; the CPU the bot used meanwhile, in ns, and its context
    switches (wakeups)."""
    share = [n // len(clients) + (1 if i < n % len(clients) else 0)
             for i in range(len(clients))]
    left = list(share)
    marks = [len(c.lines) for c in clients]
    cond = clients[0].cond
    sw0 = switches(pid)
    before = cpu_ns(pid)
    for i, c in enumerate(clients):
        if left[i]:
            c.raw("PRIVMSG %s :version" % target)
    deadline = time.monotonic() + REPLY_TIMEOUT + n
    with cond:
        while any(left):
            progressed = False
            for i, c in enumerate(clients):
                while left[i] and marks[i] < len(c.lines):
                    m = c.lines[marks[i]]
                    marks[i] += 1
                    if m.nick.lower() == target and m.cmd in ("PRIVMSG", "NOTICE"):
                        left[i] -= 1
                        progressed = True
                        if left[i]:
                            c.raw("PRIVMSG %s :version" % target)
            if progressed:
                continue
            if time.monotonic() > deadline:
                raise Failure("%s did not answer %d of %d commands" % (target, sum(left), n))
            cond.wait(0.5)
    return cpu_ns(pid) - before, switches(pid) - sw0


def measure_minimal(env, clients, floor):
    """ROUNDS rounds of `ringside-bench-bot minbot` with the clients:
    ([CPU us a command], [wakeups a command]) of each, or None when it
    cannot run."""
    try:
        p = subprocess.Popen([floor, "minbot", str(env.port), MIN_NICK], stdin=subprocess.DEVNULL,
                             start_new_session=True)
    except OSError as e:
        note("minimal bot: %s" % e)
        return None
    try:
        deadline = time.monotonic() + 30
        while True:
            start = len(clients[0].lines)
            clients[0].raw("PRIVMSG %s :version" % MIN_NICK)
            if clients[0].wait(lambda m: m.nick.lower() == MIN_NICK, "the minimal bot's reply",
                               start=start, timeout=2, fail=False):
                break
            if p.poll() is not None or time.monotonic() > deadline:
                note("the minimal bot did not answer")
                return None
        one_round(clients, MIN_NICK, p.pid, max(CLIENTS, COMMANDS // 4))  # warm-up
        per, wakeups = [], []
        for r in range(ROUNDS):
            t = time.monotonic()
            ns, sw = one_round(clients, MIN_NICK, p.pid, COMMANDS)
            per.append(ns / COMMANDS / 1000.0)
            wakeups.append(sw / COMMANDS)
            note("round %d minimal bot: %.1f us a command, %.2f wakeups a command, %.1f s" %
                 (r + 1, per[-1], wakeups[-1], time.monotonic() - t))
        return per, wakeups
    finally:
        p.terminate()
        p.wait()


def measure(env, rs, egg, floor):
    clients = share_cond([Client(env, "peer%d" % i) for i in range(CLIENTS)])
    bots = [("ringside", e2e.BOT_NICK, bot_pid(rs))]
    if egg:
        bots.append(("eggdrop", EGG_NICK, bot_pid(egg)))
    for name, nick, pid in bots:  # warm-up, not counted
        one_round(clients, nick, pid, max(CLIENTS, COMMANDS // 4))
    idle0 = {name: cpu_ns(pid) for name, _, pid in bots}
    time.sleep(IDLE_SECONDS)
    idle = {name: (cpu_ns(pid) - idle0[name]) / IDLE_SECONDS / 1000.0 for name, _, pid in bots}
    note("idle: %s us/s" % {k: round(v, 1) for k, v in idle.items()})
    per = {name: [] for name, _, _ in bots}
    marginal = {name: [] for name, _, _ in bots}
    wakeups = {name: [] for name, _, _ in bots}
    used = {name: [0, 0] for name, _, _ in bots}  # CPU ns, context switches
    floors = {}
    for r in range(ROUNDS):
        order = bots if r % 2 == 0 else list(reversed(bots))
        for name, nick, pid in order:
            t = time.monotonic()
            ns, sw = one_round(clients, nick, pid, COMMANDS)
            took = time.monotonic() - t
            per[name].append(ns / COMMANDS / 1000.0)
            marginal[name].append(max(0.0, ns / 1000.0 - idle[name] * took) / COMMANDS)
            wakeups[name].append(sw / COMMANDS)
            used[name][0] += ns
            used[name][1] += sw
            note("round %d %s: %.1f us a command (%.1f less idle), %.2f wakeups a command, "
                 "%.1f s" % (r + 1, name, per[name][-1], marginal[name][-1], wakeups[name][-1],
                             took))
        floor_run(floor, floors)
    minimal = measure_minimal(env, clients, floor)
    for c in clients:
        c.quit()
    per_wakeup = {name: u[0] / 1000.0 / max(u[1], 1) for name, u in used.items()}
    note("floor runs: %s; us a wakeup: %s" % (floors, {k: round(v, 1) for k, v in
                                                          per_wakeup.items()}))
    return per, marginal, idle, wakeups, per_wakeup, floors, minimal


def measure_tls(bot_path):
    """The bot alone on an ngircd over TLS: (median CPU per command in us,
    private KiB), the rounds as measure's."""
    certdir = tempfile.mkdtemp(prefix="ringside-certs-")
    env = e2e_net.NetEnv(bot_path, "ngircd", e2e_net.make_certs(certdir), certdir)
    try:
        env.start_server()
        start_ringside(env, tls="tls = yes\ntls_ca_file = %s/ca.crt\n" % env.dir)
        clients = share_cond([Client(env, "tpeer%d" % i) for i in range(CLIENTS)])
        pid = bot_pid(env.bot)
        one_round(clients, e2e.BOT_NICK, pid, max(CLIENTS, COMMANDS // 4))  # warm-up
        per = []
        for r in range(ROUNDS):
            t = time.monotonic()
            per.append(one_round(clients, e2e.BOT_NICK, pid, COMMANDS)[0] / COMMANDS / 1000.0)
            note("tls round %d: %.1f us a command, %.1f s" % (r + 1, per[-1],
                                                               time.monotonic() - t))
        mem = memory_kb(pid)
        note("ringside memory over TLS: %s" % mem)
        for c in clients:
            c.quit()
        return statistics.median(per), mem["Private"]
    finally:
        for c in list(env.clients):
            c.close()
        env.stop_bot()
        env.cleanup()
        if not KEEP:
            shutil.rmtree(env.dir, ignore_errors=True)
        shutil.rmtree(certdir, ignore_errors=True)


def main():
    if len(sys.argv) != 2:
        print("usage: python3 bench/peers_bench.py BOT", file=sys.stderr)
        return 2
    env = e2e.Env(sys.argv[1], "ngircd")
    egg = None
    status = 0
    try:
        env.start_server()
        start_ringside(env)
        try:
            egg = start_eggdrop(env)
        except Failure as e:
            note("no eggdrop: %s\n%s" % (e, getattr(e, "detail", "")))
            status = 1
        per, marginal, idle, wakeups, per_wakeup, floors, minimal = measure(
            env, env.bot, egg, floor_path(sys.argv[1]))
        rmem = memory_kb(bot_pid(env.bot))
        rcpu = statistics.median(per["ringside"])
        print("bot.cpu_us_per_command %.1f us" % rcpu)
        print("bot.private_kb %d KiB" % rmem["Private"])
        print("bot.anon_kb %d KiB" % rmem.get("RssAnon", 0))
        print("bot.idle_cpu_us_per_s %.1f us/s" % idle["ringside"])
        print("bot.marginal_cpu_us_per_command %.1f us" % statistics.median(marginal["ringside"]))
        print("bot.wakeups_per_command %.2f /command" % statistics.median(wakeups["ringside"]))
        print("bot.cpu_us_per_wakeup %.1f us" % per_wakeup["ringside"])
        for name in ("floor.answer_us", "floor.paced_us"):
            if floors.get(name):
                print("%s %.1f us" % (name, statistics.median(floors[name])))
            else:
                status = 1
        note("ringside memory: %s" % rmem)
        if egg:
            emem = memory_kb(bot_pid(egg))
            note("eggdrop memory: %s" % emem)
            ratios = [e / r for e, r in zip(per["eggdrop"], per["ringside"])]
            note("eggdrop: %s us a command; ratios %s" %
                 (["%.1f" % x for x in per["eggdrop"]], ["%.2f" % x for x in ratios]))
            print("peers.cpu_per_command_ratio %.2f x" % statistics.median(ratios))
            print("peers.eggdrop_wakeups_per_command %.2f /command" %
                  statistics.median(wakeups["eggdrop"]))
            print("peers.eggdrop_cpu_us_per_wakeup %.1f us" % per_wakeup["eggdrop"])
            mr = [e / max(r, 0.1) for e, r in zip(marginal["eggdrop"], marginal["ringside"])]
            print("peers.marginal_cpu_per_command_ratio %.2f x" % statistics.median(mr))
            print("peers.private_memory_ratio %.2f x" % (rmem["Private"] / emem["Private"]))
            print("peers.anon_memory_ratio %.2f x" %
                  (rmem.get("RssAnon", 0) / max(emem.get("RssAnon", 0), 1)))
        if minimal:
            mcpu = statistics.median(minimal[0])
            print("floor.minimal_bot_cpu_us_per_command %.1f us" % mcpu)
            print("floor.minimal_bot_wakeups_per_command %.2f /command" %
                  statistics.median(minimal[1]))
            if egg:
                print("peers.minimal_bot_cpu_per_command_ratio %.2f x" %
                      (statistics.median(per["eggdrop"]) / mcpu))
        else:
            status = 1
    except Failure as e:
        note("%s\n%s" % (e, getattr(e, "detail", "")))
        status = 1
    finally:
        for c in list(env.clients):
            c.close()
        if egg and egg.poll() is None:
            egg.terminate()
            try:
                egg.wait(10)
            except subprocess.TimeoutExpired:
                egg.kill()
                egg.wait()
        env.stop_bot()
        env.stop_server()
        if KEEP or status:
            note("kept %s" % env.dir)
        else:
            shutil.rmtree(env.dir, ignore_errors=True)
    if TLS:
        try:
            tcpu, tmem = measure_tls(sys.argv[1])
            print("bot.tls_cpu_us_per_command %.1f us" % tcpu)
            print("bot.tls_private_kb %d KiB" % tmem)
        except Failure as e:
            note("TLS run: %s\n%s" % (e, getattr(e, "detail", "")))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
