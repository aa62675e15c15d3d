#!/usr/bin/env bash
# A/B of server CPU per bind between two running builds of this server, alternating, for a change on the bind path.
#   benchmarks/ab-bind.sh OLD_PID OLD_PORT NEW_PID NEW_PORT
# Start each build from a checkout of its own with the sample data (bin/start-ds --port P --ldaps-port 0
# --metrics-port 0), then run this from a scratch folder outside the checkouts. It pins both servers to CPU
# SERVER_CPU and the load to CLIENT_CPU, warms each up (16 threads for 10 s, 200 threads for 20 s: C2 compiles
# for ~30 s at 200 connections), then for ROUNDS rounds runs peer-bind-quick.sh (UnboundID AuthRate, bind only)
# at each of THREADS against old and new, the order swapped every round, and prints each run's line and, per
# thread count, the medians of server µs per bind and binds/s with the ratio new/old (below 1: new costs less).
# Env: ROUNDS=4  THREADS="16 200"  SECS=20 (a multiple of 5)  SERVER_CPU=0  CLIENT_CPU=1
# Exit: 0 measured; 1 a load failed; 2 usage, or a pid that does not run.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 4 )) || { echo "usage: ab-bind.sh OLD_PID OLD_PORT NEW_PID NEW_PORT (see --help)" >&2; exit 2; }
old_pid=$1 old_port=$2 new_pid=$3 new_port=$4
for p in "$old_pid" "$new_pid"; do
  [[ -r /proc/$p/stat ]] || { echo "no process $p: give the pids of the two servers" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${ROUNDS:-4} THREADS=${THREADS:-16 200} SECS=${SECS:-20}
export CLIENT_CPUS=${CLIENT_CPU:-1}
taskset -a -p -c "${SERVER_CPU:-0}" "$old_pid" >/dev/null
taskset -a -p -c "${SERVER_CPU:-0}" "$new_pid" >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() { "$HERE/peer-bind-quick.sh" "$@" | tee -a "$out"; }
for who in old new; do
  pid=${who}_pid port=${who}_port
  "$HERE/peer-bind-quick.sh" "warm-$who" "${!pid}" "${!port}" 16 10 >/dev/null
  "$HERE/peer-bind-quick.sh" "warm-$who" "${!pid}" "${!port}" 200 20 >/dev/null
done
for round in $(seq 1 "$ROUNDS"); do
  for t in $THREADS; do
    if (( round % 2 )); then order="old new"; else order="new old"; fi
    for who in $order; do
      pid=${who}_pid port=${who}_port
      run "$who" "${!pid}" "${!port}" "$t" "$SECS"
    done
  done
done
python3 - "$out" <<'EOF'
import re, statistics, sys
cpu, rate = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r'^(old|new) threads=(\d+) .*binds_per_s=([\d.]+).*server_cpu_us_per_bind=([\d.]+)', line)
    if m:
        who, t = m.group(1), int(m.group(2))
        rate.setdefault((who, t), []).append(float(m.group(3)))
        cpu.setdefault((who, t), []).append(float(m.group(4)))
for t in sorted({t for _, t in cpu}):
    o, n = statistics.median(cpu[('old', t)]), statistics.median(cpu[('new', t)])
    print(f"threads={t} server_us_per_bind old={o:.1f} new={n:.1f} new/old={n / o:.3f} "
          f"binds_per_s old={statistics.median(rate[('old', t)]):.0f} new={statistics.median(rate[('new', t)]):.0f} "
          f"rounds={len(cpu[('old', t)])}")
EOF
