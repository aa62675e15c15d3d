#!/usr/bin/env bash
# Bind-only load against one server with UnboundID's AuthRate (LDAP SDK 7.0.5), for a fixed time.
#   authrate.sh HOST PORT THREADS SECONDS [WARMUP=10]
#
# Each of THREADS threads keeps one connection and re-binds on it (simple bind) as a random
# uid=user.R,ou=People,dc=example,dc=com, R uniform over 0..USERS-1 (the value pattern [0-N] draws at
# random; [0:N] would count up), password "password". AuthRate reports every 5 s, so SECONDS and WARMUP
# are multiples of 5; it stops by itself after WARMUP + SECONDS, and is stopped 30 s later if it has not.
# Prints the tool's output, then one line with the figures over the SECONDS after the warm-up:
#   RESULT tool=unboundid threads=T binds_per_s=B mean_ms=M errors_per_s=E
# What to know about the tool: it gives throughput and mean latency only, no percentiles (the mean is
# threads / throughput, by Little's law); it opens two connections per thread, one of which stays idle in
# --bindOnly mode (200 threads = 400 TCP connections, 200 binding); it costs about 26-35 us of client CPU
# per bind, as much as slapd itself, so on a small machine the client can be the limit.
#
# HOST must be a loopback address. The jar comes from Maven Central (com.unboundid:unboundid-ldapsdk:7.0.5)
# into PEERS_DIR/dl once; its pid is in PEERS_DIR/authrate.pid while it runs (stop-peers.sh authrate).
# Env: USERS=5000 (must match the loaded data)  CLIENT_CPUS (e.g. 1: pins the client with taskset -c)
#      BIND_DN (one DN instead of the random users) and PASSWORD (instead of "password"): a wrong-password
#      storm against one account, whose binds all count as errors
#      TLS=ldaps (PORT is an LDAPS port) or starttls (each connection does StartTLS first); the tool trusts
#      any certificate, which is what a load test needs and never what an application should do
#      JAVA=java  CLIENT_JAVA_OPTS  PEERS_DIR=./.peers
# Exit: 0 measured (errors, if any, are in the RESULT line); 1 the tool failed or reported nothing;
# 2 usage, a non-loopback HOST, missing tools.
set -euo pipefail
source "$(dirname "$0")/_lib.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
(( $# == 4 || $# == 5 )) || die 2 "usage: authrate.sh HOST PORT THREADS SECONDS [WARMUP=10] (see --help)"
HOST=$1 PORT=$2 THREADS=$3 SECS=$4 WARM=${5:-10}
for v in PORT THREADS SECS WARM; do [[ ${!v} =~ ^[0-9]+$ ]] || die 2 "$v must be a whole number, not '${!v}'"; done
(( SECS > 0 && SECS % 5 == 0 && WARM % 5 == 0 )) || die 2 "SECONDS (> 0) and WARMUP must be multiples of 5"
(( THREADS > 0 )) || die 2 "THREADS must be at least 1"
case "$HOST" in 127.*|localhost|::1) ;; *) die 2 "HOST must be a loopback address (127.0.0.1), not '$HOST'" ;; esac
init_work_dir
TLS_ARGS=()
case "${TLS:-}" in
  "") ;;
  ldaps) TLS_ARGS=(--useSSL --trustAll) ;;
  starttls) TLS_ARGS=(--useStartTLS --trustAll) ;;
  *) die 2 "TLS must be ldaps or starttls, not '$TLS'" ;;
esac
PIN=()
if [[ -n "${CLIENT_CPUS:-}" ]]; then command -v taskset >/dev/null || die 2 "taskset is missing"; PIN=(taskset -c "$CLIENT_CPUS"); fi
JAR_NAME=unboundid-ldapsdk-7.0.5.jar
maven_fetch com.unboundid:unboundid-ldapsdk:7.0.5 "$JAR_NAME"

OUT=$(mktemp "${TMPDIR:-/tmp}/authrate.XXXXXX")
trap 'rm -f "$OUT"' EXIT
# --numIntervals counts only the intervals after the warm-up; --filter is required but unused with --bindOnly.
"${PIN[@]}" timeout --kill-after=10 $((WARM + SECS + 30)) "${JAVA:-java}" ${CLIENT_JAVA_OPTS:-} -cp "$PEERS_DIR/dl/$JAR_NAME" \
    com.unboundid.ldap.sdk.examples.AuthRate --hostname "$HOST" --port "$PORT" ${TLS_ARGS[@]+"${TLS_ARGS[@]}"} --bindOnly \
    --baseDN "${BIND_DN:-uid=user.[0-$((USERS - 1))],ou=People,dc=example,dc=com}" --credentials "${PASSWORD:-password}" \
    --filter "(objectClass=*)" --numThreads "$THREADS" --intervalDuration 5 \
    --warmUpIntervals $((WARM / 5)) --numIntervals $((SECS / 5)) --timestampFormat none >"$OUT" 2>&1 &
pid=$!
echo "$pid" >"$PEERS_DIR/authrate.pid"
rc=0; wait "$pid" || rc=$?
rm -f "$PEERS_DIR/authrate.pid"
cat "$OUT"
# Data lines: recent binds/s, recent mean ms, recent errors/s, overall binds/s, overall mean ms. "Overall"
# restarts when the warm-up ends, so the last line's overall figures cover the measured window.
# A tool stopped by the timeout after it printed every measured interval (it can hang closing hundreds of TLS
# connections to slapd) still measured the whole window: its figures count, marked stopped_after_window=1.
awk -v t="$THREADS" -v rc="$rc" -v want=$((SECS / 5)) -v measured=$(( WARM == 0 )) '
  /[Ww]arm-up completed/ { measured = 1; next }
  NF == 5 && $1 ~ /^[0-9.]+$/ && $5 ~ /^[0-9.]+$/ && measured { b = $4; m = $5; e += $3; n++ }
  END {
    late = rc == 124 || rc == 137
    if (!n || (rc != 0 && !(late && n >= want))) { printf "RESULT tool=unboundid threads=%s FAILED exit=%s\n", t, rc; exit 1 }
    printf "RESULT tool=unboundid threads=%s binds_per_s=%.1f mean_ms=%.3f errors_per_s=%.1f%s\n", t, b, m, e / n,
      rc != 0 ? " stopped_after_window=1" : ""
  }' "$OUT" || die 1 "no figures: does a server holding the sample users listen on $HOST:$PORT? (the tool's output is above)"
