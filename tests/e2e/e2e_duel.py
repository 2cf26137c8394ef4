#!/usr/bin/env python3
"""e2e_duel.py - armed duels end to end: the real bot, a real ngircd, and
real client connections fighting duels that fight themselves.

    python3 tests/e2e/e2e_duel.py BOT SIM      (from the repository root;
                                               BOT e.g. build/asan/ringside,
                                               SIM build/ringside-sim)

Reuses tests/e2e/e2e_bouts.py (its environment: ngircd without penalties, the
bot paced fast, the simulator on a copy of the database) with [bout]
duel_round_seconds = 1.

Scenarios:
  1. duellists made and equipped from the armoury (refusals said), a duel
     fought to its end: the tale of the tape with the equipment, the rounds
     said by themselves, each round's channel lines exactly what SIM
     --commentary derives from the database and at most four, each
     duellist's corner in private, equipment changes refused during the duel,
     the result, the records and the worn equipment stored, SIM --replay;
  2. a duel ended by `yield` in private: he loses by forfeit (his own yield),
     the channel hears it, the duel replays;
  3. kill -9 in the middle of a duel: the restarted bot says the duel goes
     on at its next round and fights it to the end; it replays to its digest;
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
from e2e import CHANNEL, TIMEOUT, Client, Failure, check, secret, tail  # noqa: E402
from e2e_bouts import tell, wait_chan, wait_private, chan_from  # noqa: E402

ROUND_SECONDS = 1
DUEL_TIMEOUT = 120  # a whole duel of 23 rounds, a round a second, under ASan and load

# Two duellists in plate with light weapons: long duels (most go many rounds).
SHEET_A = "str=18 dex=14 con=14 int=10"
KIT_A = "longsword head=plate torso=chainmail+leather legs=leather feet=leather shield=leather"
SHEET_B = "str=17 dex=16 con=13 int=10"
KIT_B = "weapon=scimitar head=plate torso=plate legs=chainmail shield=leather"


class DuelEnv(e2e_bouts.BoutEnv):
    """e2e_bouts' environment, duels paced at ROUND_SECONDS."""

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        super().write_bot_config(channels, extra + "duel_round_seconds = %d\n" % ROUND_SECONDS)


def duellist(env, nick, name, sheet, kit):
    """A client in the channel with an account and an equipped duellist."""
    c = Client(env, nick, [CHANNEL])
    c.pw = secret(env, "%s-pw-%d" % (nick, os.getpid() % 1000))
    tell(c, "register " + c.pw, r"^account %s registered, and you are identified" % nick)
    tell(c, "create %s rules=duel %s" % (name, sheet),
         r"^%s \(duel\) is ready: STR \d+ DEX \d+ CON \d+ INT \d+$" % name)
    tell(c, "equip %s %s" % (name, kit), r"^%s takes .+\. Now: .+; encumbrance \d" % name)
    return c


def duel(env, a, b, fa, fb):
    """a challenges b to a duel and b accepts; returns (bout, watcher start).
    The tape names both duellists with their equipment; each is told
    privately that the duel fights itself."""
    start = len(a.lines)
    a.cmd("challenge %s rules=duel" % b.nick, CHANNEL)
    # The tale of the tape goes with the challenge.
    tape = wait_chan(a, r"^%s challenges %s to bout #(\d+), duel, 23 rounds: %s \(%s\) STR \d+ "
                     r"DEX \d+ CON \d+ INT \d+; \w.*%%" % (a.nick, b.nick, fa, a.nick), start)
    bout_id = int(re.search(r" to bout #(\d+), ", tape.text).group(1))
    # The tape is one message: the second corner on it (or on the IRC line
    # that carries the rest of it, cut at a space).
    wait_chan(a, r"(^|\bvs )%s \(%s\) STR .*%%" % (fb, b.nick), start)
    starts = (len(a.lines), len(b.lines))
    b.cmd("accept", CHANNEL)
    # Predictions stay open 20 s of its rounds: 20 rounds at 1 s a round.
    wait_chan(a, r"^Bout #%d is on: the duel fights itself, a round every %d seconds?\. "
              r"Predictions open for 20 seconds \(until round 20 is fought\): !predict %d "
              r"<fighter>\.$" % (bout_id, ROUND_SECONDS, bout_id), starts[0])
    for c, s in ((a, starts[0]), (b, starts[1])):
        wait_private(c, r"^Bout #%d: the duel fights itself, a round every %d seconds?; " %
                     (bout_id, ROUND_SECONDS), s)
    return bout_id, e2e.plain(tape.text)


def wait_over(env, bout_id, timeout=DUEL_TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        row = env.bout(bout_id)
        if row["state"] == "over":
            return row
        if time.monotonic() > deadline:
            raise Failure("bout %d is not over after %.0f s (round %d)" %
                          (bout_id, timeout, row["round"]), tail(env.bot_log, 15))
        time.sleep(0.2)


def wait_round(env, bout_id, rnd, timeout=DUEL_TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        row = env.bout(bout_id)
        if row["round"] >= rnd or row["state"] != "live":
            return row
        if time.monotonic() > deadline:
            raise Failure("bout %d has not reached round %d" % (bout_id, rnd))
        time.sleep(0.1)


def commentary_heard(env, w, bout_id, start, row, timeout=TIMEOUT):
    """Every round of the finished duel, as derived by SIM --commentary, must
    reach the channel exactly (as `w` sees it); at most four lines a round
    (one, and a line each for critical hits, stuns and breaks)."""
    for rnd in range(1, row["round"] + 1):
        derived = env.summary(bout_id, rnd).split("\n")
        nres = 2 if rnd == row["round"] else 0  # the result and the records
        check(len(derived) - nres <= 4, "bout %d round %d: %d channel lines" %
              (bout_id, rnd, len(derived) - nres), "\n".join(derived))
    want = [line for rnd in range(1, row["round"] + 1)
            for line in env.summary(bout_id, rnd).split("\n")]
    deadline = time.monotonic() + timeout
    while True:
        got = [e2e.plain(m.text) for _, m in chan_from(w, start, chatter=True)
               if not m.text.startswith("Bout #")]
        if len(got) >= len(want):
            break
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check(got[:len(want)] == want, "bout %d: the channel heard something else than the derived "
          "commentary" % bout_id, "\n".join("heard:   %s" % g for g in got[:len(want) + 2]) +
          "\n" + "\n".join("derived: %s" % x for x in want))
    return len(want)


def kit_of(env, fighter):
    return env.query("SELECT kit FROM fighters WHERE name = ?", (fighter,))[0][0]


def s_duel(env):
    """A duel to the end, from the armoury to the stored wear."""
    w = Client(env, "duelwatch1", [CHANNEL])
    a = duellist(env, "duel_a", "Conan", SHEET_A, KIT_A)
    b = duellist(env, "duel_b", "Zorro", SHEET_B, KIT_B)
    # The armoury and its refusals, each with its reason.
    start = len(a.lines)
    tell(a, "armoury weapons", r"^Weapons \(STR needed, damage")
    # Its lines past the third come as bulk, after any reply: all of them first.
    wait_private(a, r"^the Punisher \(weapon=the_punisher\): STR 20, damage 7-17, blunt/cut "
                 r"20/80, reach 4, armour pen\. 80, critical 2% to 20%, 1\.814 kg, wear factor "
                 r"512$", start)
    tell(a, "equip Conan weapon=the_punisher",
         r"^Conan: weapon=the_punisher needs STR 20, and STR is 18; nothing changed$")
    tell(a, "fighter Conan", r"^Conan \(duel, duel_a\): STR 18 DEX 14 CON 14 INT 10; record 0-0-0")
    kit_before = kit_of(env, "Conan")
    check("weapon=longsword:1000000" in kit_before, "Conan's stored kit: %r" % kit_before)
    wpos = len(w.lines)
    bout_id, tape = duel(env, a, b, "Conan", "Zorro")
    check("longsword 100.0%" in tape and "plate helmet 100.0%" in tape and
          "chainmail shirt 100.0%" in tape, "the tape without the equipment: %r" % tape)
    # No equipment change during the duel.
    wait_round(env, bout_id, 1)
    if env.bout(bout_id)["state"] == "live":
        tell(a, "unequip Conan shield", r"^Conan is in a duel or a challenge: change the "
             r"equipment after it$")
    # Each duellist's corner, privately, after a round.
    wait_private(a, r"^Bout #%d: Your corner after round \d+: Conan has [\d.]+ health, [\d.]+ "
                 r"energy.*; longsword" % bout_id)
    row = wait_over(env, bout_id)
    n = commentary_heard(env, w, bout_id, wpos, row)
    for c, f in ((a, "Conan"), (b, "Zorro")):
        wait_private(c, r"^Bout #%d is over, and (you won|you lost|it is a draw): .* %s is now "
                     r"\d+-\d+-\d+; %s's equipment: .*encumbrance" % (bout_id, f, f))
    recs = env.query("SELECT wins + losses + draws FROM fighters WHERE name IN ('Conan', 'Zorro')")
    check(all(r[0] == 1 for r in recs), "records after the duel: %r" % recs)
    kit_after = kit_of(env, "Conan")
    check(kit_after != kit_before, "Conan's equipment did not wear: %r" % kit_after)
    out = env.replay(bout_id)
    check(out.count(": match") == row["round"] + 1, "replay output", out)
    for c in (a, b, w):
        c.quit()
    return ["bout #%d: %d rounds, %s by %s; %d channel lines as derived; Conan's kit now %s" %
            (bout_id, row["round"], "won" if row["winner"] >= 0 else "drawn", row["method"], n,
             kit_after)]


def s_yield(env):
    """A duel ended by yield."""
    w = Client(env, "duelwatch2", [CHANNEL])
    a = duellist(env, "yield_a", "Brutus", SHEET_A, KIT_A)
    b = duellist(env, "yield_b", "Cassius", SHEET_B, KIT_B)
    wpos = len(w.lines)
    bout_id, _ = duel(env, a, b, "Brutus", "Cassius")
    row = wait_round(env, bout_id, 1)
    check(row["state"] == "live", "the duel ended in round 1: %r" % row)
    tell(b, "yield yes", r"^you conceded bout #%d$" % bout_id)
    row = wait_over(env, bout_id, 10)
    check(row["winner"] == 0 and row["method"] == "tko" and row["reason"] == "towel",
          "after the yield: %r" % row)
    wait_chan(w, r"Cassius (yields|lowers the weapon and yields|has had enough and yields)!",
              wpos)
    # His own yield: a forfeit (a plan's yield reads "Brutus wins in round N: Cassius yields!").
    wait_chan(w, r"Brutus wins by forfeit in round %d \(Cassius conceded\)!" % row["round"], wpos)
    commentary_heard(env, w, bout_id, wpos, row)
    wait_private(b, r"^Bout #%d is over, and you lost: Brutus wins by forfeit" % bout_id)
    env.replay(bout_id)
    for c in (a, b, w):
        c.quit()
    return ["bout #%d: Cassius yielded in round %d" % (bout_id, row["round"])]


def s_kill(env):
    """kill -9 in the middle of a duel; the restarted bot goes on."""
    w = Client(env, "duelwatch3", [CHANNEL])
    a = duellist(env, "kill_da", "Hector", SHEET_A, KIT_A)
    b = duellist(env, "kill_db", "Achilles", SHEET_B, KIT_B)
    # The seed is random: a duel may end by a knockout before round 2 is
    # over; then another one, up to three.
    for _ in range(3):
        bout_id, _ = duel(env, a, b, "Hector", "Achilles")
        row = wait_round(env, bout_id, 2)
        if row["state"] == "live":
            break
        wait_over(env, bout_id)
    check(row["state"] == "live", "three duels ended before the kill: %r" % row)
    pid = env.bot.pid
    env.kill_bot()
    at = env.bout(bout_id)["round"]
    start = len(w.lines)
    env.start_bot()
    wait_chan(w, r"^Bout #%d, Hector vs Achilles, goes on: round %d of 23 is next\.$" %
              (bout_id, at + 1), start, timeout=e2e.RECONNECT_TIMEOUT)
    row = wait_over(env, bout_id)
    check(row["round"] > at or row["state"] == "over", "bout %d: %r" % (bout_id, row))
    out = env.replay(bout_id)
    check(out.count(": match") == row["round"] + 1, "replay output", out)
    digests = env.query("SELECT count(*) FROM rounds WHERE bout = ?", (bout_id,))[0][0]
    check(digests == row["round"], "bout %d: %d round digests for %d rounds" %
          (bout_id, digests, row["round"]))
    for c in (a, b, w):
        c.quit()
    return ["killed pid %d after round %d; the duel went on to round %d and replays" %
            (pid, at, row["round"])]


SCENARIOS = [
    ("a duel to the end, the armoury, the corner", s_duel),
    ("a duel ended by yield", s_yield),
    ("kill -9 in a duel", s_kill),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_duel.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_duel: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_duel: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = DuelEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_duel: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
