#!/usr/bin/env python3
"""e2e_net.py - Ringside on a real network: TLS, SASL and services accounts.

    python3 tests/e2e/e2e_net.py BOT  (from the repository root; BOT e.g. build/asan/ringside)

Everything on loopback, from Debian packages, with certificates made here by
openssl (a CA, the server's certificate for 127.0.0.1, one from another CA, one
for another host name, and the bot's client certificate):

  InspIRCd 3 with TLS (ssl_gnutls) linked to Atheme services (NickServ, SASL):
  1. the bot connects over TLS (the certificate verified against tls_ca_file)
     and logs in with SASL PLAIN; WHOIS shows it logged in and secure;
  2. two players logged in to NickServ (and never registered with the bot)
     create fighters and fight a bout without a bot password;
  3. one changes nick mid-bout: his orders are still his;
  4. the bot is killed (kill -9) mid-bout and started again: without anyone
     typing identify, both players' next orders are taken;
  5. one logs out of services: his orders are refused;
  6. SASL EXTERNAL with the bot's client certificate (CertFP), in another run;
  7. a server certificate from another CA, and one for another host name:
     refused with a clear log line, retried with backoff, never plaintext;
  8. SASL with a wrong password and sasl_required = yes: no registration.
  ngircd over TLS:
  9. the bot connects with TLS, joins, and a player with a bot password
     (no services there) plays as before.

Players connect in plaintext on another port of the same server: only the
bot's link is under test. Prints `ok - NAME` or `FAIL - NAME: why` per
scenario, then `N passed, N failed`; exit status 1 on any failure.
E2E_KEEP=1 keeps the temporary directory; E2E_ONLY=name,... runs some.
"""

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import BOT_NICK, CHANNEL, TIMEOUT, Client, Failure, check, port_open, tail  # noqa: E402

RECONNECT = 45.0
LINK_PW = "e2e-link-pw"


def no_core():
    """For the servers we start: no core file (InspIRCd 3.15 may dump one when
    stopped while linked to Atheme, in its working folder)."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    if p.returncode != 0:
        raise Failure("%s failed" % " ".join(argv[:3]), p.stdout.decode("utf-8", "replace"))
    return p.stdout.decode("utf-8", "replace")


def make_certs(d):
    """The test's certificates, in d: ca.crt (the CA the bot trusts),
    server.crt/key (127.0.0.1, from ca), other-ca.crt and rogue.crt/key (127.0.0.1
    from another CA), wronghost.crt/key (irc.example.org, from ca), bot.pem (the
    bot's self-signed client certificate and key) and its SHA-256 fingerprint."""
    def ca(name):
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=Ringside e2e %s" % name, "-keyout", name + ".key", "-out", name + ".crt",
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign"], d)

    def leaf(name, ca_name, san, cn):
        with open(os.path.join(d, name + ".ext"), "w") as f:
            f.write("subjectAltName=%s\nbasicConstraints=CA:FALSE\n"
                    "extendedKeyUsage=serverAuth\n" % san)
        run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + cn,
             "-keyout", name + ".key", "-out", name + ".csr"], d)
        run(["openssl", "x509", "-req", "-in", name + ".csr", "-CA", ca_name + ".crt",
             "-CAkey", ca_name + ".key", "-CAcreateserial", "-days", "2",
             "-extfile", name + ".ext", "-out", name + ".crt"], d)

    ca("ca")
    ca("other-ca")
    leaf("server", "ca", "IP:127.0.0.1", "127.0.0.1")
    leaf("rogue", "other-ca", "IP:127.0.0.1", "127.0.0.1")
    leaf("wronghost", "ca", "DNS:irc.example.org", "irc.example.org")
    run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=ringside bot", "-keyout", "bot.key", "-out", "bot.crt"], d)
    with open(os.path.join(d, "bot.pem"), "w") as out:
        for n in ("bot.crt", "bot.key"):
            with open(os.path.join(d, n)) as f:
                out.write(f.read())
    fp = run(["openssl", "x509", "-in", "bot.crt", "-noout", "-fingerprint", "-sha256"], d)
    return fp.split("=", 1)[1].strip().replace(":", "").lower()


def distinct_ports(n, taken):
    """n free loopback ports, different from each other and from `taken`
    (each reserved for this process: tests/e2e/ports.py)."""
    ports = []
    while len(ports) < n:
        p = e2e.free_port()
        if p != taken and p not in ports:
            ports.append(p)
    return ports


def inspircd_config(env):
    d = env.dir
    profiles = "".join(
        '<sslprofile name="{n}" provider="gnutls" certfile="{d}/{n}.crt" keyfile="{d}/{n}.key" '
        'dhfile="" hash="sha256" requestclientcert="yes" priority="NORMAL">\n'
        '<bind address="127.0.0.1" port="{p}" type="clients" sslprofile="{n}">\n'.format(
            n=n, d=d, p=p)
        for n, p in (("server", env.tls_port), ("rogue", env.rogue_port),
                     ("wronghost", env.wronghost_port)))
    return """\
<config format="xml">
<server name="irc.ringside.test" description="Ringside e2e" network="RingsideE2E" id="42X">
<admin name="e2e" nick="e2e" email="e2e@ringside.test">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{link}" type="servers">
<connect allow="*" name="main" maxchans="50" timeout="30" pingfreq="120" hardsendq="1048576"
  softsendq="8192" recvq="8192" threshold="10" commandrate="1000" fakelag="on" localmax="1000"
  globalmax="1000" useident="no" limit="5000">
<class name="Everything" commands="*" privs="*" usermodes="*" chanmodes="*">
<type name="NetAdmin" classes="Everything">
<pid file="{d}/inspircd.pid">
<files motd="{d}/motd.txt">
<dns timeout="1">
<options prefixquit="" suffixquit="" fixedquit="" hostintopic="yes" defaultmodes="nt">
<security hidesplits="no" hideulines="no" announceinvites="dynamic" flatlinks="no" hidewhois=""
  userstats="Pu" customversion="" runasuser="" runasgroup="">
<performance netbuffersize="10240" somaxconn="128" softlimit="1024" clonesonconnect="no"
  timeskipwarn="2s" quietbursts="yes" nouserdns="yes">
<limits maxnick="30" maxchan="64" maxmodes="20" maxident="11" maxhost="64" maxquit="255"
  maxtopic="307" maxkick="255" maxreal="128" maxgecos="128" maxaway="200">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{d}/inspircd-file.log">
<module name="ssl_gnutls">
<module name="sslinfo">
<module name="cap">
{ircv3}<module name="services_account">
<module name="sasl">
<module name="spanningtree">
{profiles}<link name="services.ringside.test" ipaddr="127.0.0.1" port="{link}"
  allowmask="127.0.0.0/8" sendpass="{pw}" recvpass="{pw}">
<uline server="services.ringside.test" silent="yes">
<sasl target="services.ringside.test">
""".format(port=env.port, link=env.link_port, d=d, profiles=profiles, pw=LINK_PW,
           ircv3="" if env.no_ircv3 else '<module name="ircv3">\n<module name="ircv3_capnotify">\n')


def atheme_config(env):
    """Debian's example configuration, linked to our InspIRCd (the measured
    recipe of irc-notes), with CertFP and SASL EXTERNAL."""
    with open("/usr/share/doc/atheme-services/examples/atheme.conf.example") as f:
        text = f.read()
    text = text.replace('#loadmodule "modules/protocol/charybdis";',
                        'loadmodule "modules/protocol/inspircd";')
    text = text.replace('#loadmodule "modules/saslserv/external";',
                        'loadmodule "modules/saslserv/external";')
    text = text.replace('#loadmodule "modules/nickserv/cert";',
                        'loadmodule "modules/nickserv/cert";')
    text = re.sub(r'(\n\s*)name = "services\.int";', r'\1name = "services.ringside.test";', text)
    text = re.sub(r'\n\s*mta = "[^"]*";', "\n", text)
    text = re.sub(r'\nuplink "[^"]*" \{.*?\n\};', "\n", text, flags=re.S)
    text += """
uplink "irc.ringside.test" {{
\thost = "127.0.0.1";
\tsend_password = "{pw}";
\treceive_password = "{pw}";
\tport = {link};
}};
""".format(pw=LINK_PW, link=env.link_port)
    return text


def ngircd_tls_config(env):
    return """\
[Global]
Name = ngircd.ringside.test
Info = Ringside e2e over TLS
Listen = 127.0.0.1
Ports = {port}
MotdPhrase = Ringside e2e
[Limits]
MaxConnectionsIP = 0
MaxNickLength = 30
[Options]
DNS = no
Ident = no
PAM = no
[SSL]
CertFile = {d}/server.crt
KeyFile = {d}/server.key
Ports = {tls}
""".format(port=env.port, d=env.dir, tls=env.tls_port)


class NetEnv(e2e.Env):
    """InspIRCd + Atheme (server="inspircd") or ngircd (server="ngircd"),
    with TLS ports; the bot's configuration gets self.irc_extra in [irc]."""

    def __init__(self, bot_path, server, fingerprint, certdir):
        super().__init__(bot_path, server)
        self.tls_port, self.rogue_port, self.wronghost_port, self.link_port = \
            distinct_ports(4, self.port)
        self.services = None
        self.fingerprint = fingerprint
        for n in os.listdir(certdir):
            shutil.copy(os.path.join(certdir, n), self.dir)
        self.irc_extra = ""
        self.bot_port = self.tls_port
        self.bot_server = "127.0.0.1"
        self.no_ircv3 = False  # InspIRCd without extended-join and account-notify
        self.bot_extra = ""

    def start_server(self):
        if self.server == "ngircd":
            conf = os.path.join(self.dir, "ngircd.conf")
            with open(conf, "w") as f:
                f.write(ngircd_tls_config(self))
            argv = [shutil.which("ngircd") or "/usr/sbin/ngircd", "-n", "-f", conf]
        else:
            conf = os.path.join(self.dir, "inspircd.conf")
            with open(conf, "w") as f:
                f.write(inspircd_config(self))
            with open(os.path.join(self.dir, "motd.txt"), "w") as f:
                f.write("Ringside e2e\n")
            argv = [shutil.which("inspircd") or "/usr/sbin/inspircd", "--nofork", "--config",
                    conf]
            if os.geteuid() == 0:
                argv.append("--runasroot")
        log = open(self.ircd_log, "ab")
        self.ircd = subprocess.Popen(argv, cwd=self.dir, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True,
                                     preexec_fn=no_core)
        log.close()
        deadline = time.monotonic() + TIMEOUT
        while not (port_open(self.port) and port_open(self.tls_port)):
            if self.ircd.poll() is not None or time.monotonic() > deadline:
                raise Failure("%s did not start" % self.server, tail(self.ircd_log, 20))
            time.sleep(0.1)
        if self.server == "inspircd":
            self.start_services()

    def start_services(self):
        sdir = os.path.join(self.dir, "atheme")
        os.makedirs(os.path.join(sdir, "var"), exist_ok=True)
        conf = os.path.join(sdir, "atheme.conf")
        with open(conf, "w") as f:
            f.write(atheme_config(self))
        log = open(os.path.join(self.dir, "atheme.out"), "ab")
        self.services = subprocess.Popen(
            ["atheme-services", "-n", "-c", conf, "-D", sdir, "-l",
             os.path.join(sdir, "atheme.log"), "-p", os.path.join(sdir, "atheme.pid")],
            cwd=sdir, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=no_core)
        log.close()
        # Linked when NickServ answers WHOIS.
        c = Client(self, "linkwait")
        try:
            deadline = time.monotonic() + TIMEOUT
            while True:
                start = len(c.lines)
                c.raw("WHOIS NickServ")
                m = c.wait(lambda m: m.cmd in ("311", "401"), "WHOIS NickServ", start=start)
                if m.cmd == "311":
                    break
                if self.services.poll() is not None or time.monotonic() > deadline:
                    raise Failure("Atheme did not link to InspIRCd",
                                  tail(os.path.join(sdir, "atheme.log"), 20) + "\n" +
                                  tail(os.path.join(self.dir, "atheme.out"), 10))
                time.sleep(0.3)
        finally:
            c.quit()

    def stop_server(self):
        if self.services and self.services.poll() is None:
            self.services.terminate()
            try:
                self.services.wait(10)
            except subprocess.TimeoutExpired:
                self.services.kill()
                self.services.wait()
        self.services = None
        super().stop_server()

    def write_bot_config(self, channels=(CHANNEL,), extra=""):
        with open(self.bot_conf, "w") as f:
            f.write("""\
; Generated by tests/e2e/e2e_net.py
[irc]
server = {server}
port = {port}
tls = yes
tls_ca_file = {d}/ca.crt
nick = {nick}
channels = {channels}
{irc}
[bot]
database = {db}
log_level = debug
{reg}{bot}
[flood]
{flood}
[bout]
order_timeout = 120
""".format(server=self.bot_server, port=self.bot_port, d=self.dir, nick=BOT_NICK, channels=",".join(channels),
           irc=self.irc_extra, db=self.db_path, bot=self.bot_extra,
           reg=e2e.REGISTRATIONS, flood=self.flood))

    def start_bot(self, wait=True):
        self.write_bot_config()
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
        log = open(self.bot_log, "ab")
        self.bot = subprocess.Popen([self.bot_path, "-c", self.bot_conf], cwd=self.dir, env=env,
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    start_new_session=True)
        log.close()
        self.bot_starts += 1
        if wait:
            self.wait_bot_in(CHANNEL, timeout=RECONNECT)

    def kill_bot(self):
        self.bot.send_signal(signal.SIGKILL)
        self.bot.wait(10)

    def sanitizers_quiet(self, since=0):
        log = self.log_text(since)
        for pat in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
            check(pat not in log, "the bot's log has a report: %s" % pat, tail(self.bot_log, 40))
        for s in self.secrets:
            check(s not in self.log_text(), "the bot's log contains the password %r" % s)


def whois(c, nick):
    """The numerics of WHOIS nick, by number."""
    start = len(c.lines)
    c.raw("WHOIS " + nick)
    c.wait(lambda m: m.cmd == "318", "the end of WHOIS %s" % nick, start=start)
    with c.cond:
        return {m.cmd: m for m in c.lines[start:] if m.cmd.isdigit()}


def services_user(env, nick, pw, channels=(CHANNEL,)):
    """A client registered with NickServ (which logs him in), in channels."""
    c = Client(env, nick)
    env.secrets.add(pw)
    start = len(c.lines)
    c.raw("PRIVMSG NickServ :REGISTER %s %s@example.org" % (pw, nick))
    c.wait(lambda m: m.cmd == "900", "%s logged in to services (900)" % nick, start=start)
    for ch in channels:
        c.join(ch)
    return c


def nickserv(c, text, numeric):
    start = len(c.lines)
    c.raw("PRIVMSG NickServ :" + text)
    return c.wait(lambda m: m.cmd == numeric, "%r to NickServ answered by %s" % (text, numeric),
                  start=start)


def private(c, regex, start, timeout=TIMEOUT):
    rx = re.compile(regex)
    return c.wait(lambda m: c.from_bot(m) and m.target.lower() == c.nick.lower() and
                  rx.search(m.text), "/%s/ from the bot" % regex, start=start,
                  timeout=timeout).text


def tell(c, text, regex, timeout=TIMEOUT):
    """A private command and the bot's reply matching regex (prompts the bot
    sends by itself may come between)."""
    start = len(c.lines)
    c.cmd(text)
    return private(c, regex, start, timeout)


def in_channel(c, regex, start, timeout=TIMEOUT):
    rx = re.compile(regex)
    return c.wait(lambda m: m.cmd == "PRIVMSG" and m.nick.lower() == BOT_NICK and
                  m.target.lower() == CHANNEL and rx.search(m.text),
                  "/%s/ in %s" % (regex, CHANNEL), start=start, timeout=timeout).text


# Gentle orders: four rounds go the distance.
ORDERS_A = ["2/8/10", "3/7/10", "2/7/11", "3/8/9"]
ORDERS_B = ["3/3/14 (clinch)", "2/4/14 (clinch)", "3/4/13 (clinch)", "4/3/13 (clinch)"]
STORED = r"^round %d orders stored for %s"
FOUGHT = r"your round %d orders for %s \(.+\) are in and fought"


def s_tls_sasl_plain(env):
    """The bot on InspIRCd over TLS, logged in by SASL PLAIN; players logged in
    to NickServ play without a bot password; a nick change keeps the identity;
    kill -9 mid-bout and a restart: their next orders are taken without
    identify; a logout of services stops a player's orders."""
    pw = "bot-sasl-pw-1"
    env.secrets.add(pw)
    reg = Client(env, BOT_NICK)
    nickserv(reg, "REGISTER %s bot@example.org" % pw, "900")
    reg.quit()
    env.irc_extra = "sasl_mechanism = plain\nsasl_password = %s\nsasl_required = yes\n" % pw
    since = env.log_size()
    env.start_bot()
    log = env.log_text(since)
    check(re.search(r"TLS with 127\.0\.0\.1:%d: TLSv1\.[23], .*certificate verified" %
                    env.tls_port, log), "no verified TLS in the log", tail(env.bot_log, 15))
    check("SASL PLAIN login succeeded" in log, "no SASL success in the log", tail(env.bot_log, 15))

    a = services_user(env, "alice", "alice-ns-pw-1")
    b = services_user(env, "bob", "bob-ns-pw-22")
    w = whois(a, BOT_NICK)
    check("330" in w and w["330"].params[2] == BOT_NICK, "WHOIS shows the bot not logged in",
          repr(w))
    check("671" in w, "WHOIS does not show the bot on a secure connection", repr(w))

    tell(a, "create Ali str=14 spd=12 agl=11 tgh=12 hgt=11", r"^Ali \(boxing\) is ready")
    tell(b, "create Bobo str=13 spd=14 agl=12 tgh=11 hgt=10", r"^Bobo \(boxing\) is ready")
    for name in ("alice", "bob"):
        acc = env.account(name)
        check(acc is not None and acc["hash"] == "*services",
              "no password-less account %s in the database: %r" % (name, acc))

    start_b = len(b.lines)
    a.cmd("challenge bob rounds=4", CHANNEL)
    m = in_channel(a, r"^alice challenges bob to bout #(\d+), boxing, 4 rounds: Ali \(alice\) ", 0)
    bout = int(re.search(r"bout #(\d+)", m).group(1))
    b.cmd("accept", CHANNEL)
    # Both in the channel: the start asks them there.
    for c, s in ((a, 0), (b, start_b)):
        in_channel(c, r"^Bout #%d is on\. Round 1 of 4: alice \(Ali\) and bob \(Bobo\), your "
                   r"orders " % bout, s)

    tell(a, ORDERS_A[0], STORED % (1, "Ali"))
    tell(b, ORDERS_B[0], FOUGHT % (1, "Bobo"))

    # A nick change keeps the identity.
    start = len(a.lines)
    a.raw("NICK alice_")
    a.wait(lambda m: m.cmd == "NICK" and m.text == "alice_", "the nick change", start=start)
    a.nick = "alice_"
    tell(a, ORDERS_A[1], STORED % (2, "Ali"))

    # kill -9 mid-bout (round 2 half given), and a restart.
    env.kill_bot()
    starts = (len(a.lines), len(b.lines))
    since = env.log_size()
    env.start_bot()
    in_channel(a, r"^Bout #%d, Ali vs Bobo, goes on: round 2 of 4 is next\.$" % bout, starts[0],
               timeout=RECONNECT)
    # The prompts reach them by their nicks (alice is alice_ now) and do
    # not ask for identify: services say who they are.
    p = private(b, r"^Bout #%d, round 2 of 4: your orders for Bobo" % bout, starts[1])
    check("identify" not in p, "bob's prompt after the restart asks him to identify: %r" % p)
    p = private(a, r"^Bout #%d, round 2 of 4: your orders for Ali" % bout, starts[0])
    check("identify" not in p and "your orders for it are in already" in p,
          "alice_'s prompt after the restart: %r" % p)
    env.wait_log(r"bob is identified as bob by his services account", since)
    env.wait_log(r"alice_ is identified as alice by his services account", since)
    # alice's round 2 orders, given before the kill, were kept: bob's
    # complete the round.
    tell(b, ORDERS_B[1], FOUGHT % (2, "Bobo"))
    tell(a, ORDERS_A[2], STORED % (3, "Ali"))

    # bob logs out of services: his orders are refused.
    nickserv(b, "LOGOUT", "901")
    env.wait_log(r"bob logged out of services: no longer identified as bob", since)
    tell(b, ORDERS_B[2], r"needs an account|identify")
    # ... and logs in again: taken.
    nickserv(b, "IDENTIFY bob-ns-pw-22", "900")
    tell(b, ORDERS_B[2], FOUGHT % (3, "Bobo"))
    env.sanitizers_quiet()
    for c in (a, b):
        c.quit()
    return ["bout #%d went on after kill -9 with both players identified by services" % bout]


def s_sasl_external(env):
    """SASL EXTERNAL with the bot's client certificate, added to its NickServ
    account (CERT ADD)."""
    pw = "bot-ext-pw-4"
    env.secrets.add(pw)
    reg = Client(env, BOT_NICK)
    nickserv(reg, "REGISTER %s bot@example.org" % pw, "900")
    start = len(reg.lines)
    reg.raw("PRIVMSG NickServ :CERT ADD %s" % env.fingerprint)
    reg.wait(lambda m: m.cmd == "NOTICE" and "fingerprint" in m.text.lower(), "CERT ADD",
             start=start)
    reg.quit()
    env.irc_extra = ("tls_cert_file = %s/bot.pem\nsasl_mechanism = external\n"
                     "sasl_required = yes\n" % env.dir)
    since = env.log_size()
    env.start_bot()
    check("SASL EXTERNAL login succeeded" in env.log_text(since), "no SASL EXTERNAL success",
          tail(env.bot_log, 15))
    c = Client(env, "watcher")
    w = whois(c, BOT_NICK)
    check("330" in w and w["330"].params[2] == BOT_NICK, "the bot is not logged in", repr(w))
    c.quit()
    env.sanitizers_quiet()


def refused(env, port, expect):
    """The bot pointed at a TLS port with a bad certificate: it says why,
    backs off, and never registers (no plaintext, no fallback)."""
    env.bot_port = port
    env.irc_extra = ""
    since = env.log_size()
    env.start_bot(wait=False)
    host = re.escape(env.bot_server)
    m = env.wait_log(r"certificate of %s:%d is refused: (.*)\); reconnecting in "
                     r"(\d+) s" % (host, port), since)
    check(re.search(expect, m.group(1)), "the reason %r is not /%s/" % (m.group(1), expect))
    env.wait_log(r"certificate of %s:%d is refused: .*reconnecting in 20 s" % (host, port),
                 since, timeout=30)
    c = Client(env, "lookout")
    w = whois(c, BOT_NICK)
    check("311" not in w, "the bot is on the server despite the bad certificate", repr(w))
    c.quit()
    env.stop_bot()
    env.sanitizers_quiet()
    return m.group(1)


def s_wrong_ca(env):
    """A server certificate from a CA the bot does not trust; then the same
    with tls_verify = no: it connects, and the log warns."""
    why = refused(env, env.rogue_port, r"unable to get local issuer|self.signed")
    env.irc_extra = "tls_verify = no\n"
    since = env.log_size()
    env.start_bot()
    log = env.log_text(since)
    check(re.search(r"warn tls_verify = no: the certificate of 127\.0\.0\.1 is not checked", log) and
          "certificate NOT verified" in log, "no warning about tls_verify = no",
          tail(env.bot_log, 10))
    env.sanitizers_quiet()
    return ["refused: " + why, "with tls_verify = no: connected, with a warning"]


def s_wrong_host(env):
    """A certificate from the trusted CA for another host name: the bot
    connects to "localhost" (SNI and the name check) and the certificate is
    for irc.example.org."""
    env.bot_server = "localhost"
    return ["refused: " + refused(env, env.wronghost_port, r"^[Hh]ostname mismatch")]


def s_wrong_ip(env):
    """The same when the server is given by its address: the certificate
    names no IP address."""
    return ["refused: " + refused(env, env.wronghost_port, r"^IP address mismatch")]


def s_sasl_required(env):
    """A wrong SASL password with sasl_required = yes: a clear line, no
    registration."""
    pw = "not-the-bots-pw"
    env.secrets.add(pw)
    env.bot_port = env.tls_port
    env.irc_extra = "sasl_mechanism = plain\nsasl_password = %s\nsasl_required = yes\n" % pw
    since = env.log_size()
    env.start_bot(wait=False)
    env.wait_log(r"SASL PLAIN login as ringside failed \(904[^)]*\); sasl_required = yes, so the "
                 r"bot does not register without it\); reconnecting in", since)
    c = Client(env, "lookout2")
    w = whois(c, BOT_NICK)
    check("311" not in w, "the bot registered without SASL", repr(w))
    c.quit()
    env.stop_bot()
    env.sanitizers_quiet()


def s_whois_fallback(env):
    """A server that offers neither extended-join nor account-notify (InspIRCd
    without its ircv3 module): the bot asks WHOIS (330) before a command that
    needs an account, and runs it with the answer."""
    since = env.log_size()
    env.start_bot()
    a = services_user(env, "wanda", "wanda-ns-pw-3")
    tell(a, "create Wiz str=12 spd=12 agl=12 tgh=12 hgt=12", r"^Wiz \(boxing\) is ready")
    log = env.log_text(since)
    check(">> WHOIS" in log, "no WHOIS in the log", tail(env.bot_log, 15))
    check("wanda is identified as wanda by his services account" in log or
          "account wanda made for wanda's services account" in log,
          "wanda was not identified by services", tail(env.bot_log, 15))
    c = Client(env, "walter", [CHANNEL])
    tell(c, "create Walt str=12 spd=12 agl=12 tgh=12 hgt=12", r"^create needs an account")
    c.quit()
    a.quit()
    env.sanitizers_quiet()


s_whois_fallback.no_ircv3 = True


def s_ngircd_tls(env):
    """ngircd over TLS: the bot connects, verifies, joins; a player with a bot
    password plays as before (no services on this server)."""
    env.start_bot()
    check(re.search(r"TLS with 127\.0\.0\.1:%d: .*certificate verified" % env.tls_port,
                    env.log_text()), "no verified TLS in the log", tail(env.bot_log, 15))
    pw = "carol-pw-77"
    env.secrets.add(pw)
    c = Client(env, "carol", [CHANNEL])
    tell(c, "register " + pw, r"^account carol registered, and you are identified")
    tell(c, "create Carla str=12 spd=12 agl=12 tgh=12 hgt=12", r"^Carla \(boxing\) is ready")
    c.quit()
    env.sanitizers_quiet()


RUNS = [
    # (server, scenario): each run a fresh server, database and bot.
    ("inspircd", s_tls_sasl_plain),
    ("inspircd", s_sasl_external),
    ("inspircd", s_wrong_ca),
    ("inspircd", s_wrong_host),
    ("inspircd", s_wrong_ip),
    ("inspircd", s_sasl_required),
    ("inspircd", s_whois_fallback),
    ("ngircd", s_ngircd_tls),
]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    only = [x for x in os.environ.get("E2E_ONLY", "").split(",") if x]
    certdir = tempfile.mkdtemp(prefix="ringside-certs-")
    passed = failed = 0
    try:
        fingerprint = make_certs(certdir)
        for server, fn in RUNS:
            name = fn.__name__[2:]
            if only and name not in only:
                continue
            env = NetEnv(sys.argv[1], server, fingerprint, certdir)
            env.no_ircv3 = getattr(fn, "no_ircv3", False)
            t0 = time.monotonic()
            try:
                env.start_server()
                notes = fn(env) or []
                print("ok - %s (%s)" % (name, server), flush=True)
                for n in notes:
                    print("#   %s" % n)
                print("#   (%.1f s)" % (time.monotonic() - t0), flush=True)
                passed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported
                failed += 1
                print("FAIL - %s (%s): %s" % (name, server, e), flush=True)
                detail = getattr(e, "detail", "") or traceback.format_exc()
                for line in detail.splitlines():
                    print("#   " + line)
                print("#   bot log tail:")
                for line in tail(env.bot_log, 25).splitlines():
                    print("#   " + line)
                env.keep = True
            finally:
                env.cleanup()
                if env.keep:
                    print("#   files kept in %s" % env.dir)
                else:
                    shutil.rmtree(env.dir, ignore_errors=True)
    finally:
        shutil.rmtree(certdir, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
