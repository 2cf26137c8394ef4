#!/bin/sh
# install-user.sh - `make install` into the real system (no DESTDIR): the
# system user the unit runs as, and the configuration given to it.
#
# Usage: scripts/install-user.sh CONFIG
# As root: creates the system user and group ringside (no login, home
# /var/lib/ringside, which systemd creates as the unit's StateDirectory)
# unless they exist, makes CONFIG owner root, group ringside, mode 640, and
# has systemd read the new unit. Otherwise: says what to run as root.
set -eu
conf=$1

if [ "$(id -u)" -ne 0 ]; then
    echo "install: not root, so no system user was made; as root run:"
    echo "  adduser --system --group --home /var/lib/ringside --no-create-home ringside"
    echo "  chgrp ringside $conf && chmod 640 $conf"
    exit 0
fi
if ! getent passwd ringside >/dev/null; then
    if command -v adduser >/dev/null 2>&1; then
        adduser --system --group --home /var/lib/ringside --no-create-home \
            --comment "Ringside IRC bot" --quiet ringside
    else
        useradd --system --user-group --home-dir /var/lib/ringside --no-create-home \
            --shell /usr/sbin/nologin --comment "Ringside IRC bot" ringside
    fi
    echo "install: created the system user ringside"
fi
chgrp ringside "$conf"
chmod 640 "$conf"
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    echo "install: edit $conf, then: systemctl enable --now ringside"
else
    echo "install: systemd is not running here; run the bot with: ringside -c $conf"
fi
