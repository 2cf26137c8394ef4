#!/usr/bin/env python3
"""sim_figures.py - the `sim` command's figures, from ringside-sim.

    python3 tests/sim_figures.py SIM [FILE]          (FILE: tests/sim_figures.txt)
    python3 tests/sim_figures.py --update SIM [FILE] (rewrites the figures)

FILE holds seeded simulations, one a line, fields separated by " | ":

    rules | seed | bouts | sheet a | sheet b | plan a | plan b | figures

(a plan "-" is none: the default order every round). For each, this runs
`SIM --json --rules R --seed S --bouts N --a A --b B [--plan-a ..] [--plan-b
..]`, counts its bouts and compares the count with the line's figures:

    bouts N wins W losses L draws D rounds R win_ko .. win_tko .. win_dq ..
    win_decision .. win_points .. loss_ko .. loss_tko .. loss_dq ..
    loss_decision .. loss_points ..

from side a's point of view (rounds: the rounds fought, all bouts). The unit
tests (tests/check_simulate.c) fight the same lines through game/simulate.c
and compare with the same figures, so the two agree through this file.
Prints one line per case that differs and "N passed, N failed"; exit status
1 when any differs, 2 on bad arguments.
"""

import json
import os
import subprocess
import sys

METHODS = ("ko", "tko", "dq", "decision", "points")


def figures(sim, rules, seed, bouts, a, b, plan_a, plan_b):
    argv = [sim, "--json", "--rules", rules, "--seed", seed, "--bouts", bouts, "--a", a,
            "--b", b]
    if plan_a != "-":
        argv += ["--plan-a", plan_a]
    if plan_b != "-":
        argv += ["--plan-b", plan_b]
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE).stdout.decode()
    n = {"bouts": 0, "wins": 0, "losses": 0, "draws": 0, "rounds": 0}
    for side in ("win", "loss"):
        for m in METHODS:
            n["%s_%s" % (side, m)] = 0
    for line in out.splitlines():
        bout = json.loads(line)
        if "stats" in bout:
            continue
        res = bout["result"]
        n["bouts"] += 1
        n["rounds"] += res["round"]
        if res["winner"] == "a":
            n["wins"] += 1
            n["win_" + res["method"].lower()] += 1
        elif res["winner"] == "b":
            n["losses"] += 1
            n["loss_" + res["method"].lower()] += 1
        else:
            n["draws"] += 1
    keys = ["bouts", "wins", "losses", "draws", "rounds"] + \
        ["win_" + m for m in METHODS] + ["loss_" + m for m in METHODS]
    return " ".join("%s %d" % (k, n[k]) for k in keys)


def main(argv):
    update = len(argv) > 1 and argv[1] == "--update"
    if update:
        argv = argv[1:]
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    sim = argv[1]
    path = argv[2] if len(argv) == 3 else os.path.join(os.path.dirname(__file__),
                                                       "sim_figures.txt")
    passed = failed = 0
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(" | ")
        if len(fields) != 8:
            print("%s:%d: want 8 fields separated by ' | ', got %d" % (path, i + 1, len(fields)))
            failed += 1
            continue
        got = figures(sim, *fields[:7])
        if update:
            lines[i] = " | ".join(fields[:7] + [got])
        elif got != fields[7]:
            print("FAIL: %s:%d: ringside-sim gives\n  %s\nthe file says\n  %s" %
                  (path, i + 1, got, fields[7]))
            failed += 1
            continue
        passed += 1
    if update:
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
