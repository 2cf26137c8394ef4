#!/usr/bin/env python3
"""json_check.py - checks ringside-sim --json output against the rules.

An independent re-implementation, written from seed 000 ("How a round is
resolved") and the project's rules decisions, NOT from engine/boxing.c: the
point is that two readings of the rules must agree. It recomputes every
deterministic figure of a boxing round from the sheets, the orders and the
figures of the previous round, and checks the random ones against their
documented ranges:

  recovery (step 1), injury penalties, styles computed simultaneously
  (step 2), height (step 3), endurance scaling (step 4), AGG and rest,
  DEF_RATE (step 6), thrown = 8 x AGG, landed within [0.9, 1.1] x expected
  (x 0.85 for head/body) capped at 8 x AGG, the judges' counts, damage within
  [0.9, 1.1] x the base formula times its modifiers (step 8), knockdowns and
  KO thresholds (step 10), fatigue and the endurance bookkeeping (steps
  8-12), the cards of each round and the result.

SUGAR RAY bouts (seed 004) are checked too: fatigue table, blows, result.

Usage: json_check.py [FILE...]   (default: standard input; JSON Lines, the
{"stats":...} line is skipped). Prints one line per disagreement, then a
summary line; exit status 0 when everything agrees, 1 otherwise, 2 on
unreadable input. Where the rules can be read two ways and the engine
follows the other reading, that is a disagreement too, and the message says
which reading the engine matches.
"""

import json
import math
import sys

SIDES = ("a", "b")
STYLES = ("inside", "clinch", "feint", "counter", "ring", "cut", "outside", "allout")
CUT_LOCS = ("above_right_eye", "above_left_eye", "below_right_eye", "below_left_eye")
ABOVE_EYE = ("above_right_eye", "above_left_eye")
SWELL_LOCS = ("swelling_right_eye", "swelling_left_eye")
ALL_LOCS = CUT_LOCS + SWELL_LOCS + ("nose", "jaw")
MAX_REPORTED = 60

# Knockdown thresholds (fractions of starting endurance) by the puncher's target.
KD_THRESHOLDS = {"": (0.15, 0.20, 0.25), "H": (0.10, 0.125, 0.15), "B": (0.25, 0.30, 0.35)}
# Damage multiplier for head punches / body blows.
TARGET_DAMAGE = {"": 1.0, "H": 0.85, "B": 1.15}


class Checker:
    """Collects disagreements; prints the first MAX_REPORTED."""

    def __init__(self):
        self.problems = 0
        self.bouts = 0
        self.rounds = 0

    def bad(self, where, what):
        self.problems += 1
        if self.problems <= MAX_REPORTED:
            print(f"{where}: {what}")

    def close(self, where, field, got, want, tol=2e-3, rel=1e-5):
        """Checks got == want within tol + rel*|want|; returns True if so."""
        if not isinstance(got, (int, float)) or not math.isfinite(got):
            self.bad(where, f"{field}: engine {got!r} is not a finite number")
            return False
        if abs(got - want) > tol + rel * abs(want):
            self.bad(where, f"{field}: engine {got:.4f}, expected {want:.4f}")
            return False
        return True


def near(x, y, tol=2e-3, rel=1e-5):
    return abs(x - y) <= tol + rel * abs(y)


def parse_order(text):
    """'4H/8!/8 (inside)' -> dict(agg, pow, def, target, dirty, style)."""
    style = ""
    body = text
    if "(" in text:
        body, rest = text.split("(", 1)
        style = rest.rstrip(")").strip()
    a, p, d = body.strip().split("/")
    target = ""
    if a[-1] in "HB":
        target = a[-1]
        a = a[:-1]
    dirty = p.endswith("!")
    if dirty:
        p = p[:-1]
    if style and style not in STYLES:
        raise ValueError(f"unknown style {style!r}")
    return {"agg": int(a), "pow": int(p), "def": int(d), "target": target, "dirty": dirty,
            "style": style}


def injury_penalties(sheet, injuries, cut_locs=ABOVE_EYE):
    """Sheet STR/SPD/AGL less the penalties of injuries from earlier rounds,
    each floored at 1. A cut over the eye costs 0.5 SPD per level, and 0.5
    AGL (serious cut) or 1 AGL (gash); swelling costs 1/1 at level 2 and 2/2
    shut."""
    s, p, g = float(sheet["str"]), float(sheet["spd"]), float(sheet["agl"])
    for inj in injuries:
        loc, lvl = inj["location"], inj["level"]
        if loc in cut_locs:
            p -= 0.5 * lvl
            if lvl == 3:
                g -= 0.5
            elif lvl >= 4:
                g -= 1.0
        elif loc in SWELL_LOCS:
            if lvl == 2:
                p -= 1.0
                g -= 1.0
            elif lvl >= 3:
                p -= 2.0
                g -= 2.0
    return {"str": max(1.0, s), "spd": max(1.0, p), "agl": max(1.0, g)}


def styles(pre, orders):
    """Step 2: every style effect computed from the same pre-style values,
    then each ability floored at 1. Returns new abilities per side."""
    delta = {x: {"str": 0.0, "spd": 0.0, "agl": 0.0} for x in SIDES}
    for me, op in (("a", "b"), ("b", "a")):
        st, m, o = orders[me]["style"], pre[me], pre[op]
        if st == "inside":
            delta[me]["str"] += 1.5 + max(0.0, m["str"] - o["str"]) / 2
            delta[me]["agl"] -= 0.15 * m["agl"]
        elif st == "clinch":
            delta[me]["agl"] += 1.5 - max(0.0, m["agl"] - o["agl"]) / 2 \
                + max(0.0, m["str"] - o["str"]) / 2
        elif st == "feint":
            delta[me]["spd"] += 1.5 + max(0.0, m["spd"] - o["spd"]) / 2
        elif st == "counter":
            diff = m["spd"] - o["spd"]
            if diff > 0:
                delta[me]["agl"] += diff / 4
                delta[op]["agl"] -= min(diff / 4, 0.5 * o["agl"])
            elif diff < 0:
                delta[me]["agl"] -= -diff / 2
        elif st == "ring":
            delta[me]["agl"] += 1.5 + max(0.0, m["agl"] - o["agl"]) / 2
            delta[me]["str"] -= 0.15 * m["str"]
        elif st == "cut":
            diff = m["agl"] - o["agl"]
            if diff > 0:
                delta[op]["agl"] -= min(diff, 0.1 * o["agl"])
        elif st == "outside":
            delta[me]["str"] -= 0.15 * m["str"]
    return {x: {k: max(1.0, pre[x][k] + delta[x][k]) for k in ("str", "spd", "agl")}
            for x in SIDES}


def aggression(orders):
    """AGG after clinching, feinting and counter-punching, and the rest
    (AGG turned into unspent energy) per side."""
    agg = {x: orders[x]["agg"] for x in SIDES}
    rest = {x: 0 for x in SIDES}
    for x in SIDES:
        if orders[x]["style"] in ("clinch", "feint"):
            new = max(1, agg[x] - 1)
            if orders[x]["style"] == "clinch":
                rest[x] += agg[x] - new
            agg[x] = new
    counters = [x for x in SIDES if orders[x]["style"] == "counter"]
    if len(counters) == 2:
        for x in SIDES:
            new = max(1, agg[x] - 1)
            rest[x] += agg[x] - new
            agg[x] = new
    elif counters:
        x = counters[0]
        op = "b" if x == "a" else "a"
        new = max(1, min(agg[x], agg[op] - 1))
        rest[x] += agg[x] - new
        agg[x] = new
    return agg, rest


def height(ab, sheets, orders):
    """Step 3: the taller fighter's SPD and AGL bonus."""
    ha, hb = sheets["a"]["hgt"], sheets["b"]["hgt"]
    if ha == hb:
        return
    tall, short = ("a", "b") if ha > hb else ("b", "a")
    bonus = abs(ha - hb) / 2
    if orders[tall]["style"] in ("inside", "clinch"):
        bonus /= 2
    elif orders[tall]["style"] == "outside":
        bonus *= 1.5
    if orders[short]["style"] == "allout":
        ab[tall]["spd"] += 2 * bonus
    else:
        ab[tall]["spd"] += bonus
        ab[tall]["agl"] += bonus


def injury_damage_of(loc, level):
    """Damage an injury causes when it happens or is aggravated."""
    if loc in CUT_LOCS:
        return float(level)
    if loc == "nose":
        return float(level) if level >= 2 else 0.0
    if loc == "jaw":
        return 5.0 if level >= 4 else 0.0
    return 0.0


def knockdowns_for(damage, end_start, target):
    """(knockdowns, ko) for damage before head/body multipliers."""
    t1, t2, t3 = (f * end_start for f in KD_THRESHOLDS[target])
    if damage >= t3:
        return None, True
    if damage >= t2:
        return 2, False
    if damage >= t1:
        return 1, False
    return 0, False


def near_threshold(damage, end_start, target):
    return any(abs(damage - f * end_start) < 2e-3 for f in KD_THRESHOLDS[target])


def card_for(counts, kds, warns, penal, wins_after_adjust):
    """One judge's card for a round: (points a, points b). More punches
    counted wins 10-9, equal counts 10-10; then knockdowns, warnings and
    clinch penalties adjust the card in that order, so with
    wins_after_adjust the clinch penalty looks at the card after knockdowns
    and warnings to see who won the round (the other reading: the punch
    counts alone decide it)."""
    ca, cb = counts
    pts = [10, 9] if ca > cb else [9, 10] if ca < cb else [10, 10]
    for i in range(2):
        pts[i] -= kds[i] + warns[i]
    ref = list(pts) if wins_after_adjust else ([10, 9] if ca > cb else [9, 10] if ca < cb
                                               else [10, 10])
    adj = [0, 0]
    for i in range(2):
        if penal[i]:
            if ref[i] > ref[1 - i]:
                adj[1 - i] += 1
            else:
                adj[i] -= 1
    return pts[0] + adj[0], pts[1] + adj[1]


def check_boxing(ck, bout):
    seed = bout.get("seed")
    sheets = {x: bout[x]["sheet"] for x in SIDES}
    end_start = {x: 10.0 * sheets[x]["tgh"] for x in SIDES}
    rounds = bout["rounds"]
    res = bout["result"]
    prev = None
    totals = [[0, 0] for _ in range(3)]
    stopped_at = None  # first round where the rules say the bout must end

    for idx, rnd in enumerate(rounds):
        ck.rounds += 1
        r = rnd["round"]
        where = f"seed {seed} round {r}"
        if r != idx + 1:
            ck.bad(where, f"round number {r}, expected {idx + 1}")
        f = {x: rnd[x] for x in SIDES}
        try:
            orders = {x: parse_order(f[x]["order"]) for x in SIDES}
        except (ValueError, IndexError) as e:
            ck.bad(where, f"unreadable order: {e}")
            return
        for x in SIDES:
            for k, v in f[x].items():
                if isinstance(v, float) and not math.isfinite(v):
                    ck.bad(f"{where} {x}", f"{k}: {v} is not finite")

        # Step 1: recovery.
        for x in SIDES:
            if prev is None:
                want = end_start[x]
            else:
                p = prev[x]
                po = parse_order(p["order"])
                used = po["agg"] + po["pow"] + po["def"] - p["rest"]
                lost = end_start[x] - p["endurance"]
                want = p["endurance"] + 0.15 * lost + 0.02 * max(0, 20 - used) * lost
            ck.close(f"{where} {x}", "end_begin", f[x]["end_begin"], want, tol=1e-3)

        # Steps 2-4: abilities.
        prev_inj = {x: (prev[x]["injuries"] if prev else []) for x in SIDES}
        pre = {x: injury_penalties(sheets[x], prev_inj[x]) for x in SIDES}
        ab = styles(pre, orders)
        height(ab, sheets, orders)
        agg, rest = aggression(orders)
        for x in SIDES:
            ratio = f[x]["end_begin"] / end_start[x]
            for k in ("str", "spd", "agl"):
                # "No ability is ever reduced below 1" (seed 000, injuries)
                # read as a rule for every reduction, scaling included.
                want = max(1.0, ab[x][k] * ratio)
                got = f[x][k]
                if near(got, want):
                    continue
                if near(got, ab[x][k] * ratio):
                    ck.bad(f"{where} {x}", f"{k}: engine {got:.4f} lets endurance scaling take "
                           f"it below 1; expected {want:.4f}")
                    continue
                alt = injury_penalties(sheets[x], prev_inj[x], CUT_LOCS)
                if alt != pre[x]:
                    pre2 = dict(pre)
                    pre2[x] = alt
                    ab2 = styles(pre2, orders)
                    height(ab2, sheets, orders)
                    if near(got, max(1.0, ab2[x][k] * ratio)):
                        ck.bad(f"{where} {x}", f"{k}: engine {got:.4f} applies the vision "
                               f"penalty to cuts below the eye too; expected {want:.4f} "
                               "(only a cut over the eye)")
                        continue
                ck.bad(f"{where} {x}", f"{k}: engine {got:.4f}, expected {want:.4f} "
                       f"(pre-style {pre[x][k]:.4f}, after styles and height {ab[x][k]:.4f}, "
                       f"endurance ratio {ratio:.6f})")
            if f[x]["agg"] != agg[x]:
                ck.bad(f"{where} {x}", f"agg: engine {f[x]['agg']}, expected {agg[x]}")
            if f[x]["rest"] != rest[x]:
                ck.bad(f"{where} {x}", f"rest: engine {f[x]['rest']}, expected {rest[x]}")
            if f[x]["thrown"] != 8 * f[x]["agg"]:
                ck.bad(f"{where} {x}", f"thrown: engine {f[x]['thrown']}, expected "
                       f"{8 * f[x]['agg']} (8 x AGG)")
            for k in ("str", "spd", "agl"):
                if f[x][k] < 1 - 1e-4:
                    ck.bad(f"{where} {x}", f"{k}: effective {f[x][k]:.4f} is below 1")

        # Step 6: DEF_RATE from the engine's own effective AGL.
        for x in SIDES:
            want = max(1.0, orders[x]["def"] * f[x]["agl"])
            ck.close(f"{where} {x}", "def_rate", f[x]["def_rate"], want, tol=1e-3, rel=1e-4)

        # Steps 7-8: punches and damage, from the engine's effective values.
        for x, o in (("a", "b"), ("b", "a")):
            me, op, od = f[x], f[o], orders[x]
            w = f"{where} {x}"
            cap = 8 * me["agg"]
            expect = 8 * me["agg"] * me["spd"] / math.sqrt(3 * op["def_rate"])
            if od["target"]:
                expect *= 0.85
            lo, hi = min(0.9 * expect, cap), min(1.1 * expect, cap)
            if not (lo * (1 - 1e-4) - 1e-3 <= me["landed"] <= hi * (1 + 1e-4) + 1e-3):
                ck.bad(w, f"landed: engine {me['landed']:.4f}, expected {lo:.4f} to {hi:.4f} "
                       f"(expected figure {expect:.4f}, cap {cap})")
            for j, c in enumerate(me["counts"]):
                if not (0.95 * me["landed"] - 0.5 - 1e-3 <= c <= 1.05 * me["landed"] + 0.5 + 1e-3):
                    ck.bad(w, f"counts[{j}]: engine {c}, expected round(landed x [0.95, 1.05]) "
                           f"with landed {me['landed']:.4f}")
            base = od["pow"] * me["str"] * math.sqrt(me["agg"] * me["spd"]) / op["def_rate"]
            mult = TARGET_DAMAGE[od["target"]]
            if od["dirty"]:
                mult *= 1.05 if me["warnings"] else 1.10
            if od["style"] == "allout":
                mult *= 2
            if orders[o]["style"] == "allout":
                mult *= 4
            lo, hi = 0.9 * base * mult, 1.1 * base * mult
            if not (lo * (1 - 1e-4) - 1e-3 <= me["damage"] <= hi * (1 + 1e-4) + 1e-3):
                ck.bad(w, f"damage: engine {me['damage']:.4f}, expected {lo:.4f} to {hi:.4f} "
                       f"(base {base:.4f} x modifiers {mult:.4f})")
            ck.close(w, "kd_damage x head/body", me["kd_damage"] * TARGET_DAMAGE[od["target"]],
                     me["damage"], tol=2e-3, rel=1e-4)

        # Step 9: injuries (levels only grow; damage matches what happened).
        for x in SIDES:
            w = f"{where} {x}"
            before = {i["location"]: i["level"] for i in prev_inj[x]}
            now = {}
            for i in f[x]["injuries"]:
                loc, lvl = i["location"], i["level"]
                if loc not in ALL_LOCS:
                    ck.bad(w, f"injury location {loc!r} unknown")
                    continue
                if loc in now:
                    ck.bad(w, f"injury {loc} listed twice")
                now[loc] = lvl
                top = 3 if loc in SWELL_LOCS else 4
                if not 1 <= lvl <= top:
                    ck.bad(w, f"injury {loc} level {lvl}, expected 1 to {top}")
                if lvl < before.get(loc, 0):
                    ck.bad(w, f"injury {loc} went down from level {before[loc]} to {lvl}")
            for loc in before:
                if loc not in now:
                    ck.bad(w, f"injury {loc} healed during the bout")
            visible = sum(injury_damage_of(loc, lvl) for loc, lvl in now.items()
                          if before.get(loc) != lvl)
            got = f[x]["injury_damage"]
            extra = got - visible
            if extra < -1e-3 or abs(extra - round(extra)) > 1e-3:
                ck.bad(w, f"injury_damage: engine {got:.4f}, but the injuries that appeared or "
                       f"grew this round cause {visible:.4f} (the rest must be whole "
                       "aggravations)")
            elif extra > 1e-3 and not any(injury_damage_of(loc, lvl) > 0
                                          for loc, lvl in now.items()):
                # The rest is repeated damage of aggravations (an injury may
                # also happen and be aggravated within one round), so some
                # injury must be of a kind that causes damage.
                ck.bad(w, f"injury_damage: engine {got:.4f}, but only {visible:.4f} comes from "
                       "new or promoted injuries and no injury causes damage")

        # Step 10: knockdowns and KO, from the opponent's damage before the
        # head/body multipliers.
        ko = {}
        for x, o in (("a", "b"), ("b", "a")):
            w = f"{where} {x}"
            dam, tgt = f[o]["kd_damage"], orders[o]["target"]
            n, is_ko = knockdowns_for(dam, end_start[x], tgt)
            ko[x] = is_ko
            if near_threshold(dam, end_start[x], tgt):
                continue
            if not is_ko and f[x]["knockdowns"] != n:
                ck.bad(w, f"knockdowns: engine {f[x]['knockdowns']}, expected {n} for "
                       f"{dam:.4f} damage against starting endurance {end_start[x]:.0f} "
                       f"(target {tgt or 'opportunistic'})")
            if is_ko:
                excess = dam - KD_THRESHOLDS[tgt][2] * end_start[x]
                n2, again = knockdowns_for(excess, end_start[x], tgt)
                if not again and f[x]["knockdowns"] > n2:
                    ck.bad(w, f"knockdowns: engine {f[x]['knockdowns']} with a KO, at most "
                           f"{n2} from the {excess:.4f} damage beyond the KO")

        # Steps 8-12: endurance bookkeeping and fatigue.
        last = idx == len(rounds) - 1
        for x, o in (("a", "b"), ("b", "a")):
            w = f"{where} {x}"
            me = f[x]
            want_end = me["end_begin"] - f[o]["damage"] - me["injury_damage"] - me["fatigue"]
            ck.close(w, "endurance (end_begin - damage taken - injury_damage - fatigue)",
                     me["endurance"], want_end, tol=1e-3)
            spent = orders[x]["agg"] - me["rest"]
            nose_now = any(i["location"] == "nose" for i in me["injuries"])
            nose_before = any(i["location"] == "nose" for i in prev_inj[x])
            cut = 0.25 * me["agg"] if orders[x]["style"] == "cut" else 0.0
            want = spent + (1 if nose_now else 0) + cut
            got = me["fatigue"]
            if near(got, want, 1e-3):
                continue
            if last and res["method"] in ("KO", "TKO", "draw") and near(got, 0.0, 1e-3):
                continue  # the bout ended before step 12
            if nose_now != nose_before and near(got, spent + (1 if nose_before else 0) + cut,
                                                1e-3):
                ck.bad(w, f"fatigue: engine {got:.4f} leaves out the nose injury suffered this "
                       f"round; expected {want:.4f} (the extra point from step 9 on)")
                continue
            if cut and near(got, spent + (1 if nose_now else 0) + 0.25 * orders[x]["agg"], 1e-3):
                ck.bad(w, f"fatigue: engine {got:.4f} charges cutting off the ring on the "
                       f"ordered AGG; expected {want:.4f} (on the AGG used)")
                continue
            ck.bad(w, f"fatigue: engine {got:.4f}, expected {want:.4f} (AGG spent {spent}, "
                   f"nose {1 if nose_now else 0}, cutting off the ring {cut:.4f})")

        # Warnings and cards.
        for x in SIDES:
            before = prev[x]["warnings_total"] if prev else 0
            if f[x]["warnings_total"] != before + f[x]["warnings"]:
                ck.bad(f"{where} {x}", f"warnings_total: engine {f[x]['warnings_total']}, "
                       f"expected {before} + {f[x]['warnings']}")
        for j in range(3):
            args = ((f["a"]["counts"][j], f["b"]["counts"][j]),
                    (f["a"]["knockdowns"], f["b"]["knockdowns"]),
                    (f["a"]["warnings"], f["b"]["warnings"]),
                    (f["a"]["clinch_penalty"], f["b"]["clinch_penalty"]))
            want = card_for(*args, wins_after_adjust=True)
            got = (f["a"]["cards"][j], f["b"]["cards"][j])
            if got != want:
                alt = card_for(*args, wins_after_adjust=False)
                how = (" (the engine decides who won the round for the clinch penalty from the "
                       "punch counts alone, before knockdowns and warnings)") if got == alt else ""
                ck.bad(where, f"judge {j + 1} card: engine {got[0]}-{got[1]}, expected "
                       f"{want[0]}-{want[1]} from counts {args[0]}, knockdowns {args[1]}, "
                       f"warnings {args[2]}, clinch penalties {args[3]}{how}")
            totals[j][0] += got[0]
            totals[j][1] += got[1]

        # Rounds after which the bout must be over.
        if stopped_at is None:
            for x, o in (("a", "b"), ("b", "a")):
                after_damage = f[x]["end_begin"] - f[o]["damage"] - f[x]["injury_damage"]
                if ko[x] or after_damage <= -1e-3 or f[x]["endurance"] <= -1e-3:
                    stopped_at = r
        prev = f

    # The result.
    n = len(rounds)
    where = f"seed {seed} result"
    if res["round"] != n:
        ck.bad(where, f"round: engine {res['round']}, but {n} rounds were fought")
    if stopped_at is not None and stopped_at != n:
        ck.bad(where, f"the bout should have ended in round {stopped_at} (KO or endurance at 0), "
               f"it went on to round {n}")
    if stopped_at is None and n < bout["rounds_scheduled"] and res["method"] in (
            "decision", "points"):
        ck.bad(where, f"a {res['method']} after {n} of {bout['rounds_scheduled']} rounds")
    cards = [list(c) for c in res["cards"]]
    if cards != totals:
        ck.bad(where, f"cards: engine {cards}, sum of the rounds' cards {totals}")
    method = res["method"]
    if method == "decision" or (method == "draw" and res["drawn_by"] == "decision"):
        if n != bout["rounds_scheduled"]:
            ck.bad(where, f"decision after {n} of {bout['rounds_scheduled']} rounds")
        ahead_a = sum(1 for c in totals if c[0] > c[1])
        ahead_b = sum(1 for c in totals if c[1] > c[0])
        if ahead_a >= 2:
            want = ("a", "unanimous" if ahead_a == 3 else "split" if ahead_b else "majority")
        elif ahead_b >= 2:
            want = ("b", "unanimous" if ahead_b == 3 else "split" if ahead_a else "majority")
        else:
            want = (None, None)
        got = (res["winner"], res["decision"])
        if got != want:
            ck.bad(where, f"decision: engine winner {got[0]} ({got[1]}), expected {want[0]} "
                   f"({want[1]}) from cards {totals}")
    elif n == bout["rounds_scheduled"] and stopped_at is None and method not in (
            "DQ", "TKO", "draw"):
        ck.bad(where, f"method {method} after the full distance without a stoppage")
    if method == "KO" and stopped_at is None:
        ck.bad(where, "KO but no round had damage at the KO threshold")
    if (res["winner"] is None) != (method == "draw"):
        ck.bad(where, f"winner {res['winner']} with method {method}")
    if rounds and res["winner"] in SIDES:
        check_stoppage(ck, where, res, rounds[-1], end_start)
    if rounds:
        check_disqualification(ck, where, res, rounds[-1])


def check_disqualification(ck, where, res, rnd):
    """A disqualified fighter never wins: he loses by DQ, or by the (T)KO he
    suffered in that round; both disqualified is a draw."""
    dq = [x for x in SIDES if rnd[x].get("disqualified")]
    for x in dq:
        if not rnd[x]["warnings"]:
            ck.bad(where, f"{x} disqualified without a warning in that round")
    if len(dq) == 2:
        if res["method"] != "draw" or res["drawn_by"] != "DQ":
            ck.bad(where, f"both disqualified: engine {res['method']}/{res['drawn_by']}, "
                   "expected a draw by DQ")
    elif len(dq) == 1:
        x = dq[0]
        other = "b" if x == "a" else "a"
        if res["winner"] != other or res["method"] not in ("DQ", "KO", "TKO"):
            ck.bad(where, f"{x} disqualified: engine winner {res['winner']} by {res['method']}, "
                   f"expected {other} by DQ or (T)KO")
    elif res["method"] == "DQ" or res["drawn_by"] == "DQ":
        ck.bad(where, "a result by DQ with nobody disqualified in the last round")


def check_stoppage(ck, where, res, rnd, end_start):
    """The last round must show why the loser lost inside the distance."""
    loser = "b" if res["winner"] == "a" else "a"
    winner = res["winner"]
    me, op = rnd[loser], rnd[winner]
    levels = {i["location"]: i["level"] for i in me["injuries"]}
    method, reason = res["method"], res["reason"]
    tgt = parse_order(op["order"])["target"]
    if method == "KO":
        _, is_ko = knockdowns_for(op["kd_damage"] + 2e-3, end_start[loser], tgt)
        why = None if is_ko else (f"{op['kd_damage']:.4f} damage is under the KO threshold "
                                  f"{KD_THRESHOLDS[tgt][2] * end_start[loser]:.4f}")
    elif method == "DQ":
        why = None if me.get("disqualified") else "the loser was not disqualified in the last round"
    elif method == "TKO" and reason == "endurance":
        left = me["end_begin"] - op["damage"] - me["injury_damage"]
        why = None if left <= 1e-3 else f"endurance {left:.4f} after damage is above 0"
    elif method == "TKO" and reason == "fatigue":
        why = None if me["endurance"] <= 1e-3 else f"endurance {me['endurance']:.4f} above 0"
    elif method == "TKO" and reason == "eyes_shut":
        shut = all(levels.get(loc, 0) >= 3 for loc in SWELL_LOCS)
        why = None if shut else f"injuries {levels}: both eyes are not shut"
    elif method == "TKO" and reason == "injury":
        why = None if any(v >= 3 for v in levels.values()) else f"no level 3-4 injury in {levels}"
    elif method == "TKO" and reason == "aggravated":
        why = None if any(v >= 4 for v in levels.values()) else f"no level 4 injury in {levels}"
    elif method == "TKO" and reason == "broken_jaw":
        why = None if levels.get("jaw") == 4 else f"jaw not broken in {levels}"
    else:
        why = None
    if why:
        ck.bad(where, f"{method} ({reason}) of {loser}: {why}")


def sugarray_loss(fatigue):
    table = (0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10)
    if fatigue <= 0:
        return 0
    return table[fatigue] if fatigue <= 15 else 2 * (fatigue - 10)


def check_sugarray(ck, bout):
    seed = bout.get("seed")
    skill = {x: bout[x]["sheet"]["skill"] for x in SIDES}
    end = {x: bout[x]["sheet"]["endurance"] for x in SIDES}
    total = {x: 0 for x in SIDES}
    ko = None
    for rnd in bout["rounds"]:
        ck.rounds += 1
        where = f"seed {seed} round {rnd['round']}"
        o = {}
        for x in SIDES:
            a, d = (int(v) for v in rnd[x]["order"].split("/"))
            o[x] = (a, d)
            total[x] += a
            end[x] -= sugarray_loss(3 * a + 2 * d - skill[x])
        down = [x for x in SIDES if end[x] < 1]
        if not down:
            lost = {x: 2 * max(0, o["b" if x == "a" else "a"][0] - o[x][1]) for x in SIDES}
            for x in SIDES:
                end[x] -= lost[x]
            down = [x for x in SIDES if end[x] < 1]
        for x in SIDES:
            if rnd[x]["endurance"] != end[x]:
                ck.bad(f"{where} {x}", f"endurance: engine {rnd[x]['endurance']}, expected "
                       f"{end[x]}")
        if down:
            ko = down
            break
    res = bout["result"]
    if ko:
        want = (None, "draw") if len(ko) == 2 else ("b" if ko[0] == "a" else "a", "KO")
    elif len(bout["rounds"]) == bout["rounds_scheduled"]:
        want = ((None, "draw") if total["a"] == total["b"]
                else ("a" if total["a"] > total["b"] else "b", "points"))
    else:
        want = ("?", "?")
    got = (res["winner"], res["method"])
    if got != want:
        ck.bad(f"seed {seed} result", f"engine {got}, expected {want}")


def check_stream(ck, name, stream):
    for lineno, line in enumerate(stream, 1):
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line, parse_constant=lambda c: float("nan"))
        except ValueError as e:
            ck.bad(f"{name}:{lineno}", f"not JSON ({e})")
            continue
        if "stats" in obj:
            continue
        ck.bouts += 1
        try:
            if obj["rules"] == "boxing":
                check_boxing(ck, obj)
            elif obj["rules"] == "sugarray":
                check_sugarray(ck, obj)
            else:
                ck.bad(f"{name}:{lineno}", f"unknown rules {obj['rules']!r}")
        except (KeyError, TypeError, ValueError, IndexError) as e:
            ck.bad(f"{name}:{lineno}", f"malformed bout ({type(e).__name__}: {e})")


def main(argv):
    ck = Checker()
    try:
        if len(argv) > 1:
            for path in argv[1:]:
                with open(path, encoding="utf-8") as fh:
                    check_stream(ck, path, fh)
        else:
            check_stream(ck, "stdin", sys.stdin)
    except OSError as e:
        print(f"json_check: {e}", file=sys.stderr)
        return 2
    if ck.problems > MAX_REPORTED:
        print(f"... and {ck.problems - MAX_REPORTED} more")
    print(f"json_check: {ck.bouts} bouts, {ck.rounds} rounds, {ck.problems} disagreements")
    if ck.bouts == 0:
        print("json_check: no bouts in the input")
        return 1
    return 0 if ck.problems == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
