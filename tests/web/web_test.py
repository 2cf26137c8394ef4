#!/usr/bin/env python3
"""web_test.py - ringside-web against a database of real bouts, over real HTTP.

    python3 tests/web/web_test.py WEB WEBGEN SIM   (from the repository root; e.g.
        build/asan/ringside-web build/ringside-webgen build/ringside-sim)

WEBGEN makes the database through game/ (tests/web/gen.c): league turns of the
three rulesets with title bouts, an exhibition fought to its end, two live bouts
(one with a player's orders for the next round already stored), duellists with
equipment (a duel fought to its end, a live duel that `WEBGEN --tick` carries on
a round), fighters and owners with hostile names. The test starts WEB (the ASan build in make check) on a free
loopback port with a configuration holding the bot's other sections too, and
checks status codes, content, escaping, 404s, 405s, HEAD, the JSON (against the
database read with Python's sqlite3, and the reports against `SIM --report`),
the standings cache following a change to the file, and that the file is never
written. Then headless Chromium (Debian's chromium) loads the bout page and the
standings, and the screenshots must show the chart's two lines and the table.

Every check prints `ok - NAME` or `FAIL - NAME: why`; the last line is
`N passed, N failed`; the exit status is 1 if anything failed. WEB_KEEP=1 keeps
the temporary directory. Python 3 standard library only.
"""

import hashlib
import http.client
import json
import os
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HOSTILE = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(2)>", "O'Brien & Sons",
           "<b>trent</b>", "<i>Kid</i> \"Gavilan\"", "#ring<&>\"", "<u>Sonja</u> \"Red\" & Co"]
RAW_MARKUP = ["<script", "<img", "<b>", "<i>", "<u>", "onerror=alert(2)>"]
DUEL_MARKS = {"critical", "stun", "break", "stoppage"}
PLAN_WORDS = ["if opp is weak", "endurance_percent < 40", "my_cuts > 2"]

passed = failed = 0


def report(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok - %s" % name)
    else:
        failed += 1
        print("FAIL - %s: %s" % (name, why))
    sys.stdout.flush()


def check(name, cond, why=""):
    report(name, bool(cond), why)
    return bool(cond)


# A loopback port reserved for this process, as the end-to-end suites' (they
# run at the same time: tests/e2e/ports.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from ports import free_port  # noqa: E402


class Client:
    def __init__(self, port):
        self.port = port

    def req(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        c.close()
        return r.status, hdrs, data

    def get(self, path):
        return self.req("GET", path)

    def raw(self, text):
        """Sends raw bytes, returns the status line's code (0 if none)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        s.sendall(text)
        got = b""
        try:
            while b"\r\n" not in got:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
        except OSError:
            pass
        s.close()
        return self.status_of(got)

    @staticmethod
    def status_of(head):
        """The status line's code in an answer's head (0 if none)."""
        try:
            return int(head.split(b" ")[1])
        except (IndexError, ValueError):
            return 0

    def raw_answer(self, text):
        """Sends raw bytes (a request without a body, asking to close), returns
        the answer's head and body (Content-Length of it, or all until the
        end)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        s.sendall(text[:-2] + b"Connection: close\r\n\r\n")
        got = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        except OSError:
            pass
        s.close()
        head, _, body = got.partition(b"\r\n\r\n")
        return head, body


def no_markup(name, html):
    text = html.decode("utf-8")
    bad = [m for m in RAW_MARKUP if m in text]
    check("%s: no hostile markup" % name, not bad, "found %r" % bad)


# ------------------------------------------------------------ PNG reading

def png_pixels(path):
    """Decodes an 8-bit RGB or RGBA non-interlaced PNG: (width, height, rows of bytes, bpp)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def colour_count(path, want, tolerance=40):
    """How many pixels are near each colour of want (a dict name: (r, g, b)), and the
    number of distinct colours."""
    w, h, rows, bpp = png_pixels(path)
    counts = {k: 0 for k in want}
    seen = set()
    for y in range(0, h, 2):
        row = rows[y]
        for x in range(0, w * bpp, bpp * 2):
            px = (row[x], row[x + 1], row[x + 2])
            seen.add(px)
            for k, (r, g, b) in want.items():
                if abs(px[0] - r) + abs(px[1] - g) + abs(px[2] - b) < tolerance:
                    counts[k] += 1
    return counts, len(seen)


def screenshot(url, path, tmp, size):
    profile = os.path.join(tmp, "chromium-profile")
    if os.path.exists(profile):
        shutil.rmtree(profile)
    os.mkdir(profile)
    cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile,
           "--screenshot=" + path, "--window-size=" + size, url]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
                       cwd=tmp)
    return p.returncode, p.stdout.decode("utf-8", "replace")


# ------------------------------------------------------------------ main

def main():
    if len(sys.argv) != 4:
        print("usage: web_test.py WEB WEBGEN SIM", file=sys.stderr)
        return 2
    web, gen, sim = (os.path.abspath(a) for a in sys.argv[1:])
    gen_path[0] = gen
    web_path[0] = web
    tmp = tempfile.mkdtemp(prefix="ringside-web-")
    dbpath = os.path.join(tmp, "ringside.db")
    out = subprocess.run([gen, dbpath], stdout=subprocess.PIPE, check=True)
    info = json.loads(out.stdout)
    port = free_port()
    conf = os.path.join(tmp, "ringside.conf")
    with open(conf, "w") as f:
        f.write("[irc]\nserver = 127.0.0.1\nchannels = #ringside\n\n[bot]\ndatabase = %s\n"
                "admins = boss\n\n[web]\nlisten = 127.0.0.1:%d\nbase_url = http://127.0.0.1:%d/\n"
                "threads = 3\n"
                % (dbpath, port, port))
    initial_digest[0] = hashlib.sha256(open(dbpath, "rb").read()).hexdigest()
    log = open(os.path.join(tmp, "web.log"), "w")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    proc = subprocess.Popen([web, "-c", conf], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        for _ in range(600):  # 30 s: the ASan build, on a machine running other suites
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.05)
        run(Client(port), info, dbpath, sim, tmp, port)
    finally:
        proc.terminate()
        try:
            rc = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = -9
        log.close()
        text = open(os.path.join(tmp, "web.log")).read()
        check("exits cleanly on SIGTERM", rc == 0, "status %s" % rc)
        check("no sanitizer report", "Sanitizer" not in text and "runtime error" not in text,
              text[-2000:])
    check("the database file is never written",
          hashlib.sha256(open(dbpath, "rb").read()).hexdigest() == digest_after_writes[0],
          "the file changed")
    print("%d passed, %d failed" % (passed, failed))
    if failed or os.environ.get("WEB_KEEP"):
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if failed else 0


digest_after_writes = [None]
gen_path = [None]
web_path = [None]
initial_digest = [None]


def run(c, info, dbpath, sim, tmp, port):
    ex, live, slive = info["exhibition"], info["live_boxing"], info["live_sugarray"]
    conn = sqlite3.connect("file:%s?mode=ro" % dbpath, uri=True)

    # The home page.
    st, h, body = c.get("/")
    check("home: 200 HTML", st == 200 and h.get("content-type", "").startswith("text/html"),
          "%s %s" % (st, h.get("content-type")))
    text = body.decode()
    check("home: live bouts, champions, latest results",
          "Live now" in text and ("bouts/%d" % live) in text and ("bouts/%d" % slive) in text
          and "Champions" in text and "Latest results" in text and ("bouts/%d" % ex) in text)
    check("home: security headers",
          "script-src" not in h.get("content-security-policy", "x")
          and "default-src 'none'" in h.get("content-security-policy", "")
          and h.get("x-content-type-options") == "nosniff")
    check("home: no script at all", "<script" not in text.lower())
    no_markup("home", body)

    # Hostile names, escaped wherever they appear.
    for fid, name, escaped in [
            (info["hostile"][0], HOSTILE[0], "&lt;script&gt;alert(1)&lt;/script&gt;"),
            (info["hostile"][1], HOSTILE[1], "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"),
            (info["hostile"][2], HOSTILE[2], "O&#39;Brien &amp; Sons"),
            (info["hostile_sugarray"], HOSTILE[4], "&lt;i&gt;Kid&lt;/i&gt; &quot;Gavilan&quot;")]:
        st, h, body = c.get("/fighters/%d" % fid)
        check("fighter %d: 200" % fid, st == 200, st)
        check("fighter %d: name escaped" % fid, escaped in body.decode(), escaped)
        no_markup("fighter %d" % fid, body)
        st, h, jb = c.get("/api/fighters/%d" % fid)
        check("api fighter %d: the name back intact" % fid,
              st == 200 and json.loads(jb)["name"] == name, jb[:200])
        check("api fighter %d: no raw < in the JSON" % fid, b"<" not in jb)
    st, h, body = c.get("/fighters/%d" % info["hostile"][1])
    check("owner escaped", "&lt;b&gt;trent&lt;/b&gt;" in body.decode())
    # Every page that lists them.
    for path in ["/standings", "/standings/boxing/bronze", "/standings/boxing/silver",
                 "/standings/boxing/gold", "/standings/sugarray/silver", "/champions/boxing",
                 "/champions/sugarray", "/live", "/bouts/%d" % ex]:
        st, h, body = c.get(path)
        check("%s: 200" % path, st == 200, st)
        no_markup(path, body)
    for (bid,) in conn.execute("SELECT id FROM bouts WHERE fighter_a IN (1, 2, 3) OR fighter_b IN"
                               " (1, 2, 3) ORDER BY id DESC LIMIT 6"):
        st, h, body = c.get("/bouts/%d" % bid)
        no_markup("bout %d of a hostile name" % bid, body)
    st, h, body = c.get("/bouts/%d" % ex)
    check("channel escaped", "#ring&lt;&amp;&gt;&quot;" in body.decode())

    # The finished bout: tape, chart, rounds, reports, result.
    text = body.decode()
    rounds = conn.execute("SELECT round, winner, method FROM bouts WHERE id = ?", (ex,)).fetchone()
    check("bout page: tape, chart, rounds, result",
          "Tale of the tape" in text and "<svg" in text and text.count("<polyline") == 2
          and all(("Round %d</h3>" % r) in text for r in range(1, rounds[0] + 1))
          and "Full report" in text and "wins" in text, "")
    check("bout page: marks on the chart",
          "knockdown" in text and "is injured" in text and "warned" in text)
    st, h, jb = c.get("/api/bouts/%d" % ex)
    d = json.loads(jb)
    check("api bout: rounds and result", st == 200 and len(d["fought"]) == rounds[0]
          and d["result"]["winner"] == rounds[1] and d["state"] == "over"
          and d["meter"] == "endurance", jb[:300])
    check("api bout: marks and cards", any(m["kind"] == "knockdown" for r in d["fought"]
                                           for m in r["marks"])
          and all(r["cards"] and len(r["cards"]) == 3 for r in d["fought"]))
    check("api bout: the meter falls from the start",
          all(0 < r["meter"][s] <= d["start"][s] + 1e-9 for r in d["fought"][:1] for s in (0, 1)))
    want = subprocess.run([sim, "--report", dbpath, str(ex)], stdout=subprocess.PIPE,
                          check=True).stdout.decode().rstrip("\n")
    got = "\n".join(r["report"] for r in d["fought"])
    check("api bout: the reports are ringside-sim --report's", got == want,
          "first difference near %r" % next((a for a, b in zip(got.splitlines(),
                                                               want.splitlines()) if a != b), ""))
    check("api bout: the channel back intact", d["channel"] == HOSTILE[5])

    # A live bout: rounds so far, reloads itself, never the orders to come.
    st, h, body = c.get("/bouts/%d" % live)
    text = body.decode()
    fought = conn.execute("SELECT round FROM bouts WHERE id = ?", (live,)).fetchone()[0]
    pending = conn.execute("SELECT text FROM orders WHERE bout = ? AND round = ?",
                           (live, fought + 1)).fetchall()
    check("live bout: an order for the next round is stored (the test's premise)",
          fought == 3 and pending and pending[0][0] == info["pending"], (fought, pending))
    check("live bout: rounds so far, reloads itself",
          st == 200 and "LIVE" in text and "Round 3</h3>" in text and "Round 4</h3>" not in text
          and 'http-equiv="refresh"' in text and h.get("refresh") == "10")
    check("live bout: the next round's orders are not shown", info["pending"] not in text
          and "9H/1/10" not in text)
    st, h, jb = c.get("/api/bouts/%d" % live)
    d = json.loads(jb)
    check("api live bout: three rounds, no result, no pending order",
          len(d["fought"]) == 3 and d["result"] is None and b"9H/1/10" not in jb)
    st, h, jb = c.get("/api/live")
    ids = sorted(b["id"] for b in json.loads(jb)["bouts"])
    check("api live: the three live bouts", ids == sorted([live, slive, info["live_duel"]]), ids)
    st, h, body = c.get("/bouts/%d" % slive)
    check("live SUGAR RAY bout", st == 200 and "Round 1</h3>" in body.decode()
          and "<svg" in body.decode())

    # Plans are never shown.
    for fid in range(1, 13):
        for path in ["/fighters/%d" % fid, "/api/fighters/%d" % fid]:
            st, h, body = c.get(path)
            bad = [p for p in PLAN_WORDS if p in body.decode()]
            if bad:
                check("no plan on %s" % path, False, bad)
                break
    check("no plan text on any fighter page", True)

    # Standings, against the database.
    st, h, jb = c.get("/api/standings/boxing/gold")
    d = json.loads(jb)
    champ = conn.execute("SELECT fighter, defences FROM champions WHERE rules = 'boxing'"
                         ).fetchone()
    rows = conn.execute("SELECT id, gold_record, wins - losses FROM fighters WHERE rules = "
                        "'boxing' AND league = 'gold' AND retired = 0 AND id IS NOT ?",
                        (champ[0],)).fetchall()
    check("api standings: every GOLD boxer but the champion", st == 200 and d["total"] ==
          len(rows) and sorted(x["id"] for x in d["standings"]) == sorted(r[0] for r in rows),
          jb[:300])
    check("api standings: the champion", d["champion"] and d["champion"]["id"] == champ[0]
          and d["champion"]["defences"] == champ[1])
    order = [(sum(x["season"].values()) > 0, x["gold_record"],
              x["season"]["wins"] - x["season"]["losses"]) for x in d["standings"]]
    check("api standings: ranked (the unfought last)", order == sorted(order, reverse=True)
          and [x["position"] for x in d["standings"]] == list(range(1, len(rows) + 1)))
    st, h, body = c.get("/standings/boxing/gold")
    text = body.decode()
    check("standings page: a row per fighter", text.count("<tr><td class=\"n\">") == len(rows))
    st, h, jb = c.get("/api/fighters/%d" % info["rocky"])
    d = json.loads(jb)
    w, l, dr, k, tk, tw, dq, ff = conn.execute(
        "SELECT wins, losses, draws, kos, tkos, towels, dqs, forfeits FROM fighters WHERE id = ?",
        (info["rocky"],)).fetchone()
    check("api fighter: record", d["record"] == {"wins": w, "losses": l, "draws": dr, "kos": k,
                                                 "tkos": tk, "towels": tw, "dqs": dq,
                                                 "forfeits": ff}, d["record"])
    # How the wins ended, kept apart: a fighter with KOs and TKOs says both.
    fid, k, tk = conn.execute("SELECT id, kos, tkos FROM fighters WHERE tkos > 0 AND towels = 0"
                              " AND dqs = 0 AND forfeits = 0 LIMIT 1").fetchone()
    st, h, body = c.get("/fighters/%d" % fid)
    want = "<div class=\"small\">%d by KO, %d by TKO</div>" % (k, tk)
    check("fighter page: KOs and TKOs apart", st == 200 and want in body.decode(), want)
    nb = conn.execute("SELECT count(*) FROM bouts WHERE (fighter_a = ?1 OR fighter_b = ?1) AND "
                      "state IN ('live', 'over')", (info["rocky"],)).fetchone()[0]
    check("api fighter: bout history", len(d["bouts"]) == nb and ex in [b["id"] for b in
                                                                        d["bouts"]])
    # A fighter by name: the page sends to his id's address; the API answers
    # his document itself.
    for path, want in [("/fighters/Rocky", "%d" % info["rocky"]),
                       ("/fighters/rOCKY", "%d" % info["rocky"])]:
        st, h, body = c.get(path)
        check("%s: 302 to its id" % path, st == 302 and h.get("location") == want,
              (st, h.get("location")))
    st, h, jb = c.get("/api/fighters/%d" % info["rocky"])
    for path in ["/api/fighters/Rocky", "/api/fighters/rOCKY"]:
        st2, h2, jb2 = c.get(path)
        check("%s: 200, the fighter's JSON, no redirect" % path,
              st2 == 200 and h2.get("content-type", "").startswith("application/json")
              and "location" not in h2 and jb2 == jb, (st2, h2.get("location"), jb2[:100]))
    st, h, body = c.get("/fighters/Nobody")
    check("an unknown name is 404", st == 404, st)
    st, h, body = c.get("/api/fighters/Nobody")
    check("an unknown name is 404 in the API too", st == 404 and b"error" in body, st)
    st, h, body = c.get("/champions/boxing")
    titles = conn.execute("SELECT count(*) FROM bouts WHERE rules = 'boxing' AND kind = 'title'"
                          " AND state = 'over'").fetchone()[0]
    text = body.decode()
    check("champion history: every title bout, the champion's defences counted as stored",
          st == 200 and text.count("</a> <span class=\"muted small\">turn ") == titles
          and titles >= 1 and (champ[1] == 0 or ("defence %d</td>" % champ[1]) in text)
          and ("%d defence" % champ[1]) in text, (titles, champ))

    seasons(c, conn)
    run_duels(c, info, conn, dbpath, sim)
    ratings_pages(c, conn)

    # Errors.
    for path in ["/nope", "/bouts/999999", "/fighters/0", "/fighters/abc", "/bouts/%d/" % ex,
                 "//", "/standings/chess", "/standings/boxing/platinum", "/bouts/01",
                 "/bouts/99999999999999999999", "/" + "a" * 300, "/api/", "/api/nope",
                 "/champions/chess", "/standings/boxing/gold?page=999"]:
        st, h, body = c.get(path)
        check("404 %s" % path[:40], st == 404 and b"Not found" in body or (
            path.startswith("/api") and st == 404 and b"error" in body), st)
    st, h, jb = c.get("/api/bouts/999999")
    check("api 404 is JSON", st == 404 and "error" in json.loads(jb))
    st, h, body = c.get("/standings/boxing/gold?page=abc")
    check("bad page= is 400", st == 400, st)
    st, h, body = c.get("/standings/boxing/gold?page=1")
    check("page=1 is 200", st == 200, st)
    for m in ["POST", "PUT", "DELETE", "PATCH"]:
        st, h, body = c.req(m, "/", body=b"x" if m != "DELETE" else None)
        check("%s is 405" % m, st == 405 and h.get("allow") == "GET, HEAD", (st, h.get("allow")))
    st, h, body = c.req("HEAD", "/bouts/%d" % ex)
    st2, h2, body2 = c.get("/bouts/%d" % ex)
    check("HEAD: 200, the headers, no body", st == 200 and body == b""
          and h.get("content-length") == str(len(body2)), (st, len(body), h.get("content-length")))
    code = c.raw(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    check("a GET with a body is 413", code == 413, code)
    code = c.raw(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n")
    check("a huge header is refused", code in (400, 413, 414, 431) or code == 0, code)
    code = c.raw(b"GET /" + b"a" * 40000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    check("a huge request line is refused", code in (400, 404, 414, 431) or code == 0, code)

    host_header(c)
    one_address(c, ex)
    api_twins(c, info, ex)
    api_errors(c)
    page_variants(port, ex)

    # The bot writes; the standings follow (the cache keys on data_version).
    check("the file is as made after every read so far",
          hashlib.sha256(open(dbpath, "rb").read()).hexdigest() == initial_digest[0])
    top = rows[-1][0] if rows else None
    if top:
        w = sqlite3.connect(dbpath)
        w.execute("UPDATE fighters SET gold_record = 99 WHERE id = ?", (top,))
        w.commit()
        w.close()
        st, h, jb = c.get("/api/standings/boxing/gold")
        check("standings follow a change to the file",
              json.loads(jb)["standings"][0]["id"] == top, jb[:200])
    # The bot goes on: the live duel fights its next round; its page follows.
    lduel = info["live_duel"]
    subprocess.run([gen_path[0], "--tick", dbpath], check=True)
    st, h, body = c.get("/bouts/%d" % lduel)
    text = body.decode()
    st2, h2, jb = c.get("/api/bouts/%d" % lduel)
    check("live duel: the page follows the next round",
          st == 200 and "Round 4</h3>" in text and "Live: 4 of 23 rounds fought" in text
          and len(json.loads(jb)["fought"]) == 4, text[-300:])
    tournament_pages(c, info)
    bad_row(c, dbpath, top)
    pundits(c, info, ex, conn)
    lists_lead_somewhere(c, dbpath, ex)
    standings_follow_writes(c, dbpath, tmp)
    digest_after_writes[0] = hashlib.sha256(open(dbpath, "rb").read()).hexdigest()
    for _ in range(20):
        c.get("/")
        c.get("/bouts/%d" % ex)
        c.get("/standings/boxing/gold")
    conn.close()

    # Chromium: the bout page and the standings, seen.
    for name, path, size, want in [
            ("bout", "/bouts/%d" % ex, "900,1800",
             {"red line": (0xc6, 0x28, 0x28), "blue line": (0x15, 0x65, 0xc0)}),
            ("duel bout", "/bouts/%d" % info["duel"], "900,1800",
             {"red line": (0xc6, 0x28, 0x28), "blue line": (0x15, 0x65, 0xc0)}),
            ("standings", "/standings/boxing/gold", "900,1000",
             {"gold pill": (0xf3, 0xcf, 0x55), "link": (0x0b, 0x57, 0xa4)}),
            ("fighter", "/fighters/%d" % rating_fighter[0], "900,1400",
             {"rating line": (0x6a, 0x1b, 0x9a), "rating band": (0xec, 0xd8, 0xef)}),
            ("hall of fame", "/halloffame", "900,1000",
             {"gold pill": (0xf3, 0xcf, 0x55), "link": (0x0b, 0x57, 0xa4)}),
            ("pundits", "/pundits", "900,800", {"link": (0x0b, 0x57, 0xa4)}),
            ("bracket", "/tournaments/%d" % info["tournament"], "1100,900",
             {"bracket boxes": (0x2e, 0x7d, 0x32)})]:
        png = os.path.join(tmp, name + ".png")
        rc, outp = screenshot("http://127.0.0.1:%d%s" % (port, path), png, tmp, size)
        if not check("chromium: %s screenshot written" % name, rc == 0 and os.path.exists(png)
                     and os.path.getsize(png) > 1000, outp[-500:]):
            continue
        counts, distinct = colour_count(png, want)
        check("chromium: %s screenshot not blank (%d colours)" % (name, distinct), distinct > 20)
        for k, n in counts.items():
            check("chromium: %s screenshot shows the %s (%d px)" % (name, k, n), n > 30)


def seasons(c, conn):
    """The seasons' pages against the archive: SUGAR RAY's season 1 ended
    (webgen), the others still run."""
    rows = conn.execute("SELECT league, position, fighter, name, wins, losses, draws, moved FROM"
                        " season_standings WHERE rules = 'sugarray' AND season = 1").fetchall()
    honours = conn.execute("SELECT honour, fighter, name FROM hall_of_fame WHERE rules ="
                           " 'sugarray' AND season = 1").fetchall()
    check("season: the archive holds SUGAR RAY's season 1", len(rows) > 0 and len(honours) > 0)
    st, h, body = c.get("/seasons/sugarray/1")
    text = body.decode()
    check("/seasons/sugarray/1: 200, a row per archived fighter",
          st == 200 and text.count("<tr><td class=\"n\">") == len(rows), (st, len(rows)))
    check("/seasons/sugarray/1: the winners and the moves",
          all(("fighters/%d\">" % f) in text for _, f, _ in honours)
          and text.count("&uarr; up") == sum(1 for r in rows if r[7] == 1)
          and text.count("&darr; down") == sum(1 for r in rows if r[7] == -1))
    no_markup("/seasons/sugarray/1", body)
    st, h, jb = c.get("/api/seasons/sugarray/1")
    d = json.loads(jb) if st == 200 else {}
    check("/api/seasons/sugarray/1: the standings and honours as archived",
          st == 200 and d["season"] == 1 and len(d["standings"]) == len(rows)
          and sorted((x["id"], x["wins"], x["losses"], x["draws"]) for x in d["standings"])
          == sorted((r[2], r[4], r[5], r[6]) for r in rows)
          and sorted(x["id"] for x in d["honours"]) == sorted(f for _, f, _ in honours), jb[:300])
    st, h, body = c.get("/halloffame")
    text = body.decode()
    check("/halloffame: 200, SUGAR RAY's season 1 linked, the others none yet",
          st == 200 and "seasons/sugarray/1\">season 1</a>" in text
          and text.count("season has ended yet") == 2, st)
    no_markup("/halloffame", body)
    st, h, jb = c.get("/api/halloffame")
    d = json.loads(jb) if st == 200 else {}
    check("/api/halloffame: one season, its honours",
          st == 200 and len(d["seasons"]) == 1 and d["seasons"][0]["rules"] == "sugarray"
          and len(d["seasons"][0]["honours"]) == len(honours), jb[:300])
    for path in ["/seasons/sugarray/2", "/seasons/boxing/1", "/seasons/chess/1",
                 "/seasons/sugarray/0", "/seasons/sugarray", "/halloffame/boxing",
                 "/api/seasons/sugarray/2"]:
        st, h, body = c.get(path)
        check("%s: 404" % path, st == 404, st)
    st, h, jb = c.get("/api/seasons/duel/1")
    check("/api/seasons/duel/1: a JSON 404", st == 404 and b"error" in jb, st)
def tournament_pages(c, info):
    """The tournaments' list and the bracket: as HTML with its SVG, as JSON,
    every name escaped, each bracket bout linking to its bout."""
    t = info["tournament"]
    for path in ("/tournaments", "/tournaments/"):
        st, h, body = c.get(path)
        text = body.decode()
        check("tournaments: %s lists the Spring Cup under Past" % path,
              st == 200 and "<h2>Past</h2>" in text and ">#%d Spring Cup</a>" % t in text,
              text[-400:])
    st, h, body = c.get("/tournaments/%d" % t)
    text = body.decode()
    no_markup("tournament page", body)
    check("tournament: the bracket is drawn as SVG", st == 200 and '<svg class="bracket"' in text
          and text.count('<rect ') == 7, text[:300])
    check("tournament: names escaped", "&lt;i&gt;Kid&lt;/i&gt;" in text and "<i>Kid" not in text)
    st, h, jb = c.get("/api/tournaments/%d" % t)
    doc = json.loads(jb)
    check("api tournament: 7 bouts, a winner, over", st == 200 and len(doc["bouts"]) == 7
          and doc["winner"] is not None and doc["state"] == "over" and doc["size"] == 8, jb[:300])
    for m in doc["bouts"]:
        check("tournament: bout %s linked" % m["bout"], ('href="../bouts/%d"' % m["bout"]) in text)
    seeds = sorted(e["seed"] for e in doc["entrants"])
    check("api tournament: seeds 1 to 8", seeds == list(range(1, 9)), str(seeds))
    st, h, jb = c.get("/api/tournaments")
    check("api tournaments: the list", st == 200 and json.loads(jb)["tournaments"][0]["id"] == t)
    st, h, jb = c.get("/api/tournaments/99")
    check("api tournament: 404 for none", st == 404 and "no such tournament" in jb.decode())
    st, h, body = c.get("/tournaments/99")
    check("tournament: 404 page for none", st == 404)


def is_json(h, body):
    """Whether an answer is a JSON document (and its type says so)."""
    try:
        json.loads(body)
    except ValueError:
        return False
    return h.get("content-type", "").startswith("application/json")


def api_twins(c, info, ex):
    """Every page has its twin under /api, answering JSON: the same routes."""
    for path in ["/", "/live", "/standings", "/standings/boxing", "/standings/sugarray",
                 "/standings/duel", "/standings/boxing/gold", "/standings/sugarray/bronze",
                 "/champions/boxing", "/champions/duel", "/fighters/%d" % info["rocky"],
                 "/bouts/%d" % ex, "/pundits", "/pundits/boxing"]:
        st, h, body = c.get(path)
        api = "/api" + (path if path != "/" else "")
        st2, h2, jb = c.get(api)
        check("twin: %s %d and %s %d, JSON" % (path, st, api, st2),
              st == 200 and st2 == 200 and is_json(h2, jb), (st, st2, jb[:200]))
    st, h, jb = c.get("/api")
    d = json.loads(jb)
    check("api home: live, champions, latest",
          sorted(d) == ["champions", "latest", "live"] and len(d["champions"]) == 3
          and ex in [b["id"] for b in d["latest"]], jb[:300])
    st, h, jb = c.get("/api/standings")
    d = json.loads(jb)
    check("api standings index: every ruleset, its leagues, its default league",
          [r["rules"] for r in d["rulesets"]] == ["boxing", "sugarray", "duel"]
          and all(len(r["leagues"]) == 3 and r["default_league"] in ("gold", "silver", "bronze")
                  for r in d["rulesets"]), jb[:300])
    st, h, jb = c.get("/api/champions/boxing")
    d = json.loads(jb)
    ends = [t["bout"]["ended"] for t in d["title_bouts"]]
    check("api champions: the title bouts, newest first",
          st == 200 and d["rules"] == "boxing" and len(ends) >= 1
          and ends == sorted(ends, reverse=True), jb[:300])


def pundits(c, info, ex, conn):
    """Predictions (issue 26): the exhibition's two, shown on its page and in
    its JSON once closed, scored as its result says; the pundits' table (page
    and JSON) recomputed from the bouts' results and the predictions."""
    st, h, body = c.get("/bouts/%d" % ex)
    text = body.decode()
    check("bout page: its predictions, once closed",
          st == 200 and "<h2>Predictions</h2>" in text and "carol" in text
          and "Rocky by TKO" in text and "Apollo by decision" in text, text[-1500:])
    st, h, jb = c.get("/api/bouts/%d" % ex)
    d = json.loads(jb)
    res, preds = d["result"], d["predictions"]
    check("api bout: its predictions", isinstance(preds, list) and len(preds) == 2, jb[-600:])
    words = {"KO": "ko", "TKO": "tko", "DQ": "dq", "decision": "decision", "points": "points"}
    for p in preds:
        side_ok = p["side"] == res["winner"]
        pts = 0
        if side_ok:
            pts = 1 + (p["method"] is not None and
                       p["method"] == words.get(res["method"], res["method"].lower())) + \
                (p["round"] is not None and p["round"] == res["round"])
        check("api bout: %s's points as the result says (%d)" % (p["name"], pts),
              p["points"] == pts, (p, res))
    st, h, jb = c.get("/api/bouts/%d" % info["live_boxing"])
    check("api bout: a live bout without predictions says null",
          st == 200 and json.loads(jb)["predictions"] is None, jb[-200:])
    # The table, recomputed from the file: one point a hit.
    want = {}
    for name, hits in conn.execute(
            "SELECT a.name, p.hits FROM predictions p JOIN accounts a ON a.id = p.account "
            "WHERE p.hits IS NOT NULL"):
        w = want.setdefault(name, [0, 0, 0])
        w[0] += bin(hits).count("1")
        w[1] += 1
        w[2] += hits & 1
    st, h, jb = c.get("/api/pundits")
    d = json.loads(jb)
    got = {p["name"]: [p["points"], p["scored"], p["winners"]] for p in d["pundits"]}
    check("api pundits: the table as the file says", st == 200 and got == want
          and d["rules"] is None and [p["rank"] for p in d["pundits"]] == [1, 2],
          (got, want))
    check("api pundits: by points", [p["points"] for p in d["pundits"]] ==
          sorted([p["points"] for p in d["pundits"]], reverse=True), jb)
    st, h, body = c.get("/pundits")
    text = body.decode()
    check("pundits page: 200, every predictor", st == 200 and "<h1>Pundits</h1>" in text
          and all(n in text for n in want), text[-800:])
    no_markup("pundits", body)
    st, h, jb = c.get("/api/pundits/duel")
    check("api pundits/duel: none yet", st == 200 and json.loads(jb)["pundits"] == [], jb)
    st, h, body = c.get("/pundits/duel")
    check("pundits/duel page: none yet", st == 200 and "No prediction has been scored yet"
          in body.decode(), body[-300:])
    st, h, body = c.get("/pundits/chess")
    check("pundits/chess: 404", st == 404, st)


def api_errors(c):
    """Under /api every answer is JSON, errors too, with their status: no HTML,
    no redirect."""
    for method, path, want in [
            ("GET", "/api/", 404), ("GET", "/api/nope", 404), ("GET", "/api/bouts/999999", 404),
            ("GET", "/api/fighters/O'Brien", 404), ("GET", "/api/fighters/Nobody", 404),
            ("GET", "/api/fighters/0", 404), ("GET", "/api/standings/chess", 404),
            ("GET", "/api/standings/boxing/platinum", 404), ("GET", "/api/champions/chess", 404),
            ("GET", "/api/standings/boxing/gold?page=999", 404),
            ("GET", "/api/standings/boxing?page=abc", 400), ("POST", "/api/live", 405),
            ("DELETE", "/api/standings", 405), ("POST", "/api/fighters/Rocky", 405),
            ("GET", "/api/bouts/1%00", 404)]:
        st, h, body = c.req(method, path, body=b"x" if method == "POST" else None)
        check("api error: %s %s is %d in JSON" % (method, path, want),
              st == want and is_json(h, body) and "error" in json.loads(body)
              and "location" not in h, (st, h.get("content-type"), body[:100]))
    code = c.raw(b"GET /api/live HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
    check("api: a GET with a body is 413", code == 413, code)


def lists_lead_somewhere(c, dbpath, ex):
    """The standings open at a league that has fighters; results are listed by
    when they ended; a fighter who never fought ranks last."""
    w = sqlite3.connect(dbpath)
    # Nobody in the duel's GOLD: its standings open at SILVER (or below).
    w.execute("UPDATE fighters SET league = 'silver' WHERE rules = 'duel' AND league = 'gold'")
    # An old league bout ends last of all.
    old = w.execute("SELECT min(id) FROM bouts WHERE state = 'over'").fetchone()[0]
    w.execute("UPDATE bouts SET ended = (SELECT max(ended) FROM bouts) + 60 WHERE id = ?", (old,))
    # A BRONZE boxer who never fought.
    fresh = w.execute("SELECT id FROM fighters WHERE rules = 'boxing' AND league = 'bronze' "
                      "AND retired = 0 ORDER BY id LIMIT 1").fetchone()[0]
    w.execute("UPDATE fighters SET wins = 0, losses = 0, draws = 0, kos = 0, gold_record = 0, "
              "season_wins = 0, season_losses = 0, season_draws = 0 WHERE id = ?", (fresh,))
    w.commit()
    w.close()
    st, h, body = c.get("/standings/duel")
    text = body.decode()
    check("standings: /standings/duel opens SILVER, not the empty GOLD",
          st == 200 and '<span class="pill SILVER on">' in text
          and "Nobody fights in" not in text, text[-400:])
    st, h, jb = c.get("/api/standings/duel")
    check("standings: /api/standings/duel is SILVER's", json.loads(jb)["league"] == "silver"
          and json.loads(jb)["total"] > 0, jb[:200])
    st, h, body = c.get("/standings/boxing")
    check("standings: /standings/boxing opens GOLD, which has fighters",
          '<span class="pill GOLD on">' in body.decode())
    st, h, jb = c.get("/api")
    latest = json.loads(jb)["latest"]
    ends = [b["ended"] for b in latest]
    check("latest results: the last to end first (bout #%d ended last)" % old,
          latest[0]["id"] == old and ends == sorted(ends, reverse=True), latest[:2])
    st, h, body = c.get("/")
    text = body.decode()
    at = text.find("Latest results")
    check("home: the bout that ended last heads the latest results",
          at > 0 and text.find("bouts/%d\"" % old, at) == text.find("bouts/", at), old)
    st, h, jb = c.get("/api/standings/boxing/bronze")
    rows = json.loads(jb)["standings"]
    check("standings: the boxer who never fought ranks last",
          rows and rows[-1]["id"] == fresh and rows[-1]["wins"] + rows[-1]["losses"] == 0,
          [(r["id"], r["wins"], r["losses"]) for r in rows[-3:]])


# The standings' addresses, HTML and JSON, that standings_follow_writes
# compares with a server that never kept anything.
STANDINGS_PATHS = ["/standings", "/api/standings", "/"] + [
    "%s/standings/%s%s" % (api, rules, league) for api in ("", "/api")
    for rules in ("boxing", "sugarray", "duel") for league in ("", "/bronze", "/silver", "/gold")]


def standings_follow_writes(c, dbpath, tmp):
    """The server keeps the standings from one request to the next and reads
    again only the fighters and ratings written since (their change stamps):
    each write shows at once, whoever made it (a statement that stamps the
    row as the bot's do, or a hand that does not), and after them every
    standings page is byte for byte what a server started afresh on the
    file sends."""
    for p in STANDINGS_PATHS:  # every one asked for, so every one kept
        c.get(p)

    def gold():
        st, h, jb = c.get("/api/standings/boxing/gold")
        return json.loads(jb)

    def bronze():
        st, h, jb = c.get("/api/standings/boxing/bronze")
        return json.loads(jb)

    w = sqlite3.connect(dbpath)
    last = gold()["standings"][-1]
    # A win, written as db_fighter_save writes it (its stamp with it).
    w.execute("UPDATE fighters SET wins = wins + 1, season_wins = season_wins + 1, changed = "
              "(SELECT max(changed) FROM fighters) + 1 WHERE id = ?", (last["id"],))
    w.commit()
    row = [r for r in gold()["standings"] if r["id"] == last["id"]]
    check("standings follow at once: a win, as the bot writes it",
          row and row[0]["wins"] == last["wins"] + 1
          and row[0]["season"]["wins"] == last["season"]["wins"] + 1, (last, row))
    st, h, body = c.get("/standings/boxing/gold")
    check("standings page follows at once: the new record shown",
          "%d-%d-%d" % (row[0]["wins"], row[0]["losses"], row[0]["draws"]) in body.decode()
          if row else False)
    # By hand (no stamp written): a BRONZE boxer promoted to GOLD.
    b = bronze()
    up = b["standings"][0]["id"]
    g = gold()
    w.execute("UPDATE fighters SET league = 'gold', gold_record = 500 WHERE id = ?", (up,))
    w.commit()
    g2, b2 = gold(), bronze()
    check("standings follow at once: a promotion written by hand",
          g2["total"] == g["total"] + 1 and b2["total"] == b["total"] - 1
          and g2["standings"][0]["id"] == up and up not in [r["id"] for r in b2["standings"]],
          (g["total"], g2["total"], b["total"], b2["total"]))
    # His rating, by hand.
    w.execute("INSERT INTO ratings (fighter, rules, rating, rd, vol, bouts, updated) "
              "VALUES (?, 'boxing', 1987.4, 61.2, 0.06, 9, 0) ON CONFLICT (fighter, rules) "
              "DO UPDATE SET rating = 1987.4, rd = 61.2", (up,))
    w.commit()
    top = gold()["standings"][0]
    check("standings follow at once: a rating", top["id"] == up and top["rating"] == 1987.4
          and top["rating_deviation"] == 61.2, top)
    # The title changes hands: the new champion leaves the list, the old
    # one comes back to his league.
    old = w.execute("SELECT fighter FROM champions WHERE rules = 'boxing'").fetchone()
    w.execute("UPDATE champions SET fighter = ? WHERE rules = 'boxing'", (up,))
    w.commit()
    ids = [r["id"] for r in gold()["standings"]]
    check("standings follow at once: a new champion leaves the list, the old one is back",
          up not in ids and (not old or old[0] is None or old[0] in ids
                             or old[0] in [r["id"] for r in bronze()["standings"]]),
          (up, old, ids[:5]))
    # Retired by hand.
    gone = gold()["standings"][1]["id"]
    w.execute("UPDATE fighters SET retired = 1 WHERE id = ?", (gone,))
    w.commit()
    check("standings follow at once: a retirement",
          gone not in [r["id"] for r in gold()["standings"]], gone)
    # A fighter who never fought, removed as the bot's retire removes him
    # (db_fighter_remove: the row deleted, meta's fighters_gone counted): no
    # row stamped says it, the count does. The next fighter made takes the
    # stamp the deleted row had, and is listed all the same.
    def newbie(key):
        w.execute("INSERT INTO fighters (account_id, key, name, rules, str, spd, agl, tgh, hgt,"
                  " created) SELECT account_id, ?, ?, 'boxing', 12, 12, 12, 12, 12, 0"
                  " FROM fighters WHERE id = ?", (key, key.title(), gone))
        w.commit()
    total = bronze()["total"]
    newbie("newbie")
    check("standings follow at once: a new fighter", bronze()["total"] == total + 1,
          (total, bronze()["total"]))
    w.execute("DELETE FROM fighters WHERE key = 'newbie'")
    w.execute("INSERT INTO meta (key, value) VALUES ('fighters_gone', '1') ON CONFLICT (key)"
              " DO UPDATE SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)")
    w.commit()
    names = [r["name"] for r in bronze()["standings"]]
    check("standings follow at once: a fighter removed",
          bronze()["total"] == total and "Newbie" not in names, (total, names))
    newbie("newcomer")
    names = [r["name"] for r in bronze()["standings"]]
    check("standings follow at once: a fighter made after one removed",
          bronze()["total"] == total + 1 and "Newcomer" in names and "Newbie" not in names,
          (total, names))
    w.close()

    # Every standings page as a server that kept nothing sends it.
    port = free_port()
    conf = os.path.join(tmp, "fresh.conf")
    with open(conf, "w") as f:
        f.write("[bot]\ndatabase = %s\n\n[web]\nlisten = 127.0.0.1:%d\nthreads = 1\n" %
                (dbpath, port))
    log = open(os.path.join(tmp, "fresh.log"), "w")
    proc = subprocess.Popen([web_path[0], "-c", conf], stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.05)
        fresh = Client(port)
        differ = [p for p in STANDINGS_PATHS if c.get(p)[2] != fresh.get(p)[2]]
        check("standings kept across writes: every page as a fresh server's", not differ, differ)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def host_header(c):
    """RFC 9112 section 3.2: an HTTP/1.1 request without a Host header, and
    any with several or one that names no host, are 400 (under /api in JSON);
    HTTP/1.0 needs none."""
    for req, want in [
            (b"GET / HTTP/1.1\r\n\r\n", 400), (b"HEAD /standings HTTP/1.1\r\n\r\n", 400),
            (b"GET /api/live HTTP/1.1\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400),
            (b"GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: x/y\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: u@x\r\n\r\n", 400),
            (b"GET / HTTP/1.0\r\n\r\n", 200), (b"GET /api/live HTTP/1.0\r\n\r\n", 200),
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 200),
            (b"GET / HTTP/1.1\r\nhOsT: 127.0.0.1:8080\r\n\r\n", 200),
            (b"GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", 200),
            (b"GET / HTTP/1.1\r\nHost:\r\n\r\n", 200)]:
        head, body = c.raw_answer(req)
        code = c.status_of(head)
        name = req.split(b"\r\n\r\n")[0].decode().replace("\r\n", " | ")
        check("host: %s is %d" % (name, want), code == want, code)
        if want == 400 and b"/api/" in req:
            check("host: %s answers JSON" % name, b"application/json" in head.lower()
                  and "error" in json.loads(body), (head, body[:100]))


def one_address(c, ex):
    """Each page has one address: a control byte (raw or escaped), an escaped
    '/', trailing junk, a sign, a leading zero or capitals name no page."""
    for path in ["/bouts/%d%%00.html" % ex, "/bouts/%d%%00" % ex, "/bouts/%d%%0a" % ex,
                 "/bouts/%d%%0d%%0a" % ex, "/bouts/%d%%09" % ex, "/bouts/%d%%7f" % ex,
                 "/bouts%%2f%d" % ex, "/bouts%%2F%d" % ex, "/bouts/%d%%2f" % ex,
                 "/bouts/%d%%3f" % ex, "/bouts/%d.html" % ex, "/bouts/%d%%20" % ex,
                 "/bouts/+%d" % ex, "/bouts/0%d" % ex, "/Bouts/%d" % ex, "/BOUTS/%d" % ex,
                 "/bouts/%d;x" % ex, "/api/bouts/%d%%00" % ex, "/live%00", "/%00",
                 "/standings/boxing/gold%00", "/standings/Boxing/gold", "/fighters/1%00"]:
        st, h, body = c.get(path)
        check("one address: %s is 404" % path, st == 404, st)
    code = c.raw(b"GET /bouts/%d\x00.html HTTP/1.1\r\nHost: x\r\n\r\n" % ex)
    check("one address: a raw NUL in the path is not bout %d" % ex, code != 200, code)
    st, h, body = c.get("/standings/boxing/gold?page=%00")
    check("page=%00 is 400", st == 400, st)
    # Arguments a page does not read change nothing.
    st, h, b1 = c.get("/bouts/%d" % ex)
    st2, h2, b2 = c.get("/bouts/%d?page=abc&x=%%00" % ex)
    check("a bout page ignores page= and other arguments", st == st2 == 200 and b1 == b2,
          (st, st2))


def page_variants(port, ex):
    """5,000 ?page=N variants of one bout page cost what 5,000 asks for the
    page itself do: they share its kept answer (the bout is not replayed)."""
    # Asked in turn on one connection, so that a loaded machine slows both
    # alike.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    took, ok = [0.0, 0.0], [0, 0]
    for n in range(1, 5001):
        for k, path in enumerate(["/bouts/%d" % ex, "/bouts/%d?page=%d" % (ex, n)]):
            t0 = time.monotonic()
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            took[k] += time.monotonic() - t0
            ok[k] += r.status == 200
    conn.close()
    same, variants = took
    print("# 5000 asks for one bout page: %.2f s; 5000 ?page=N variants: %.2f s"
          % (same, variants))
    check("5000 ?page=N variants answered", ok == [5000, 5000], ok)
    check("5000 ?page=N variants cost no more than the page asked 5000 times",
          variants < 1.5 * same + 0.5, "%.2f s against %.2f s" % (variants, same))


def bad_row(c, dbpath, top):
    """A fighter whose name is too long for the game (written by hand) is shown
    cut short; his standings, their JSON and his page stay up."""
    if not top:
        check("bad row: a fighter in the gold standings", False)
        return
    w = sqlite3.connect(dbpath)
    w.execute("UPDATE fighters SET name = ? WHERE id = ?", ("\u00c4" * 15 + "x" * 10, top))
    w.commit()
    w.close()
    cut = "\u00c4" * 14 + "..."
    st, h, body = c.get("/standings/boxing/gold")
    check("bad row: the standings are up, the name cut short",
          st == 200 and cut in body.decode(), st)
    st, h, jb = c.get("/api/standings/boxing/gold")
    names = [x.get("name") for x in json.loads(jb).get("standings", [])] if st == 200 else []
    check("bad row: the standings' JSON is up, the name cut short", cut in names, (st, names[:3]))
    st, h, body = c.get("/fighters/%d" % top)
    check("bad row: the fighter's page is up", st == 200 and cut in body.decode(), st)
    st, h, body = c.get("/standings/boxing")
    check("bad row: the ruleset's standings are up", st == 200, st)


def ratings_pages(c, conn):
    """The Glicko-2 ratings: a fighter's card, chart and history against the file, the
    standings' column, /ratings/RULES and its JSON."""
    fid, nh = conn.execute("SELECT fighter, count(*) FROM rating_history GROUP BY fighter"
                           " ORDER BY count(*) DESC, fighter LIMIT 1").fetchone()
    rating_fighter[0] = fid
    r, rd, vol, bouts = conn.execute("SELECT rating, rd, vol, bouts FROM ratings WHERE fighter = ?",
                                     (fid,)).fetchone()
    st, h, body = c.get("/fighters/%d" % fid)
    text = body.decode()
    check("fighter page: rating card", st == 200 and
          ("<h3 class=\"rating\">%d &plusmn; %d</h3>" % (round(r), round(rd))) in text,
          "%d %d" % (round(r), round(rd)))
    check("fighter page: rating chart, a point per rated bout",
          text.count("<svg class=\"rating-chart\"") == 1 and "class=\"rating-line\"" in text
          and text.count("<circle") >= nh and nh == bouts, (nh, bouts))
    hist = conn.execute("SELECT bout, before, rating, rd FROM rating_history WHERE fighter = ?"
                        " ORDER BY bout", (fid,)).fetchall()
    for b, _, _, _ in hist:
        if ("bouts/%d\"><circle" % b) not in text:
            check("fighter page: the chart links bout %d" % b, False)
            break
    st, h, jb = c.get("/api/fighters/%d" % fid)
    d = json.loads(jb)["rating"]
    check("api fighter: rating as stored", abs(d["rating"] - r) < 1e-3
          and abs(d["deviation"] - rd) < 1e-3 and abs(d["volatility"] - vol) < 1e-5
          and d["bouts"] == bouts, d)
    # The JSON prints three decimals: compare within what it printed.
    got = [(x["bout"], x["before"], x["rating"], x["deviation"]) for x in d["history"]]
    bad = [(g, w) for g, w in zip(got, hist)
           if g[0] != w[0] or any(abs(a - b) > 1.5e-3 for a, b in zip(g[1:], w[1:]))]
    check("api fighter: rating history as stored", len(got) == len(hist) and not bad,
          bad[:3] or (len(got), len(hist)))
    # A fighter never rated: a newcomer's card, no chart.
    new = conn.execute("SELECT id FROM fighters WHERE id NOT IN (SELECT fighter FROM ratings)"
                       " LIMIT 1").fetchone()
    if new:
        st, h, body = c.get("/fighters/%d" % new[0])
        text = body.decode()
        check("fighter page: a newcomer's rating, no chart",
              "1500 &plusmn; 350" in text and "rating-chart" not in text and "A newcomer" in text)
    # The standings carry the rating.
    st, h, jb = c.get("/api/standings/boxing/gold")
    rows = json.loads(jb)["standings"]
    ok = True
    for x in rows:
        row = conn.execute("SELECT rating, rd FROM ratings WHERE fighter = ?", (x["id"],)
                           ).fetchone() or (1500.0, 350.0)
        ok = ok and abs(x["rating"] - row[0]) < 0.01 and abs(x["rating_deviation"] - row[1]) < 0.01
    check("api standings: each row's rating", ok and rows, jb[:200])
    st, h, body = c.get("/standings/boxing/gold")
    check("standings page: a rating column", "<th class=\"n\">Rating</th>" in body.decode())
    # Every rating of a ruleset, highest first.
    for rules in ("boxing", "sugarray", "duel"):
        want = conn.execute("SELECT r.fighter FROM ratings r JOIN fighters f ON f.id = r.fighter"
                            " WHERE r.rules = ? AND f.retired = 0 ORDER BY r.rating DESC, r.rd,"
                            " f.id", (rules,)).fetchall()
        st, h, jb = c.get("/api/ratings/%s" % rules)
        d = json.loads(jb)
        check("api ratings %s: every rated fighter, highest first" % rules,
              st == 200 and d["total"] == len(want)
              and [x["id"] for x in d["ratings"]] == [w[0] for w in want][:100], jb[:200])
        st, h, body = c.get("/ratings/%s" % rules)
        text = body.decode()
        check("ratings page %s: 200, a row each" % rules, st == 200 and
              text.count("<tr><td class=\"n\">") == min(len(want), 100), len(want))
        no_markup("ratings %s" % rules, body)
    for path in ["/ratings/chess", "/ratings", "/ratings/boxing/gold", "/ratings/boxing?page=99"]:
        st, h, body = c.get(path)
        check("404 %s" % path, st == 404, st)
    st, h, jb = c.get("/api/ratings/chess")
    check("api ratings: an unknown ruleset is a JSON 404", st == 404 and "error" in json.loads(jb))


rating_fighter = [None]


def kit_of(text):
    """A stored kit ("weapon=longsword:1000000 ...", or a stored sheet's words after
    its abilities) as [(slot, item, percent)]."""
    return [(w.split("=")[0], w.split("=")[1].split(":")[0], int(w.split(":")[1]) / 10000.0)
            for w in text.split() if "=" in w]


def same_kit(got, want):
    return len(got) == len(want) and all(
        g["slot"] == w[0] and g["item"] == w[1] and abs(g["condition"] - w[2]) < 1e-3
        for g, w in zip(got, want))


def run_duels(c, info, conn, dbpath, sim):
    duel, lduel = info["duel"], info["live_duel"]

    # A duellist's page: the sheet and each piece with its condition, as stored.
    for fid in (info["conan"], info["hostile_duel"]):
        kit = kit_of(conn.execute("SELECT kit FROM fighters WHERE id = ?", (fid,)).fetchone()[0])
        st, h, jb = c.get("/api/fighters/%d" % fid)
        d = json.loads(jb)
        check("api duellist %d: the equipment and each piece's condition as stored" % fid,
              st == 200 and d["rules"] == "duel" and kit and same_kit(d["equipment"], kit)
              and set(d["sheet"]) == {"str", "dex", "con", "int"}
              and "encumbrance" in d["carried"], (jb[:400], kit))
        st, h, body = c.get("/fighters/%d" % fid)
        text = body.decode()
        eq = text[text.find("<h2>Equipment</h2>"):text.find("<h2>Bouts</h2>")]
        check("duellist page %d: every piece with its condition" % fid,
              st == 200 and eq and all(("<td>%s</td>" % e["piece"]) in eq
                                       and ("%.1f%%" % e["condition"]) in eq
                                       for e in d["equipment"]) and "encumbrance" in eq, eq[:600])
        no_markup("duellist page %d" % fid, body)
    st, h, body = c.get("/fighters/%d" % info["hostile_duel"])
    check("hostile duellist escaped",
          "&lt;u&gt;Sonja&lt;/u&gt; &quot;Red&quot; &amp; Co" in body.decode())
    st, h, jb = c.get("/api/fighters/%d" % info["hostile_duel"])
    check("api hostile duellist: the name back intact, no raw <",
          json.loads(jb)["name"] == HOSTILE[6] and b"<" not in jb)
    st, h, body = c.get("/api/fighters/%d" % info["rocky"])
    check("api boxer: no equipment", "equipment" not in json.loads(body))

    # The finished duel: tape with both fighters' equipment, the chart of health.
    st, h, body = c.get("/bouts/%d" % duel)
    text = body.decode()
    no_markup("duel page", body)
    st2, h2, jb = c.get("/api/bouts/%d" % duel)
    d = json.loads(jb)
    row = conn.execute("SELECT sheet_a, sheet_b, round, winner FROM bouts WHERE id = ?",
                       (duel,)).fetchone()
    check("api duel: each fighter's equipment as the duel began",
          all(same_kit(d["fighters"][s]["equipment"], kit_of(row[s])) for s in (0, 1))
          and all("equipment_now" in f for f in d["fighters"]), jb[:500])
    check("api duel: health, from 100, every round, the result",
          d["meter"] == "health" and d["start"] == [100, 100] and len(d["fought"]) == row[2]
          and d["result"]["winner"] == row[3]
          and (row[3] < 0 or d["fought"][-1]["meter"][1 - row[3]] <= 0
               or (d["result"]["method"] == "TKO"
                   and d["result"]["how"] in ("yield", "forfeit"))), jb[:300])
    # A duel his plan yielded (a league's: every order a plan's) is a yield
    # wherever it is named, as the channel said it ("X yields!") and the
    # records count it: the JSON's `how` (its `method` still TKO), the
    # result, the winner's list.
    yielded = conn.execute("SELECT id, winner, fighter_a, fighter_b FROM bouts"
                           " WHERE rules = 'duel' AND state = 'over' AND reason = 'towel'"
                           " AND winner >= 0 LIMIT 3").fetchall()
    check("duels yielded by a plan to look at", len(yielded) > 0)
    for bid, w, fa, fb in yielded:
        st, h, jb = c.get("/api/bouts/%d" % bid)
        res = json.loads(jb)["result"]
        st2, h2, page = c.get("/fighters/%d" % (fa, fb)[w])
        row_at = page.decode().find('bouts/%d">#%d</a>' % (bid, bid))
        check("duel #%d yielded by a plan: \"yield\" in the JSON, the result and the list" % bid,
              res["method"] == "TKO" and res["how"] == "yield" and " yields!" in res["text"]
              and "W</span> yield, round" in page.decode()[row_at:row_at + 600], (res, row_at))
    check("api duel: health as each round's score says",
          all(("%.1f" % r["meter"][0]) in r["score"] and ("%.1f" % r["meter"][1]) in r["score"]
              for r in d["fought"]))
    check("api duel: only the duel's marks",
          all(m["kind"] in DUEL_MARKS for r in d["fought"] for m in r["marks"]))
    want = subprocess.run([sim, "--report", dbpath, str(duel)], stdout=subprocess.PIPE,
                          check=True).stdout.decode().rstrip("\n")
    check("api duel: the reports are ringside-sim --report's",
          "\n".join(r["report"] for r in d["fought"]) == want)
    tape = text[text.find("Tale of the tape"):text.find("round by round</h2>")]
    check("duel page: the tape shows both fighters' equipment with conditions",
          all(("%s %.1f%%" % (e["piece"], e["condition"])) in tape
              for f in d["fighters"] for e in f["equipment"])
          and "WEAPON" not in tape and ">weapon<" in tape and "encumbrance" in tape, tape[-1500:])
    svg = text[text.find("<svg"):text.find("</svg>")]
    check("duel page: the chart is of health, with both lines",
          "Health round by round</h2>" in text and svg.count("<polyline") == 2
          and "<title>health of Conan and &lt;u&gt;Sonja" in svg
          and "after round 1: %.1f health" % d["fought"][0]["meter"][0] in svg
          and "critical hit</text>" in svg and "knockdown</text>" not in svg, svg[:300])
    # Every mark of every duel: on its page's chart and in its round.
    kinds, missing, seen = set(), [], 0
    for (bid,) in conn.execute("SELECT id FROM bouts WHERE rules = 'duel' AND state = 'over'"):
        st, h, jb = c.get("/api/bouts/%d" % bid)
        marks = [(r["round"], m) for r in json.loads(jb)["fought"] for m in r["marks"]]
        if not marks:
            continue
        st, h, body = c.get("/bouts/%d" % bid)
        page = body.decode()
        svg = page[page.find("<svg"):page.find("</svg>")]
        html_text = lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(
            ">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
        missing += [(bid, m) for rnd, m in marks if html_text(m["text"]) not in svg
                    or html_text(m["text"]) not in page[page.find('id="round-%d"' % rnd):]]
        kinds |= {m["kind"] for rnd, m in marks}
        seen += len(marks)
    check("duels: every mark (%d) on its page's chart and in its round" % seen,
          seen and not missing, missing[:3])
    check("duels: critical hits, stuns, pieces breaking and stoppages marked",
          kinds == DUEL_MARKS, kinds)

    # The live duel: rounds so far, each piece's condition now, reloads at the duel's pace.
    st, h, body = c.get("/bouts/%d" % lduel)
    text = body.decode()
    check("live duel: rounds so far, reloads at the duel's pace",
          st == 200 and "LIVE" in text and "Round 3</h3>" in text and "Round 4</h3>" not in text
          and h.get("refresh") == "4" and "Health round by round" in text)
    st, h, jb = c.get("/api/bouts/%d" % lduel)
    d = json.loads(jb)
    check("api live duel: three rounds, no result, the equipment now",
          len(d["fought"]) == 3 and d["result"] is None
          and all(len(f["equipment_now"]) >= 1 for f in d["fighters"]))
    st, h, jb = c.get("/api/live")
    check("api live: the live duel too", lduel in [b["id"] for b in json.loads(jb)["bouts"]])

    # Duel standings and the title.
    for path in ["/standings/duel", "/standings/duel/gold", "/standings/duel/silver",
                 "/standings/duel/bronze", "/champions/duel"]:
        st, h, body = c.get(path)
        check("%s: 200" % path, st == 200, st)
        no_markup(path, body)
    champ = conn.execute("SELECT fighter, defences FROM champions WHERE rules = 'duel'"
                         ).fetchone()
    titles = conn.execute("SELECT count(*) FROM bouts WHERE rules = 'duel' AND kind = 'title'"
                          " AND state = 'over'").fetchone()[0]
    st, h, body = c.get("/champions/duel")
    text = body.decode()
    check("duel title history: every title bout, the champion",
          titles == info["duel_title_bouts"] and titles >= 1 and champ
          and text.count("</a> <span class=\"muted small\">turn ") == titles
          and ("fighters/%d" % champ[0]) in text, (titles, champ))
    st, h, jb = c.get("/api/standings/duel/gold")
    d = json.loads(jb)
    rows = conn.execute("SELECT id FROM fighters WHERE rules = 'duel' AND league = 'gold' AND "
                        "retired = 0 AND id IS NOT ?", (champ[0],)).fetchall()
    check("api duel standings: every GOLD duellist but the champion",
          st == 200 and d["champion"]["id"] == champ[0]
          and sorted(x["id"] for x in d["standings"]) == sorted(r[0] for r in rows))


if __name__ == "__main__":
    sys.exit(main())
