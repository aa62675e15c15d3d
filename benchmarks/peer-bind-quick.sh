#!/usr/bin/env bash
# One bind-load run against a server already listening, with its CPU per bind and resident memory.
#   benchmarks/peer-bind-quick.sh NAME SERVER_PID PORT THREADS SECONDS
# Drives peers/authrate.sh (UnboundID AuthRate --bindOnly, random uid=user.[0-4999], 10 s warm-up; SECONDS a
# multiple of 5), samples the server's utime and stime and its threads' context switches (voluntary and not)
# from /proc over the measured window, and prints one line:
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
start_file=$(mktemp)
cs_file=$(mktemp)
trap 'rm -f "$start_file" "$cs_file"' EXIT
( sleep 10; echo "$(cpu_ticks) $(kernel_ticks)" >"$start_file"; ctx_switches >"$cs_file" ) &
out=$("$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 10 2>&1) || { echo "$out" >&2; exit 1; }
wait
end=$(cpu_ticks); kend=$(kernel_ticks); cs_end=$(ctx_switches)
read -r start kstart <"$start_file"; cs_start=$(cat "$cs_file")
result=$(grep '^RESULT' <<<"$out")
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
binds=$(sed 's/.*binds_per_s=\([0-9.]*\).*/\1/' <<<"$result")
us=$(awk -v t=$((end - start)) -v hz="$tck" -v b="$binds" -v s="$secs" 'BEGIN { printf "%.1f", t / hz / (b * s) * 1e6 }')
ks=$(awk -v k=$((kend - kstart)) -v t=$((end - start)) 'BEGIN { printf "%.2f", (t > 0 ? k / t : 0) }')
cs=$(awk -v c=$((cs_end - cs_start)) -v b="$binds" -v s="$secs" 'BEGIN { printf "%.2f", c / (b * s) }')
echo "$name threads=$threads $result server_cpu_us_per_bind=$us kernel_share=$ks cs_per_bind=$cs rss_mib=$((rss_kib / 1024))"
