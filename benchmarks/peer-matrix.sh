#!/usr/bin/env bash
# Side-by-side bind benchmark: bindfirst, OpenLDAP slapd and OpenDJ 5.0.3 on this machine, loopback only.
#
#   mkdir -p ~/peerwork && cd ~/peerwork    # a scratch folder OUTSIDE the checkout: the peers' files go to ./.peers/
#   <checkout>/benchmarks/peer-matrix.sh    # full matrix: 3 reps x 3 thread counts x 2 pinnings x 3 servers
#   <checkout>/benchmarks/peer-matrix.sh --help
#
# For rep in 1..REPS, threads in THREADS, pin in PINS, the same load runs against every server in SERVERS,
# back to back (the starting server rotates with the rep, so no server always runs first): benchmarks/peers/
# authrate.sh, i.e. UnboundID AuthRate --bindOnly, random uid=user.[0-4999],ou=People,dc=example,dc=com,
# password "password", SECS measured seconds after WARM seconds of warm-up. AuthRate opens two TCP
# connections per thread (one stays idle in --bindOnly mode): 200 threads = 400 connections, 200 binding.
#   pinned:   server on CPU 0 (taskset -a -p -c 0 PID), client on CPU 1 (CLIENT_CPUS=1)
#   unpinned: server reset to all CPUs, client unpinned
# Over the measured window (from WARM+1 s to WARM+SECS-2 s) it samples /proc: server CPU (utime+stime of
# the server process), client CPU (authrate.sh and its children), softirq, "other" CPU = all busy CPU minus
# server minus client (noise from everything else on the machine), all in cores; at the end of the window
# the server's RSS (MiB) and its established TCP connections. One CSV row per run is appended to
# RESULTS/peer-matrix.csv; then peer-matrix-report.py writes RESULTS/peer-matrix.md (medians per
# server/threads/pin, ratios bindfirst/slapd and bindfirst/OpenDJ) and RESULTS/peer-matrix.svg.
#
# Servers: each one that is not running is started (bindfirst: bin/start-ds --port 1391, building first if
# needed; slapd: peers/setup-slapd.sh, which installs Debian's slapd the first time; OpenDJ: peers/setup-opendj.sh,
# which starts its existing ./.peers/opendj install or makes one, ~84 MB download + 1-2 min). At the end only the
# servers this script started are stopped (bin/stop-ds, peers/stop-peers.sh), unless KEEP=1. Running servers
# are reused. Everything the peers create goes under ./.peers (PEERS_DIR), outside the checkout.
#
# Env (defaults):
#   REPS=3  THREADS="1 16 200"  PINS="pinned unpinned"  SECS=30  WARM=10  (SECS, WARM: multiples of 5; SECS >= 5)
#   SERVERS="bindfirst slapd opendj"   ORDER=rotate|fixed   PAUSE=2 (s between runs)
#   PREWARM=20   one unrecorded 16-thread run of PREWARM s per server before the matrix (JIT warm-up); 0 = none
#   SKIP_SETUP=1 start nothing: every server in SERVERS must already run
#   KEEP=1       leave running the servers this script started
#   OPENDJ_FRESH=1  re-install OpenDJ (setup-opendj.sh --fresh) even if ./.peers/opendj exists
#   BUILD_WAIT=1800  BUSY_WAIT=600   s to wait for a Maven build in the checkout / for the checkout's instance on
#                another port (another session's) to end before starting bindfirst
#   BINDFIRST_PORT=1391 SLAPD_PORT=3389 OPENDJ_PORT=1389   SERVER_CPU=0 CLIENT_CPU=1
#   RESULTS=<checkout>/benchmarks/peer-results   PEERS_DIR=./.peers
#   REPORT_ONLY=1  only regenerate the markdown and SVG from the CSV (RUN=<id> picks a run; default the latest)
# Duration of the full run: REPS x |THREADS| x |PINS| x |SERVERS| x (WARM + SECS + PAUSE + ~2.3 s), i.e.
# 54 x ~44.3 s = ~40 min with the defaults, plus PREWARM (~1.5 min) and starting the servers: ~42 min.
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "peer-matrix.sh takes no arguments, only environment variables (see --help)" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$HERE/.." && pwd)
PEERS=$HERE/peers
RESULTS=${RESULTS:-$HERE/peer-results}
mkdir -p "$RESULTS"; RESULTS=$(cd "$RESULTS" && pwd)
CSV=$RESULTS/peer-matrix.csv
REPORT=(python3 "$HERE/peer-matrix-report.py" --csv "$CSV" --out "$RESULTS")

if [[ "${REPORT_ONLY:-0}" == 1 ]]; then
  exec "${REPORT[@]}" ${RUN:+--run "$RUN"}
fi

# The peers' helpers (pid_alive, wait_port) and PEERS_DIR (./.peers, absolute; refused inside the checkout).
source "$PEERS/_lib.sh"
init_work_dir

REPS=${REPS:-3}; THREADS=${THREADS:-1 16 200}; PINS=${PINS:-pinned unpinned}
SECS=${SECS:-30}; WARM=${WARM:-10}; PAUSE=${PAUSE:-2}; PREWARM=${PREWARM:-20}; ORDER=${ORDER:-rotate}
SERVERS=${SERVERS:-bindfirst slapd opendj}
SERVER_CPU=${SERVER_CPU:-0}; CLIENT_CPU=${CLIENT_CPU:-1}
export SLAPD_PORT=${SLAPD_PORT:-3389} OPENDJ_PORT=${OPENDJ_PORT:-1389}
BINDFIRST_PORT=${BINDFIRST_PORT:-1391}
unset CLIENT_CPUS   # pinning of the client is set per run
(( SECS >= 5 && SECS % 5 == 0 && WARM % 5 == 0 && PREWARM % 5 == 0 )) || {
  echo "SECS (>= 5), WARM and PREWARM must be multiples of 5 (AuthRate reports every 5 s)" >&2; exit 2; }
for s in $SERVERS; do case $s in bindfirst|slapd|opendj) ;; *) echo "unknown server '$s' in SERVERS" >&2; exit 2 ;; esac; done
for p in $PINS; do case $p in pinned|unpinned) ;; *) echo "unknown pin '$p' in PINS" >&2; exit 2 ;; esac; done
NCPU=$(nproc); HZ=$(getconf CLK_TCK)
(( NCPU >= 2 )) || { echo "needs at least 2 CPUs (server CPU $SERVER_CPU, client CPU $CLIENT_CPU)" >&2; exit 2; }
RUN_ID=$(date -u +%Y%m%dT%H%M%SZ)
LOGDIR=$PEERS_DIR/logs/peer-matrix-$RUN_ID; mkdir -p "$LOGDIR"

declare -A PORT=([bindfirst]=$BINDFIRST_PORT [slapd]=$SLAPD_PORT [opendj]=$OPENDJ_PORT)
declare -A PIDFILE=([bindfirst]=$MAIN/logs/server.pid [slapd]=$PEERS_DIR/slapd/slapd.pid [opendj]=$PEERS_DIR/opendj/logs/server.pid)
declare -A CMDLINE=([bindfirst]=io.bindfirst.server.Launcher [slapd]=$PEERS_DIR/slapd/slapd.conf [opendj]=org.opends.server.core.DirectoryServer)
declare -A STARTED=() SPID=()

log() { echo "[$(date +%H:%M:%S)] $*"; }

# server_pid NAME: the pid in the server's pid file if that process is the expected one, else nothing
server_pid() {
  local f=${PIDFILE[$1]} pid
  [[ -s "$f" ]] || return 0
  pid=$(tr -dc '0-9' <"$f")
  if pid_alive "$pid" "${CMDLINE[$1]}"; then echo "$pid"; fi
}

# check_listener NAME PID: the port is open and (when ss can tell) it is this pid that listens on it
check_listener() {
  local name=$1 pid=$2 port=${PORT[$1]} owners
  wait_port "$port" 5 || { echo "$name (pid $pid) does not listen on 127.0.0.1:$port" >&2
    [[ $name == bindfirst ]] && echo "(the checkout's logs/server.pid names an instance on another port: stop it with bin/stop-ds, or set BINDFIRST_PORT)" >&2
    return 1; }
  owners=$(ss -Hltnp "sport = :$port" 2>/dev/null || true)
  if [[ "$owners" == *pid=* && "$owners" != *"pid=$pid,"* ]]; then
    echo "127.0.0.1:$port is served by another process than $name (pid $pid): $owners" >&2; return 1
  fi
}

# Waits while a Maven build runs in the checkout (another session's), so start-ds does not race it.
wait_for_builds() {
  local waited=0 p cwd busy
  while :; do
    busy=
    for p in $(pgrep -f 'org.codehaus.plexus.classworlds' 2>/dev/null || true); do
      cwd=$(readlink "/proc/$p/cwd" 2>/dev/null || true)
      [[ "$cwd/" == "$MAIN"/* ]] && busy="$busy $p"
    done
    [[ -z "$busy" ]] && return 0
    (( waited == 0 )) && log "a Maven build runs in $MAIN (pid$busy); waiting for it to end (up to ${BUILD_WAIT:-1800} s)"
    (( waited >= ${BUILD_WAIT:-1800} )) && { echo "the build is still running after $waited s" >&2; return 1; }
    nap 5; waited=$((waited + 5))
  done
}

start_server() {
  local name=$1
  case $name in
    bindfirst)
      wait_for_builds
      log "starting bindfirst: (cd $MAIN && bin/start-ds --port $BINDFIRST_PORT)"
      (cd "$MAIN" && bin/start-ds --port "$BINDFIRST_PORT") ;;
    slapd)
      log "starting slapd: $PEERS/setup-slapd.sh (fresh load of $PEERS_DIR/users-5000.ldif)"
      "$PEERS/setup-slapd.sh" 2>&1 | sed 's/^/  slapd setup: /' ;;
    opendj)
      local fresh=(); [[ "${OPENDJ_FRESH:-0}" == 1 ]] && fresh=(--fresh)
      log "starting OpenDJ: $PEERS/setup-opendj.sh ${fresh[*]} (installs it first if needed: 1-2 min, 84 MB download)"
      "$PEERS/setup-opendj.sh" ${fresh[@]+"${fresh[@]}"} 2>&1 | sed 's/^/  opendj setup: /' ;;
  esac
  [[ -n "$(server_pid "$name")" ]] || { echo "$name did not start (no live pid in ${PIDFILE[$name]})" >&2; return 1; }
  STARTED[$name]=1
}

# The checkout is shared: logs/server.pid may meanwhile name another session's instance. bin/stop-ds when
# it still names ours, else TERM our own pid (checked) and wait like bin/stop-ds does.
stop_bindfirst() {
  local pid=$1
  [[ -n "$pid" ]] && pid_alive "$pid" "${CMDLINE[bindfirst]}" || return 0
  log "stopping bindfirst pid $pid (started by this script)"
  if [[ "$(tr -dc '0-9' <"${PIDFILE[bindfirst]}" 2>/dev/null)" == "$pid" ]]; then
    (cd "$MAIN" && bin/stop-ds) || true
  else
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 600); do pid_alive "$pid" "${CMDLINE[bindfirst]}" || break; sleep 0.1; done
  fi
}

set_affinity() { taskset -a -p -c "$2" "$1" >/dev/null; }   # PID CPULIST (all threads)
ALL_CPUS=0-$((NCPU - 1))

APID= NAP=
# nap SECONDS: a sleep that INT/TERM interrupt at once (bash runs traps only between foreground commands)
nap() { sleep "$1" & NAP=$!; wait "$NAP"; NAP=; }
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [[ -n "$NAP" ]] && kill "$NAP" 2>/dev/null || true
  if [[ -n "$APID" ]] && kill -0 "$APID" 2>/dev/null; then
    local c; c=$(tr -dc '0-9' <"$PEERS_DIR/authrate.pid" 2>/dev/null || true)
    pid_alive "$c" AuthRate && kill -TERM "$c" 2>/dev/null || true
    kill -TERM "$APID" 2>/dev/null || true
  fi
  for s in "${!SPID[@]}"; do
    pid_alive "${SPID[$s]}" "${CMDLINE[$s]}" && set_affinity "${SPID[$s]}" "$ALL_CPUS" 2>/dev/null || true
  done
  if [[ "${KEEP:-0}" != 1 ]]; then
    if [[ -n "${STARTED[bindfirst]:-}" ]]; then stop_bindfirst "${SPID[bindfirst]:-$(server_pid bindfirst)}"; fi
    if [[ -n "${STARTED[slapd]:-}${STARTED[opendj]:-}" ]]; then
      log "stopping ${STARTED[slapd]:+slapd }${STARTED[opendj]:+OpenDJ }(started by this script)"
      "$PEERS/stop-peers.sh" ${STARTED[slapd]:+slapd} ${STARTED[opendj]:+opendj} || true
    fi
  elif (( ${#STARTED[@]} )); then
    log "KEEP=1: leaving running what this script started: ${!STARTED[*]}"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- servers ---------------------------------------------------------------------------------------
# bindfirst_elsewhere: the checkout's instance runs (per logs/server.pid) but not on BINDFIRST_PORT, e.g. another
# session's test server on the same checkout; wait up to BUSY_WAIT s for it to go away.
bindfirst_elsewhere() {
  local pid waited=0
  while pid=$(server_pid bindfirst); [[ -n "$pid" ]]; do
    ss -Hltnp "sport = :$BINDFIRST_PORT" 2>/dev/null | grep -q "pid=$pid," && return 0
    (( waited == 0 )) && log "bindfirst from $MAIN already runs as pid $pid, not on port $BINDFIRST_PORT:" \
      "$(tr '\0' ' ' </proc/"$pid"/cmdline | grep -o -- '--port [0-9]*' || echo 'default port');" \
      "waiting up to ${BUSY_WAIT:-600} s for it to stop"
    (( waited >= ${BUSY_WAIT:-600} )) && { echo "it still runs; stop it (bin/stop-ds) or set BINDFIRST_PORT" >&2; exit 1; }
    nap 5; waited=$((waited + 5))
  done
}

for s in $SERVERS; do
  [[ $s == bindfirst && "${SKIP_SETUP:-0}" != 1 ]] && bindfirst_elsewhere
  pid=$(server_pid "$s")
  if [[ -z "$pid" ]]; then
    [[ "${SKIP_SETUP:-0}" == 1 ]] && { echo "SKIP_SETUP=1 but $s is not running (${PIDFILE[$s]})" >&2; exit 1; }
    start_server "$s"
    pid=$(server_pid "$s")
  else
    log "reusing the running $s (pid $pid)"
  fi
  check_listener "$s" "$pid"
  SPID[$s]=$pid
done
if command -v ldapwhoami >/dev/null; then
  for s in $SERVERS; do   # the highest uid the load uses must exist and bind everywhere
    ldapwhoami -x -H "ldap://127.0.0.1:${PORT[$s]}" -D "uid=user.4999,ou=People,dc=example,dc=com" -w password >/dev/null \
      || { echo "a bind as uid=user.4999 fails on $s (port ${PORT[$s]})" >&2; exit 1; }
  done
fi

# access_loggers CONFIG_LDIF: "name=enabled, ..." for every enabled-or-not LDAP access logger entry in a cn=config LDIF
access_loggers() {
  awk '/^dn: cn=[^,]*Access Logger,cn=Loggers,cn=config/ && !/HTTP/ { split($0, a, /[=,]/); n = a[2] }
       /^$/ { n = "" }
       n != "" && /^ds-cfg-enabled:/ { printf "%s%s=%s", sep, n, $2; sep = ", "; n = "" }' "$1" 2>/dev/null || true
}
jvm_flags() { tr '\0' '\n' <"/proc/$1/cmdline" | grep -E '^-X|^-server$' | tr '\n' ' ' | sed 's/ $//'; }
export META_RUN=$RUN_ID META_START=$(date -u +%FT%TZ) META_REPS=$REPS META_THREADS=$THREADS META_PINS=$PINS \
  META_SECS=$SECS META_WARM=$WARM META_PAUSE=$PAUSE META_PREWARM=$PREWARM META_ORDER=$ORDER META_SERVERS=$SERVERS \
  META_NCPU=$NCPU META_KERNEL=$(uname -r) META_CPU=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo) \
  META_MEM_GIB=$(awk '/MemTotal/{printf "%.0f", $2/1048576}' /proc/meminfo) \
  META_JAVA=$(java -version 2>&1 | head -1) META_SLAPD=$(slapd -VV 2>&1 | sed -n 's/.*\(slapd [^ ]*\).*/\1/p' | head -1) \
  META_LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg) \
  META_STARTED="${!STARTED[*]}" META_PORTS="bindfirst=$BINDFIRST_PORT slapd=$SLAPD_PORT opendj=$OPENDJ_PORT" \
  META_BINDFIRST_JVM=$([[ -n "${SPID[bindfirst]:-}" ]] && jvm_flags "${SPID[bindfirst]}" || true) \
  META_BINDFIRST_LOGS=$(access_loggers "$MAIN/config/config.ldif") \
  META_OPENDJ_LOGS=$(access_loggers "$PEERS_DIR/opendj/config/config.ldif") \
  META_SLAPD_LOGLEVEL=$(awk '$1 == "loglevel" {print $2}' "$PEERS_DIR/slapd/slapd.conf" 2>/dev/null || true) \
  META_OPENDJ_JVM=$([[ -n "${SPID[opendj]:-}" ]] && jvm_flags "${SPID[opendj]}" || true)

# --- measurement helpers (all from /proc) ------------------------------------------------------------
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }     # user nice system irq softirq steal
sirq() { awk '/^cpu /{print $8}' /proc/stat; }
pticks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }  # utime+stime, all threads
ptree() { local p=$1 c; echo "$p"; for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do ptree "$c"; done; }
treeticks() { local s=0 p; for p in $(ptree "$1"); do s=$((s + $(pticks "$p"))); done; echo $s; }
rss_mib() { awk '/^VmRSS/{printf "%.0f", $2/1024}' "/proc/$1/status" 2>/dev/null || echo; }
conns() { ss -Htn state established "( sport = :$1 )" 2>/dev/null | wc -l; }

HEADER="run,server,pin,threads,rep,slot,binds_per_s,mean_ms,errors_per_s,server_cpu,client_cpu,softirq_cpu,other_cpu,server_us_per_bind,client_us_per_bind,server_rss_mib,server_conns,loadavg1,secs,warm"
if [[ -s "$CSV" ]]; then
  [[ "$(head -1 "$CSV")" == "$HEADER" ]] || { echo "$CSV has another header; move it away first" >&2; exit 1; }
else
  echo "$HEADER" >"$CSV"
fi

# one_run SERVER PIN THREADS REP SLOT: runs the load, samples /proc, appends a CSV row
one_run() {
  local s=$1 pin=$2 t=$3 rep=$4 slot=$5 pid=${SPID[$1]} port=${PORT[$1]} lg b0 q0 s0 c0 t0 b1 q1 s1 c1 t1 rss nc la r
  if [[ $pin == pinned ]]; then set_affinity "$pid" "$SERVER_CPU"; export CLIENT_CPUS=$CLIENT_CPU
  else set_affinity "$pid" "$ALL_CPUS"; unset CLIENT_CPUS; fi
  lg=$LOGDIR/$s-$pin-t$t-r$rep.log
  rm -f "$PEERS_DIR/authrate.pid"
  la=$(cut -d' ' -f1 /proc/loadavg)
  "$PEERS/authrate.sh" 127.0.0.1 "$port" "$t" "$SECS" "$WARM" >"$lg" 2>&1 &
  APID=$!
  nap $((WARM + 1))
  b0=$(busy); q0=$(sirq); s0=$(pticks "$pid"); c0=$(treeticks "$APID"); t0=$(date +%s.%N)
  nap $((SECS - 3))
  b1=$(busy); q1=$(sirq); s1=$(pticks "$pid"); c1=$(treeticks "$APID"); t1=$(date +%s.%N)
  rss=$(rss_mib "$pid"); nc=$(conns "$port")
  wait "$APID" || true; APID=
  unset CLIENT_CPUS
  r=$(grep '^RESULT' "$lg" | tail -1 || true)
  pid_alive "$pid" "${CMDLINE[$s]}" || { echo "$s (pid $pid) died during the run; see $lg" >&2; exit 1; }
  awk -v run="$RUN_ID" -v s="$s" -v pin="$pin" -v t="$t" -v rep="$rep" -v slot="$slot" -v r="$r" \
      -v b=$((b1 - b0)) -v q=$((q1 - q0)) -v sj=$((s1 - s0)) -v cj=$((c1 - c0)) -v t0="$t0" -v t1="$t1" -v hz="$HZ" \
      -v rss="$rss" -v nc="$nc" -v la="$la" -v secs="$SECS" -v warm="$WARM" '
    function field(k,   m) { return match(r, " " k "=[^ ]*") ? substr(r, RSTART + length(k) + 2, RLENGTH - length(k) - 2) : "" }
    BEGIN {
      dt = t1 - t0; bps = field("binds_per_s"); ms = field("mean_ms"); err = field("errors_per_s")
      sc = sj / hz / dt; cc = cj / hz / dt; sq = q / hz / dt; oc = (b - sj - cj) / hz / dt
      sus = (bps + 0 > 0) ? sprintf("%.1f", sc / bps * 1e6) : ""; cus = (bps + 0 > 0) ? sprintf("%.1f", cc / bps * 1e6) : ""
      printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%.3f,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s\n", run, s, pin, t, rep, slot, bps, ms, err,
             sc, cc, sq, oc, sus, cus, rss, nc, la, secs, warm }' | tee -a "$CSV"
  [[ -n "$r" && "$r" != *FAILED* ]] || echo "  (the load failed against $s; see $lg)" >&2
}

# --- pre-warm (not recorded) -----------------------------------------------------------------------
if (( PREWARM > 0 )); then
  for s in $SERVERS; do
    set_affinity "${SPID[$s]}" "$ALL_CPUS"
    log "pre-warm $s: 16 threads, $PREWARM s (not recorded)"
    "$PEERS/authrate.sh" 127.0.0.1 "${PORT[$s]}" 16 "$PREWARM" 0 >"$LOGDIR/prewarm-$s.log" 2>&1 &
    APID=$!; wait "$APID" || true; APID=
    r=$(grep '^RESULT' "$LOGDIR/prewarm-$s.log" | tail -1 || true)
    [[ -n "$r" && "$r" != *FAILED* ]] || { echo "the pre-warm load failed against $s; see $LOGDIR/prewarm-$s.log" >&2; exit 1; }
    log "  $r"
    nap "$PAUSE"
  done
fi

# --- the matrix ------------------------------------------------------------------------------------
read -ra SV <<<"$SERVERS"; NS=${#SV[@]}
nruns=$((REPS * $(wc -w <<<"$THREADS") * $(wc -w <<<"$PINS") * NS))
log "run $RUN_ID: $nruns runs of ${WARM}+${SECS} s (about $(( nruns * (WARM + SECS + PAUSE + 2) / 60 )) min); CSV $CSV; logs $LOGDIR"
echo "$HEADER"
for rep in $(seq 1 "$REPS"); do for t in $THREADS; do for pin in $PINS; do
  for k in $(seq 0 $((NS - 1))); do
    if [[ $ORDER == rotate ]]; then s=${SV[$(( (k + rep - 1) % NS ))]}; else s=${SV[$k]}; fi
    one_run "$s" "$pin" "$t" "$rep" "$((k + 1))"
    nap "$PAUSE"
  done
done; done; done
for s in "${!SPID[@]}"; do set_affinity "${SPID[$s]}" "$ALL_CPUS"; done
export META_END=$(date -u +%FT%TZ) META_LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$RESULTS/peer-matrix-runs.jsonl" <<'PY'
import json, os, sys
m = {k[5:].lower(): v for k, v in os.environ.items() if k.startswith("META_")}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(m, sort_keys=True) + "\n")
PY
log "done; report:"
"${REPORT[@]}" --run "$RUN_ID"
