#!/usr/bin/env bash
# One bind-load run against a server already listening, with its CPU per bind and resident memory.
#   benchmarks/peer-bind-quick.sh NAME SERVER_PID PORT THREADS SECONDS
# Drives ../shared/peers/authrate.sh (UnboundID AuthRate --bindOnly, random uid=user.[0-4999], 10 s
# warm-up), samples the server's utime+stime from /proc over the measured window, and prints one line.
# Run it from a scratch folder outside the checkout (the peers' scripts write ./.peers/). PEERS points
# at the peers' folder (default: ../shared/peers beside this checkout).
# A first, single-run instrument; the full alternating matrix with medians is issue #4's.
set -euo pipefail
name=${1:?NAME}; pid=${2:?SERVER_PID}; port=${3:?PORT}; threads=${4:?THREADS}; secs=${5:?SECONDS}
HERE=$(cd "$(dirname "$0")" && pwd)
PEERS=${PEERS:-$HERE/../../shared/peers}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
tck=$(getconf CLK_TCK)
start_file=$(mktemp)
trap 'rm -f "$start_file"' EXIT
( sleep 10; cpu_ticks >"$start_file" ) &
result=$("$PEERS/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 10 2>&1 | grep '^RESULT')
wait
end=$(cpu_ticks); start=$(cat "$start_file")
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
binds=$(sed 's/.*binds_per_s=\([0-9.]*\).*/\1/' <<<"$result")
us=$(python3 -c "print(round(($end - $start) / $tck / ($binds * $secs) * 1e6, 1))")
echo "$name threads=$threads $result server_cpu_us_per_bind=$us rss_mib=$((rss_kib / 1024))"
