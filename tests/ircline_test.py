#!/usr/bin/env python3
"""ircline_test.py - bot/ircline.c against the public IRC parser test vectors
(tests/irc-parser-tests: msg-split.yaml and userhost-split.yaml, CC0, see its
LICENSE and README.md), and the project's own IRCv3 vectors in the same folder
(ringside-ircv3.yaml: account, batch, label and client tags, server-time,
standard replies, BATCH lines).

    python3 tests/ircline_test.py build/ircline-tool

Every vector is run; each failure is printed with what the parser gave; the
last line is `ircline: N vectors passed, N failed`, exit status 1 on failure.
"""

import json
import os
import subprocess
import sys

import yaml

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "irc-parser-tests")


def run(tool, mode, inputs):
    data = "".join(i + "\n" for i in inputs).encode("latin-1")
    out = subprocess.run([tool, mode], input=data, stdout=subprocess.PIPE, check=True).stdout
    return [json.loads(line) for line in out.decode("ascii").splitlines()]


def compare(kind, inputs, wants, got):
    passed = failed = 0
    for i, w, g in zip(inputs, wants, got):
        if isinstance(w, float) or isinstance(w, int) and not isinstance(w, bool):
            ok = g is not None and abs(g - w) < 1e-6
        else:
            ok = g == w
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL %s %r: want %r, got %r" % (kind, i, w, g))
    return passed, failed


def ircv3(tool):
    """The project's own vectors: (passed, failed, how many)."""
    with open(os.path.join(HERE, "ringside-ircv3.yaml")) as f:
        v = yaml.safe_load(f)
    passed = failed = n = 0
    msgs = v["msg"]
    wants = []
    for t in msgs:
        a = t["atoms"]
        w = {"tags": a.get("tags"), "source": a.get("source"), "verb": a.get("verb"),
             "params": [str(p) for p in a.get("params", [])]}
        if w["tags"] is not None:
            w["tags"] = {k: ("" if x is None else str(x)) for k, x in w["tags"].items()}
        wants.append(w)
    for kind, mode, items, key in (("ircv3 msg", "msg", msgs, None),
                                   ("time", "time", v["time"], "seconds"),
                                   ("std", "std", v["std"], "reply"),
                                   ("batch", "batch", v["batch"], "batch"),
                                   ("multiline", "multiline", v["multiline"], "limits"),
                                   ("sts", "sts", v["sts"], "policy")):
        inputs = [t["input"] for t in items]
        got = run(tool, mode, inputs)
        w = wants if key is None else [t[key] for t in items]
        p, f = compare(kind, inputs, w, got)
        passed += p
        failed += f
        n += len(items)
    return passed, failed, n


def main():
    tool = sys.argv[1]
    passed = failed = 0
    with open(os.path.join(HERE, "msg-split.yaml")) as f:
        msgs = yaml.safe_load(f)["tests"]
    got = run(tool, "msg", [t["input"] for t in msgs])
    for t, g in zip(msgs, got):
        a = t["atoms"]
        want = {"tags": a.get("tags"), "source": a.get("source"), "verb": a.get("verb"),
                "params": a.get("params", [])}
        if want["tags"] is not None:
            want["tags"] = {k: ("" if v is None else v) for k, v in want["tags"].items()}
        if g == want:
            passed += 1
        else:
            failed += 1
            print("FAIL msg %r: want %r, got %r" % (t["input"], want, g))
    with open(os.path.join(HERE, "userhost-split.yaml")) as f:
        srcs = yaml.safe_load(f)["tests"]
    got = run(tool, "source", [t["source"] for t in srcs])
    for t, g in zip(srcs, got):
        a = t["atoms"]
        want = {k: a.get(k, "") for k in ("nick", "user", "host")}
        if g == want:
            passed += 1
        else:
            failed += 1
            print("FAIL source %r: want %r, got %r" % (t["source"], want, g))
    p, f, n = ircv3(tool)
    passed += p
    failed += f
    if len(msgs) + len(srcs) + n != passed + failed:
        failed += 1
        print("FAIL: the tool answered %d lines for %d vectors" % (passed + failed,
                                                                   len(msgs) + len(srcs) + n))
    print("ircline: %d vectors passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
