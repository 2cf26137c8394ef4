#!/usr/bin/env python3
"""e2e_ratings.py - the Glicko-2 ratings end to end: the real bot (ASan), a
real ngircd, real client connections.

    python3 tests/e2e/e2e_ratings.py BOT SIM   (from the repository root)

Reuses tests/e2e/e2e_bouts.py's environment (ngircd without penalties, the
bot's output paced fast) and helpers.

Scenarios:
  1. two newcomers fight a live bout, ended by a forfeit: the channel hears
     "Ratings: Apollo 1662 (+162), Rocky 1338 (-162)" after the records, and
     the database holds the ratings and their history; `ratings` in the
     channel lists both, `fighter` shows "rating 1662 ± 290", `help rating`
     says what moves it in two lines; a second bout, the other way round:
     its line and the stored ratings are those of an independent
     Glicko-2 recomputation (below, from Glickman's paper);
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py. Environment: E2E_ONLY, E2E_KEEP, E2E_VERBOSE as e2e.py.
Python 3 standard library only.
"""

import math
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402
from e2e import CHANNEL, check  # noqa: E402
from e2e_bouts import challenge, player, tell, wait_chan  # noqa: E402

PM = "\u00b1"


def glicko2(r, rd, vol, opp_r, opp_rd, score, tau=0.5):
    """One rating period of one game (Glickman, "Example of the Glicko-2
    system", steps 2-8), written afresh here."""
    scale = 173.7178
    mu, phi = (r - 1500) / scale, rd / scale
    mu_j, phi_j = (opp_r - 1500) / scale, opp_rd / scale
    g = 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (score - e)
    a = math.log(vol ** 2)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - \
            (x - a) / tau ** 2
    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = c, f_c
    vol2 = math.exp(lo / 2)
    phi_star = math.sqrt(phi ** 2 + vol2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * g * (score - e)
    return scale * mu2 + 1500, scale * phi2, vol2


def stored(env, fighter):
    rows = env.query("SELECT r.rating, r.rd, r.vol, r.bouts FROM ratings r JOIN fighters f"
                     " ON f.id = r.fighter WHERE f.name = ?", (fighter,))
    return rows[0] if rows else None


def concede(env, loser, bout_id):
    """`loser` concedes bout_id in private; returns the channel's ratings line, which must
    come after the records."""
    start = len(loser.lines)
    tell(loser, "forfeit yes", r"^you conceded bout #%d$" % bout_id)
    rec = wait_chan(loser, e2e_bouts.AFTERMATH.pattern, start)
    line = wait_chan(loser, r"^Ratings: ", start)
    check(loser.lines.index(rec) < loser.lines.index(line), "the ratings line came before the "
          "records: %r / %r" % (rec.text, line.text))
    return line.text


def s_live_bouts(env):
    a = player(env, "rt_ann", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11")
    b = player(env, "rt_bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10")
    tell(a, "fighter Rocky", r"; rating 1500 %s 350$" % PM, CHANNEL)
    tell(a, "ratings", r"^no boxing fighter has a rating yet: a rating comes with a fighter's "
         r"first bout \(!challenge <nick> rules=boxing, or a league turn\)$", CHANNEL)
    bout1 = challenge(env, a, b, "", "Rocky", "Apollo")
    line = concede(env, a, bout1)
    check(line == "Ratings: Apollo 1662 (+162), Rocky 1338 (-162)", "bout 1's line: %r" % line)
    want = {"Apollo": glicko2(1500, 350, 0.06, 1500, 350, 1),
            "Rocky": glicko2(1500, 350, 0.06, 1500, 350, 0)}
    for name, (r, rd, vol) in want.items():
        got = stored(env, name)
        check(got and abs(got[0] - r) < 1e-6 and abs(got[1] - rd) < 1e-6
              and abs(got[2] - vol) < 1e-9 and got[3] == 1,
              "%s's stored rating %r, recomputed %r" % (name, got, (r, rd, vol)))
    hist = env.query("SELECT side, before, rating FROM rating_history WHERE bout = ?"
                     " ORDER BY side", (bout1,))
    check(len(hist) == 2 and hist[0][1] == 1500 and hist[1][1] == 1500,
          "bout 1's history: %r" % hist)
    listing = tell(b, "ratings", r"^Ratings \(boxing\): ", CHANNEL)
    check(listing == "Ratings (boxing): 1. Apollo 1662 %s 290; 2. Rocky 1338 %s 290" % (PM, PM),
          "ratings: %r" % listing)
    shown = tell(b, "fighter Apollo", r"^Apollo \(boxing, rt_bob\)", CHANNEL)
    check(shown.endswith("record 1-0-0, 0 by KO, 1 by forfeit; rating 1662 %s 290" % PM),
          "fighter: %r" % shown)
    start = len(b.lines)
    first = tell(b, "help rating", r"^!?ratings ")
    second = e2e_bouts.wait_private(b, r"^Every bout", start)
    check("Glicko-2" in first and second == (
        "Every bout that counts (league and title bouts, exhibitions) moves both fighters' "
        "ratings (newcomers 1500 %s 350): a win more against a higher rating, a loss more "
        "against a lower one, and more while the %s (how sure it is) is wide; each bout "
        "narrows it." % (PM, PM)), "help rating: %r / %r" % (first, second))

    # The other way round: each rated against the other as he was before it.
    bout2 = challenge(env, a, b, "", "Rocky", "Apollo")
    line = concede(env, b, bout2)
    ro, ap = want["Rocky"], want["Apollo"]
    ro2 = glicko2(ro[0], ro[1], ro[2], ap[0], ap[1], 1)
    ap2 = glicko2(ap[0], ap[1], ap[2], ro[0], ro[1], 0)
    expect = "Ratings: Rocky %d (%+d), Apollo %d (%+d)" % (
        round(ro2[0]), round(ro2[0]) - round(ro[0]), round(ap2[0]), round(ap2[0]) - round(ap[0]))
    check(line == expect, "bout 2's line: %r, recomputed %r" % (line, expect))
    for name, (r, rd, vol) in (("Rocky", ro2), ("Apollo", ap2)):
        got = stored(env, name)
        check(got and abs(got[0] - r) < 1e-6 and abs(got[1] - rd) < 1e-6 and got[3] == 2,
              "%s after bout 2: %r, recomputed %r" % (name, got, (r, rd, vol)))
    a.quit()
    b.quit()
    return [line, listing]


SCENARIOS = [
    ("two live bouts: the end's ratings line, ratings, fighter, help rating, recomputed",
     s_live_bouts),
]
STOP = ("SIGTERM at the end: exit 0, no sanitizer report", e2e_bouts.s_stop)


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_ratings.py BOT SIM", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_ratings: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    if not shutil.which("ngircd") and not os.path.exists("/usr/sbin/ngircd"):
        print("e2e_ratings: ngircd is missing; apt-get install -y ngircd", file=sys.stderr)
        return 2
    env = e2e_bouts.BoutEnv(argv[1], argv[2])
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_ratings: %s against ngircd" % argv[1], stopping=e2e_bouts.s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
