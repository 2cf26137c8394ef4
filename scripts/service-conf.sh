#!/bin/sh
# service-conf.sh - the service's configuration from the example.
#
# Usage: scripts/service-conf.sh EXAMPLE SYSCONFDIR STATEDIR > ringside.conf
# The example (every key at its default, channels = #ringside, a server on
# 127.0.0.1:6667) with its header saying where it lives and the database in
# the service's state directory. Stops if the example no longer has the
# lines it rewrites.
set -eu
example=$1 sysconfdir=$2 statedir=$3

for line in '^database = ringside.db$' '^; Run the bot with'; do
    grep -q "$line" "$example" || {
        echo "service-conf: $example has no line $line to rewrite" >&2
        exit 1
    }
done
cat <<HEAD
; $sysconfdir/ringside/ringside.conf - the configuration of the ringside
; service: every key of Ringside's configuration, set to its default, but
; channels and the database, which is in the service's state directory.
; As installed it joins #ringside on an IRC server on this machine
; (127.0.0.1, port 6667); set server, port, channels and admins for yours.
;
; It may hold passwords: keep it readable by the bot only (owner root, group
; ringside, mode 640). Every key is explained in ringside.conf(5).
; Check it:  ringside --check-config $sysconfdir/ringside/ringside.conf
; Apply it:  systemctl reload ringside
HEAD
# The example's own header, to the line on how to run the bot, gives way.
sed -e '1,/^; Run the bot with/d' -e "s|^database = ringside.db\$|database = $statedir/ringside.db|" "$example"
