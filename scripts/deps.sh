#!/bin/sh
# deps.sh - make sure the Debian packages a make target needs are installed.
#
# Usage: scripts/deps.sh PACKAGE...
# Installs what is missing with apt-get (as root, or through passwordless
# sudo); otherwise stops with the exact command to run. Exits 0 when every
# package is there.
set -eu

missing=""
for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ringside: missing packages:$missing (this build expects Debian 12 and apt-get)" >&2
    exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "ringside: missing packages:$missing" >&2
    echo "ringside: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "ringside: installing$missing" >&2
$sudo apt-get update -qq
# shellcheck disable=SC2086 # the list is meant to split
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
