#!/usr/bin/env python3
"""e2e_policy.py - a large network's policies (issue 27), end to end: the real
bot on a real InspIRCd 3 with its botmode module, real client connections.

    python3 tests/e2e/e2e_policy.py BOT [SIM]   (from the repository root;
                                                 BOT e.g. build/asan/ringside)

Reuses tests/e2e/e2e.py (the IRC client, the Env that runs the server and the
bot in a temporary directory), with [irc] join_on_invite = yes and [bridge]
relay_nicks = relay.

Scenarios:
  1. bot mode: the server advertises BOT=B; the bot sets +B on itself at
     registration (WHOIS shows 335); a client marked +B is never answered,
     while another's same command is;
  2. invites: a channel operator who is not the bot's admin invites it: told
     in one NOTICE, the bot stays out; an identified admin invites it to the
     channel he operates: it joins, and the channel is in the database; after
     a restart the bot joins it again by itself; a member who is no operator
     is refused !part; the operator's !part makes the bot leave (its PART
     says who asked) and forget the channel: after a restart it stays out;
  3. a bridged user: the relay's "<alice> !version" is answered "alice: ...",
     "<alice> !create ..." says how to play from IRC, the relay's own words
     get nothing;
  and always last: SIGTERM, exit status 0 and no sanitizer report at exit.

Output as e2e.py: `ok - NAME` or `FAIL - NAME: why`, then `N passed, N
failed`; exit status 1 if anything failed. Processes are always stopped.
Environment: E2E_ONLY=name,number (as e2e.py), E2E_KEEP=1, E2E_VERBOSE=1.
Python 3 standard library only.
"""

import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import BOT_NICK, CHANNEL, Client, Env, check  # noqa: E402

ADMIN_PW = "boss-e2e-pw"
INVITED = "#invited"
VERSION = re.escape("Ringside ") + r"\S+, an IRC boxing bot"
_inspircd_config = e2e.inspircd_config


def inspircd_config(env):
    """e2e.py's InspIRCd, with bot mode, and the creator of a channel its
    operator (defaultmodes "o", as InspIRCd's own example has it): only a
    channel operator may INVITE there."""
    conf = _inspircd_config(env).replace('defaultmodes="nt"', 'defaultmodes="not"')
    return conf + '<module name="botmode">\n'


e2e.inspircd_config = inspircd_config


class PolicyEnv(Env):
    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        extra += "\n[irc]\njoin_on_invite = yes\n[bridge]\nrelay_nicks = relay\n"
        Env.write_bot_config(self, channels, extra)


def bot_in(c, chan):
    """1 if NAMES of `chan`, asked by c, lists the bot."""
    start = len(c.lines)
    c.raw("NAMES " + chan)
    end = c.wait(lambda m: m.cmd == "366", "NAMES of " + chan, start=start)
    with c.cond:
        names = [w.lstrip("~&@%+!").lower() for m in c.lines[start:c.lines.index(end)]
                 if m.cmd == "353" for w in m.text.split()]
    return BOT_NICK in names


def s_bot_mode(env):
    c = Client(env, "watcher", [CHANNEL])
    start = len(c.lines)
    c.raw("WHOIS " + BOT_NICK)
    c.wait(lambda m: m.cmd == "335", "WHOIS 335 (a bot) of the bot", start=start)
    robot = Client(env, "robot")
    robot.raw("MODE robot +B")
    since = env.log_size()
    robot.join(CHANNEL)
    env.wait_log(r"robot is marked as a bot: its commands are ignored", since)
    robot.cmd("version", CHANNEL)
    c.ask("version", "^" + VERSION, chan=CHANNEL)
    check(not robot.bot_replies(), "the bot answered a bot: %r" % robot.bot_replies())


def s_invite(env):
    env.add_admin("boss", ADMIN_PW)
    eve = Client(env, "eve", ["#evechan"])
    eve.raw("INVITE %s #evechan" % BOT_NICK)
    eve.expect("^I join a channel only when one of my admins invites me; I stay out of "
               "#evechan$", where="private")
    check(not bot_in(eve, "#evechan"), "the bot joined on a non-admin's invite")
    boss = Client(env, "boss", [CHANNEL, INVITED])
    boss.ask("identify " + ADMIN_PW, "you are identified as boss")
    boss.raw("INVITE %s %s" % (BOT_NICK, INVITED))
    env.wait_bot_in(INVITED)
    rows = env.query("SELECT name, invited_by FROM channels")
    check(rows == [(INVITED, "boss")], "channels in the database: %r" % rows)
    return boss


def s_restart_part(env):
    """After s_invite's steps (in one scenario: the clients close between
    scenarios, and boss must stay the invited channel's operator)."""
    boss = s_invite(env)
    env.stop_bot()
    env.start_bot()
    env.wait_bot_in(INVITED)
    ann = Client(env, "ann", [INVITED])
    ann.ask("part", "^part is for this channel's operators \\(and my admins\\) only$",
            chan=INVITED)
    start = len(ann.lines)
    boss.cmd("part", INVITED)
    m = ann.wait(lambda m: m.cmd == "PART" and m.nick.lower() == BOT_NICK, "the bot's PART",
                 start=start)
    check(m.text == "boss asked me to leave", "the PART said %r" % m.text)
    check(env.query("SELECT name FROM channels") == [], "the channel is still kept")
    env.stop_bot()
    env.start_bot()
    check(not bot_in(boss, INVITED), "the bot joined %s again after part" % INVITED)


def s_bridge(env):
    relay = Client(env, "relay", [CHANNEL])
    c = Client(env, "alice", [CHANNEL])
    start = len(c.lines)
    relay.raw("PRIVMSG %s :<alice> !version" % CHANNEL)
    c.saw("^" + VERSION, where=CHANNEL, start=start)
    relay.raw("PRIVMSG %s :alice joined the Matrix room" % CHANNEL)
    relay.raw("PRIVMSG %s :<\x02alice\x02> !create Rocky str=14 spd=12 agl=12 tgh=12 hgt=10"
              % CHANNEL)
    text = c.to_me(c.saw("^create works only from IRC", where=CHANNEL, start=start))
    check(text == "create works only from IRC, where I can tell who you are: join #ringside "
          "with an IRC client (through a bridge you can use !standings, fighter, score, "
          "bouts, report and help)", "the answer was %r" % text)
    replies = [m.text for m in c.bot_replies(start)]
    check(len(replies) == 2, "the bot said more than two things: %r" % replies)


SCENARIOS = [
    ("bot mode: set at registration, bots ignored", s_bot_mode),
    ("an admin's invite only, kept across a restart; part by the operator forgets it",
     s_restart_part),
    ("a bridged user is served", s_bridge),
]


def s_stop(env):
    env.stop_bot()
    check(env.bot.returncode == 0, "the bot exited with %s" % env.bot.returncode)


STOP = ("SIGTERM: clean exit", s_stop)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: python3 tests/e2e/e2e_policy.py BOT [SIM]", file=sys.stderr)
        return 2
    if not os.access(argv[1], os.X_OK):
        print("e2e_policy: %s is not an executable; run make first" % argv[1], file=sys.stderr)
        return 2
    if not shutil.which("inspircd") and not os.path.exists("/usr/sbin/inspircd"):
        print("e2e_policy: inspircd is missing; apt-get install -y inspircd", file=sys.stderr)
        return 2
    env = PolicyEnv(argv[1], "inspircd")
    return e2e.run_suite(env, e2e.selected(SCENARIOS) + [STOP],
                         "e2e_policy: %s against InspIRCd 3 (botmode)" % argv[1],
                         stopping=s_stop)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
