#!/bin/sh
# Run a command again whenever it exits, as systemd's Restart=always does: honcho
# (platform/Procfile) restarts nothing, and a worker or beat that died would leave
# computer players and clocks stopped for good. TERM or INT ends the command and this
# loop.  Usage: platform/supervise.sh COMMAND [ARG...]
set -u
child=0
stopping=0
stop() {
    stopping=1
    [ "$child" -ne 0 ] && kill -TERM "$child" 2>/dev/null
}
trap stop TERM INT
while :; do
    "$@" &
    child=$!
    # wait returns early when a signal arrives: wait again for the child to end.
    while kill -0 "$child" 2>/dev/null; do
        wait "$child"
        status=$?
    done
    [ "$stopping" -eq 1 ] && exit 0
    echo "supervise: '$1' exited with status $status; starting it again in 2 s" >&2
    sleep 2
    [ "$stopping" -eq 1 ] && exit 0
done
