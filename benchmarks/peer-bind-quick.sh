#!/usr/bin/env bash
# One bind-load run against a server already listening, with its CPU per bind and resident memory.
#   benchmarks/peer-bind-quick.sh NAME SERVER_PID PORT THREADS SECONDS
# Drives peers/authrate.sh (UnboundID AuthRate --bindOnly, random uid=user.[0-4999], 10 s warm-up; SECONDS a
# multiple of 5), samples the server's utime+stime from /proc over the measured window, and prints one line:
#   NAME threads=T RESULT ... server_cpu_us_per_bind=U rss_mib=R
# Run it from a scratch folder outside the checkout (the AuthRate jar goes to ./.peers/dl, or PEERS_DIR).
# A single run, for a first look; peer-matrix.sh alternates servers and takes medians.
# Exit: 0 measured; 1 the load failed (its output is printed); 2 usage or a server pid that does not run.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 5 )) || { echo "usage: peer-bind-quick.sh NAME SERVER_PID PORT THREADS SECONDS (see --help)" >&2; exit 2; }
name=$1 pid=$2 port=$3 threads=$4 secs=$5
[[ -r /proc/$pid/stat ]] || { echo "no process $pid: give the pid of the server listening on $port" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
tck=$(getconf CLK_TCK)
start_file=$(mktemp)
trap 'rm -f "$start_file"' EXIT
( sleep 10; cpu_ticks >"$start_file" ) &
out=$("$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 10 2>&1) || { echo "$out" >&2; exit 1; }
wait
end=$(cpu_ticks); start=$(cat "$start_file")
result=$(grep '^RESULT' <<<"$out")
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
binds=$(sed 's/.*binds_per_s=\([0-9.]*\).*/\1/' <<<"$result")
us=$(awk -v t=$((end - start)) -v hz="$tck" -v b="$binds" -v s="$secs" 'BEGIN { printf "%.1f", t / hz / (b * s) * 1e6 }')
echo "$name threads=$threads $result server_cpu_us_per_bind=$us rss_mib=$((rss_kib / 1024))"
