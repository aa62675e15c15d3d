#!/usr/bin/env bash
# One bind-load run against a server already listening, with its CPU per bind and resident memory.
#   benchmarks/peer-bind-quick.sh NAME SERVER_PID PORT THREADS SECONDS
# Drives peers/authrate.sh (UnboundID AuthRate --bindOnly, random uid=user.[0-4999], 10 s warm-up; SECONDS a
# multiple of 5), samples the server's utime and stime and its threads' context switches (voluntary and not)
# from /proc inside the measured window (from 11 s to SECONDS + 8 s after the load starts, so neither the tool's
# start nor its closing of the connections counts), and prints one line:
#   NAME threads=T RESULT ... server_cpu_us_per_bind=U kernel_share=K cs_per_bind=C rss_mib=R
# (K: the kernel's share of the server's CPU, stime / (utime + stime).)
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
kernel_ticks() { awk '{print $15}' "/proc/$pid/stat"; }
# Threads that ended in the window take their switches with them; the server's threads live as long as it.
ctx_switches() { cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'; }
tck=$(getconf CLK_TCK)
window_file=$(mktemp)
trap 'rm -f "$window_file"' EXIT
sample() { echo "$(date +%s.%N) $(cpu_ticks) $(kernel_ticks) $(ctx_switches) $(awk '/VmRSS/ {print $2}' "/proc/$pid/status")"; }
( sleep 11; sample >"$window_file"; sleep $((secs - 3)); sample >>"$window_file" ) &
out=$("$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 10 2>&1) || { echo "$out" >&2; exit 1; }
wait
result=$(grep '^RESULT' <<<"$out")
binds=$(sed 's/.*binds_per_s=\([0-9.]*\).*/\1/' <<<"$result")
read -r us ks cs rss_kib < <(awk -v hz="$tck" -v b="$binds" 'NR == 1 { t0 = $1; c0 = $2; k0 = $3; s0 = $4 }
  NR == 2 { el = $1 - t0; c = $2 - c0; printf "%.1f %.2f %.2f %d\n", c / hz / (b * el) * 1e6, (c > 0 ? ($3 - k0) / c : 0),
            ($4 - s0) / (b * el), $5 }' "$window_file")
echo "$name threads=$threads $result server_cpu_us_per_bind=$us kernel_share=$ks cs_per_bind=$cs rss_mib=$((rss_kib / 1024))"
