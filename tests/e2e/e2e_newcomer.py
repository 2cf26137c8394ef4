#!/usr/bin/env python3
"""e2e_newcomer.py - what a new player meets, end to end: the real bot, a real
ngircd, and real client connections making a newcomer's mistakes, answering
prompts as fast as they come, and missing deadlines.

    python3 tests/e2e/e2e_newcomer.py BOT SIM   (from the repository root;
                                                 BOT e.g. build/asan/ringside,
                                                 SIM build/ringside-sim)

Reuses tests/e2e/e2e.py (the IRC client, the Env that runs ngircd and the bot
in a temporary directory, the checks after every scenario) and
tests/e2e/e2e_bouts.py (BoutEnv with its fast pacing and an ngircd without
penalties, challenge, order, order_last, prompt, await_round, and the
regexes of what the bot says by itself).

Every reply is checked word for word against the texts in game/bout.c,
bot/cmd*.c and parse/*.c. A reply too long for one IRC line comes cut at a
space into several (bot/outq.c); the pieces are joined with one space again
before they are compared.

Scenarios:
  1. a newcomer's mistakes: help, help order, help create, create with no
     account and with no abilities, a password said in the channel, a
     challenge to a nick with no account, orders said in the channel, orders
     with no live bout and with a challenge not yet accepted, a plan with a
     conditional line, bad orders in his live bout: each one its exact reply,
     and the database unchanged; in his first bout the round 1 prompt comes
     with the order line explained;
  2. two fast players, boxing: both answer every prompt of a 4-round bout the
     moment it comes (in private, no delay): never told about the command
     limit, every round fought and said, the corner and the score on every
     prompt from round 2, the result and the records in the channel, with
     the training point the winner earned and how to spend it on the
     records line (both are in the channel: nothing private at the end);
  3. two fast players, SUGAR RAY: the same for a 5-round SUGAR RAY bout, whose
     table (orders, endurance, attack totals) is known in advance: the exact
     endurances and attack totals on every prompt, the two classic lines, then
     the plain winner, the endurance changes and the records;
  4. the deadline counts from the prompt: order_timeout = 10 (SIGHUP); players
     who send nothing are reminded, and the default, a plan's line and the
     last orders fight for them, each named on the next prompt (or with the
     end); no round is fought before order_timeout seconds after its prompts
     reached the players, even when the server (stopped with SIGSTOP while
     round 1 is fought) delivers round 2's prompts seconds late;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why` (with `#` detail lines and
the tail of the bot's log), then `N passed, N failed`; exit status 1 if
anything failed. Processes are always stopped.

Environment: E2E_ONLY=name,number (as e2e.py), E2E_SERVER=ngircd|inspircd (default
ngircd), E2E_KEEP=1, E2E_VERBOSE=1.
Python 3 standard library only.
"""

import os
import re
import shutil
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import e2e_bouts  # noqa: E402  (also gives ngircd no penalties: MaxPenaltyTime = 0)
from e2e import CHANNEL, TIMEOUT, Client, Failure, check, secret  # noqa: E402
from e2e_bouts import (AFTERMATH, FOUGHT, PROMPT, STORED, UNASKED, BoutEnv, Told,  # noqa: E402
                       await_round, challenge, check_acks, check_records, check_secrecy,
                       index_of, order, order_last, player, private_texts, prompt, wait_chan,
                       wait_private_at)

BOT = e2e.BOT_NICK


def wait_turn_at(env, c, regex, fighter, start=0, timeout=TIMEOUT, call=None):
    """(index, message): the bot's first private message to `c` from `start`
    matching regex, or the end of his bout in the channel (its records
    line, with the training points the bout earned) when nothing is due
    privately: he is in the channel (game/bout.c over_private; a bout alone
    in its channel always has room for the points there); with `call` (a bout's
    number), also that bout's start in the channel naming him (it asks him
    for round 1 there)."""
    rx = re.compile(regex)
    ended = re.compile(r"Records now: .*\b%s \d+-\d+-\d+" % re.escape(fighter))
    called = re.compile(r"^Bout #%s is on\. Round 1 of \d+: (.* and )?%s \(%s\)(, | and )" %
                        (call, re.escape(c.nick), re.escape(fighter)))

    def pred(m):
        if not c.from_bot(m):
            return False
        if m.target.lower() == c.nick.lower():
            return bool(rx.search(m.text))
        if call and m.target.lower() == CHANNEL.lower() and called.search(m.text):
            return True
        return m.target.lower() == CHANNEL.lower() and bool(ended.search(m.text))
    m = c.wait(pred, "/%s/ in private, or the end in the channel" % regex, timeout=timeout,
               start=start)
    return index_of(c, m, start), m


def in_channel_end(text):
    """1 if `text` (a player's end from wait_turn_at) was the channel's."""
    return not text.startswith("Bout #")
SHORT_TIMEOUT = 10  # scenario 4's order_timeout (the least the configuration takes)
# Slack for the bot's timer (its loop wakes at least every fraction of a
# second) and for this client's reader thread on a loaded machine.
TICK_SLACK = 1.0
# Scenario 4: how long the server is stopped as round 1 is fought.
HOLD = 4.0

# ------------------------------------------------------------ the texts

# bot/cmd.c: the command table, in its order, as a newcomer (no admin) gets it.
COMMANDS = ("help version register identify logout passwd create fighter fighters train "
            "retire armoury equip unequip challenge accept decline withdraw forfeit order plan sim bouts score report "
            "standings ratings champion league part predict pundits pause season halloffame tournament bracket")
# parse/boxing.c and parse/sugarray.c: order_help and sheet_help.
ORDER_HELP_BOXING = (
    "Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches you throw "
    "(8 for each point), POW how hard they are, DEF how well you guard; each is at least 1 "
    "and AGG+POW+DEF is at most 20. Optional: H (head) or B (body) after AGG aims the "
    "punches; ! after POW fights dirty (harder, but the referee may warn and disqualify); a "
    "style in parentheses after DEF: inside, clinch, feint, counter, ring, cut, outside or "
    "allout.")
# What a round 1 prompt of a player's first bout says of it (game/bout.c
# help_first): the first sentence, and where the rest is.
PROMPT_HELP_BOXING = (
    "Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches you throw "
    "(8 for each point), POW how hard they are, DEF how well you guard; each is at least 1 "
    "and AGG+POW+DEF is at most 20. The rest: help order.")
ORDER_HELP_SUGARRAY = (
    "SUGAR RAY orders are attack/defence, e.g. 3/2, each 0 to 99: an attack above the "
    "opponent's defence takes twice the difference off his endurance. Every round first "
    "costs you endurance for its effort, 3 x attack + 2 x defence - skill: nothing for 0 or "
    "less, 1 for 1-4, 2 for 5-7, 3 for 8-9, then 4, 5, 6, 7, 8 and 10 for 10 to 15, and "
    "2 x (effort - 10) above 15. Whoever is not knocked out and has the larger total of "
    "attack wins on points.")
SHEET_HELP_BOXING = (
    "Boxing abilities, 60 points over five, each 5 to 20: str (strength: how hard "
    "punches hurt), spd (speed: how many land), agl (agility: how many you avoid), "
    "tgh (toughness: endurance, 10 for each point) and hgt (height: a taller "
    "fighter gets extra speed and agility).")
SHEET_HELP_SUGARRAY = (
    "SUGAR RAY boxers start alike (skill 10, endurance 20; create <name> "
    "rules=sugarray): skill lowers the endurance each round costs you, endurance is "
    "what blows and fatigue take away; a KO win adds a skill point, a points win an "
    "endurance point.")
# parse/duel.c: order_help and sheet_help.
ORDER_HELP_DUEL = (
    "A duel needs no orders: its rounds fight themselves from the sheets and the equipment. "
    "yield concedes (you lose); a plan may say when, e.g. if health < 20 then yield.")
SHEET_HELP_DUEL = (
    "A duellist has 56 points over str, dex, con and int, each 1 to 23: STR for damage, "
    "weapons and armour, more hits a turn; DEX to hit and not be hit; CON for energy, shorter "
    "stuns, more hits; INT with DEX for critical hits.")
BOXING_ABILITIES = "str, spd, agl, tgh or hgt"
# bot/cmd.c (cmd_dispatch): the notice of the inbound command limit, and
# anything else that would tell a player he is being ignored or limited.
LIMITED = re.compile(r"ignor|too many commands|commands in \d+ seconds|slow down|flood", re.I)


# ------------------------------------------------------------ helpers


def pieces_at(c, start, where):
    """(index, text) of every PRIVMSG from the bot to `where` ("private": to
    c; else a channel) that c received from line `start`."""
    target = c.nick.lower() if where == "private" else where.lower()
    with c.cond:
        lines = c.lines[start:]
    return [(start + i, m.text) for i, m in enumerate(lines)
            if m.cmd == "PRIVMSG" and m.nick.lower() == BOT and m.target.lower() == target]


def replies(c, start, where, want, timeout=TIMEOUT, skip_unasked=True):
    """Waits for the bot's messages to c at `where` ("private" or a channel),
    from line `start`, and checks that they are exactly `want` (a list of
    texts, or of compiled regexes, matched whole), in that order, with nothing
    else to c there in between. In a channel a reply is "nick: TEXT"; the
    channel's other lines (commentary, the tape, replies to others) are not
    c's. In private the prompts and reminders the bot sends by itself
    (UNASKED) are skipped unless wanted. A message cut into several IRC lines
    comes back whole. Returns (the texts, the line index after the last)."""
    lead = "" if where == "private" else c.nick + ": "
    deadline = time.monotonic() + timeout
    got, k, acc, pos = [], 0, None, start

    def whole(w, text):
        return w.fullmatch(text) if hasattr(w, "fullmatch") else text == w

    def may_grow(w, text):
        return not hasattr(w, "fullmatch") and w.startswith(text + " ") and len(text) < len(w)

    def detail():
        return "wanted:\n%s\ngot:\n%s\n%s" % ("\n".join(getattr(w, "pattern", w) for w in want),
                                             "\n".join(got), c.recent())
    while k < len(want):
        fresh = pieces_at(c, pos, where)
        if not fresh:
            if time.monotonic() > deadline or c.closed:
                if acc is not None:
                    got.append(acc)
                raise Failure("%s: %d of %d replies from the bot %s within %.0f s" %
                              (c.nick, len(got), len(want), "in private" if where == "private"
                               else "in " + where, timeout), detail())
            time.sleep(0.05)
            continue
        i, text = fresh[0]
        pos = i + 1
        if acc is not None:
            # The rest of a message cut at a space.
            acc += " " + text
        else:
            if lead and not text.startswith(lead):
                continue  # not a reply to c
            text = text[len(lead):]
            w = want[k]
            if where == "private" and skip_unasked and UNASKED.search(text) and \
                    not whole(w, text) and not (isinstance(w, str) and w.startswith(text[:40])):
                continue  # a prompt or a reminder, not a reply
            acc = text
        if may_grow(want[k], acc):
            continue
        got.append(acc)
        check(whole(want[k], acc), "%s: reply %d of %d from the bot %s is not what it should be" %
              (c.nick, k + 1, len(want), "in private" if where == "private" else "in " + where),
              detail())
        acc = None
        k += 1
    return got, pos


def say(c, text, want, chan=None, timeout=TIMEOUT, pace=True):
    """c sends `text` (privately, or in `chan` with the prefix); the bot's
    replies must be exactly `want` (a text, a compiled regex, or a list of
    them), in the channel if he spoke there. Returns the texts."""
    want = want if isinstance(want, list) else [want]
    start = len(c.lines)
    c.cmd(text, chan, pace)
    return replies(c, start, chan or "private", want, timeout)[0]


def mistake(env, c, text, want, chan=None):
    """A mistake: exactly its reply (or replies), and the database as it was."""
    before = env.snapshot()
    got = say(c, text, want, chan)
    after = env.snapshot()
    changed = sorted(t for t in set(before) | set(after) if before.get(t) != after.get(t))
    check(not changed, "%s %r%s changed the database (tables %s)" %
          (c.nick, text, " in " + chan if chan else "", ", ".join(changed)))
    return got


def long_answer(env, c, text, want):
    """A command said in the channel whose answer is more than three lines:
    one line there saying so, then exactly `want` in private."""
    start = len(c.lines)
    mistake(env, c, text, re.compile(r"the answer to !%s is \d+ lines; sent to you in private\."
                                     % text.split()[0]), CHANNEL)
    replies(c, start, "private", want)


def nothing_more(c, start, secs=1.5):
    """Waits `secs`; c got no reply from the bot from line `start` (in
    private, nothing but what the bot sends by itself)."""
    time.sleep(secs)
    extra = [m for m in c.bot_replies(start)
             if not (m.target.lower() == c.nick.lower() and UNASKED.search(m.text))]
    check(not extra, "%s got more replies than he asked for" % c.nick,
          "\n".join(repr(m) for m in extra))


def limited(c):
    """Private messages telling c he is limited or ignored."""
    return [t for t in private_texts(c) if LIMITED.search(t)]


def boxing_corner(me, opp, a, b):
    """A boxing prompt's corner (game/render.c render_corner_report and
    game/render_boxing.c score_add): his endurance and percent, injuries,
    knockdowns, warnings, how the opponent looks, the three cards with (a-b)
    the bout's two fighters."""
    return (r"Your corner: %s has \d+ endurance \(\d+%% of the start\)[^;]*; %s looks "
            r"(strong|tired|weak)[^.]*\. Score: \(%s-%s\) \d+-\d+, \d+-\d+, \d+-\d+ "
            r"\((all even|one card each|(%s|%s) ahead on (one card|two cards|all three cards))\)\."
            % (re.escape(me), re.escape(opp), re.escape(a), re.escape(b), re.escape(a),
               re.escape(b)))


def sugarray_corner(me, opp, a, b, end_me, start_me, end_a, end_b, tot_a, tot_b):
    """A SUGAR RAY prompt's corner (game/render_sugarray.c score_add): both
    endurances and the attack totals, exactly."""
    lead = "(%s ahead)" % (a if tot_a > tot_b else b) if tot_a != tot_b else "(level)"
    return (r"Your corner: %s has %d endurance \(%d%% of the start\); %s looks "
            r"(strong|tired|weak)\. Score: endurance %s %d, %s %d; attack totals %d-%d %s\." %
            (re.escape(me), end_me, end_me * 100 // start_me, re.escape(opp), re.escape(a), end_a,
             re.escape(b), end_b, tot_a, tot_b, re.escape(lead)))


def over_text(bout_id, ack, how, won, fighter, record, points=0, abilities=None, changes=()):
    """What say_over (game/bout.c) tells a player privately at the end,
    exactly; `changes`: (label, now, was) of his sheet."""
    text = "Bout #%d%s is over, and %s: %s %s is now %s" % (
        bout_id, ": %s. It" % ack if ack else "", won, how, fighter, record)
    text += "".join(", %s %d (was %d)" % c for c in changes)
    if points:
        text += " and earned %d training point%s: spend %s with train <ability> %s " \
                "(<ability>: %s)" % (points, "" if points == 1 else "s",
                                     "it" if points == 1 else "each", fighter, abilities)
    return text + "."


# game/render_boxing.c: what an announcer may say before a boxing result.
LEADS = ("The judges have spoken: ", "On the cards: ", "After the final bell: ",
         "It's all over! ", "That's the fight! ", "And that's it! ")


def plain_result(line):
    """A boxing result line without the announcer's lead: what a player is
    told privately (render_result_text)."""
    for lead in LEADS:
        if line.startswith(lead):
            return line[len(lead):]
    return line


def record_of(env, name):
    f = env.fighter(name)
    text = "%d-%d-%d" % (f["wins"], f["losses"], f["draws"])
    return text, f


def aftermath_text(env, names, winner, changes="", points=0):
    """The aftermath line (game/render.c render_aftermath): changes, then the
    records, the winner's first (and, checked, of e2e_bouts.AFTERMATH's form);
    then the `points` the winner earned, if any (game/bout.c points_words)."""
    first = 1 if winner == 1 else 0
    parts = []
    for n in (names[first], names[1 - first]):
        f = env.fighter(n)
        r = "%s %d-%d-%d" % (n, f["wins"], f["losses"], f["draws"])
        # How the wins ended (game/render.c render_wins).
        how = ["%d %s%s" % (f[k], what, "" if f[k] == 1 else "s")
               for k, what in (("kos", "KO"), ("tkos", "TKO"),
                               ("towels", "yield" if f["rules"] == "duel" else "towel"),
                               ("dqs", "DQ"), ("forfeits", "forfeit")) if f[k]]
        if how:
            r += " (%s)" % ", ".join(how)
        parts.append(r)
    text = "%sRecords now: %s." % (changes, ", ".join(parts))
    if points:
        f = env.fighter(names[winner])
        text += " %s earned %d training point%s%s (!train <ability> %s)." % (
            names[winner], points, "" if points == 1 else "s",
            ", %d in all" % f["training_points"] if f["training_points"] > points else "",
            names[winner])
    check(AFTERMATH.match(text), "test error: %r is no aftermath for e2e_bouts" % text)
    return text


def check_aftermath(w, wpos, want):
    """The last thing the watcher's channel got before its line `wpos` (where
    await_round left it after a bout's last round) is the aftermath `want`:
    its own line, or (bouts sharing the channel: packed) the end of the
    result's tagged message, cut or not."""
    said = [t for i, t in pieces_at(w, 0, CHANNEL) if i < wpos]
    ok = said and (said[-1] == want or
                   e2e_bouts.norm(" ".join(said[-6:])).endswith(" " + e2e_bouts.norm(want)))
    check(ok, "after the result the channel got %r, not %r" % (said[-1:], want))


def said_after(c, start, rx, timeout=TIMEOUT):
    """(index, text) of the first line the bot says in the channel from c's
    line `start` matching rx."""
    m = wait_chan(c, rx, start, timeout)
    return index_of(c, m, start), m.text


# ------------------------------------------------------------ scenarios


def s_newcomer(env):
    """A new player on a real client does what newcomers do."""
    w = Client(env, "ringwatch_n", [CHANNEL])
    # Someone to fight: an account and a (new) fighter.
    dave = player(env, "dave_n", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10")
    new = Client(env, "rookie", [CHANNEL])
    pw = secret(env, "rookie-first-pw-31")
    pw2 = secret(env, "rookie-second-pw-32")

    # He asks for help in the channel: a short answer there, addressed to
    # him; a longer one in private, and one line there saying so.
    mistake(env, new, "help", "commands: %s. Say !help <command> for one." % COMMANDS, CHANNEL)
    long_answer(env, new, "help order", [
        "!order [#bout] <orders>: your orders for the next round, sent to me in private (/msg), "
        "e.g. 5H/8!/7 (inside) or 3/2 (just the orders work too) (identify first) (also: "
        "orders)",
        ORDER_HELP_BOXING, ORDER_HELP_SUGARRAY, ORDER_HELP_DUEL])
    long_answer(env, new, "help create", [
        "!create <name> [rules=boxing] str=N spd=N agl=N tgh=N hgt=N: creates a fighter: boxing "
        "spreads 60 points over the five abilities, each 5 to 20; rules=sugarray needs no "
        "numbers; rules=duel spreads 56 over str, dex, con and int, each 1 to 23 (identify "
        "first)", SHEET_HELP_BOXING, SHEET_HELP_SUGARRAY, SHEET_HELP_DUEL])
    # A fighter before an account.
    mistake(env, new, "create Rocky str=12 spd=12 agl=12 tgh=12 hgt=12",
            "create needs an account: identify first (/msg %s identify <password>), or register "
            "one" % BOT, CHANNEL)
    say(new, "register " + pw, "account rookie registered, and you are identified. Create a "
        "fighter: create <name> str=12 spd=12 agl=12 tgh=12 hgt=12")
    # A fighter with no abilities: the channel's example has the prefix.
    mistake(env, new, "create Rocky", "give the five abilities, 60 points in all, each 5 to 20: "
            "e.g. !create Rocky str=12 spd=12 agl=12 tgh=12 hgt=12", CHANNEL)
    # His password said in the channel: burnt, and he is told to set a new
    # one (he is identified: he knew it) ...
    say(new, "identify " + pw, "never say a password in a channel: everyone in %s saw it, so "
        "that password of rookie no longer works. You are identified as rookie: set a new one "
        "now with /msg %s passwd <new password>" % (CHANNEL, BOT), CHANNEL)
    # ... which he does, in private; the burnt one no longer works.
    say(new, "passwd %s" % pw2, "password changed")
    say(new, "create Rocky str=12 spd=12 agl=12 tgh=12 hgt=12",
        "Rocky (boxing) is ready: STR 12 SPD 12 AGL 12 TGH 12 HGT 12", CHANNEL)
    # A friend who has not registered.
    mistake(env, new, "challenge carol", "no one called carol is here, and no account has that "
            "name; check the nick (/names %s lists who is here)" % CHANNEL, CHANNEL)
    # Orders in the channel: secret, so refused, and told where they go.
    mistake(env, new, "5/5/10 (ring)", "send your orders to me in private, not here: /msg %s "
            "5/5/10 (ring)" % BOT, CHANNEL)
    # With the command word: the form to use, his bout's number, not his orders.
    mistake(env, new, "order #3 5/5/10", "orders are secret: send them to me in private, not in "
            "the channel: /msg %s order #3 <orders>" % BOT, CHANNEL)
    # Orders in private with no bout.
    mistake(env, new, "5/5/10", "you have no live bout; say !challenge <nick> in %s first"
            % CHANNEL)
    # A plan with a line kept for when its condition holds.
    say(new, "plan set 5/5/10; if endurance_percent < 50 then 3/3/14 (clinch)",
        "Rocky's plan stored: rounds 1-12: line 1 (5/5/10); line 2 when its condition holds: "
        "if endurance_percent < 50 then 3/3/14 (clinch)")

    # He challenges dave_n, and sends orders before the bout has begun.
    nstart = len(new.lines)
    new.cmd("challenge dave_n rounds=3", CHANNEL)
    _, ann = said_after(new, nstart, r"^rookie challenges dave_n ")
    # The tale of the tape goes with the challenge.
    m = re.fullmatch(r"rookie challenges dave_n to bout #(\d+), boxing, 3 rounds: Rocky \(rookie\) "
                     r"STR 12 SPD 12 AGL 12 TGH 12 HGT 12, 0-0-0 vs Apollo \(dave_n\) STR 13 SPD 14 "
                     r"AGL 12 TGH 11 HGT 10, 0-0-0\. dave_n: say !accept or !decline within 5 "
                     r"minutes\.", ann)
    check(m, "the challenge as the channel heard it: %r" % ann)
    bout_id = int(m.group(1))
    mistake(env, new, "5/5/10", "your bout #%d has not started: dave_n has not accepted your "
            "challenge yet" % bout_id)
    mistake(env, dave, "5/5/10", "your bout #%d has not started: rookie challenged you; say "
            "!accept in %s first" % (bout_id, CHANNEL))
    check(env.bout(bout_id)["state"] == "challenge", "bout %d is not a challenge" % bout_id)

    # dave_n accepts: the start, in the channel where both are, asks them
    # for their round 1 orders, with the order line explained (their
    # first bout); nothing private.
    nstart, dstart = len(new.lines), len(dave.lines)
    dave.cmd("accept", CHANNEL)
    _, call = said_after(new, nstart, r"^Bout #%d is on\. " % bout_id)
    check(e2e_bouts.unpredicted(call) == "Bout #%d is on. Round 1 of 3: rookie (Rocky) and dave_n (Apollo), your orders "
          "(e.g. 5H/8!/7 (inside)) within 2 minutes; send them to me in private. " % bout_id +
          PROMPT_HELP_BOXING, "the start: %r" % call)
    said_after(dave, dstart, r"^Bout #%d is on\. " % bout_id)
    for c, s in ((new, nstart), (dave, dstart)):
        check(not pieces_at(c, s, "private"), "%s was asked privately too: %r" %
              (c.nick, pieces_at(c, s, "private")))

    # Bad orders in his live bout: the parser's exact words, nothing stored.
    mistake(env, new, "8/8/8", "not stored: column 1: AGG+POW+DEF = 24, the most is 20")
    mistake(env, new, "5/5/10 ring", 'not stored: column 8: unexpected "ring" after DEF; a style '
            'goes in parentheses, e.g. (inside)')
    mistake(env, new, "5/5", "not stored: column 4: expected AGG[H|B]/POW[!]/DEF [(style)], e.g. "
            "4H/8!/8 (inside)")
    check(env.orders(bout_id) == {}, "orders stored after the bad ones: %r" % env.orders(bout_id))
    # Then right.
    acks = []
    wpos = len(w.lines)
    nstart = len(new.lines)
    order(new, "5/5/10 (ring)", 1, "Rocky", acks, 0)
    told = order_last(env, dave, "4/6/10", 1, "Apollo", bout_id, acks, 1)
    check(not told.over, "the bout ended in round 1", told.text)
    heard = [told, prompt(env, new, bout_id, 2, "Rocky", nstart)]
    _, wpos, row = await_round(env, bout_id, 1, w, wpos, heard=heard)
    check(row["state"] == "live", "the bout is %s after round 1" % row["state"])
    check(re.search(r"\. " + boxing_corner("Rocky", "Apollo", "Rocky", "Apollo") + "$",
                    heard[1].text), "rookie's round 2 prompt has no corner: %r" % heard[1].text)

    # He has had enough: he concedes in the channel; told in private.
    nstart, dstart = len(new.lines), len(dave.lines)
    new.cmd("forfeit yes", CHANNEL)
    said, wpos, row = await_round(env, bout_id, 2, w, wpos)
    check(row["state"] == "over" and row["winner"] == 1 and row["method"] == "tko" and
          row["reason"] == "towel", "after the forfeit: %r" % row)
    how = plain_result(said[-1])
    check(how == "Apollo wins by forfeit in round 2 (Rocky conceded)!",
          "the result: %r" % said[-1])
    rec_n, _ = record_of(env, "Rocky")
    rec_d, fd = record_of(env, "Apollo")
    # A forfeit: counted apart, and a win's training point, no stoppage's two.
    check((rec_n, rec_d) == ("0-1-0", "1-0-0") and fd["forfeits"] == 1 and fd["kos"] == 0 and
          fd["training_points"] == 1, "records after the forfeit: %s, %s (%r)" % (rec_n, rec_d, fd))
    # One message: the reply to forfeit. The end of the bout is said in the
    # channel, where he is, and he has no training points to spend: nothing
    # private repeats it (rec_n: his record, as the channel said it).
    want = ["you conceded bout #%d" % bout_id]
    limit = time.monotonic() + TIMEOUT
    while len(pieces_at(new, nstart, "private")) < len(want) and time.monotonic() < limit:
        time.sleep(0.05)
    got = pieces_at(new, nstart, "private")
    check(sorted(t for _, t in got) == sorted(want), "rookie's private messages after forfeit",
          "wanted (in any order):\n%s\ngot:\n%s" % ("\n".join(want),
                                                     "\n".join(t for _, t in got)))
    npos = got[-1][0] + 1
    # Dave, the winner, is in the channel too: his training point is on its
    # records line, and nothing comes privately.
    check_aftermath(w, wpos, aftermath_text(env, ("Rocky", "Apollo"), 1, points=1))
    dpos = dstart
    check(not pieces_at(dave, dstart, "private"), "dave was told something privately",
          "\n".join(t for _, t in pieces_at(dave, dstart, "private")))
    # Nothing more for either: every mistake had its one answer.
    nothing_more(new, npos, 1.0)
    nothing_more(dave, dpos, 0.1)
    check(not limited(new) and not limited(dave), "someone was told he is limited",
          "\n".join(limited(new) + limited(dave)))
    env.replay(bout_id)
    for c in (new, dave, w):
        c.quit()
    return ["bout #%d: %s" % (bout_id, said[-1])]


def play_fast(env, players, bout_id, rounds, orders, starts, fighters):
    """Each player (a thread each) answers every prompt of the bout the
    moment it arrives, in private, unpaced, until he is told the bout is
    over (privately, or by the channel: wait_turn_at). Returns, per player,
    {"prompts": {round: (index, text)}, "over": (index, text)}."""
    results = [{"prompts": {}, "over": None, "error": None} for _ in players]

    def run(k):
        c, out, pos = players[k], results[k], starts[k]
        try:
            for r in range(1, rounds + 1):
                i, m = wait_turn_at(env, c, r"^Bout #%d(, round %d of |: .*\. It is over|"
                                    r" is over)" % (bout_id, r), fighters[k], pos,
                                    timeout=TIMEOUT * 3, call=bout_id if r == 1 else None)
                if " is over, and " in m.text or in_channel_end(m.text):
                    out["over"] = (i, m.text)
                    return
                c.cmd(orders[k][r - 1], pace=False)
                out["prompts"][r] = (i, m.text)
                pos = i + 1
            i, m = wait_turn_at(env, c, r"^Bout #%d(: .*\. It)? is over, and " % bout_id,
                                fighters[k], pos, timeout=TIMEOUT * 3)
            out["over"] = (i, m.text)
        except BaseException as e:  # reported by the main thread
            out["error"] = e
    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(len(players))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 3 * (rounds + 2))
    # Told he is limited or ignored: that first, it says why a player waited
    # in vain.
    for c in players:
        check(not limited(c), "%s was told he is limited" % c.nick, "\n".join(limited(c)))
    for c, out, t in zip(players, results, threads):
        check(not t.is_alive(), "%s is still playing" % c.nick, c.recent())
        if out["error"]:
            raise out["error"]
    return results


def acks_from(players, bout_id, rounds, fighters):
    """The acknowledgements each player got in private, as check_acks and
    check_secrecy take them; and, per round, who had which."""
    acks, per_round = [], {r: [] for r in range(1, rounds + 1)}
    for side, c in enumerate(players):
        for text in private_texts(c):
            m = re.match(STORED % (r"(\d+)", re.escape(fighters[side])), text)
            if m:
                acks.append((int(m.group(1)), side, m.group(2), c.nick, "stored"))
                per_round[int(m.group(1))].append((side, "stored"))
                continue
            m = re.search(FOUGHT % (r"(\d+)", re.escape(fighters[side])), text)
            if m and text.startswith("Bout #%d" % bout_id):
                acks.append((int(m.group(1)), side, m.group(2), c.nick, "fought"))
                per_round[int(m.group(1))].append((side, "fought"))
    return acks, per_round


def fast_bout(env, rules, nicks, creates, fighters, orders, rounds, args):
    """Scenarios 2 and 3: a bout between two players who answer at once."""
    w = Client(env, "ringwatch_" + rules[:3], [CHANNEL])
    a = player(env, nicks[0], creates[0])
    b = player(env, nicks[1], creates[1])
    players = (a, b)
    starts = [len(a.lines), len(b.lines)]
    wstart = len(w.lines)
    t0 = time.monotonic()
    bout_id = challenge(env, a, b, args, fighters[0], fighters[1])
    check(env.bout(bout_id)["rounds"] == rounds, "bout %d has %d rounds, not %d" %
          (bout_id, env.bout(bout_id)["rounds"], rounds))
    results = play_fast(env, players, bout_id, rounds, orders, starts, fighters)
    took = time.monotonic() - t0
    # Where the watcher's channel has the start (one message): rounds from there.
    wpos = index_of(w, wait_chan(w, r"^Bout #%d is on\. " % bout_id, wstart), wstart) + 1

    # Nobody was ever told he is limited or ignored (play_fast); every order
    # was taken, each acknowledged once: each round, the first player's
    # orders stored and the other's in and fought, or (the first one's reply
    # still waiting to go out when the round was fought: dropped) both in
    # and fought on the next prompts.
    acks, per_round = acks_from(players, bout_id, rounds, fighters)
    # A player who learnt the end in the channel had no private
    # acknowledgement of the last round's orders if they were fought at
    # once: the round said there is his.
    by_channel = [k for k in range(len(players)) if in_channel_end(results[k]["over"][1])]
    for s_ in by_channel:
        if s_ not in [s for s, _ in per_round[rounds]]:
            per_round[rounds].append((s_, "fought"))
    for r in range(1, rounds + 1):
        check(sorted(s for s, _ in per_round[r]) == [0, 1] and
              sorted(h for _, h in per_round[r]) in (["fought", "stored"], ["fought", "fought"]),
              "round %d: the acknowledgements were %r (one stored and one in and fought, or both "
              "in and fought, wanted)" %
              (r, per_round[r]), "\n".join(private_texts(a) + private_texts(b)))
    for k, c in enumerate(players):
        for r in range(1, rounds + 1):
            check(r in results[k]["prompts"], "%s was not asked for round %d" % (c.nick, r))
        check(results[k]["over"], "%s was not told the bout is over" % c.nick)

    # Every round fought and said, each before the prompts it led to.
    said = []
    for r in range(1, rounds + 1):
        heard = []
        for k, c in enumerate(players):
            i0 = results[k]["prompts"][r][0]
            nxt = results[k]["prompts"].get(r + 1) or results[k]["over"]
            heard.append(Told(c, i0, nxt[0], nxt[1]))
        # (The bout is over by now: await_round knows the last round.)
        said, wpos, row = await_round(env, bout_id, r, w, wpos, heard=heard)
    row = check_records(env, bout_id, fighters)
    check(row["round"] == rounds, "the bout ended after round %d" % row["round"])
    check_acks(env, bout_id, acks)
    check_secrecy(a, b, acks)
    rows = env.orders(bout_id)
    check(len(rows) == 2 * rounds and all(v[1] == "player" for v in rows.values()),
          "order rows: %r" % rows)
    for (r, s), v in rows.items():
        check(v[0] == orders[s][r - 1],
              "round %d: %s's order stored as %r, sent %r" % (r, fighters[s], v[0],
                                                               orders[s][r - 1]))
    env.replay(bout_id)
    return w, players, bout_id, results, said, wpos, row, acks, took


def check_prompts(env, players, bout_id, rounds, fighters, results, corner):
    """Every prompt from round 2 on: PROMPT, the acknowledgement of the
    orders that completed the round before (or nothing), and the corner,
    `corner(side, round)` (a regex)."""
    for k, c in enumerate(players):
        for r in range(2, rounds + 1):
            text = results[k]["prompts"][r][1]
            rx = PROMPT % (bout_id, r, rounds, re.escape(fighters[k])) + \
                r"(\.|; " + FOUGHT % (r - 1, re.escape(fighters[k])) + r"\.) " + \
                corner(k, r - 1) + "$"
            check(re.fullmatch(rx, text), "%s's prompt for round %d: %r, not /%s/" %
                  (c.nick, r, text, rx))


def check_over(env, players, bout_id, fighters, results, acks, rounds, how, points, abilities,
               changes=((), ())):
    """Each player's private end: his acknowledgement if his orders ended
    it, the result, his record, his sheet's changes (changes[side]) and
    training points if any."""
    row = env.bout(bout_id)
    for k, c in enumerate(players):
        ack = [t for (r, s, t, _, h) in acks if r == rounds and s == k and h == "fought"]
        ack = "your round %d orders for %s (%s) are in and fought" % (rounds, fighters[k], ack[0]) \
            if ack else None
        won = "it is a draw" if row["winner"] < 0 else "you won" if row["winner"] == k \
            else "you lost"
        rec, f = record_of(env, fighters[k])
        want = over_text(bout_id, ack, how, won, fighters[k], rec, points[k], abilities,
                         changes[k])
        got = results[k]["over"][1]
        if in_channel_end(got):  # nothing private: in the channel, the points there
            pts = " %s earned %d training point%s (!train <ability> %s)." % (
                fighters[k], points[k], "" if points[k] == 1 else "s", fighters[k])
            check("Records now: " in got and (points[k] == 0 or got.endswith(pts)),
                  "%s's end of the bout came by the channel: %r (%d points)" %
                  (c.nick, got, points[k]))
        else:
            check(got == want, "%s's end of the bout: %r, not %r" % (c.nick, got, want))
        check(f["training_points"] == points[k], "%s has %d training points, not %d" %
              (fighters[k], f["training_points"], points[k]))


def s_fast_boxing(env):
    """Two players answer every prompt of a 4-round boxing bout at once."""
    fighters = ("Marciano", "Walcott")
    # Marciano outpoints the clinching Walcott: no stoppage, no draw in
    # 300000 simulated bouts.
    orders = (["5/7/8", "6/6/8", "5/6/9", "5/7/8"],
              ["2/3/15 (clinch)", "2/2/16 (clinch)", "2/3/15 (clinch)", "2/2/16 (clinch)"])
    w, players, bout_id, results, said, wpos, row, acks, took = fast_bout(
        env, "boxing", ("rocky_f", "jersey_f"),
        ("create Marciano str=15 spd=14 agl=11 tgh=12 hgt=8",
         "create Walcott str=11 spd=11 agl=13 tgh=13 hgt=12"), fighters, orders, 4, "rounds=4")
    check_prompts(env, players, bout_id, 4, fighters, results,
                  lambda k, r: boxing_corner(fighters[k], fighters[1 - k], *fighters))
    # The channel: the result (await_round, as derived), then the aftermath.
    result = said[-1]
    how = plain_result(result)
    check(re.fullmatch(r"(%s|%s) wins (a (unanimous|split|majority) decision|on the cards) "
                       r"\(\d+-\d+, \d+-\d+, \d+-\d+\)\.|A \w+ draw \(.*\)\." % fighters, how),
          "the result: %r" % result)
    w_side = row["winner"]
    points = [1 if s == w_side else 0 for s in (0, 1)]  # a decision: 1 point
    check_aftermath(w, wpos, aftermath_text(env, fighters, row["winner"],
                                            points=1 if w_side >= 0 else 0))
    check_over(env, players, bout_id, fighters, results, acks, 4, how, points, BOXING_ABILITIES)
    for c in (*players, w):
        c.quit()
    return ["bout #%d: 4 rounds in %.1f s from the challenge; %s" % (bout_id, took, result)]


def s_fast_sugarray(env):
    """Two players answer every prompt of a 5-round SUGAR RAY bout at once."""
    fighters = ("Ali", "Sonny")
    orders = (["3/1", "2/2", "3/1", "2/2", "3/1"], ["1/2", "0/3", "1/2", "0/3", "1/2"])
    # SUGAR RAY draws nothing at random here: the table is known (ringside-sim
    # --rules sugarray with these orders).
    end = ([19, 19, 18, 18, 17], [18, 18, 16, 16, 14])
    tot = ([3, 5, 8, 10, 13], [1, 1, 2, 2, 3])
    w, players, bout_id, results, said, wpos, row, acks, took = fast_bout(
        env, "sugarray", ("ali_f", "sonny_f"),
        ("create Ali rules=sugarray", "create Sonny rules=sugarray"), fighters, orders, 5,
        "rules=sugarray")
    check_prompts(env, players, bout_id, 5, fighters, results,
                  lambda k, r: sugarray_corner(fighters[k], fighters[1 - k], fighters[0],
                                               fighters[1], end[k][r - 1], 20, end[0][r - 1],
                                               end[1][r - 1], tot[0][r - 1], tot[1][r - 1]))
    check(row["winner"] == 0 and row["method"] == "points", "bout row: %r" % row)
    want = ["Ali (10,20) 3/1 (19) 2/2 (19) 3/1 (18) 2/2 (18) 3/1 (17) PW",
            "Sonny (10,20) 1/2 (18) 0/3 (18) 1/2 (16) 0/3 (16) 1/2 (14)"]
    check(said[-2:] == want, "the bout does not end with the two classic lines",
          "\n".join(said))
    # After them, the plain winner, the endurance changes and the records.
    want_aft = "Ali wins on points, 13-3. Ali's endurance goes up to 21; Sonny's endurance " \
        "goes down to 19. " + aftermath_text(env, fighters, 0)
    check_aftermath(w, wpos, want_aft)
    fa, fs = env.fighter("Ali"), env.fighter("Sonny")
    check((fa["skill"], fa["endurance"], fs["skill"], fs["endurance"]) == (10, 21, 10, 19),
          "sheets after the bout: Ali %d,%d Sonny %d,%d" % (fa["skill"], fa["endurance"],
                                                            fs["skill"], fs["endurance"]))
    check_over(env, players, bout_id, fighters, results, acks, 5, "Ali wins on points, 13-3.",
               [0, 0], None, ((("endurance", 21, 20),), (("endurance", 19, 20),)))
    for c in (*players, w):
        c.quit()
    return ["bout #%d: 5 rounds in %.1f s from the challenge; %s" % (bout_id, took, want_aft)]


def s_deadline(env):
    """order_timeout = 10: silent players are reminded; the default, a plan's
    line and the last orders fight for them, each named afterwards; no round
    before its deadline, counted from when its prompts reached the players."""
    T = SHORT_TIMEOUT
    env.reload(T)
    notes = []
    try:
        w = Client(env, "ringwatch_d", [CHANNEL])
        a = player(env, "slow_a", "create Hagler str=13 spd=12 agl=12 tgh=12 hgt=11")
        b = player(env, "slow_b", "create Hearns str=12 spd=12 agl=12 tgh=12 hgt=12")
        say(b, "plan set 1) 3/3/14 (clinch)",
            "Hearns's plan stored: rounds 1-12: line 1 (3/3/14 (clinch))")
        players, fighters = (a, b), ("Hagler", "Hearns")
        starts = [len(a.lines), len(b.lines)]
        bout_id = challenge(env, a, b, "rounds=3", "Hagler", "Hearns")
        wpos = index_of(w, wait_chan(w, r"^Bout #%d is on\. " % bout_id, 0), 0) + 1
        # Round 1: the start asks both in the channel, "10 seconds"; both
        # new: the order line explained. Its arrival starts the clock (the
        # bot counts from its delivery).
        asked = []
        for c, s in zip(players, starts):
            m = wait_chan(c, r"^Bout #%d is on\. " % bout_id, s)
            check(e2e_bouts.unpredicted(m.text) ==
                  "Bout #%d is on. Round 1 of 3: %s (Hagler) and %s (Hearns), your "
                  "orders (e.g. 5H/8!/7 (inside)) within %d seconds; send them to me in private. "
                  % (bout_id, a.nick, b.nick, T) + PROMPT_HELP_BOXING, "the start: %r" % m.text)
            asked.append(m.t)
        # Each round: who sends what (None: nothing), and what his next
        # prompt (or the end) must say fought for each one who sent nothing.
        rounds = [
            (1, (None, None), ("the default orders (5/5/10) fought round 1 for you",
                               "your plan's line 1 (3/3/14 (clinch)) fought round 1 for you")),
            (2, ("6/6/8", None), (None,
                                  "your plan's line 1 (3/3/14 (clinch)) fought round 2 for you")),
            (3, (None, "4/4/12"), ("your last orders (6/6/8) fought round 3 for you", None)),
        ]
        want_rows = {(1, 0): ("5/5/10", "default", 0), (1, 1): ("3/3/14 (clinch)", "plan", 1),
                     (2, 0): ("6/6/8", "player", 0), (2, 1): ("3/3/14 (clinch)", "plan", 1),
                     (3, 0): ("6/6/8", "last", 0), (3, 1): ("4/4/12", "player", 0)}
        pos = [len(a.lines), len(b.lines)]
        for r, sends, fell in rounds:
            # The clock starts when the last of the round's prompts reached
            # its player (the bot counts from their delivery to the server).
            t_asked = max(asked)
            for k, c in enumerate(players):
                if sends[k]:
                    order(c, sends[k], r, fighters[k])
            # Round 1: the server is stopped (SIGSTOP) around its deadline, so
            # the prompts for round 2 reach the players HOLD seconds after the
            # round is fought: round 2's clock must start from then.
            held = False
            if r == 1:
                time.sleep(max(0.0, t_asked + T - 1.5 - time.monotonic()))
                env.ircd.send_signal(signal.SIGSTOP)
                held = True
            try:
                # When the round is fought: the database polled (so seen at
                # most a moment after the bot's commit).
                limit = time.monotonic() + T + 30
                while env.bout(bout_id)["round"] < r:
                    check(time.monotonic() < limit, "round %d not fought %d s after its prompts"
                          % (r, T + 30), e2e.tail(env.bot_log, 15))
                    time.sleep(0.05)
                t_fought = time.monotonic()
                waited = t_fought - t_asked
                if held:
                    time.sleep(HOLD)
            finally:
                if held:
                    env.ircd.send_signal(signal.SIGCONT)
            check(waited >= T - TICK_SLACK, "round %d was fought %.2f s after its prompts reached "
                  "the players, before the %d s deadline" % (r, waited, T))
            check(waited <= T + 20, "round %d was fought %.1f s after its prompts (deadline %d s)"
                  % (r, waited, T))
            notes.append("round %d fought %.2f s after its prompts reached the players "
                         "(order_timeout %d s)" % (r, waited, T))
            said, wpos, row = await_round(env, bout_id, r, w, wpos)
            # The next prompt (or the end) names what fought for the silent.
            asked = []
            for k, c in enumerate(players):
                if r < 3:
                    # prompt(): PROMPT, then FELL, then CORNER; and exactly:
                    told = prompt(env, c, bout_id, r + 1, fighters[k], pos[k])
                    i, m = told.index, c.lines[told.index]
                    rx = PROMPT % (bout_id, r + 1, 3, fighters[k]) + \
                        (r"; " + re.escape(fell[k]) + r"\." if fell[k] else r"\.") + " " + \
                        boxing_corner(fighters[k], fighters[1 - k], *fighters) + "$"
                    check(re.fullmatch(rx, m.text), "%s's prompt for round %d: %r, not /%s/" %
                          (c.nick, r + 1, m.text, rx))
                    check(" within %d seconds" % T in m.text, "not %d s: %r" % (T, m.text))
                    asked.append(m.t)
                else:
                    i, m = wait_turn_at(env, c, r"^Bout #%d(: .*\. It)? is over, and " % bout_id,
                                        fighters[k], pos[k])
                    rec, _ = record_of(env, fighters[k])
                    won = "it is a draw" if row["winner"] < 0 else "you won" \
                        if row["winner"] == k else "you lost"
                    want = over_text(bout_id, fell[k], plain_result(said[-1]), won, fighters[k],
                                     rec, 1 if won == "you won" else 0, BOXING_ABILITIES)
                    # In the channel: its end is his (the winner's training
                    # point on its records line).
                    check(m.text == want or (in_channel_end(m.text) and (
                        won != "you won" or m.text.endswith(
                            " %s earned 1 training point (!train <ability> %s)." %
                            (fighters[k], fighters[k])))),
                          "%s's end: %r, not %r" % (c.nick, m.text, want))
                # The reminder, before: to exactly those who sent nothing.
                rem = [t for j, t in pieces_at(c, pos[k], "private")
                       if j < i and "left for your round" in t]
                if sends[k]:
                    check(not rem, "%s sent his orders and was reminded: %r" % (c.nick, rem))
                else:
                    check(len(rem) == 1 and re.fullmatch(
                        r"Bout #%d: \d seconds? left for your round %d orders; without them "
                        r"(your plan|your last orders|the default orders) will fight" %
                        (bout_id, r), rem[0]),
                        "%s's reminders for round %d: %r" % (c.nick, r, rem))
                pos[k] = i + 1
            if asked and r == 1:
                # (On a very loaded machine the bot may have fought the round
                # before the server stopped: then nothing was held.)
                late = min(asked) - t_fought
                notes.append("round 2's prompts reached the players %.1f s after round 1 was "
                             "fought (the server stopped %.0f s%s)" %
                             (late, HOLD, "" if late >= HOLD - TICK_SLACK else
                              ": NOT held this time, round 2's clock untested"))
        check(env.orders(bout_id) == want_rows, "order rows: %r" % env.orders(bout_id),
              "want %r" % want_rows)
        check_records(env, bout_id, fighters)
        env.replay(bout_id)
        for c in (a, b, w):
            c.quit()
    finally:
        if env.bot_alive():
            env.reload(e2e_bouts.ORDER_TIMEOUT)
    return notes


SCENARIOS = [
    ("a newcomer's mistakes", s_newcomer),
    ("two fast players, boxing", s_fast_boxing),
    ("two fast players, SUGAR RAY", s_fast_sugarray),
    ("the deadline counts from the prompt", s_deadline),
]
STOP = e2e_bouts.STOP


def main(argv):
    if len(argv) != 3:
        print("usage: python3 tests/e2e/e2e_newcomer.py BOT SIM   (e.g. build/asan/ringside "
              "build/ringside-sim)", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.access(path, os.X_OK):
            print("e2e_newcomer: %s is not an executable; run make first" % path, file=sys.stderr)
            return 2
    server = os.environ.get("E2E_SERVER", "ngircd")
    if server not in ("ngircd", "inspircd"):
        print("e2e_newcomer: E2E_SERVER must be ngircd or inspircd", file=sys.stderr)
        return 2
    if not shutil.which(server) and not os.path.exists("/usr/sbin/" + server):
        print("e2e_newcomer: %s is missing; apt-get install -y %s" % (server, server),
              file=sys.stderr)
        return 2
    env = BoutEnv(argv[1], argv[2], server)

    def before_restart(e):
        e.order_timeout = e2e_bouts.ORDER_TIMEOUT

    # The clean stop always comes last, whatever E2E_ONLY picks.
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_newcomer: %s and %s against %s" % (argv[1], argv[2], server),
                         stopping=STOP[1], before_restart=before_restart)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
