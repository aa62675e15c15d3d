#!/usr/bin/env bash
# Where a running server's CPU goes: async-profiler's CPU sampling (kernel frames included) over a window.
#   benchmarks/profile-cpu.sh PID SECONDS OUT.txt
# Loads async-profiler 3.0 (tools.profiler:async-profiler from Maven Central, into ~/.m2 with
# mvn dependency:get, its linux-x64 library unpacked under ~/.cache/async-profiler) into the JVM PID with
# `jcmd PID JVMTI.agent_load`, samples every thread's CPU every 200 µs for SECONDS, and writes the stacks in
# collapsed form (one line a stack, frames separated by ';', then the sample count) to OUT.txt. Run a load
# beside it (peers/authrate.sh, peer-bind-quick.sh); the share of a frame is its samples over the total.
# Linux x86-64 only. The JVM keeps the agent loaded until it exits.
# Exit: 0 written; 1 the profiler could not be fetched, loaded or stopped; 2 usage or no such JVM.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# == 3 )) || { echo "usage: profile-cpu.sh PID SECONDS OUT.txt (see --help)" >&2; exit 2; }
pid=$1 secs=$2 out=$(realpath -m "$3")
[[ -r /proc/$pid/stat ]] || { echo "no process $pid: give the pid of the server's JVM" >&2; exit 2; }
[[ $secs =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number" >&2; exit 2; }
version=3.0
jar=~/.m2/repository/tools/profiler/async-profiler/$version/async-profiler-$version.jar
lib=~/.cache/async-profiler/$version/linux-x64/libasyncProfiler.so
if [[ ! -f $lib ]]; then
  [[ -f $jar ]] || mvn -q -B dependency:get -Dartifact=tools.profiler:async-profiler:$version >/dev/null \
    || { echo "could not fetch tools.profiler:async-profiler:$version from Maven Central" >&2; exit 1; }
  mkdir -p "$(dirname "$(dirname "$lib")")"
  unzip -o -q "$jar" 'linux-x64/*' -d "$(dirname "$(dirname "$lib")")" \
    || { echo "could not unpack $jar" >&2; exit 1; }
fi
# jcmd hands the agent its options only when they are quoted as one argument inside the command.
jcmd "$pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=200us"' 2>/dev/null | grep -q 'return code: 0' \
  || { echo "the profiler did not start in $pid (a JVM's own output may say why)" >&2; exit 1; }
sleep "$secs"
jcmd "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out,collapsed\"" 2>/dev/null | grep -q 'return code: 0' \
  || { echo "the profiler did not stop in $pid" >&2; exit 1; }
[[ -s $out ]] || { echo "no samples written to $out" >&2; exit 1; }
echo "$out: $(awk '{ n += $NF } END { print n }' "$out") samples"
