#!/bin/sh
# install_test.sh - installing Ringside as a service, without installing it.
#
#   sh tests/install_test.sh        (from make install-tests; needs build/)
#
# 1. make install DESTDIR=<scratch> leaves exactly the expected files with
#    their modes; the unit and the service's configuration hold this
#    install's paths; the installed bot accepts the installed configuration.
# 2. The man pages render with man -l and groff -ww without a warning, and
#    document every option of --help and every key of the example.
# 3. make uninstall leaves no file and none of Ringside's own folders; an
#    edited configuration is neither overwritten by install nor removed.
# 4. ringside --check-config on a good file, broken ones (FILE:LINE:
#    reason, exit 1) and one others can read that holds a password.
# 5. The bot started under umask 000: its new database and WAL files are
#    0600, and its log warns, at start and on SIGHUP, that its
#    configuration is readable by others.
set -eu
cd "$(dirname "$0")/.."

BOT=build/ringside
tmp=$(mktemp -d /tmp/ringside-install-XXXXXX)
botpid=
cleanup() {
    if [ -n "$botpid" ]; then kill -TERM "$botpid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
fail() {
    echo "install_test: FAIL: $*"
    failures=$((failures + 1))
}
ok() { echo "install_test: ok: $*"; }

# The files of a tree as "mode path", sorted (directories apart).
files_of() {
    (cd "$1" && find . \( -type f -o -type l \) -printf '%m %P\n' | sort)
}

# ------------------------------------------------------------ 1. install
root=$tmp/root
if ! make -s --no-print-directory install DESTDIR="$root" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    fail "make install DESTDIR=$root failed"
    exit 1
fi
{
    for p in $(make -s --no-print-directory print-install-programs); do
        echo "755 usr/local/bin/$p"
    done
    for m in man/*.[1-8]; do
        echo "644 usr/local/share/man/man${m##*.}/${m##*/}"
    done
    echo "644 usr/local/share/doc/ringside/examples/ringside.conf.example"
    echo "644 usr/local/share/doc/ringside/examples/large-network.conf.example"
    echo "644 usr/local/lib/systemd/system/ringside.service"
    echo "640 etc/ringside/ringside.conf"
} | sort >"$tmp/expected"
for f in ringside ringside-sim; do
    grep -q " usr/local/bin/$f\$" "$tmp/expected" || fail "$f is not in INSTALL_PROGRAMS"
done
for m in ringside.1 ringside-sim.1 ringside.conf.5; do
    grep -q "/$m\$" "$tmp/expected" || fail "man/$m is missing"
done
files_of "$root" >"$tmp/installed"
if cmp -s "$tmp/expected" "$tmp/installed"; then
    ok "make install: $(wc -l <"$tmp/installed") files, as expected"
else
    fail "make install did not install exactly the expected files (- expected, + installed):"
    diff "$tmp/expected" "$tmp/installed" | sed -n 's/^[<>]/  &/p'
fi

unit=$root/usr/local/lib/systemd/system/ringside.service
for line in 'User=ringside' 'Group=ringside' \
    'ExecStart=/usr/local/bin/ringside -c /etc/ringside/ringside.conf' \
    "ExecReload=/bin/kill -HUP \$MAINPID" 'Restart=on-failure' 'StateDirectory=ringside' \
    'NoNewPrivileges=yes' 'PrivateTmp=yes' 'ProtectSystem=strict' 'ProtectHome=yes' \
    'WantedBy=multi-user.target'; do
    grep -qxF "$line" "$unit" || fail "the unit lacks the line $line"
done
if grep -q '@[A-Z]*@' "$unit"; then fail "the unit has a placeholder left: $(grep '@[A-Z]*@' "$unit")"; fi
if command -v systemd-analyze >/dev/null 2>&1; then
    # Offline: the unit's syntax and every key known to this systemd (with
    # ExecStart pointed at the binary in the scratch tree).
    sed "s|=/usr/local/bin/|=$root/usr/local/bin/|" "$unit" >"$tmp/ringside.service"
    if systemd-analyze verify --man=no "$tmp/ringside.service" >"$tmp/verify" 2>&1 &&
        ! [ -s "$tmp/verify" ]; then
        ok "systemd-analyze verify: no complaint about the unit"
    else
        fail "systemd-analyze verify: $(cat "$tmp/verify")"
    fi
else
    echo "install_test: skipped systemd-analyze verify (no systemd-analyze here)"
fi

conf=$root/etc/ringside/ringside.conf
grep -qx 'database = /var/lib/ringside/ringside.db' "$conf" ||
    fail "the service's configuration does not put the database in /var/lib/ringside"
if ! grep -qx 'server = 127.0.0.1' "$conf" || ! grep -qx 'channels = #ringside' "$conf"; then
    fail "the service's configuration is not pointed at #ringside on a local server"
fi
out=$("$root/usr/local/bin/ringside" --check-config "$conf" 2>&1) ||
    fail "the installed bot refuses the installed configuration: $out"
version=$("$root/usr/local/bin/ringside" --version)
case "$version" in "ringside "[0-9]*) ;; *) fail "ringside --version says: $version" ;; esac
if [ -f debian/changelog ]; then
    deb=$(sed -n '1s/^ringside (\([^)]*\)).*/\1/p' debian/changelog)
    case "$version" in
    "ringside $deb "*) ok "ringside --version and debian/changelog agree: $deb" ;;
    *) fail "ringside --version ($version) is not debian/changelog's $deb" ;;
    esac
fi

# ------------------------------------------------------------ 2. man pages
for m in "$root"/usr/local/share/man/man*/*; do
    name=${m##*/}
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" >"$tmp/man.txt" 2>"$tmp/man.err" ||
        fail "man -l $name failed: $(cat "$tmp/man.err")"
    groff -man -ww -z "$m" 2>>"$tmp/man.err" || fail "groff -man -ww failed on $name"
    if [ -s "$tmp/man.err" ]; then
        fail "$name renders with warnings:"
        sed 's/^/  /' "$tmp/man.err"
    else
        ok "$name renders without a warning ($(wc -l <"$tmp/man.txt") lines)"
    fi
done
render() { LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$1" 2>/dev/null | col -b; }
render man/ringside.1 >"$tmp/ringside.txt"
render man/ringside-sim.1 >"$tmp/ringside-sim.txt"
render man/ringside.conf.5 >"$tmp/ringside.conf.txt"
for prog in ringside ringside-sim; do
    for opt in $("build/$prog" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "$opt" "$tmp/$prog.txt" || fail "$prog($prog) does not document $opt"
    done
done
sed -n 's/^\([a-z_]*\) =.*/\1/p' config/ringside.conf.example >"$tmp/keys"
while read -r key; do
    grep -qE "^ +$key = " "$tmp/ringside.conf.txt" || fail "ringside.conf(5) does not document $key"
done <"$tmp/keys"
sed -n 's/^\[\([a-z]*\)\]$/\1/p' config/ringside.conf.example >"$tmp/sections"
while read -r section; do
    grep -q "^\[$section\] SECTION" "$tmp/ringside.conf.txt" ||
        fail "ringside.conf(5) has no [$section] SECTION"
done <"$tmp/sections"
ok "the man pages document every option of --help and every key of the example"

# ------------------------------------------------------------ 3. uninstall
if ! make -s --no-print-directory uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1; then
    cat "$tmp/uninstall.log"
    fail "make uninstall failed"
fi
left=$(files_of "$root")
[ -z "$left" ] || fail "make uninstall left files: $left"
for d in etc/ringside usr/local/share/doc/ringside; do
    [ ! -e "$root/$d" ] || fail "make uninstall left the folder $d"
done
[ -z "$left" ] && ok "make uninstall removed every file it installed"

# An edited configuration survives install and uninstall.
make -s --no-print-directory install DESTDIR="$root" >"$tmp/install.log" 2>&1
echo "nick = mybot" >>"$conf"
cp "$conf" "$tmp/edited.conf"
make -s --no-print-directory install DESTDIR="$root" >"$tmp/install.log" 2>&1
cmp -s "$conf" "$tmp/edited.conf" || fail "make install overwrote an edited configuration"
grep -q "kept .*ringside.conf" "$tmp/install.log" || fail "make install did not say it kept the file"
make -s --no-print-directory uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1
left=$(files_of "$root")
if [ "$left" = "640 etc/ringside/ringside.conf" ] && grep -q "kept .*edited" "$tmp/uninstall.log"; then
    ok "an edited configuration is kept by install and uninstall, and nothing else"
else
    fail "after uninstall with an edited configuration: $left"
fi

# ------------------------------------------------------------ 4. --check-config
good=$tmp/good.conf
printf '[irc]\nserver = 127.0.0.1\nchannels = #ringside\n\n[bot]\ndatabase = %s/bot.db\n' \
    "$tmp" >"$good"
chmod 600 "$good"
if out=$($BOT --check-config "$good" 2>&1) && [ "$out" = "$good: configuration ok" ]; then
    ok "--check-config on a good file: exit 0, $out"
else
    fail "--check-config on a good file: $out"
fi
[ ! -e "$tmp/bot.db" ] || fail "--check-config created the database"
$BOT --check-config config/ringside.conf.example >/dev/null 2>&1 ||
    fail "--check-config refuses the example"

# check_bad NAME TEXT WANT: --check-config exits 1 with WANT (the start of
# the message after the file name; the rest lists what is accepted).
check_bad() {
    printf '%b' "$2" >"$tmp/$1"
    set +e
    out=$($BOT --check-config "$tmp/$1" 2>&1)
    rc=$?
    set -e
    case "$rc $out" in
    "1 ringside: $tmp/$1$3"*) ok "--check-config on $1: exit 1, ${out#ringside: "$tmp"/}" ;;
    *) fail "--check-config on $1: exit $rc, $out (wanted exit 1, ringside: $tmp/$1$3)" ;;
    esac
}
check_bad unknown.conf '[irc]\nserver = 127.0.0.1\n\nnikc = bot\n' \
    ':4: unknown key "nikc" in [irc]; keys are '
check_bad port.conf '[irc]\nport = 99999\n' ':2: port "99999" is not a port (1-65535)'
check_bad section.conf '; a comment\n[ircd]\n' ':2: unknown section [ircd]; sections are irc, '
check_bad syntax.conf '[irc]\nserver\n' ':2: expected "key = value", a [section] or a comment (; or #)'
set +e
out=$($BOT --check-config "$tmp/missing.conf" 2>&1)
rc=$?
set -e
if [ $rc -ne 1 ] || [ "$out" != "ringside: cannot read $tmp/missing.conf: No such file or directory" ]; then
    fail "--check-config on a missing file: exit $rc, $out"
fi
# Started by naming the dynamic loader (/proc/self/exe is then the loader),
# the bot does not execute itself again for glibc's malloc tunable: the
# loader would take "-c" for the program to load.
loader=$(readelf -l "$BOT" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
if [ -n "$loader" ] && [ -x "$loader" ]; then
    set +e
    out=$("$loader" "$BOT" -c "$tmp/missing.conf" 2>&1)
    rc=$?
    set -e
    if [ $rc -ne 2 ] || [ "$out" != "ringside: cannot read $tmp/missing.conf: No such file or directory" ]; then
        fail "started through $loader: exit $rc, $out"
    fi
fi
set +e
$BOT --check-config >/dev/null 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || fail "--check-config without a file: exit $rc, not 2"

secret=$tmp/secret.conf
printf '[irc]\nchannels = #ringside\nnickserv_password = hunter2\n[bot]\ndatabase = %s/db/ringside.db\nlog_level = info\n[flood]\n[bout]\n' \
    "$tmp" >"$secret"
chmod 644 "$secret"
out=$($BOT --check-config "$secret" 2>&1) || fail "--check-config refuses $secret: $out"
case "$out" in
*"warning: $secret holds nickserv_password and is readable by every local user (mode 644)"*)
    ok "--check-config warns about a password others can read" ;;
*) fail "--check-config gave no warning for a password others can read: $out" ;;
esac
case "$out" in *hunter2*) fail "--check-config repeated the password" ;; esac

# ------------------------------------------------------------ 5. the bot, umask 000
# No IRC server listens on port 1 of loopback: the bot opens its database,
# then tries to connect (and retries) until it is stopped.
mkdir "$tmp/db"
sed -i 's/^\[irc\]$/[irc]\nserver = 127.0.0.1\nport = 1/' "$secret"
(
    umask 000
    exec $BOT -c "$secret" 2>"$tmp/bot.log"
) &
botpid=$!
i=0
while [ $i -lt 300 ] && ! [ -e "$tmp/db/ringside.db-wal" ]; do
    sleep 0.1
    i=$((i + 1))
done
for f in ringside.db ringside.db-wal ringside.db-shm; do
    if [ -e "$tmp/db/$f" ]; then
        mode=$(stat -c %a "$tmp/db/$f")
        if [ "$mode" = 600 ]; then
            ok "under umask 000 the bot made $f mode 600"
        else
            fail "under umask 000 the bot made $f mode $mode, not 600"
        fi
    else
        fail "the bot made no $f in 30 s (log: $(cat "$tmp/bot.log"))"
    fi
done
# A reload (SIGHUP) warns again. The bot sets its signal handlers once its
# database and game are open, just before it first connects: a SIGHUP
# before that would end it (the default action), so wait for that line
# (it can take seconds while make check runs every suite at once).
i=0
while [ $i -lt 300 ] && ! grep -q "connecting to 127.0.0.1:1" "$tmp/bot.log"; do
    sleep 0.1
    i=$((i + 1))
done
if ! kill -HUP "$botpid" 2>/dev/null; then
    set +e
    wait "$botpid"
    rc=$?
    set -e
    botpid=
    fail "the bot stopped by itself (exit $rc) before SIGHUP: $(cat "$tmp/bot.log")"
    exit 1
fi
i=0
while [ $i -lt 300 ] && ! grep -q "configuration reloaded" "$tmp/bot.log"; do
    sleep 0.1
    i=$((i + 1))
done
sleep 0.2
kill -TERM "$botpid"
wait "$botpid" || true
botpid=
n=$(grep -c " warn $secret holds nickserv_password and is readable by every local user" "$tmp/bot.log" ||
    true)
if [ "$n" = 2 ]; then
    ok "the bot's log warns that its configuration is readable by others, at start and reload"
else
    fail "$n warnings in the bot's log, not 2 (start, reload): $(cat "$tmp/bot.log")"
fi
case "$(cat "$tmp/bot.log")" in *hunter2*) fail "the bot's log holds the password" ;; esac
mode=$(stat -c %a "$tmp/db/ringside.db")
[ "$mode" = 600 ] || fail "after the bot stopped the database is mode $mode"

if [ $failures -ne 0 ]; then
    echo "install_test: $failures failure(s)"
    exit 1
fi
echo "install_test: all passed"
