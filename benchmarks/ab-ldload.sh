#!/usr/bin/env bash
# A/B of server CPU per operation between two running builds of this server, alternating, with ldload (the
# light C client): for a change on the bind or search path.
#   benchmarks/ab-ldload.sh OLD_PID OLD_PORT NEW_PID NEW_PORT
# Start each build from a checkout of its own with the sample data (bin/start-ds --port P --ldaps-port 0
# --metrics-port 0), then run this from a scratch folder outside the checkouts. It builds ldload if needed,
# pins both servers to CPU SERVER_CPU and the client to CLIENT_CPU, warms each server up (WARM seconds of each
# mode at each connection count), then for ROUNDS rounds runs every MODE at every CONNS against old and new, the
# order swapped every round, and prints each run's line and, per mode and connection count, the medians of
# server µs per operation and operations/s with the ratio new/old (below 1 for CPU: new costs less).
# Env: MODES="search login bind"  CONNS="16 200"  ROUNDS=4  SECS=10  WARM=10  SERVER_CPU=0  CLIENT_CPU=1
#      LDLOAD_ARGS (more ldload options, e.g. --users 5000)
# Exit: 0 measured; 1 a run failed; 2 usage, or a pid that does not run.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 4 )) || { echo "usage: ab-ldload.sh OLD_PID OLD_PORT NEW_PID NEW_PORT (see --help)" >&2; exit 2; }
old_pid=$1 old_port=$2 new_pid=$3 new_port=$4
for p in "$old_pid" "$new_pid"; do
  [[ -r /proc/$p/stat ]] || { echo "no process $p: give the pids of the two servers" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
MODES=${MODES:-search login bind} CONNS=${CONNS:-16 200} ROUNDS=${ROUNDS:-4} SECS=${SECS:-10} WARM=${WARM:-10}
"$HERE/ldload/build.sh" >/dev/null || { echo "could not build ldload (see benchmarks/ldload/build.sh)" >&2; exit 1; }
LDLOAD=$HERE/ldload/target/ldload
taskset -a -p -c "${SERVER_CPU:-0}" "$old_pid" >/dev/null
taskset -a -p -c "${SERVER_CPU:-0}" "$new_pid" >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run WHO MODE CONNS SECONDS: one ldload run, its line prefixed with who and tee'd into $out
run() {
  local who=$1 mode=$2 conns=$3 secs=$4 pid port line
  pid=${who}_pid port=${who}_port
  # shellcheck disable=SC2086
  line=$(taskset -c "${CLIENT_CPU:-1}" "$LDLOAD" --port "${!port}" --mode "$mode" --connections "$conns" \
    --seconds "$secs" --warmup 1 --server-pid "${!pid}" ${LDLOAD_ARGS:-} 2>/dev/null) \
    || { echo "ldload $mode against $who (port ${!port}) failed: run it by hand to see why" >&2; exit 1; }
  echo "who=$who $line" | tee -a "$out"
}

for who in old new; do
  for mode in $MODES; do for c in $CONNS; do run "$who" "$mode" "$c" "$WARM" >/dev/null; done; done
done
: >"$out"
for ((r = 1; r <= ROUNDS; r++)); do
  order="old new"; (( r % 2 == 0 )) && order="new old"
  for mode in $MODES; do for c in $CONNS; do for who in $order; do run "$who" "$mode" "$c" "$SECS"; done; done; done
done

echo
echo "medians over $ROUNDS rounds (server µs per op, ops/s, p99 µs):"
awk '
  { delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    k = f["mode"] " " f["conns"]; keys[k] = 1
    n = ++cnt[f["who"], k]; cpu[f["who"], k, n] = f["server_cpu_us_per_op"]; rate[f["who"], k, n] = f["rate"]
    p99[f["who"], k, n] = f["p99_us"] }
  function median(arr, who, k, n,   i, j, t, v) {
    for (i = 1; i <= n; i++) v[i] = arr[who, k, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
  END {
    for (k in keys) {
      no = cnt["old", k]; nn = cnt["new", k]
      co = median(cpu, "old", k, no); cn = median(cpu, "new", k, nn)
      ro = median(rate, "old", k, no); rn = median(rate, "new", k, nn)
      po = median(p99, "old", k, no); pn = median(p99, "new", k, nn)
      printf "%-14s old %6.1f µs %8.0f/s p99 %5d | new %6.1f µs %8.0f/s p99 %5d | cpu new/old %.3f  rate new/old %.3f\n",
        k, co, ro, po, cn, rn, pn, (co > 0 ? cn / co : 0), (ro > 0 ? rn / ro : 0) } }' "$out" | sort
