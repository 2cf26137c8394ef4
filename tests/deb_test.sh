#!/bin/sh
# deb_test.sh - the Debian package installed, run, and purged (make deb-check).
#
#   sh tests/deb_test.sh [DEB]      (default: build/deb/ringside_*.deb)
#
# Needs root and a machine where the package is not installed (it installs
# it and purges it again). Checks:
#  - apt-get install: the system user and group ringside (no login, home
#    /var/lib/ringside), /etc/ringside/ringside.conf owner root, group
#    ringside, mode 640, pointed at #ringside on 127.0.0.1:6667;
#    /var/lib/ringside owner ringside, mode 700; the bot, as that user,
#    accepts its configuration without a warning.
#  - Where systemd is PID 1: with an ngircd on 127.0.0.1:6667, the service
#    started by the package joins #ringside, its database is 0600 owned by
#    ringside, systemctl reload reloads, systemctl stop stops. Elsewhere it
#    says plainly that it skipped that, and runs the installed bot by hand as
#    the user ringside against an ngircd on a free port instead (its
#    configuration copied with that port): it joins #ringside, and its
#    database is 0600 owned by ringside.
#  - dpkg -r keeps the user, the database and the configuration;
#    dpkg --purge: no file of the package, no /etc/ringside, no
#    /var/lib/ringside, no user or group, no dpkg-statoverride left.
set -eu
cd "$(dirname "$0")/.."

deb=${1:-}
if [ -z "$deb" ]; then
    for f in build/deb/ringside_*.deb; do
        [ -f "$f" ] && deb=$f && break
    done
fi
say() { echo "deb_test: $*"; }
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    say "no package; run make deb first"
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    say "SKIPPED: installing a package needs root"
    exit 0
fi
if dpkg-query -W -f='${Status}' ringside 2>/dev/null | grep -q 'installed\|config-files'; then
    say "SKIPPED: the package ringside is already installed here, and this test would purge it"
    exit 0
fi
if getent passwd ringside >/dev/null || getent group ringside >/dev/null; then
    say "SKIPPED: a user or group ringside exists here, and this test would remove it"
    exit 0
fi
command -v ngircd >/dev/null || { say "ngircd is missing (make deps)"; exit 1; }

tmp=$(mktemp -d /tmp/ringside-deb-XXXXXX)
chmod 755 "$tmp"
ircd=
bot=
installed=
failures=0
fail() {
    say "FAIL: $*"
    failures=$((failures + 1))
}
ok() { say "ok: $*"; }
cleanup() {
    [ -n "$bot" ] && kill -TERM "$bot" 2>/dev/null
    [ -n "$ircd" ] && kill -TERM "$ircd" 2>/dev/null
    if [ -n "$installed" ]; then dpkg --purge ringside >/dev/null 2>&1 || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# free_port: a TCP port nothing listens on, on loopback.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ngircd_start PORT: a private ngircd on 127.0.0.1:PORT.
ngircd_start() {
    cat >"$tmp/ngircd.conf" <<CONF
[Global]
Name = deb.ringside.test
Info = Ringside package test
Listen = 127.0.0.1
Ports = $1
[Limits]
MaxConnectionsIP = 0
MaxNickLength = 30
[Options]
DNS = no
Ident = no
PAM = no
CONF
    ngircd -n -f "$tmp/ngircd.conf" >"$tmp/ngircd.log" 2>&1 &
    ircd=$!
    python3 - "$1" <<'PY'
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("ngircd did not listen")
PY
}

# joined PORT SECONDS: whether the nick ringside is in #ringside on the
# server at PORT within SECONDS (asked with NAMES by a client of our own).
joined() {
    python3 - "$1" "$2" <<'PY'
import socket, sys, time
port, limit = int(sys.argv[1]), float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(1)
s.sendall(b"NICK debcheck\r\nUSER debcheck 0 * :package test\r\n")
buf, end, asked = b"", time.time() + limit, 0
while time.time() < end:
    if time.time() - asked > 2:
        s.sendall(b"NAMES #ringside\r\n")
        asked = time.time()
    try:
        data = s.recv(4096)
    except socket.timeout:
        continue
    if not data:
        break
    buf += data
    while b"\r\n" in buf:
        line, buf = buf.split(b"\r\n", 1)
        parts = line.decode("utf-8", "replace").split(" ")
        if parts[0] == "PING":
            s.sendall(("PONG " + " ".join(parts[1:]) + "\r\n").encode())
        if len(parts) > 1 and parts[1] == "353":
            names = line.decode("utf-8", "replace").rsplit(":", 1)[-1].split()
            if any(n.lstrip("@+%") == "ringside" for n in names):
                sys.exit(0)
sys.exit(1)
PY
}

mode_of() { stat -c '%U:%G %a' "$1"; }
# The bot's database: its user's alone.
db_mode_ok() {
    if [ "$(mode_of /var/lib/ringside/ringside.db)" = "ringside:ringside 600" ]; then
        ok "/var/lib/ringside/ringside.db: ringside:ringside 600"
    else
        fail "/var/lib/ringside/ringside.db is $(mode_of /var/lib/ringside/ringside.db)"
    fi
}

systemd=
pid1=$(cat /proc/1/comm 2>/dev/null || echo unknown)
if [ -d /run/systemd/system ] && [ "$pid1" = systemd ]; then
    systemd=yes
    if python3 -c 'import socket; socket.create_connection(("127.0.0.1", 6667), 1)' 2>/dev/null; then
        say "SKIPPED: something listens on 127.0.0.1:6667, where the packaged configuration points"
        exit 0
    fi
    ngircd_start 6667
fi

# ------------------------------------------------------------ install
# apt-get, not dpkg -i: it installs what the package depends on first.
case "$deb" in /*) ;; *) deb=./$deb ;; esac
if ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y "$deb" \
    >"$tmp/dpkg.log" 2>&1; then
    cat "$tmp/dpkg.log"
    installed=yes
    fail "apt-get install $deb failed"
    exit 1
fi
installed=yes
ok "apt-get install $deb"

entry=$(getent passwd ringside) || fail "no user ringside"
uid=$(echo "$entry" | cut -d: -f3)
home=$(echo "$entry" | cut -d: -f6)
shell=$(echo "$entry" | cut -d: -f7)
if [ "$uid" -lt 1000 ] && [ "$home" = /var/lib/ringside ] && [ "$shell" = /usr/sbin/nologin ] &&
    getent group ringside >/dev/null; then
    ok "the system user ringside (uid $uid, home $home, shell $shell) and its group"
else
    fail "the user ringside: $entry"
fi
if [ "$(mode_of /etc/ringside/ringside.conf)" = "root:ringside 640" ]; then
    ok "/etc/ringside/ringside.conf: root:ringside 640"
else
    fail "/etc/ringside/ringside.conf is $(mode_of /etc/ringside/ringside.conf)"
fi
if [ "$(mode_of /var/lib/ringside)" = "ringside:ringside 700" ]; then
    ok "/var/lib/ringside: ringside:ringside 700"
else
    fail "/var/lib/ringside is $(mode_of /var/lib/ringside)"
fi
if ! grep -qx 'server = 127.0.0.1' /etc/ringside/ringside.conf ||
    ! grep -qx 'port = 6667' /etc/ringside/ringside.conf ||
    ! grep -qx 'channels = #ringside' /etc/ringside/ringside.conf; then
    fail "the packaged configuration is not pointed at #ringside on 127.0.0.1:6667"
fi
for f in /usr/bin/ringside /usr/bin/ringside-sim /lib/systemd/system/ringside.service \
    /usr/share/man/man1/ringside.1.gz /usr/share/man/man1/ringside-sim.1.gz \
    /usr/share/man/man5/ringside.conf.5.gz /usr/share/doc/ringside/examples/ringside.conf.example; do
    [ -f "$f" ] || fail "the package did not install $f"
done
if out=$(setpriv --reuid=ringside --regid=ringside --init-groups \
    /usr/bin/ringside --check-config /etc/ringside/ringside.conf 2>&1) &&
    [ "$out" = "/etc/ringside/ringside.conf: configuration ok" ]; then
    ok "as ringside: $out"
else
    fail "as ringside, --check-config says: $out"
fi

# With a password in it: private as installed; readable by all, a warning.
cp -p /etc/ringside/ringside.conf "$tmp/saved.conf"
sed -i 's/^nickserv_password =$/nickserv_password = hunter2/' /etc/ringside/ringside.conf
as_bot_check() {
    setpriv --reuid=ringside --regid=ringside --init-groups \
        /usr/bin/ringside --check-config /etc/ringside/ringside.conf 2>&1
}
out=$(as_bot_check)
if [ "$out" = "/etc/ringside/ringside.conf: configuration ok" ]; then
    ok "with a password, root:ringside 640: no warning"
else
    fail "with a password, 640: $out"
fi
chmod 644 /etc/ringside/ringside.conf
case "$(as_bot_check)" in
*"warning: /etc/ringside/ringside.conf holds nickserv_password and is readable by every local user"*)
    ok "with a password, mode 644: a warning" ;;
*) fail "with a password, mode 644: no warning: $(as_bot_check)" ;;
esac
cp -p "$tmp/saved.conf" /etc/ringside/ringside.conf

# ------------------------------------------------------------ run
if [ -n "$systemd" ]; then
    if systemctl is-enabled --quiet ringside; then
        ok "the service is enabled"
    else
        fail "the service is not enabled"
    fi
    # The package started it at install; the server was already up.
    if joined 6667 60; then
        ok "under systemd the bot joined #ringside on 127.0.0.1:6667"
    else
        fail "under systemd the bot did not join #ringside in 60 s: $(journalctl -u ringside -n 20 --no-pager)"
    fi
    db_mode_ok
    systemctl reload ringside
    sleep 2
    if journalctl -u ringside --no-pager | grep -q "configuration reloaded"; then
        ok "systemctl reload: the configuration was reloaded"
    else
        fail "systemctl reload: no reload in the journal"
    fi
    systemctl stop ringside
    if systemctl is-active --quiet ringside; then
        fail "systemctl stop: still active"
    else
        ok "systemctl stop: stopped"
    fi
else
    say "SKIPPED: systemd is not PID 1 here (PID 1 is $pid1):" \
        "the service was not started, reloaded or stopped under systemd"
    port=$(free_port)
    ngircd_start "$port"
    sed "s/^port = 6667\$/port = $port/" /etc/ringside/ringside.conf >"$tmp/ringside.conf"
    chgrp ringside "$tmp/ringside.conf"
    chmod 640 "$tmp/ringside.conf"
    (cd /var/lib/ringside && exec setpriv --reuid=ringside --regid=ringside --init-groups \
        /usr/bin/ringside -c "$tmp/ringside.conf" 2>"$tmp/bot.log") &
    bot=$!
    if joined "$port" 30; then
        ok "by hand as the user ringside, the installed bot joined #ringside"
    else
        fail "the installed bot did not join #ringside: $(cat "$tmp/bot.log")"
    fi
    db_mode_ok
    kill -TERM "$bot"
    wait "$bot" || fail "the bot did not stop cleanly on SIGTERM: $(cat "$tmp/bot.log")"
    bot=
    grep -q "readable by" "$tmp/bot.log" && fail "the bot warned: $(grep 'readable by' "$tmp/bot.log")"
fi

# ------------------------------------------------------------ remove, purge
files=$(dpkg -L ringside | while read -r f; do [ -f "$f" ] && echo "$f"; done)
dpkg -r ringside >"$tmp/remove.log" 2>&1 || fail "dpkg -r: $(cat "$tmp/remove.log")"
if [ ! -e /usr/bin/ringside ] && getent passwd ringside >/dev/null &&
    [ -f /var/lib/ringside/ringside.db ] && [ -f /etc/ringside/ringside.conf ]; then
    ok "dpkg -r removed the programs and kept the user, the database and the configuration"
else
    state=
    for f in /usr/bin/ringside /var/lib/ringside/ringside.db /etc/ringside/ringside.conf; do
        if [ -e "$f" ]; then state="$state $f: there;"; else state="$state $f: missing;"; fi
    done
    fail "after dpkg -r:$state"
fi
dpkg --purge ringside >"$tmp/purge.log" 2>&1 || fail "dpkg --purge: $(cat "$tmp/purge.log")"
installed=
left=
for f in $files /etc/ringside /var/lib/ringside; do
    [ -e "$f" ] && left="$left $f"
done
if [ -z "$left" ]; then
    ok "dpkg --purge removed every file, /etc/ringside and /var/lib/ringside"
else
    fail "dpkg --purge left$left"
fi
getent passwd ringside >/dev/null && fail "dpkg --purge left the user ringside"
getent group ringside >/dev/null && fail "dpkg --purge left the group ringside"
dpkg-statoverride --list /etc/ringside/ringside.conf >/dev/null &&
    fail "dpkg --purge left the dpkg-statoverride of the configuration"
if [ -n "$systemd" ]; then
    [ ! -e /etc/systemd/system/multi-user.target.wants/ringside.service ] ||
        fail "dpkg --purge left the unit enabled"
fi

if [ $failures -ne 0 ]; then
    say "$failures failure(s)"
    exit 1
fi
say "all passed"
