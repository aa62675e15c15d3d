#!/usr/bin/env bash
# Heap allocation per bind of a running server, and where it is allocated, with JFR.
#   benchmarks/alloc-per-bind.sh PID PORT ACCESS_LOG OUT_PREFIX
# Runs AuthRate (peers/authrate.sh: 16 connections, 5 s warm-up + 35 s) against the server on PORT and, once
# binds flow (its access log ACCESS_LOG grows by 2 MB), records 20 s of JFR into OUT_PREFIX.jfr with the JDK's
# profile settings but jdk.ObjectAllocationSample unthrottled, then prints (and writes to OUT_PREFIX.txt) what
# alloc-sites.py makes of it: bytes per bind = jdk.ThreadAllocationStatistics of every server thread (last minus
# first) over the BIND lines of the access log in that window (rotated files included), and the sites.
# Why unthrottled: at the profile's 300 samples a second, a sample's weight is everything its thread allocated
# since the last sample taken, so the first allocation after a selector thread wakes carries the whole idle
# gap: two arbitrary sites then held two thirds of the weight. Each TLAB refill sampled, weights are even.
# Needs python3 and the JDK's jcmd and jfr. Warm the server first (a bind-cache miss runs on a worker).
# Exit: 0 measured; 1 the load or the recording failed; 2 usage.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 4 )) || { echo "usage: alloc-per-bind.sh PID PORT ACCESS_LOG OUT_PREFIX (see --help)" >&2; exit 2; }
pid=$1 port=$2 access=$(realpath -m "$3") out=$(realpath -m "$4")
[[ -r /proc/$pid/stat ]] || { echo "no process $pid" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
jfc=$(mktemp --suffix=.jfc)
trap 'rm -f "$jfc"' EXIT
sed 's#<setting name="throttle" control="allocation-profiling">300/s</setting>#<setting name="throttle" control="allocation-profiling">100000/s</setting>#' \
    "$java_home/lib/jfr/profile.jfc" >"$jfc"
grep -q 100000/s "$jfc" || { echo "could not unthrottle jdk.ObjectAllocationSample in $java_home/lib/jfr/profile.jfc" >&2; exit 1; }
rm -f "$out.jfr"
size() { cat "$access"* 2>/dev/null | wc -c; }
"$HERE/peers/authrate.sh" 127.0.0.1 "$port" 16 35 5 >"$out.authrate" 2>&1 &
load=$!
start=$(size)
for _ in $(seq 1 120); do sleep 1; (( $(size) > start + 2000000 )) && break; done
jcmd "$pid" JFR.start name=allocperbind settings="$jfc" duration=20s filename="$out.jfr" >/dev/null
wait "$load" || { cat "$out.authrate" >&2; exit 1; }
grep '^RESULT' "$out.authrate"
for _ in $(seq 1 60); do [[ -s $out.jfr ]] && break; sleep 1; done
sleep 2
python3 "$HERE/alloc-sites.py" "$out.jfr" "$access" | tee "$out.txt"
