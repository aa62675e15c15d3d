#!/usr/bin/env bash
# One reconnect-storm run against a server already listening, with the server's CPU per connection.
#   benchmarks/reconnect-quick.sh NAME SERVER_PID PORT THREADS SECONDS
# Drives io.bindfirst.bench.ReconnectRate (in benchmarks/target/benchmarks.jar: build it with the project):
# THREADS client threads each connect, handshake, bind as a random uid=user.[0-4999] ("password"), unbind
# and close, for SECONDS after a warm-up. Samples the server's utime+stime from /proc over the measured
# window and prints one line:
#   NAME RESULT tls=... conns_per_s=... storm_p99_ms=... [established_...] server_cpu_us_per_conn=U rss_mib=R
# (With ESTABLISHED > 0 the server's CPU also pays for those binds; U divides by connections only.)
# Env: TLS=full|resumed|none (full; PORT is then an LDAPS port, or a plain one with none)
#      PROTOCOL=TLSv1.3|TLSv1.2 (TLSv1.3)  ESTABLISHED=N (0)  WARMUP=5  JAVA=java  CLIENT_CPUS (taskset list)
#      CLIENT_TLS=jdk|conscrypt (jdk: whose TLS the client uses; Conscrypt's native handshakes leave the shared
#      cores to the server, so the storm measures the server more than its client)
#      BENCH_JAR (default: benchmarks/target/benchmarks.jar beside this script)
# Exit: 0 measured; 1 the load failed (its output is printed); 2 usage, no jar, or a pid that does not run.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 5 )) || { echo "usage: reconnect-quick.sh NAME SERVER_PID PORT THREADS SECONDS (see --help)" >&2; exit 2; }
name=$1 pid=$2 port=$3 threads=$4 secs=$5
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${BENCH_JAR:-$HERE/target/benchmarks.jar}
[[ -r $JAR ]] || { echo "no $JAR: build the project first (mvn -DskipTests package)" >&2; exit 2; }
[[ -r /proc/$pid/stat ]] || { echo "no process $pid: give the pid of the server listening on $port" >&2; exit 2; }
warm=${WARMUP:-5}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
tck=$(getconf CLK_TCK)
window=$(mktemp)
trap 'rm -f "$window"' EXIT
( sleep "$warm"; a=$(cpu_ticks); sleep "$secs"; echo "$a $(cpu_ticks)" >"$window" ) &
PIN=()
[[ -n "${CLIENT_CPUS:-}" ]] && PIN=(taskset -c "$CLIENT_CPUS")
out=$(timeout --kill-after=10 $((warm + secs + 60)) "${PIN[@]}" "${JAVA:-java}" -cp "$JAR" \
  io.bindfirst.bench.ReconnectRate --port "$port" --tls "${TLS:-full}" --protocol "${PROTOCOL:-TLSv1.3}" --client-tls "${CLIENT_TLS:-jdk}" \
  --threads "$threads" --established "${ESTABLISHED:-0}" --warmup "$warm" --seconds "$secs" 2>&1) \
  || { echo "$out" >&2; exit 1; }
wait
read -r start end <"$window"
result=$(grep '^RESULT' <<<"$out")
conns=$(sed 's/.*conns_per_s=\([0-9.]*\).*/\1/' <<<"$result")
us=$(awk -v t=$((end - start)) -v hz="$tck" -v c="$conns" -v s="$secs" 'BEGIN { printf "%.1f", (c > 0 ? t / hz / (c * s) * 1e6 : 0) }')
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
echo "$name $result server_cpu_us_per_conn=$us rss_mib=$((rss_kib / 1024))"
