#!/usr/bin/env python3
"""ircline_test.py - bot/ircline.c against the public IRC parser test vectors
(tests/irc-parser-tests: msg-split.yaml and userhost-split.yaml, CC0, see its
LICENSE and README.md).

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
    if len(msgs) + len(srcs) != passed + failed:
        failed += 1
        print("FAIL: the tool answered %d lines for %d vectors" % (passed + failed,
                                                                   len(msgs) + len(srcs)))
    print("ircline: %d vectors passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
