#!/usr/bin/env python3
"""e2e_predict.py - spectators' predictions (issue 26) on a real ngircd: two
players fight a live bout, three spectators predict it, and the bot is killed
(kill -9) and started again in the middle.

    python3 tests/e2e/e2e_predict.py BOT SIM     (from the repository root;
                                                 BOT e.g. build/asan/ringside,
                                                 SIM build/ringside-sim)

Reuses tests/e2e/e2e_bouts.py (ngircd without penalties, the bot paced fast).

Scenario:
  1. a three-round boxing bout between two players; three spectators predict
     it from the challenge's acceptance: one in the channel (answered in
     private, nothing said in the channel), one in private who changes his
     call, one a draw; a player's own bout and a method boxing has not are
     refused, word for word; `predict` alone lists the open ones. After
     round 1 they are closed; the bot is killed with kill -9 and started
     again; round 2's first channel line is the line derived from the
     database with the count ("3 predictions: 2 Liston, 1 draw.") after it;
     the end says who called it in one line, computed here from the stored
     result, and each spectator hears his points in private. Killed and
     started again once more: `pundits` gives the table recomputed from the
     bout's result, nothing counted twice.
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Python 3 standard library only.
"""

import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import CHANNEL, Client, check, secret  # noqa: E402
from e2e_bouts import challenge, order, order_last, player, tell, wait_chan, wait_private  # noqa: E402

# Gentle orders: the bout goes the distance (e2e_bouts' s_kill).
OA = ["2/8/10", "3/7/10", "2/7/11"]
OB = ["3/3/14 (clinch)", "2/4/14 (clinch)", "3/4/13 (clinch)"]
IDENTIFIED = r"^you are identified as %s "
SHOWN = {"ko": "KO", "tko": "TKO", "dq": "DQ", "decision": "decision"}


def spectator(env, nick):
    """A client in the channel with an account and no fighter."""
    c = Client(env, nick, [CHANNEL])
    c.pw = secret(env, "%s-pw-%d" % (nick, os.getpid() % 1000))
    tell(c, "register " + c.pw, r"^account %s registered, and you are identified" % nick)
    return c


def said_to(c, start):
    """The bot's channel lines c saw from `start`."""
    with c.cond:
        lines = c.lines[start:]
    return [m.text for m in lines if c.from_bot(m) and m.target.lower() == CHANNEL]


def restart(env, clients):
    """kill -9, started again on the same database; everyone identifies."""
    env.kill_bot()
    env.start_bot()
    for c in clients:
        start = len(c.lines)
        deadline = time.monotonic() + e2e.RECONNECT_TIMEOUT
        while True:  # the bot may not be in the channel yet
            c.cmd("identify " + c.pw)
            try:
                wait_private(c, IDENTIFIED % c.nick, start, timeout=5)
                break
            except e2e.Failure:
                check(time.monotonic() < deadline, "%s could not identify again" % c.nick)


def points(pred, row):
    """(points, hits words) of a prediction (side, method, round) against the
    bout's row, as the issue counts them."""
    side, method, rnd = pred
    if side != row["winner"]:
        return 0, []
    if side < 0:
        return 1, ["draw"]
    hits = ["winner"]
    if method and method == row["method"]:
        hits.append(SHOWN[method])
    if rnd and rnd == row["round"]:
        hits.append("round %d" % rnd)
    return len(hits), hits


def s_predict(env):
    """Three spectators predict a bout; a restart; closing, the count, the end."""
    w = Client(env, "pwatch", [CHANNEL])
    a = player(env, "p_alice", "create Liston str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "p_bob", "create Frazier str=13 spd=14 agl=12 tgh=11 hgt=10")
    carol, dave, erin = (spectator(env, n) for n in ("p_carol", "p_dave", "p_erin"))
    x = challenge(env, a, b, "rounds=3", "Liston", "Frazier")
    usage = r"You may change it until the end of round 1; nobody sees it before then\.$"

    # carol in the channel: answered in private, nothing in the channel.
    sw = len(w.lines)
    tell(carol, "predict %d Liston decision" % x,
         r"^Prediction stored for bout #%d: Liston by decision\. " % x + usage)
    tell(dave, "predict %d Frazier ko round 2" % x,
         r"^Prediction stored for bout #%d: Frazier by KO in round 2\. " % x + usage)
    tell(dave, "predict %d liston" % x, r"^Prediction changed for bout #%d: Liston \(was "
         r"Frazier by KO in round 2\)\. " % x + usage)
    tell(erin, "predict #%d draw" % x, r"^Prediction stored for bout #%d: a draw\. " % x + usage)
    tell(a, "predict %d Liston" % x,
         r"^Bout #%d is your own fighter's: you cannot predict it\.$" % x)
    tell(erin, "predict %d Liston points" % x, r"^A boxing bout ends by ko, tko, dq or "
         r"decision: \"points\" is none of them\.$")
    tell(carol, "predict", r"^Your open predictions: #%d Liston by decision \(open until the "
         r"end of round 1\)\.$" % x)
    carol.cmd("predict %d Frazier" % x, CHANNEL)
    wait_private(carol, r"^Prediction changed for bout #%d: Frazier \(was Liston by "
                 r"decision\)\. " % x + usage, sw)
    time.sleep(1)
    # The bout's start line says that predictions are open (and may come
    # after sw): that is no prediction.
    leaked = [t for t in said_to(w, sw) if "redict" in t.replace("Predictions open until", "")
              .replace("!predict %d <fighter>" % x, "")]
    check(not leaked, "the channel heard of a prediction: %r" % leaked)
    calls = {carol: (1, None, 0), dave: (0, None, 0), erin: (-1, None, 0)}
    rows = env.query("SELECT count(*) FROM predictions WHERE bout = ?", (x,))
    check(rows[0][0] == 3, "%d predictions stored, not 3" % rows[0][0])

    # Round 1 closes them.
    order(a, OA[0], 1, "Liston")
    order_last(env, b, OB[0], 1, "Frazier", x)
    deadline = time.monotonic() + e2e.TIMEOUT
    while env.bout(x)["round"] < 1:
        check(time.monotonic() < deadline, "round 1 was not fought")
        time.sleep(0.1)
    tell(erin, "predict %d Liston" % x,
         r"^Predictions on bout #%d closed at the end of round 1\.$" % x)

    # kill -9 and back: still closed; round 2 carries the count.
    restart(env, (a, b, carol, dave, erin))
    tell(dave, "predict %d Frazier" % x,
         r"^Predictions on bout #%d closed at the end of round 1\.$" % x)
    sw = len(w.lines)
    order(a, OA[1], 2, "Liston")
    order_last(env, b, OB[1], 2, "Frazier", x)
    first = e2e.plain(env.summary(x, 2).split("\n")[0])
    want = first + " 3 predictions: 1 Liston, 1 Frazier, 1 draw."
    m = w.wait(lambda m: w.from_bot(m) and m.target.lower() == CHANNEL and
               e2e.plain(m.text) == want, "round 2's first line with the count: %r" % want,
               timeout=e2e.TIMEOUT, start=sw)
    counted = e2e.plain(m.text)

    # The end: who called it, and each spectator's points.
    sw = len(w.lines)
    starts = {c: len(c.lines) for c in calls}
    order(a, OA[2], 3, "Liston")
    order_last(env, b, OB[2], 3, "Frazier", x)
    deadline = time.monotonic() + e2e.TIMEOUT
    while env.bout(x)["state"] != "over":
        check(time.monotonic() < deadline, "the bout did not end")
        time.sleep(0.1)
    row = env.bout(x)
    called = []
    for c in (carol, dave, erin):  # in the order they were made
        pts, hits = points(calls[c], row)
        if pts:
            called.append("%s (%s)" % (c.nick, ", ".join(hits)))
    m = wait_chan(w, r"^Called it: ", sw)
    said = e2e.plain(m.text)
    if called:
        got = said[len("Called it: "):-1].split("), ")
        got = sorted(g if g.endswith(")") else g + ")" for g in got)
        check(said.endswith(".") and got == sorted(called),
              "the end said %r; called it: %r" % (said, called))
    else:
        check(said == "Called it: nobody, of 3 predictions.", "the end said %r" % said)
    for c in (carol, dave, erin):
        pts, _ = points(calls[c], row)
        wait_private(c, r"^Bout #%d is over: your prediction \(.+\) scores %d points?" %
                     (x, pts), starts[c])

    # Killed once more: the table is the result's, counted once.
    restart(env, (carol,))
    want = sorted(((points(calls[c], row)[0], c.nick) for c in calls), key=lambda t: -t[0])
    got = tell(w, "pundits", r"^Pundits \(all time, every ruleset\): ")
    for pts, nick in want:
        check(re.search(r"\b%s %d points? " % (nick, pts), got),
              "the table says %r; %s has %d points" % (got, nick, pts))
    total = env.query("SELECT count(*) FROM predictions WHERE bout = ? AND hits IS NOT NULL",
                      (x,))[0][0]
    check(total == 3, "%d predictions scored" % total)
    for c in (w, a, b, carol, dave, erin):
        c.quit()
    return ["bout #%d: %s; %s; %s" % (x, counted[-40:], m.text, got)]


SCENARIOS = [
    ("three spectators predict a bout across a kill -9", s_predict),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_predict.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_predict: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_predict: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])

    def before_restart(e):
        e.order_timeout = e2e_bouts.ORDER_TIMEOUT

    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_predict: %s and %s against ngircd" % (argv[1], argv[2]),
                         stopping=e2e_bouts.s_stop, before_restart=before_restart)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
