#!/usr/bin/env python3
"""network_test.py - ringside-web names another network's player
name@network, as the bot does (issue 29: several bots, one database).

    python3 tests/web/network_test.py WEB WEBGEN   (from the repository root)

WEBGEN makes the database (tests/web/gen.c); then, as bots of two networks
would have them, bob's account (the boxing champion's owner) becomes
oftc's, ivan's libera's, frank's oftc's (both in the boxing standings' first
league), and dave's (a pundit with a scored prediction) oftc's; the others
stay of no network. WEB serves it twice:
  - with [bot] network = libera (the site of libera's bot): alice and the
    players of no network plainly, bob and dave as bob@oftc and dave@oftc;
  - with no [bot] network: every player of a network as name@network.
Each time: the boxing standings (HTML and JSON: every row's owner), the
champion (its card on the standings, /champions/boxing and its JSON),
bob's fighter's page and JSON, the pundits' table (HTML and JSON), a
bout page's predictions (JSON and HTML), the corners of a bout of bob's
fighter (its page's tale of the tape and its JSON), and the archives:
SUGAR RAY's season 1 (every owner of its standings, HTML and JSON; its
honours' owners in the JSON) and the hall of fame's JSON (issue 29).
A [bot] network of over 32 bytes stops ringside-web at its start, saying
so in one line. And a site whose accounts have no network reads byte for byte the same with
[bot] network set as without it (the standings, a fighter, the champions,
the pundits, the bout with the predictions, in HTML and JSON).

Output: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N failed`; exit
status 1 if anything failed. Python 3 standard library only.
"""

import html
import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import pages_test  # noqa: E402
from ports import free_port  # noqa: E402

NETWORKS = {"bob": "oftc", "ivan": "libera", "frank": "oftc", "dave": "oftc"}
PAGES = ["/standings/boxing", "/api/standings/boxing", "/champions/boxing",
         "/api/champions/boxing", "/pundits", "/api/pundits", "/seasons/sugarray/1",
         "/api/seasons/sugarray/1", "/halloffame", "/api/halloffame"]

results = [0, 0]


def check(name, ok, why=""):
    results[0 if ok else 1] += 1
    print(("ok - %s" % name) if ok else ("FAIL - %s: %s" % (name, why)))


def fetch(port, paths):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    got = {}
    for path in paths:
        c.request("GET", path)
        r = c.getresponse()
        got[path] = (r.status, r.read().decode("utf-8"))
    c.close()
    return got


def site(web, tmp, name, dbpath, network, paths):
    """WEB on dbpath with [bot] network (None: no such line): the answers."""
    conf = os.path.join(tmp, name + ".conf")
    with open(conf, "w") as f:
        f.write("[bot]\ndatabase = %s\n%s\n[web]\nlisten = 127.0.0.1:%d\nthreads = 2\n" %
                (dbpath, "network = %s" % network if network is not None else "", free_port()))
    log_path = os.path.join(tmp, name + ".log")
    with open(log_path, "w") as log:
        proc, port = pages_test.serve(web, conf, log)
        try:
            got = fetch(port, paths)
        finally:
            proc.terminate()
            rc = proc.wait(timeout=20)
    text = open(log_path).read()
    check("%s: exits cleanly, no sanitizer report" % name,
          rc == 0 and "Sanitizer" not in text and "runtime error" not in text, text[-2000:])
    return got


def named(name, network, home):
    return name if not network or network == home else "%s@%s" % (name, network)


def archives(label, got, named_id):
    """The season's standings and honours, and the hall of fame's honours:
    every owner as the site names him (named_id: a fighter id's owner)."""
    doc = json.loads(got["/api/seasons/sugarray/1"][1])
    rows, honours = doc["standings"], doc["honours"]
    bad = [(r["id"], r["owner"]) for r in rows + honours if r["owner"] != named_id(r["id"])]
    check("%s: every owner of season 1's standings and honours (JSON)" % label,
          rows and honours and not bad, repr(bad))
    check("%s: season 1's standings name bob@oftc, frank@oftc and dave@oftc" % label,
          {"bob@oftc", "frank@oftc", "dave@oftc"} <= {r["owner"] for r in rows}, repr(rows))
    page = got["/seasons/sugarray/1"][1]
    bad = [r["id"] for r in rows if '</a></td><td>%s</td>' % html.escape(named_id(r["id"]), False)
           not in page]
    check("%s: every owner in season 1's page" % label, not bad, repr(bad))
    fame = [h for s in json.loads(got["/api/halloffame"][1])["seasons"] for h in s["honours"]]
    bad = [(h["id"], h["owner"]) for h in fame if h["owner"] != named_id(h["id"])]
    check("%s: every owner of the hall of fame (JSON)" % label, fame and not bad, repr(bad))


def corners(label, got, xbout, named_id):
    """Bout xbout's two corners (JSON fighters[].owner, the page's tape)."""
    doc = json.loads(got["/api/bouts/%d" % xbout][1])
    want = [named_id(f["id"]) for f in doc["fighters"]]
    check("%s: bout %d's corners %s (JSON)" % (label, xbout, want),
          [f["owner"] for f in doc["fighters"]] == want and "bob@oftc" in want,
          repr(doc["fighters"]))
    page = got["/bouts/%d" % xbout][1]
    check("%s: bout %d's tale of the tape names %s" % (label, xbout, want),
          all('</div><div class="small muted">%s</div></div>' % html.escape(w) in page
              for w in want))


def networked(web, tmp, dbpath, bout, fighter):
    con = sqlite3.connect(dbpath)
    with con:
        for who, net in NETWORKS.items():
            con.execute("UPDATE accounts SET network = ? WHERE name = ?", (net, who))
    owner = {fid: (n, net) for fid, n, net in con.execute(
        "SELECT f.id, a.name, a.network FROM fighters f JOIN accounts a ON a.id = f.account_id")}
    network = dict(con.execute("SELECT name, network FROM accounts"))
    # A bout of bob's fighter against one of no network's.
    xbout = con.execute(
        "SELECT b.id FROM bouts b JOIN fighters f ON f.id = b.fighter_a"
        " JOIN fighters g ON g.id = b.fighter_b JOIN accounts a ON a.id = f.account_id"
        " JOIN accounts c ON c.id = g.account_id WHERE b.state = 'over' AND a.name = 'bob'"
        " AND c.network = '' ORDER BY b.id LIMIT 1").fetchone()[0]
    con.close()
    paths = PAGES + ["/fighters/%d" % fighter, "/api/fighters/%d" % fighter,
                     "/bouts/%d" % bout, "/api/bouts/%d" % bout,
                     "/bouts/%d" % xbout, "/api/bouts/%d" % xbout]
    for home in ("libera", None):
        label = "[bot] network = %s" % home if home else "no [bot] network"
        got = site(web, tmp, "net-%s" % (home or "none"), dbpath, home, paths)
        def named_id(fid, home=home):
            return named(*owner[fid], home)
        archives(label, got, named_id)
        corners(label, got, xbout, named_id)
        check("%s: every page answers 200" % label, all(s == 200 for s, _ in got.values()),
              " ".join(p for p, (s, _) in got.items() if s != 200))
        rows = json.loads(got["/api/standings/boxing"][1])["standings"]
        bad = [(r["id"], r["owner"]) for r in rows if r["owner"] != named(*owner[r["id"]], home)]
        check("%s: every owner in the standings' JSON as the bot names him" % label,
              rows and not bad, repr(bad))
        page = got["/standings/boxing"][1]
        bad = [r["owner"] for r in rows if "<td>%s</td>" % html.escape(r["owner"], False)
               not in page]
        check("%s: every owner in the standings' page" % label, not bad, repr(bad))
        bob = named("bob", "oftc", home)
        ivan, frank = named("ivan", "libera", home), named("frank", "oftc", home)
        check("%s: the standings name ivan %s and frank %s" % (label, ivan, frank),
              any(r["owner"] == ivan for r in rows) and any(r["owner"] == frank for r in rows),
              repr(rows[:4]))
        champ = json.loads(got["/api/champions/boxing"][1])["champion"]
        check("%s: the champion's owner %s (JSON)" % (label, bob), champ["owner"] == bob,
              repr(champ))
        check("%s: the champion's card names %s" % (label, bob),
              all(html.escape(bob) + " &middot;" in got[p][1]
                  for p in ("/standings/boxing", "/champions/boxing")))
        doc = json.loads(got["/api/fighters/%d" % fighter][1])
        check("%s: bob's fighter's JSON names %s" % (label, bob), doc["owner"] == bob, repr(doc))
        check("%s: bob's fighter's page names %s" % (label, bob),
              "of</div><h3>%s" % html.escape(bob) in got["/fighters/%d" % fighter][1])
        pundits = json.loads(got["/api/pundits"][1])["pundits"]
        want = [named(p["name"].split("@")[0], network[p["name"].split("@")[0]], home)
                for p in pundits]
        check("%s: the pundits' JSON names %s" % (label, want),
              pundits and [p["name"] for p in pundits] == want and
              named("dave", "oftc", home) in want, repr(pundits))
        check("%s: the pundits' page names them" % label,
              all("<td>%s</td>" % html.escape(n) in got["/pundits"][1] for n in want))
        preds = json.loads(got["/api/bouts/%d" % bout][1])["predictions"]
        want = [named(p["name"].split("@")[0], network[p["name"].split("@")[0]], home)
                for p in preds]
        check("%s: bout %d's predictors %s (JSON and page)" % (label, bout, want),
              preds and [p["name"] for p in preds] == want and
              named("dave", "oftc", home) in want and
              all("<td>%s</td>" % html.escape(n) in got["/bouts/%d" % bout][1] for n in want),
              repr(preds))


def too_long(web, tmp, dbpath):
    conf = os.path.join(tmp, "long.conf")
    with open(conf, "w") as f:
        f.write("[bot]\ndatabase = %s\nnetwork = %s\n[web]\nlisten = 127.0.0.1:%d\nthreads = 2\n" %
                (dbpath, "n" * 33, free_port()))
    p = subprocess.run([web, "-c", conf], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=60)
    want = "ringside-web: %s:3: network needs a name of at most 32 bytes\n" % conf
    check("a [bot] network of 33 bytes: exit 2, %r" % want.strip(),
          p.returncode == 2 and p.stderr == want, "exit %d, %r" % (p.returncode, p.stderr))


def main():
    if len(sys.argv) != 3:
        print("usage: network_test.py WEB WEBGEN", file=sys.stderr)
        return 2
    web, gen = (os.path.abspath(a) for a in sys.argv[1:])
    tmp = tempfile.mkdtemp(prefix="ringside-webnet-")
    dbpath = os.path.join(tmp, "ringside.db")
    info = json.loads(subprocess.run([gen, dbpath], stdout=subprocess.PIPE, check=True).stdout)
    con = sqlite3.connect(dbpath)
    bout = con.execute("SELECT bout FROM predictions WHERE hits IS NOT NULL ORDER BY bout "
                       "LIMIT 1").fetchone()[0]
    fighter = con.execute("SELECT fighter FROM champions WHERE rules = 'boxing'").fetchone()[0]
    con.close()
    check("the generated database's boxing champion is bob's",
          fighter == info["boxing_champion"])
    # A site without networks: the same bytes with [bot] network as without.
    paths = PAGES + ["/fighters/%d" % fighter, "/api/fighters/%d" % fighter,
                     "/bouts/%d" % bout, "/api/bouts/%d" % bout]
    plain = site(web, tmp, "plain", dbpath, None, paths)
    mine = site(web, tmp, "plain-libera", dbpath, "libera", paths)
    differ = [p for p in paths if plain[p] != mine[p]]
    check("accounts of no network: every page the same with [bot] network = libera",
          not differ and all(s == 200 for s, _ in plain.values()), " ".join(differ))
    too_long(web, tmp, dbpath)
    networked(web, tmp, dbpath, bout, fighter)
    print("%d passed, %d failed" % tuple(results))
    if results[1]:
        print("# kept %s" % tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if results[1] else 0


if __name__ == "__main__":
    sys.exit(main())
