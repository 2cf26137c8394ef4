#!/usr/bin/env bash
# stop.sh - `make stop`: ends what `make run` (scripts/run.sh) started and
# left running: the web pages, the bot and the private IRC server, whose pids
# are in build/run/ (web.pid, bot.pid, ngircd.pid). A pid is signalled only
# if its process still has the name it was started with (ringside-web,
# the bot's program, ngircd), so a stale file never ends a stranger.
#
#   bash scripts/stop.sh [BOT]
#
# BOT is the bot's program (default build/ringside); only its name counts.
set -u

DIR=build/run
BOT=${1:-build/ringside}
stopped=0

# The pid in file $1 if its process is named $2 (else nothing); the file
# goes, so that make run, seeing it gone, knows the server is ending.
pid_of() {
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 0
    rm -f "$1"
    case $pid in '' | *[!0-9]*) return 0 ;; esac
    [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "$2" ] && echo "$pid"
}

# Ends process $1 (if any), saying so as $2.
stop_one() {
    local i=0
    [ -n "$1" ] || return 0
    kill -TERM "$1" 2>/dev/null || return 0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do
        i=$((i + 1))
        sleep 0.1
    done
    kill -0 "$1" 2>/dev/null && kill -KILL "$1" 2>/dev/null
    echo "stop: stopped $2 (pid $1)"
    stopped=1
}

ircd=$(pid_of "$DIR/ngircd.pid" ngircd)
web=$(pid_of "$DIR/web.pid" ringside-web)
bot=$(pid_of "$DIR/bot.pid" "$(basename "$BOT" | cut -c1-15)")
rm -f "$DIR/ngircd.port"
stop_one "$web" "the web pages"
stop_one "$bot" "the bot"
stop_one "$ircd" "the IRC server"
[ $stopped = 1 ] || echo "stop: nothing that make run started is running"
exit 0
