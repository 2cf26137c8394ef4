#!/usr/bin/env python3
"""generate.py - writes the generated part of the plan corpus (g*.plan).

The expected results come from an independent model of the plan language
written here from docs/plans.md (precedence, tags, the last line that
applies, division by zero, values held within +/-1e15), not from the C code,
so the corpus checks parse/plan.c against a second reading of the rules.

    python3 tests/plans/generate.py        (from the top of the tree)

It is deterministic (fixed seed) and only rewrites files named g*.*; the
hand-written files (NNN.*) are left alone. See README.md for the formats.
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20240613
VALUE_MAX = 1e15

VARS = {  # written name -> plan_vars key used in .expect files
    "round": "round", "roundswon": "roundswon", "roundslost": "roundslost",
    "score": "score", "endurance": "endurance", "end": "endurance",
    "endurance_percent": "endurance_percent", "opp": "opp", "opponent": "opp",
    "mycuts": "mycuts", "hiscuts": "hiscuts", "myknockdowns": "myknockdowns",
    "hisknockdowns": "hisknockdowns", "warnings": "warnings",
}
CONSTANTS = {"strong": 2, "tired": 1, "weak": 0}
STYLES = [  # word as written -> normal name
    ("inside", "inside"), ("close", "inside"), ("brawl", "inside"), ("clinch", "clinch"),
    ("hold", "clinch"), ("feint", "feint"), ("counter", "counter"), ("ring", "ring"),
    ("distance", "ring"), ("cut", "cut"), ("ropes", "cut"), ("outside", "outside"),
    ("jab", "outside"), ("allout", "allout"), ("all-out", "allout"), ("assault", "allout"),
]
VARIABLE_LIST = ("round, roundswon, roundslost, score, end, endurance_percent, opp, mycuts, "
                 "hiscuts, myknockdowns, hisknockdowns, warnings")
SHAPE = "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"
UNKNOWN_STYLE = "; use inside, clinch, feint, counter, ring, cut, outside or allout"


def clamp(x):
    if x != x:
        return 0.0
    return max(-VALUE_MAX, min(VALUE_MAX, x))


class Model:
    """The condition language: random trees, their text and their value."""

    def __init__(self, rng):
        self.r = rng

    def case(self, word):
        k = self.r.random()
        if k < 0.7:
            return word
        if k < 0.85:
            return word.upper()
        return word[:1].upper() + word[1:]

    # --- trees: ("num", value, text) ("var", key, text) ("neg", t) ("not", t)
    # ("bin", op, l, r) ("cmp", op, l, r, words) ("and", l, r) ("or", l, r)
    def number(self):
        r = self.r
        k = r.random()
        if k < 0.6:
            v = r.randint(0, 20)
            return ("num", float(v), str(v))
        if k < 0.8:
            v = r.randint(0, 120)
            return ("num", float(v), str(v))
        whole, digits = r.randint(0, 99), r.randint(1, 3)
        frac = r.randint(0, 10 ** digits - 1)
        text = "%d.%0*d" % (whole, digits, frac)
        return ("num", float(whole) + frac / 10 ** digits, text)

    def atom(self):
        r = self.r
        k = r.random()
        if k < 0.55:
            name = r.choice(list(VARS))
            return ("var", VARS[name], self.case(name))
        if k < 0.62:
            name = r.choice(list(CONSTANTS))
            return ("num", float(CONSTANTS[name]), self.case(name))
        return self.number()

    def arith(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.45:
            return self.atom()
        k = r.random()
        if k < 0.12:
            return ("neg", self.arith(depth - 1))
        return ("bin", r.choice("+-*/"), self.arith(depth - 1), self.arith(depth - 1))

    RANGES = {"round": (1, 15), "roundswon": (0, 8), "roundslost": (0, 8), "score": (-10, 10),
              "endurance": (0, 250), "endurance_percent": (0, 100), "opp": (0, 2),
              "mycuts": (0, 6), "hiscuts": (0, 6), "myknockdowns": (0, 3),
              "hisknockdowns": (0, 3), "warnings": (0, 4)}

    def simple(self):
        """A variable against a number in its usual range: often true, often false."""
        r = self.r
        name = r.choice(list(VARS))
        lo, hi = self.RANGES[VARS[name]]
        n = r.randint(lo, hi)
        num = ("num", float(n), str(n)) if n >= 0 else ("neg", ("num", float(-n), str(-n)))
        op = r.choice(["<", ">", "<=", ">=", "=", "!=", "is"])
        words, op = op, "=" if op == "is" else op
        return ("cmp", op, ("var", VARS[name], self.case(name)), num, words)

    def comparison(self, depth):
        r = self.r
        if r.random() < 0.5:
            return self.simple()
        op = r.choice(["=", "!=", "<", ">", "<=", ">=", "<", ">", "is", "is not"])
        words = op
        if op == "is":
            op = "="
        elif op == "is not":
            op = "!="
        return ("cmp", op, self.arith(depth), self.arith(depth - 1), words)

    def condition(self, depth=2):
        r = self.r
        k = r.random()
        if depth <= 0 or k < 0.5:
            return self.comparison(2)
        if k < 0.62:
            return ("not", self.condition(depth - 1))
        if k < 0.68:
            return self.arith(2)
        return (r.choice(["and", "or"]), self.condition(depth - 1), self.condition(depth - 1))

    # --- text
    def tokens(self, t):
        """The tokens of t and its level (1 or .. 8 atom)."""
        kind = t[0]
        if kind in ("num", "var"):
            return [t[2]], 8
        if kind == "neg":
            return ["-"] + self.wrap(t[1], 7), 7
        if kind == "not":
            return [self.case("not")] + self.wrap(t[1], 3), 3
        if kind == "bin":
            level = 5 if t[1] in "+-" else 6
            return self.wrap(t[2], level) + [t[1]] + self.wrap(t[3], level + 1), level
        if kind == "cmp":
            words = [self.case(w) for w in t[4].split()]
            return self.wrap(t[2], 5) + words + self.wrap(t[3], 5), 4
        level = 1 if kind == "or" else 2
        return self.wrap(t[1], level) + [self.case(kind)] + self.wrap(t[2], level + 1), level

    def wrap(self, t, level):
        toks, own = self.tokens(t)
        if own < level or self.r.random() < 0.06:
            return ["("] + toks + [")"]
        return toks

    def text(self, t):
        toks, _ = self.tokens(t)
        out = toks[0]
        for tok in toks[1:]:
            a, b = out[-1], tok[0]
            if (a.isalnum() or a in "_.") and (b.isalnum() or b in "_."):
                out += " "
            elif self.r.random() < 0.8:
                out += " "
            out += tok
        return out

    # --- value
    def value(self, t, v):
        kind = t[0]
        if kind == "num":
            return t[1]
        if kind == "var":
            return float(v[t[1]])
        if kind == "neg":
            return -self.value(t[1], v)
        if kind == "not":
            return 1.0 if self.value(t[1], v) == 0 else 0.0
        if kind == "bin":
            a, b = self.value(t[2], v), self.value(t[3], v)
            if t[1] == "+":
                return clamp(a + b)
            if t[1] == "-":
                return clamp(a - b)
            if t[1] == "*":
                return clamp(a * b)
            return 0.0 if b == 0 else clamp(a / b)
        if kind == "cmp":
            a, b = self.value(t[2], v), self.value(t[3], v)
            return float({"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b,
                          ">=": a >= b}[t[1]])
        a, b = self.value(t[1], v) != 0, self.value(t[2], v) != 0
        return float(a and b) if kind == "and" else float(a or b)


def neutral():
    return {"round": 1, "roundswon": 0, "roundslost": 0, "score": 0.0, "endurance": 100.0,
            "endurance_percent": 100, "opp": 2, "mycuts": 0, "hiscuts": 0, "myknockdowns": 0,
            "hisknockdowns": 0, "warnings": 0}


def random_vars(r, rules):
    v = neutral()
    v["roundswon"] = r.randint(0, 8)
    v["roundslost"] = r.randint(0, 8)
    v["endurance_percent"] = r.randint(0, 100)
    v["opp"] = r.randint(0, 2)
    if rules == "boxing":
        v["score"] = r.randint(-30, 30) / 3
        v["endurance"] = r.randint(0, 1000) / 4
        v["mycuts"] = r.randint(0, 6)
        v["hiscuts"] = r.randint(0, 6)
        v["myknockdowns"] = r.randint(0, 3)
        v["hisknockdowns"] = r.randint(0, 3)
        v["warnings"] = r.randint(0, 4)
    else:
        v["score"] = float(r.randint(-15, 15))
        v["endurance"] = float(r.randint(0, 40))
    return v


def boxing_order(r, m):
    """(text as a player writes it, normal form)"""
    total = r.randint(3, 20)
    agg = r.randint(1, total - 2)
    pow_ = r.randint(1, total - agg - 1)
    def_ = r.randint(1, total - agg - pow_)
    target = r.choice(["", "", "H", "h", "B", "b"])
    dirty = r.random() < 0.2
    style = r.choice([None, None] + STYLES)
    sp = lambda: r.choice(["", "", "", " "])
    text = "%d%s%s/%s%d%s%s/%s%d" % (agg, sp() if target else "", target, sp(), pow_,
                                    sp() if dirty else "", "!" if dirty else "", sp(), def_)
    norm = "%d%s/%d%s/%d" % (agg, target.upper(), pow_, "!" if dirty else "", def_)
    if style:
        word = style[0] if r.random() < 0.6 else style[0][:3]
        text += r.choice([" ", "", "  "]) + "(" + sp() + m.case(word) + sp() + ")"
        norm += " (%s)" % style[1]
    return text, norm


def sugarray_order(r):
    a, d = r.randint(0, 99), r.randint(0, 99)
    sep = r.choice(["/", "/", " / ", " ", "  "])
    lead = r.choice(["", "", "", "0"])
    return "%s%d%s%d" % (lead, a, sep, d), "%d/%d" % (a, d)


def comment(r):
    words = ["push", "if tired then rest", "# hold", "keep left", "x", "(ring)", "5/5/10",
             "towel", "round > 3", "ça va"]
    return "#" + r.choice(["", " "]) + r.choice(words)


def tag_text(r, n):
    forms = ["%d)", "%d) ", "%d)", " %d) ", "%d )", "0%d) "]
    return r.choice(forms) % n


def random_plan(r, m, rules):
    """Pieces of a valid plan and its lines as (kind, tag in force, tree, result)."""
    pieces, lines, tag = [], [], 1
    n = r.randint(1, 14)
    for _ in range(n):
        k = r.random()
        lead = r.choice(["", "", "", " ", "  ", "\t"])
        if k < 0.05:
            pieces.append(lead)
            lines.append(None)
            continue
        if k < 0.12:
            pieces.append(lead + comment(r))
            lines.append(None)
            continue
        text = lead
        if k < 0.17 or r.random() < 0.35:
            tag = r.randint(1, 15) if r.random() < 0.95 else r.randint(16, 99)
            text += tag_text(r, tag)
            if k < 0.17:
                pieces.append(text.rstrip() + (" " + comment(r) if r.random() < 0.3 else ""))
                lines.append(None)
                continue
        tree = None
        if r.random() < (0.3 if all(x is None for x in lines) else 0.75):
            tree = m.condition()
            text += m.case("if") + " " + m.text(tree) + " " + m.case("then") + " "
        if tree is not None and rules == "boxing" and r.random() < 0.15:
            text += m.case("towel")
            result = "towel"
        elif rules == "boxing":
            order, result = boxing_order(r, m)
            text += order
        else:
            order, result = sugarray_order(r)
            text += order
        if r.random() < 0.15:
            text += r.choice([" ", "  ", ""]) + comment(r)
        pieces.append(text)
        lines.append((tag, tree, result))
    if all(x is None for x in lines):
        order, result = boxing_order(r, m) if rules == "boxing" else sugarray_order(r)
        pieces.append(order)
        lines.append((tag, None, result))
    return pieces, lines


def join(r, pieces):
    text = pieces[0]
    for p in pieces[1:]:
        text += ("\n" if r.random() < 0.7 else ";") + p
    return text + "\n"


def evaluate(m, lines, v, rules):
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if line is None:
            continue
        tag, tree, result = line
        if tag > v["round"]:
            continue
        if tree is not None and m.value(tree, v) == 0:
            continue
        return i + 1, result
    return 0, "5/5/10" if rules == "boxing" else "0/0"


def vars_line(v):
    base = neutral()
    parts = ["%s=%r" % (k, v[k]) for k in v if k != "round" and v[k] != base[k]]
    return "vars " + " ".join(parts) if parts else "vars"


def write(path, text):
    with open(path, "w", newline="") as f:
        f.write(text)


def valid_files(r, m, rules, count):
    out = os.path.join(HERE, rules, "valid")
    rounds = list(range(1, 16)) + [20, 99] if rules == "boxing" else list(range(1, 6))
    for i in range(1, count + 1):
        pieces, lines = random_plan(r, m, rules)
        text = join(r, pieces)
        expect = ["# generated by generate.py: round line order, under each vars line"]
        sets = [neutral()] + [random_vars(r, rules) for _ in range(3)]
        for v in sets:
            expect.append(vars_line(v))
            for rnd in rounds:
                v["round"] = rnd
                line, result = evaluate(m, lines, v, rules)
                expect.append("%d %d %s" % (rnd, line, result))
        write(os.path.join(out, "g%03d.plan" % i), text)
        write(os.path.join(out, "g%03d.expect" % i), "\n".join(expect) + "\n")


def word_quote(w):
    return w if len(w) <= 8 else w[:5] + "..."


# Bad lines: '^' marks the column of the error; the flag says whether a
# round tag may go in front.
BOXING_BAD = [
    ("^0/10/10", "AGG must be at least 1", True),
    ("^8/8/8", "AGG+POW+DEF = 24, the most is 20", True),
    ("^10/5/6 (ring)", "AGG+POW+DEF = 21, the most is 20", True),
    ("4/8/8 ^xyz", "unexpected \"xyz\" after DEF; a style goes in parentheses, e.g. (inside)",
     True),
    ("5/^0/5", "POW must be at least 1", True),
    ("4H/8!/8 (^xyz)", "unknown style \"xyz\"" + UNKNOWN_STYLE, True),
    ("4/8/8 (^cu)", "style \"cu\" is too short; give at least its first 3 letters, e.g. (ins)",
     True),
    ("4/8/8 ^(inside", "\"(\" is never closed; write the style as e.g. (inside)", True),
    ("4/8/8 (ring) ^x", "unexpected \"x\" after the style; the order ends with (style)", True),
    ("5/5^", SHAPE, True),
    ("IF OPP IS WEAK THEN 4^X/8/8", SHAPE, True),
    ("if round > 3 then ^8/8/8", "AGG+POW+DEF = 24, the most is 20", True),
    ("if ^foo > 1 then 5/5/10", None, True),
    ("if opp = ^strongest then 5/5/10", None, True),
    ("if ^myknockdown > 0 then 5/5/10", None, True),
    ("if round > 3 ^5/5/10", "missing \"then\" after the condition", True),
    ("if round > 3^", "missing \"then\" after the condition", True),
    ("if ^(round > 3 then 5/5/10", "unbalanced parenthesis: this \"(\" is never closed", True),
    ("if (round > 3) and ^(opp then 5/5/10", "unbalanced parenthesis: this \"(\" is never closed",
     True),
    ("if round > 3^) then 5/5/10", "unbalanced parenthesis: this \")\" has no \"(\"", True),
    ("if round > 3 then^", "nothing after \"then\"; write an order like 5/5/10 or \"towel\"", True),
    ("if round > ^then 5/5/10", "expected a number, a variable or \"(\" at \"then\"", True),
    ("if not ^then 5/5/10", "expected a number, a variable or \"(\" at \"then\"", True),
    ("if score > - ^then 5/5/10", "expected a number, a variable or \"(\" at \"then\"", True),
    ("if round =^= 3 then 5/5/10", "expected a number, a variable or \"(\" at \"=\"", True),
    ("if warnings is not ^not 1 then 5/5/10",
     "expected a number, a variable or \"(\" at \"not\"", True),
    ("if^", "expected a number, a variable or \"(\" at the end of the line", True),
    ("if 1 < 2 ^< 3 then 5/5/10",
     "comparisons do not chain; write e.g. \"round > 3 and round < 8\"", True),
    ("if round ^& 3 then 5/5/10", "unexpected \"&\" in the condition", True),
    ("if round > ^3x then 5/5/10",
     "\"3x\" is not a number; put a space or an operator after a number", True),
    ("if round > 3^. then 5/5/10", "expected a digit after \".\"; write decimals as e.g. 2.5",
     True),
    ("if round > ^1000001 then 5/5/10", "number 1000001 is too big; the most is 1000000", True),
    ("if round > 2 then towel ^now", "unexpected \"now\" after \"towel\"; the line ends with towel",
     True),
    ("^towel", "\"towel\" needs a condition: write \"if <condition> then towel\"", True),
    ("^0) 5/5/10", "round tag 0: rounds start at 1", False),
    ("^120) 5/5/10", "round tag 120 is over 99", False),
    ("^100)", "round tag 100 is over 99", False),
]
SUGARRAY_BAD = [
    ("^120/3", "attack 120 is over 99", True),
    ("3/^120", "defence 120 is over 99", True),
    ("3/2 ^x", "unexpected \"x\" after defence; expected attack/defence, e.g. 3/2", True),
    ("3^", "expected attack/defence, e.g. 3/2", True),
    ("5/5^/10", "unexpected \"/10\" after defence; expected attack/defence, e.g. 3/2", True),
    ("if score < 0 then ^towel", "\"towel\" is for boxing; a sugarray plan cannot throw in the "
     "towel", True),
    ("^towel", "\"towel\" is for boxing; a sugarray plan cannot throw in the towel", True),
    ("if round > 3 then^", "nothing after \"then\"; write an order like 3/3", True),
    ("if ^foo > 1 then 3/3", None, True),
    ("if round > 3 ^3/3", "missing \"then\" after the condition", True),
    ("^0) 3/3", "round tag 0: rounds start at 1", False),
]


def invalid_files(r, m, rules, bad, count):
    out = os.path.join(HERE, rules, "invalid")
    for i in range(1, count + 1):
        template, reason, tag_ok = bad[(i - 1) % len(bad)]
        pieces, _ = random_plan(r, m, rules)
        at = r.randint(0, len(pieces))
        prefix = r.choice(["", "", " ", "  "])
        if tag_ok and r.random() < 0.4:
            prefix += tag_text(r, r.randint(1, 15))
        column = len(prefix) + template.index("^") + 1
        line = prefix + template.replace("^", "")
        if reason is None:
            word = template[template.index("^") + 1:].split()[0]
            reason = "unknown word \"%s\"; variables are %s" % (word_quote(word), VARIABLE_LIST)
        pieces.insert(at, line)
        write(os.path.join(out, "g%03d.plan" % i), join(r, pieces))
        write(os.path.join(out, "g%03d.err" % i), "%d %d %s\n" % (at + 1, column, reason))


def main():
    r = random.Random(SEED)
    m = Model(r)
    for rules in ("boxing", "sugarray"):
        for kind in ("valid", "invalid"):
            d = os.path.join(HERE, rules, kind)
            os.makedirs(d, exist_ok=True)
            for name in os.listdir(d):
                if name.startswith("g"):
                    os.remove(os.path.join(d, name))
    valid_files(r, m, "boxing", 130)
    valid_files(r, m, "sugarray", 35)
    invalid_files(r, m, "boxing", BOXING_BAD, 2 * len(BOXING_BAD))
    invalid_files(r, m, "sugarray", SUGARRAY_BAD, 2 * len(SUGARRAY_BAD))


if __name__ == "__main__":
    main()
