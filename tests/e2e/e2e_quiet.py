#!/usr/bin/env python3
"""e2e_quiet.py - a quiet channel end to end: the real bot (ASan build), a
real ngircd and real client connections.

    python3 tests/e2e/e2e_quiet.py BOT SIM     (from the repository root;
                                              BOT e.g. build/asan/ringside,
                                              SIM build/ringside-sim)

Reuses tests/e2e/e2e_duel.py's environment (e2e_bouts': ngircd without
penalties, the bot paced fast, the simulator on a copy of the database; duels
a round a second).

Scenarios:
  1. long answers: `!armoury` and `!help create` said in the channel get one
     line there ("nick: the answer to !armoury is 15 lines; sent to you in
     private.") and the answer in private; a short answer stays in the
     channel;
  2. a duel in the channel: each round is one line, and one more for each
     kind of thing that changes the fight (critical hits, stuns, breaks: read
     from SIM --report of that round), exactly what SIM --commentary derives;
     then `!report` of it said in the channel: one line there (the bout, its
     result), the report in private, its messages exactly the report packed
     at sentence ends (at most 350 bytes each, each ending where a line or a
     sentence of the report ends);
  3. two SUGAR RAY bouts in one channel: every line tagged with its bout, and
     the classic result table keeps its two lines;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Environment: E2E_ONLY, E2E_KEEP,
E2E_VERBOSE as e2e.py. Python 3 standard library only.
"""

import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
import e2e_duel  # noqa: E402
from e2e import CHANNEL, TIMEOUT, Client, Failure, check  # noqa: E402
from e2e_bouts import chan_from, player, tell, wait_chan  # noqa: E402

PACKED_MAX = 350  # game/bout.c: the most bytes of one message of a report


def bot_lines(c, start, where):
    """(index, text) of the bot's lines to `where` (CHANNEL, or c's nick)
    from c's line `start`."""
    with c.cond:
        lines = c.lines[start:]
    return [(start + i, e2e.plain(m.text)) for i, m in enumerate(lines)
            if m.cmd == "PRIVMSG" and c.from_bot(m) and m.target.lower() == where.lower()]


def settle(c, start, where, count, timeout=TIMEOUT):
    """Waits until the bot said at least `count` lines to `where` from
    `start`, then a second more for anything extra; returns them."""
    deadline = time.monotonic() + timeout
    while len(bot_lines(c, start, where)) < count:
        if time.monotonic() > deadline:
            raise Failure("%d of %d lines to %s" % (len(bot_lines(c, start, where)), count,
                                                    where), c.recent())
        time.sleep(0.05)
    time.sleep(1.0)
    return [t for _, t in bot_lines(c, start, where)]


# ------------------------------------------------------------- scenarios


def s_long_answers(env):
    """!armoury and !help create in the channel: one line there, the rest in
    private."""
    c = Client(env, "quiet_eve", [CHANNEL])
    start = len(c.lines)
    c.cmd("armoury", CHANNEL)
    mine = settle(c, start, c.nick, 15)
    chan = [t for _, t in bot_lines(c, start, CHANNEL)]
    check(chan == ["quiet_eve: the answer to !armoury is 15 lines; sent to you in private."],
          "the channel got %d lines for !armoury" % len(chan), "\n".join(chan))
    check(len(mine) == 15 and mine[0].startswith("Weapons (STR needed, damage, ") and
          mine[-1].startswith("Pieces: head=, torso="),
          "the armoury in private: %d lines" % len(mine), "\n".join(mine))
    start = len(c.lines)
    c.cmd("help create", CHANNEL)
    m = wait_chan(c, r"^quiet_eve: the answer to !help is (\d+) lines; sent to you in private\.$",
                  start)
    n = int(re.search(r"is (\d+) lines", m.text).group(1))
    mine = settle(c, start, c.nick, n)
    chan = [t for _, t in bot_lines(c, start, CHANNEL)]
    check(len(chan) == 1 and n > 3 and len(mine) == n,
          "!help create: %d channel lines, %d in private (said %d)" % (len(chan), len(mine), n),
          "\n".join(chan + mine))
    check(mine[0].startswith("!create <name> "), "help create in private: %r" % mine[0])
    # A short answer stays where it was asked.
    start = len(c.lines)
    c.cmd("help armoury", CHANNEL)
    chan = settle(c, start, CHANNEL, 1)
    check(1 <= len(chan) <= 3 and chan[0].startswith("quiet_eve: !armoury") and
          not bot_lines(c, start, c.nick), "!help armoury: %r" % chan)
    c.quit()
    return ["!armoury: 1 channel line + 15 in private; !help create: 1 + %d" % n]


def round_kinds(env, bout_id, rnd):
    """What changed the fight in round `rnd`, read from SIM --report: (a
    yield, critical hits, stuns, breaks)."""
    p, out, _ = env.sim("--report", bout_id, rnd)
    check(p.returncode == 0, "SIM --report %d %d exited %d" % (bout_id, rnd, p.returncode), out)
    return (bool(re.search(r"\byields\.", out)), ", a critical hit." in out,
            bool(re.search(r"\bis stunned for \d+ turns?\.", out)),
            bool(re.search(r" breaks\.", out)), out)


def pack(report):
    """The report's messages as game/bout.c's say_packed makes them: each
    round anew, its lines squeezed and joined by " | ", cut into messages of
    at most PACKED_MAX bytes only where a line or a sentence ends."""
    msgs, msg = [], ""
    for line in report.split("\n"):
        if re.match(r"Round \d+ of \d+", line) and msg:
            msgs.append(msg)
            msg = ""
        line = " ".join(line.split())
        sentences = re.split(r"(?<=[.!?]) ", line) if line else []
        for k, s in enumerate(sentences):
            sep = " " if k else " | "
            if msg and len((msg + sep + s).encode()) > PACKED_MAX:
                msgs.append(msg)
                msg = ""
            msg = msg + sep + s if msg else s
    if msg:
        msgs.append(msg)
    return msgs


def s_duel_and_report(env):
    """A duel: a line a round in the channel unless something changes the
    fight; then !report of it in the channel."""
    w = Client(env, "quiet_watch", [CHANNEL])
    a = e2e_duel.duellist(env, "quiet_da", "Conan", e2e_duel.SHEET_A, e2e_duel.KIT_A)
    b = e2e_duel.duellist(env, "quiet_db", "Zorro", e2e_duel.SHEET_B, e2e_duel.KIT_B)
    wpos = len(w.lines)
    bout_id, _ = e2e_duel.duel(env, a, b, "Conan", "Zorro")
    row = e2e_duel.wait_over(env, bout_id)
    rounds = row["round"]
    heard = e2e_duel.commentary_heard(env, w, bout_id, wpos, row)
    quiet_rounds, lines = 0, 0
    for rnd in range(1, rounds + 1):
        derived = env.summary(bout_id, rnd).split("\n")
        said = derived[:-1] if rnd == rounds else derived  # the result after the last
        yielded, crit, stun, brk, report = round_kinds(env, bout_id, rnd)
        want = 1 if yielded else 1 + crit + stun + brk
        check(len(said) == want, "round %d: %d channel lines, want %d (critical %s, stun %s, "
              "break %s)" % (rnd, len(said), want, crit, stun, brk),
              "\n".join(said) + "\n----\n" + report)
        check(said[0].startswith("Round %d: " % rnd), "round %d starts %r" % (rnd, said[0]))
        check(yielded or "Health: " in said[0], "round %d: no health in %r" % (rnd, said[0]))
        quiet_rounds += want == 1
        lines += len(said)
    # report, said in the channel by someone else: one line there.
    start = len(w.lines)
    w.cmd("report %d" % bout_id, CHANNEL)
    p, full, _ = env.sim("--report", bout_id)
    check(p.returncode == 0, "SIM --report %d" % bout_id, full)
    want = pack(full.rstrip("\n"))
    mine = settle(w, start, w.nick, 1 + len(want))
    chan = [t for _, t in bot_lines(w, start, CHANNEL)
            if t.startswith(w.nick + ": ")]
    check(len(chan) == 1 and re.fullmatch(
        r"quiet_watch: bout #%d, Conan vs Zorro \(duel\): .+ The report of rounds 1 to %d is "
        r"sent to you in private\." % (bout_id, rounds), chan[0]),
        "!report in the channel answered %d lines there" % len(chan), "\n".join(chan))
    check(mine[0] == "Report of bout #%d, rounds 1 to %d:" % (bout_id, rounds),
          "the report's header: %r" % mine[0])
    got = mine[1:]
    check(got == want, "the report in private is not the report packed at sentence ends",
          "\n".join("got:  %s" % g for g in got[:8]) + "\n" +
          "\n".join("want: %s" % x for x in want[:8]))
    for m in got:
        last = m.split(" | ")[-1]
        check(len(m.encode()) <= PACKED_MAX and
              (last[-1] in ".!?" or any(" ".join(l.split()).endswith(last)
                                        for l in full.split("\n"))),
              "a report message cut mid-sentence: %r" % m)
    for c in (a, b, w):
        c.quit()
    return ["bout #%d: %d rounds, %d channel lines for them (%d rounds of one line); %d heard "
            "in all with the result; report: 1 channel line, %d private messages" %
            (bout_id, rounds, lines, quiet_rounds, heard, len(got))]


def s_sugarray_table(env):
    """Two SUGAR RAY bouts in one channel: the classic table keeps two
    lines."""
    w = Client(env, "quiet_w3", [CHANNEL])
    p = [player(env, n, "create %s rules=sugarray" % f)
         for n, f in (("quiet_s1", "Murphy"), ("quiet_s2", "Miller"),
                      ("quiet_s3", "Duran"), ("quiet_s4", "Hearns"))]
    first = e2e_bouts.challenge(env, p[0], p[1], "rules=sugarray", "Murphy", "Miller")
    second = e2e_bouts.challenge(env, p[2], p[3], "rules=sugarray", "Duran", "Hearns")
    wpos = len(w.lines)
    for rnd in range(1, 6):
        if env.bout(first)["state"] != "live":
            break
        for c, order in ((p[0], "9/0"), (p[1], "0/0")):
            start = len(c.lines)
            c.cmd(order)
            # An answer in private, or (the last round; in the channel with
            # no training points to spend) the end said in the channel.
            rx = re.compile(r"(orders|Bout #%d)" % first)
            c.wait(lambda m, c=c, rx=rx: c.from_bot(m) and (
                (m.target.lower() == c.nick.lower() and rx.search(m.text)) or
                (m.target.lower() == CHANNEL.lower() and "Records now: " in m.text)),
                "an answer to %s's orders, or the end in the channel" % c.nick,
                timeout=TIMEOUT, start=start)
        e2e_duel.wait_round(env, first, rnd)
    row = e2e_duel.wait_over(env, first, TIMEOUT)
    check(env.bout(second)["state"] == "live", "bout #%d is not live" % second)
    # A SUGAR RAY TKO is only a player's own towel: a forfeit, said so.
    table = r"^\[#%d\] %s \(10,20\)( \d+/\d+ \(\s?-?\d+\)| forfeit \(\s?-?\d+\))+%s$"
    tail = {"ko": " KO", "points": " PW", "tko": " forfeit"}.get(row["method"], "")
    win, lose = ("Murphy", "Miller") if row["winner"] == 0 else ("Miller", "Murphy")
    m1 = wait_chan(w, table % (first, win, tail), wpos)
    m2 = wait_chan(w, table % (first, lose, ""), wpos)
    said = [e2e.plain(m.text) for _, m in chan_from(w, wpos)]
    i = said.index(e2e.plain(m1.text))
    check(said[i + 1] == e2e.plain(m2.text), "the table's two lines are not one after the other",
          "\n".join(said))
    rounds = [t for t in said if re.match(r"^\[#%d\] Round \d+: " % first, t)]
    check(len(rounds) == row["round"], "bout #%d: %d tagged rounds for %d" %
          (first, len(rounds), row["round"]), "\n".join(said))
    for c in p + [w]:
        c.quit()
    return ["bout #%d with #%d live: %s / %s" % (first, second, e2e.plain(m1.text),
                                                  e2e.plain(m2.text))]


SCENARIOS = [
    ("long answers in the channel go private", s_long_answers),
    ("a duel: a line a round; report in the channel", s_duel_and_report),
    ("two SUGAR RAY bouts: the classic table keeps two lines", s_sugarray_table),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_quiet.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_quiet: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_quiet: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_duel.DuelEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_quiet: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
