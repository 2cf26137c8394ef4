#!/bin/sh
# deb.sh - `make deb`: the Debian package, built by Debian's own tools.
#
# Usage: scripts/deb.sh BUILD_DIR
# Copies the source tree (without build/ and .git) to
# BUILD_DIR/deb/ringside-VERSION, runs dpkg-buildpackage there (binary
# package, unsigned), and lintian on the result. The package ends in
# BUILD_DIR/deb/ringside_VERSION_ARCH.deb; lintian's verdict in
# BUILD_DIR/deb/lintian.txt. Fails when the build fails or lintian reports an
# error.
set -eu
cd "$(dirname "$0")/.."
out=$1/deb

version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
src=$out/ringside-$version
rm -rf "$out"
mkdir -p "$src"
tar -c --exclude=./build --exclude=./.git --exclude='*.db' --exclude='*.db-wal' \
    --exclude='*.db-shm' . | tar -x -C "$src"

echo "deb: dpkg-buildpackage in $src (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    echo "deb: dpkg-buildpackage failed; the whole log is $out/build.log" >&2
    exit 1
fi
deb=$out/ringside_${version}_$arch.deb
[ -f "$deb" ] || { echo "deb: no $deb after the build" >&2; exit 1; }

# lintian as root warns that it should not run as root; it then checks all
# the same.
lintian --display-info --pedantic "$out/ringside_${version}_$arch.changes" \
    >"$out/lintian.txt" 2>&1 || true
sed 's/^/lintian: /' "$out/lintian.txt"
if grep -q '^E: ' "$out/lintian.txt"; then
    echo "deb: lintian reports errors (above)" >&2
    exit 1
fi
echo "deb: built $deb; lintian: $(grep -c '^E: ' "$out/lintian.txt") errors," \
    "$(grep -c '^W: ' "$out/lintian.txt") warnings"
