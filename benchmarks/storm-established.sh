#!/usr/bin/env bash
# Established LDAPS connections during a storm of full TLS handshakes, side by side for servers already
# listening, in alternating rounds:
#   benchmarks/storm-established.sh NAME:LDAPS_PORT:PID [NAME:LDAPS_PORT:PID ...]
# Per server and round, three cells, each after a first round of everything as a warm-up:
#   quiet  16 threads binding over LDAPS connections made before (ReconnectRate --established 16), alone;
#   storm  the same while another client JVM, at nice 10, runs STORM threads of full handshakes (connect,
#          handshake, bind, unbind, close): the clients of a real storm are other machines, and at nice 10 the
#          storm's client takes the CPU the established clients leave rather than theirs, so that what the
#          established connections still notice is the server's doing;
#   alone  the storm alone, its client at nice 0 (reconnect-quick.sh), with the server's CPU per connection.
# Prints one line per server and round:
#   NAME rR quiet_p50_ms=.. quiet_p99_ms=.. quiet_binds_per_s=.. storm_p50_ms=.. storm_p99_ms=.. p99_ratio=..
#          storm_binds_per_s=.. storm_conns_per_s=.. alone_conns_per_s=.. alone_server_cpu_us_per_conn=..
# Env: ROUNDS=3  SECONDS_PER_CELL=10  STORM=200  PROTOCOL=TLSv1.3  JAVA=java
#      CLIENT_TLS=jdk|conscrypt: whose TLS the storm's client uses (jdk; conscrypt's native handshakes take a few
#      times less of the machine, so more of what the established connections notice is the servers')
#      STORM_PORT: aim the storm at another server's LDAPS port instead (a control: what the storm's client and
#      handshakes do to the established connections through the machine alone, the server under test not
#      seeing the storm)
#      BENCH_JAR (default: benchmarks/target/benchmarks.jar beside this script)
# Exit: 0 measured; 1 a run failed (its output is printed); 2 usage, no jar, or a pid that does not run.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# >= 1 )) || { echo "usage: storm-established.sh NAME:LDAPS_PORT:PID ... (see --help)" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${BENCH_JAR:-$HERE/target/benchmarks.jar}
[[ -r $JAR ]] || { echo "no $JAR: build the project first (mvn -DskipTests package)" >&2; exit 2; }
for s in "$@"; do
  IFS=: read -r n p pid <<<"$s"
  [[ -n "$n" && "$p" =~ ^[0-9]+$ && "$pid" =~ ^[0-9]+$ ]] || { echo "not NAME:LDAPS_PORT:PID: $s" >&2; exit 2; }
  [[ -r /proc/$pid/stat ]] || { echo "no process $pid: give the pid of the server listening on $p" >&2; exit 2; }
done
[[ -z "${STORM_PORT:-}" || "$STORM_PORT" =~ ^[0-9]+$ ]] || { echo "STORM_PORT is not a port: $STORM_PORT" >&2; exit 2; }
rounds=${ROUNDS:-3} secs=${SECONDS_PER_CELL:-10} storm=${STORM:-200} proto=${PROTOCOL:-TLSv1.3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rate() { # PORT STORM_THREADS ESTABLISHED WARMUP SECONDS: one ReconnectRate run, its RESULT line
  local out
  out=$(timeout --kill-after=10 $(($4 + $5 + 60)) "${JAVA:-java}" -cp "$JAR" io.bindfirst.bench.ReconnectRate \
    --port "$1" --tls full --protocol "$proto" --threads "$2" --established "$3" --warmup "$4" --seconds "$5" 2>&1) \
    || { echo "$out" >&2; return 1; }
  grep '^RESULT' <<<"$out"
}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

cells() { # NAME PORT PID ROUND
  local q s a bg
  q=$(rate "$2" 0 16 3 "$secs")
  nice -n 10 timeout --kill-after=10 $((secs + 70)) "${JAVA:-java}" -cp "$JAR" io.bindfirst.bench.ReconnectRate \
    --port "${STORM_PORT:-$2}" --tls full --protocol "$proto" --client-tls "${CLIENT_TLS:-jdk}" \
    --threads "$storm" --established 0 --warmup 1 \
    --seconds $((secs + 6)) >"$tmp/storm" 2>&1 &
  bg=$!
  sleep 3
  s=$(rate "$2" 0 16 3 "$secs")
  wait "$bg" || { cat "$tmp/storm" >&2; return 1; }
  a=$(TLS=full PROTOCOL="$proto" WARMUP=3 "$HERE/reconnect-quick.sh" "$1" "$3" "$2" "$storm" "$secs" | tail -1)
  [[ $4 == 0 ]] && return 0
  awk -v n="$1" -v r="$4" -v qp50="$(field established_p50_ms "$q")" -v qp99="$(field established_p99_ms "$q")" \
    -v qb="$(field established_binds_per_s "$q")" -v sp50="$(field established_p50_ms "$s")" \
    -v sp99="$(field established_p99_ms "$s")" -v sb="$(field established_binds_per_s "$s")" \
    -v sc="$(field conns_per_s "$(grep '^RESULT' "$tmp/storm")")" -v ac="$(field conns_per_s "$a")" \
    -v au="$(field server_cpu_us_per_conn "$a")" 'BEGIN {
      printf "%s r%d quiet_p50_ms=%s quiet_p99_ms=%s quiet_binds_per_s=%s storm_p50_ms=%s storm_p99_ms=%s p99_ratio=%.2f storm_binds_per_s=%s storm_conns_per_s=%s alone_conns_per_s=%s alone_server_cpu_us_per_conn=%s\n",
        n, r, qp50, qp99, qb, sp50, sp99, (qp99 > 0 ? sp99 / qp99 : 0), sb, sc, ac, au }'
}

servers=("$@")
for r in $(seq 0 "$rounds"); do
  order=("${servers[@]}")
  if (( r % 2 == 0 )); then # every other round in the reverse order
    order=(); for ((i = ${#servers[@]} - 1; i >= 0; i--)); do order+=("${servers[i]}"); done
  fi
  for s in "${order[@]}"; do
    IFS=: read -r n p pid <<<"$s"
    cells "$n" "$p" "$pid" "$r" || exit 1
  done
done
