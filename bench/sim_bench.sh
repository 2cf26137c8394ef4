#!/bin/sh
# sim_bench.sh - whole-program throughput of ringside-sim, in bouts per second.
#
# Usage: sh bench/sim_bench.sh PATH_TO_SIM
# Takes the figure from the simulator's own --bouts statistics: a short run
# measures the rate, then a run sized for about SIM_BENCH_SECONDS (default 2)
# gives the figure printed as `sim.bouts_per_sec VALUE bouts/s`.
set -eu

SIM=${1:?usage: sh bench/sim_bench.sh PATH_TO_SIM}
SECONDS_WANTED=${SIM_BENCH_SECONDS:-2}

# A 12-round bout between evenly matched fighters with varied orders.
rate() {
    "$SIM" --bouts "$1" --seed 1 \
        --a 'Rocky str=14 spd=12 agl=11 tgh=12 hgt=11' \
        --b 'Apollo str=13 spd=13 agl=12 tgh=11 hgt=12' \
        --orders-a '5/5/10 (ring),4H/8/8 (inside),6/6/8 (counter),5B/7/8' \
        --orders-b '5/6/9 (feint),4/5/11 (clinch),6H/6/8 (outside),5/5/10' |
        sed -n 's/^bouts_per_sec //p'
}

probe=$(rate 2000)
[ -n "$probe" ] || { echo "sim_bench: no bouts_per_sec line from $SIM" >&2; exit 1; }
bouts=$(awk -v r="$probe" -v s="$SECONDS_WANTED" 'BEGIN {
    n = int(r * s); if (n < 1000) n = 1000; if (n > 10000000) n = 10000000; print n }')
figure=$(rate "$bouts")
[ -n "$figure" ] || { echo "sim_bench: no bouts_per_sec line from $SIM" >&2; exit 1; }
echo "sim.bouts_per_sec $figure bouts/s"
