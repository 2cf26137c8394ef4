#!/usr/bin/env python3
"""duel_check.py - checks ringside-sim --rules duel --json against the rules.

An independent reading of seed 003 and docs/rules.md section 4 (written from
those texts and their tables, not from engine/duel.c). From the two sheets
and the record of each round it replays the duel's state (health, energy,
bleeding, stun, every piece's condition) and recomputes every attack:

  bleeding at the start of a round, the stunned fighter never having the
  initiative, lost turns (stunned, no energy), the normalised sums P and N
  rounded to 0.5 and the consecutive-hits table, the energy table cost of
  each attempt, the hit chance (100 on a stunned defender), the parts a
  weapon can reach, the roll within the weapon's range, base damage with
  the critical x2 and the stunned x2.5, the blunt/cut split, the pieces that
  defend a part (coverage, layering, the shield on the left arm), blunt and
  cutting damage after armour, the outer piece's wear, breaking, the
  weapon's wear, bleeding added, the stun length, the state after the round
  and the result.

The random draws are checked against their bounds: the initiative, whether
an attempt hits, the part, the roll, whether a critical or a stun happens
(never where its chance is 0).

Usage: duel_check.py [FILE...] (default stdin; JSON Lines, {"stats"} lines
skipped). One line per disagreement, then a summary; exit 0 when all agree.
"""

import json
import math
import sys

# rules.md section 4: STR, lo, hi, blunt %, reach, pen, crit column, kg, wear
WEAPONS = {
    "fists": (1, 1, 2, 100, 1, 0, None, 0.0, 1),
    "knife": (5, 2, 4, 0, 1, 35, None, 0.35, 1),
    "short_sword": (9, 3, 8, 20, 1, 65, None, 0.91, 1),
    "longsword": (11, 3, 10, 20, 4, 65, 1, 1.814, 1),
    "scimitar": (11, 3, 10, 30, 3, 65, 2, 1.81, 1),
    "mace": (14, 4, 12, 70, 3, 55, None, 3.628, 1),
    "war_hammer": (14, 4, 12, 80, 3, 90, 0, 2.267, 1),
    "war_axe": (17, 6, 13, 40, 4, 55, None, 5.443, 1),
    "halberd": (17, 5, 13, 60, 5, 70, None, 5.443, 1),
    "the_punisher": (20, 7, 17, 20, 4, 80, 3, 1.814, 512),
}
# defence, STR, kg by slot
ARMOUR = {
    "leather": (2, 7, {"head": 1.5, "torso": 4.082, "legs": 1.361, "feet": 0.68, "shield": 2.267}),
    "chainmail": (4, 12, {"head": 2.721, "torso": 6.35, "legs": 6.35, "feet": 2.721, "shield": 2.72}),
    "plate": (6, 17, {"head": 4.53, "torso": 11.0, "legs": 2.268, "feet": 4.536, "shield": 13.607}),
}
HITS = [
    [1, 1, 2, 3, 3, 3, 3], [1, 1, 2, 3, 3, 3, 3], [1, 1, 1, 2, 3, 3, 3], [1, 1, 1, 1, 2, 3, 3],
    [1, 1, 1, 1, 2, 3, 3], [1, 1, 1, 1, 1, 2, 3], [1, 1, 1, 1, 1, 2, 3],
]
EPS = 2e-5
MAX_REPORTED = 60


def half(x):
    """Nearest 0.5, halves away from zero."""
    return math.copysign(math.floor(abs(2 * x) + 0.5), x) / 2


def idx(x):
    h = half(x)
    return 0 if h <= 0 else 6 if h >= 3 else int(2 * h)


class Fighter:
    def __init__(self, sheet):
        self.str, self.dex, self.con, self.int = sheet["str"], sheet["dex"], sheet["con"], sheet["int"]
        self.health, self.energy, self.bleed, self.stunned = 100.0, 50.0, 0.0, 0
        self.kit = {slot: [p["item"], p["condition"]] for slot, p in sheet["equipment"].items()}

    def weapon(self):
        return self.kit["weapon"][0] if "weapon" in self.kit else "fists"

    def n_sum(self):
        w = WEAPONS[self.weapon()]
        kg = sum(ARMOUR[it][2]["torso" if s == "under" else s] for s, (it, c) in self.kit.items()
                 if s != "weapon")
        enc = kg / (100 - abs(self.str - 23) ** 1.3)
        return (w[4] - 1) / 4 + w[7] / 5.443 + min(1.0, enc / 0.932)

    def pieces(self, part):
        """The slots defending `part`, outermost first, and whether a shield."""
        k = self.kit
        if part == "left_arm" and "shield" in k:
            return ["shield"], True
        if part in ("head", "legs", "feet"):
            return ([part] if part in k else []), False
        if part == "torso":
            return [s for s in ("torso", "under") if s in k], False
        return [s for s in ("torso", "under") if s in k and k[s][0] in ("chainmail", "plate")], False


class Checker:
    def __init__(self):
        self.problems = 0
        self.where = ""

    def bad(self, msg):
        self.problems += 1
        if self.problems <= MAX_REPORTED:
            print("%s: %s" % (self.where, msg))

    def near(self, what, got, want, eps=EPS):
        if not (abs(got - want) <= eps * max(1.0, abs(want))):
            self.bad("%s is %.6f, the rules give %.6f" % (what, got, want))

    def attack(self, a, d, at, k):
        w = WEAPONS[a.weapon()]
        conn = (a.con - 1) / 22
        cost = (8 + idx(a.n_sum()) - idx(3 * conn)) / 6
        self.near("attempt %d energy_cost" % k, at["energy_cost"], cost)
        a.energy = max(0.0, a.energy - cost)
        stunned = d.stunned > 0
        chance = 100.0 if stunned else min(98, max(5, 62 + 45 * math.tanh(
            0.41 * math.log(max(1, a.dex) / max(1, d.dex)) + 0.08)))
        self.near("attempt %d hit_chance" % k, at["hit_chance"], chance)
        if not at["hit"]:
            return
        part = at["part"]
        if part == "feet" and w[4] < 4:
            self.bad("a weapon of reach %d hit the feet" % w[4])
        if not w[1] <= at["roll"] <= w[2]:
            self.bad("roll %d outside %d-%d" % (at["roll"], w[1], w[2]))
        if at["critical"] and w[6] is None:
            self.bad("a critical hit with %s, which has none" % a.weapon())
        base = max(1.0, at["roll"] + at["roll"] * a.str / 23) * (2 if at["critical"] else 1) * (
            2.5 if stunned else 1)
        self.near("base", at["base"], base)
        blunt, cut = base * w[3] / 100, base * (100 - w[3]) / 100
        self.near("blunt", at["blunt"], blunt)
        self.near("cut", at["cut"], cut)
        slots, shield = d.pieces(part)
        got = [p["slot"] for p in at["pieces"]]
        if got != slots:
            self.bad("pieces %s, the rules give %s" % (got, slots))
            return
        defs = [ARMOUR[d.kit[s][0]][0] for s in slots]
        total = sum(defs)
        if total > 0:
            ba = (blunt - 0.4 * total if shield else blunt - total) if blunt >= total else 0.0
            ca = 0.0 if shield or w[5] == 0 else cut * max(0.0, 1 - 3.5 * total / w[5])
            wear = blunt - defs[0] if blunt >= defs[0] else defs[0] / 4
        else:
            ba, ca, wear = blunt, cut, 0.0
        self.near("blunt_after", at["blunt_after"], ba)
        self.near("cut_after", at["cut_after"], ca)
        self.near("damage", at["damage"], ba + ca)
        d.health -= ba + ca
        self.near("bleed_added", at["bleed_added"], 0.05 * ca)
        d.bleed += 0.05 * ca
        if at["stun_turns"]:
            if ba <= 0:
                self.bad("a stun without blunt damage")
            turns = max(1, int(math.floor((23 - d.con) / 5 + 0.5)))
            if at["stun_turns"] != turns:
                self.bad("stun_turns %d, CON %d gives %d" % (at["stun_turns"], d.con, turns))
            d.stunned = max(d.stunned, turns)
        for i, s in enumerate(slots):
            p = at["pieces"][i]
            if i == 0:
                self.near("%s wear" % s, p["wear"], wear)
                d.kit[s][1] -= wear
                if d.kit[s][1] <= 0:
                    del d.kit[s]
                    self.near("%s condition" % s, p["condition"], 0.0)
                    continue
            self.near("%s condition" % s, p["condition"], d.kit[s][1])
        if a.weapon() != "fists":
            ww = (max(1.0, total * 0.5) if total > 0 else 1.0) / w[8] * 0.25
            self.near("weapon_wear", at["weapon_wear"], ww)
            a.kit["weapon"][1] -= ww
            if a.kit["weapon"][1] <= 0:
                del a.kit["weapon"]

    def bout(self, b, line):
        f = [Fighter(b["a"]["sheet"]), Fighter(b["b"]["sheet"])]
        result = None
        for rnd in b["rounds"]:
            self.where = "line %d (seed %s) round %d" % (line, b.get("seed"), rnd["round"])
            if result:
                self.bad("a round after the end")
            yields = [rnd[s]["yield"] for s in ("a", "b")]
            if any(yields):
                result = ("draw", "TKO") if all(yields) else ("b" if yields[0] else "a", "TKO")
                continue
            for x in f:
                x.health -= x.bleed
            down = [x.health <= 0 for x in f]
            if any(down):
                if rnd["initiative"] is not None:
                    self.bad("a fallen fighter's round went on")
                result = ("draw", "KO") if all(down) else ("b" if down[0] else "a", "KO")
            else:
                first = rnd["initiative"]
                if (f[0].stunned > 0) != (f[1].stunned > 0) and f[first].stunned > 0:
                    self.bad("a stunned fighter had the initiative")
                turns = list(rnd["turns"])
                for side in (first, 1 - first):
                    a, d = f[side], f[1 - side]
                    if a.stunned > 0:
                        a.stunned -= 1
                        if turns and turns[0]["attacker"] == side:
                            self.bad("fighter %d attacked while stunned" % side)
                            turns.pop(0)
                        continue
                    if a.energy <= 0:
                        if turns and turns[0]["attacker"] == side:
                            self.bad("fighter %d attacked without energy" % side)
                            turns.pop(0)
                        continue
                    if not turns or turns[0]["attacker"] != side:
                        self.bad("fighter %d lost a turn he should have had" % side)
                        continue
                    t = turns.pop(0)
                    strn, conn, en = (a.str - 1) / 22, (a.con - 1) / 22, (a.energy - 1) / 49
                    p, n = strn + en + conn, a.n_sum()
                    self.near("p", t["p"], half(p), 1e-9)
                    self.near("n", t["n"], half(n), 1e-9)
                    if t["hits"] != HITS[idx(n)][idx(p)]:
                        self.bad("hits %d, the table gives %d" % (t["hits"], HITS[idx(n)][idx(p)]))
                    for k, at in enumerate(t["attacks"]):
                        if a.energy <= 0 or d.health <= 0 or k >= t["hits"]:
                            self.bad("attempt %d should not have been made" % k)
                        self.attack(a, d, at, k)
                    if a.energy > 0 and d.health > 0 and len(t["attacks"]) < t["hits"]:
                        self.bad("the turn stopped early")
                    if d.health <= 0:
                        result = (("a", "b")[side], "KO")
                        break
                if turns:
                    self.bad("turns left over: %s" % turns)
            for i, x in enumerate(f):
                af = rnd["after"][i]
                self.near("health of %d" % i, af["health"], x.health)
                self.near("energy of %d" % i, af["energy"], x.energy)
                self.near("bleed of %d" % i, af["bleed"], x.bleed)
                if af["stunned"] != x.stunned:
                    self.bad("stunned of %d is %d, the rules give %d" % (i, af["stunned"], x.stunned))
                wc = x.kit["weapon"][1] if "weapon" in x.kit else 0.0
                self.near("weapon_condition of %d" % i, af["weapon_condition"], wc)
            if result:
                break
        if not result and len(b["rounds"]) >= b["rounds_scheduled"]:
            result = ("draw", None)
        r = b["result"]
        want_winner = None if result is None or result[0] == "draw" else result[0]
        if result is None:
            self.bad("the duel ended without a result")
        elif r["winner"] != want_winner or (result[0] != "draw" and r["method"] != result[1]):
            self.bad("result %s by %s, the rules give %s" % (r["winner"], r["method"], result))


def main():
    files = sys.argv[1:] or ["-"]
    c = Checker()
    bouts = 0
    for name in files:
        try:
            fh = sys.stdin if name == "-" else open(name)
        except OSError as e:
            print("duel_check: %s" % e)
            return 2
        for line, text in enumerate(fh, 1):
            if not text.strip():
                continue
            b = json.loads(text)
            if "stats" in b:
                continue
            if b.get("rules") != "duel":
                continue
            c.bout(b, line)
            bouts += 1
    print("duel_check: %d duels, %d disagreements" % (bouts, c.problems))
    return 0 if c.problems == 0 and bouts > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
