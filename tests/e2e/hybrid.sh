#!/bin/sh
# hybrid.sh - make ircd-hybrid 8 runnable beside ngircd, and print the path of
# its binary (the only thing written on standard output).
#
# Usage: tests/e2e/hybrid.sh        (as root the first time; idempotent)
#
# Debian's ngircd and ircd-hybrid packages conflict (installing one removes the
# other), so ircd-hybrid is not installed: its package is downloaded once into
# build/hybrid/ (`apt-get download`, kept there as a cache) and unpacked with
# `dpkg-deb -x`. Its module directory is compiled in, so the `libdir=` lines of
# the modules' .la files are pointed at the copy and /usr/lib/ircd-hybrid is
# made a symbolic link to the copy's. Its runtime libraries (libltdl7 ...) are
# ordinary Debian packages, installed by scripts/deps.sh when missing. It
# refuses to run as root, so a system user `ringside-e2e` is created to run it
# (tests/e2e/e2e.py starts it with setpriv as that user when run as root).
#
# When the checkout is not reachable by that user (a clone under /root, say),
# the unpacked tree is copied to /var/cache/ringside-e2e-hybrid and run from
# there. See ../shared/docs/irc-notes.md, "Debian's IRC servers side by side".
set -eu

USER_NAME=ringside-e2e
LINK=/usr/lib/ircd-hybrid
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache="$repo/build/hybrid"
tree="$cache/root"
say() { echo "hybrid.sh: $*" >&2; }
# The package file in the cache, or nothing.
cached_deb() {
    for f in "$cache"/ircd-hybrid_*.deb; do
        if [ -f "$f" ]; then
            echo "$f"
            return 0
        fi
    done
    return 0
}
die() { say "$*"; exit 1; }

as_user() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid="$USER_NAME" --regid="$USER_NAME" --clear-groups "$@"
    else
        "$@"
    fi
}

# Already prepared? (Also the whole story for a non-root user after a root run.)
ready() {
    run="$1"
    bin="$run/usr/sbin/ircd-hybrid"
    [ -x "$bin" ] || return 1
    [ "$(readlink "$LINK" 2>/dev/null)" = "$run/usr/lib/ircd-hybrid" ] || return 1
    if [ "$(id -u)" -eq 0 ]; then
        id -u "$USER_NAME" >/dev/null 2>&1 || return 1
    fi
    as_user "$bin" -version >/dev/null 2>&1 || return 1
    return 0
}

for run in "$tree" /var/cache/ringside-e2e-hybrid; do
    if ready "$run"; then
        echo "$run/usr/sbin/ircd-hybrid"
        exit 0
    fi
done

[ "$(id -u)" -eq 0 ] || die "ircd-hybrid is not prepared; run once as root: sudo $0"
command -v apt-get >/dev/null 2>&1 || die "this needs Debian's apt-get"

# 1. The package, downloaded once, unpacked once.
mkdir -p "$cache"
if [ ! -x "$tree/usr/sbin/ircd-hybrid" ]; then
    deb=$(cached_deb)
    if [ -z "$deb" ]; then
        say "downloading the ircd-hybrid package into $cache"
        # apt's sandbox user may not write here; it then downloads as root.
        if ! (cd "$cache" && apt-get download -q ircd-hybrid >/dev/null 2>&1); then
            apt-get update -qq >/dev/null
            (cd "$cache" && apt-get download -q ircd-hybrid >/dev/null 2>&1) ||
                die "apt-get download ircd-hybrid failed"
        fi
        deb=$(cached_deb)
        [ -n "$deb" ] || die "no ircd-hybrid_*.deb in $cache after apt-get download"
    fi
    rm -rf "$tree.new"
    dpkg-deb -x "$deb" "$tree.new"
    rm -rf "$tree"
    mv "$tree.new" "$tree"
fi

# 2. Its runtime libraries (the package's Depends, less what any system has).
sh "$repo/scripts/deps.sh" libltdl7 libgnutls30 libcrypt1 >&2 ||
    die "cannot install ircd-hybrid's libraries"

# 3. The user it runs as.
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
    say "creating the system user $USER_NAME"
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin "$USER_NAME" || die "useradd $USER_NAME failed"
fi

# 4. Where it runs from: the checkout's copy, if that user can reach it.
run="$tree"
if ! setpriv --reuid="$USER_NAME" --regid="$USER_NAME" --clear-groups \
    test -x "$tree/usr/sbin/ircd-hybrid"; then
    run=/var/cache/ringside-e2e-hybrid
    say "$USER_NAME cannot reach $tree; copying it to $run"
    rm -rf "$run"
    mkdir -p "$(dirname "$run")"
    cp -a "$tree" "$run"
    chmod -R a+rX "$run"
fi

# 5. Module paths: the .la files and the compiled-in directory.
find "$run/usr/lib/ircd-hybrid/modules" -name '*.la' | while read -r la; do
    dir=$(dirname "$la")
    sed -i "s|^libdir=.*|libdir='$dir'|" "$la"
done
if [ -e "$LINK" ] && [ ! -L "$LINK" ]; then
    die "$LINK is a real directory (ircd-hybrid installed?); remove it or the package first"
fi
ln -sfn "$run/usr/lib/ircd-hybrid" "$LINK"

ready "$run" || die "ircd-hybrid still does not run as $USER_NAME: $(as_user \
    "$run/usr/sbin/ircd-hybrid" -version 2>&1 | head -n 3)"
echo "$run/usr/sbin/ircd-hybrid"
