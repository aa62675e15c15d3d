#!/usr/bin/env bash
# Searches and logins side by side: this server (bindfirst), OpenLDAP slapd and, with OPENDJ=1, OpenDJ 5.0.3,
# driven by ldload (the light C client), alternating, medians per cell, a markdown table for docs/BENCHMARKS.md.
#
#   mkdir -p ~/peerwork && cd ~/peerwork    # a scratch folder OUTSIDE the checkout: results and ./.peers/ go here
#   <checkout>/benchmarks/peer-logins.sh    # REPS x PIN x LOADS x CONNS x servers runs of WARM + SECS s
#   REPS=1 SECS=2 WARM=1 CONNS=16 PIN=pinned LOADS="search login" <checkout>/benchmarks/peer-logins.sh   # a smoke test
#
# Loads (ldload --users USERS, uid=user.N,ou=People,dc=example,dc=com, password "password"):
#   search     --mode search --filter '(uid=user.%d)' --attrs 1.1
#   login      --mode login: on one connection the search, then a bind as the entry found (one op)
#   login2     --mode login2: the search on connection A, the bind on its pair B; CONNS counts pairs
#   svc-login  --mode login --bind-as SVC_DN --filter '(&(objectClass=inetOrgPerson)(uid=user.%d))'
#              --attrs cn,mail,isMemberOf: search as a service account, the user's bind, the bind back (one op)
# Pinning (PIN): pinned = every server process, all threads, on SERVER_CPU (taskset -a -p -c) and ldload on
# CLIENT_CPU; unpinned = servers on all CPUs, ldload unpinned. For each rep, pin, load and connection count the
# servers run back to back, the first one rotating with the rep.
#
# Servers (loopback only):
#   bindfirst  BINDFIRST_PORT; pid BINDFIRST_PID, else the process listening there, else the checkout's
#              logs/server.pid. Never started nor stopped here: when it does not run, the script says how to
#              start it and exits 2.
#   slapd      SLAPD_PORT; its pid from ./.peers/slapd/slapd.pid or the listener; when it does not run,
#              started with benchmarks/peers/setup-slapd.sh (Debian's slapd, USERS users, fresh load).
#   opendj     only with OPENDJ=1: OPENDJ_PORT; started with benchmarks/peers/setup-opendj.sh when it does not
#              run (the first time an 84 MB download and 1-2 min of setup).
# The peers' sample data (peers/make-users.py) has no service account: for svc-login, when SVC_DN does not bind
# there, the script adds ou=Services and SVC_DN (password "password"; {SSHA} in slapd) with ldapadd as the
# peer's root DN (PEER_ROOT_DN, PEER_ROOT_PW, setup-slapd.sh's and setup-opendj.sh's); if that fails it binds
# as the root DN instead and says so. slapd has no memberof overlay: isMemberOf returns nothing there; the
# script prints how many isMemberOf values each server returns for the first and last user.
#
# Each run: ldload --server-pid (its rate, p50, p99, errors, server and client CPU per op) and, over the
# measured window, /proc/stat: "other CPU" = the machine's busy CPU minus the server's minus the client's, in
# cores, so that a noisy window shows. One line per run goes to ./peer-logins-<UTC time>.tsv, ldload's stderr
# to ./peer-logins-<UTC time>.log; at the end a markdown table (also ./peer-logins-<UTC time>.md): per pin,
# load and connections, each server's median ops/s, server µs per op and p99, the ratios bindfirst/slapd of
# rate and CPU per op, the largest other CPU and the errors.
# At the end (or on Ctrl-C) the servers go back to all CPUs, and only the peers this script started are
# stopped (by their pid files, peers/stop-peers.sh), unless KEEP=1. The expected duration is printed first.
#
# Env (defaults):
#   LOADS="search login login2 svc-login"  PIN="pinned unpinned"  CONNS="16 200"  REPS=3  SECS=15  WARM=5
#   USERS=5000  PREWARM=2*WARM (s of each load at the first CONNS per server, unrecorded, first; 0 = none)
#   PAUSE=1 (s between runs)  SERVER_CPU=0  CLIENT_CPU=1  OPENDJ=0  KEEP=0
#   BINDFIRST_PORT=1391  BINDFIRST_PID  SLAPD_PORT=3389  OPENDJ_PORT=1389  PEERS_DIR=./.peers
#   SVC_DN=uid=app,ou=Services,dc=example,dc=com  SVC_PW=password  PEER_ROOT_DN="cn=Directory Manager"  PEER_ROOT_PW=password
# Exit: 0 every run measured; 1 a run or a setup step failed (the lines above say which); 2 usage, a server
# that does not run (bindfirst) or cannot be told apart, a missing tool.
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "peer-logins.sh takes no arguments, only environment variables (see --help)" >&2; exit 2 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$HERE/.." && pwd)
PEERS=$HERE/peers
export USERS=${USERS:-5000}
# pid_alive, wait_port, PEERS_DIR (./.peers, absolute; refused inside the checkout)
# shellcheck source=SCRIPTDIR/peers/_lib.sh
source "$PEERS/_lib.sh"
init_work_dir
export PEERS_DIR

LOADS=${LOADS:-search login login2 svc-login}; PIN=${PIN:-pinned unpinned}; CONNS=${CONNS:-16 200}
REPS=${REPS:-3}; SECS=${SECS:-15}; WARM=${WARM:-5}; PREWARM=${PREWARM:-$((2 * WARM))}; PAUSE=${PAUSE:-1}
SERVER_CPU=${SERVER_CPU:-0}; CLIENT_CPU=${CLIENT_CPU:-1}
BINDFIRST_PORT=${BINDFIRST_PORT:-1391}
export SLAPD_PORT=${SLAPD_PORT:-3389} OPENDJ_PORT=${OPENDJ_PORT:-1389}
SVC_DN=${SVC_DN:-uid=app,ou=Services,dc=example,dc=com}; SVC_PW=${SVC_PW:-password}
PEER_ROOT_DN=${PEER_ROOT_DN:-cn=Directory Manager}; PEER_ROOT_PW=${PEER_ROOT_PW:-password}
SERVERS="bindfirst slapd"; [[ "${OPENDJ:-0}" == 1 ]] && SERVERS="$SERVERS opendj"

for v in REPS SECS WARM PREWARM PAUSE USERS SERVER_CPU CLIENT_CPU BINDFIRST_PORT SLAPD_PORT OPENDJ_PORT; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "$v must be a whole number (is '${!v}')" >&2; exit 2; }
done
(( SECS >= 2 && REPS >= 1 && USERS >= 1 )) || { echo "SECS must be at least 2, REPS and USERS at least 1" >&2; exit 2; }
for l in $LOADS; do case $l in search|login|login2|svc-login) ;; *) echo "unknown load '$l' in LOADS" >&2; exit 2 ;; esac; done
for p in $PIN; do case $p in pinned|unpinned) ;; *) echo "unknown pin '$p' in PIN (pinned, unpinned)" >&2; exit 2 ;; esac; done
for c in $CONNS; do [[ $c =~ ^[1-9][0-9]*$ ]] || { echo "CONNS: '$c' is not a connection count" >&2; exit 2; }; done
[[ -n "$LOADS" && -n "$PIN" && -n "$CONNS" ]] || { echo "LOADS, PIN and CONNS must not be empty" >&2; exit 2; }
for tool in taskset ss ldapwhoami ldapsearch ldapadd; do
  command -v "$tool" >/dev/null || { echo "$tool is not on the PATH (Debian: util-linux, iproute2, ldap-utils)" >&2; exit 2; }
done
NCPU=$(nproc); HZ=$(getconf CLK_TCK); ALL_CPUS=0-$((NCPU - 1))
(( NCPU >= 2 && SERVER_CPU < NCPU && CLIENT_CPU < NCPU && SERVER_CPU != CLIENT_CPU )) || {
  echo "needs 2 CPUs at least, SERVER_CPU and CLIENT_CPU two of them (this machine has $NCPU)" >&2; exit 2; }

# table TSV: the markdown table of a results file (medians per pin, load and connections; ratios of medians)
table() {
  awk -F'\t' '
    function med(name, k, n,   i, j, t, v) {
      for (i = 1; i <= n; i++) v[i] = val[name, k, i] + 0
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    function commas(x,   s, r) { s = sprintf("%.0f", x); r = ""
      while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
      return s r }
    function ratio(a, b) { return (b > 0 && a > 0) ? sprintf("%.2fx", a / b) : "-" }
    function seen(list, n, x,   i) { for (i = 1; i <= n; i++) if (list[i] == x) return n; list[n + 1] = x; return n + 1 }
    NR == 1 { next }
    { np = seen(P, np, $2); nl = seen(L, nl, $3); nc = seen(C, nc, $4)
      cell = $2 SUBSEP $3 SUBSEP $4; k = cell SUBSEP $1; err[cell] += $12; if ($19 != 0) bad[cell]++
      if (!(cell in oth) || $17 + 0 > oth[cell] + 0) oth[cell] = $17
      if ($7 == "") next
      present[$1 == "bindfirst" ? 1 : $1 == "slapd" ? 2 : 3] = $1
      n = ++cnt[k]; val["rate", k, n] = $7; val["cpu", k, n] = $10; val["p99", k, n] = $9 }
    END {
      ns = 0; for (i = 1; i <= 3; i++) if (present[i]) S[++ns] = present[i]   # bindfirst, slapd, opendj
      h = "| pin | load | conns |"; d = "|---|---|---:|"
      for (i = 1; i <= ns; i++) { h = h " " S[i] " ops/s | " S[i] " µs/op | " S[i] " p99 µs |"; d = d "---:|---:|---:|" }
      for (i = 2; i <= ns; i++) { h = h " rate bindfirst/" S[i] " | µs/op bindfirst/" S[i] " |"; d = d "---:|---:|" }
      h = h " other CPU (max, cores) | errors |"; d = d "---:|---:|"
      print h; print d
      for (a = 1; a <= np; a++) for (b = 1; b <= nl; b++) for (c = 1; c <= nc; c++) {
        cell = P[a] SUBSEP L[b] SUBSEP C[c]
        if (!(cell in oth)) continue
        row = "| " P[a] " | " L[b] " | " C[c] (L[b] == "login2" ? " pairs" : "") " |"
        for (i = 1; i <= ns; i++) {
          k = cell SUBSEP S[i]; n = cnt[k]
          if (n) { r[i] = med("rate", k, n); u[i] = med("cpu", k, n); q[i] = med("p99", k, n)
                   row = row " " commas(r[i]) " | " sprintf("%.1f", u[i]) " | " commas(q[i]) " |" }
          else { r[i] = u[i] = 0; row = row " - | - | - |" } }
        for (i = 2; i <= ns; i++) row = row " " ratio(r[1], r[i]) " | " ratio(u[1], u[i]) " |"
        row = row " " sprintf("%.2f", oth[cell]) " | " (err[cell] + 0) (bad[cell] ? " (" bad[cell] " failed runs)" : "") " |"
        print row }
    }' "$1"
}
legend() {
  printf '%s\n' "ops/s and p99 (µs; a login's from its search's send to its last bind's response) are ldload's; µs/op is the" \
    "server's CPU (utime+stime) per operation over the measured window. A login is its search and its bind (svc-login: and" \
    "the bind back as the service account); login2 counts pairs of connections. Ratios of medians: rate above 1x and µs/op" \
    "below 1x favour bindfirst. Other CPU: the machine's busy CPU minus the server's and ldload's, in cores, the largest of" \
    "the cell's runs (noise from the rest of the machine). Pinned: servers on CPU $SERVER_CPU, ldload on CPU $CLIENT_CPU;" \
    "unpinned: servers on CPUs $ALL_CPUS, ldload unpinned."
}
if [[ -n "${TABLE:-}" ]]; then   # only the table of an earlier run's results
  [[ -s "$TABLE" ]] || { echo "TABLE: no results file $TABLE" >&2; exit 2; }
  table "$TABLE"; echo; legend; exit 0
fi

"$HERE/ldload/build.sh" >/dev/null || { echo "could not build ldload (see benchmarks/ldload/build.sh)" >&2; exit 1; }
LDLOAD=$HERE/ldload/target/ldload

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
TSV=$PWD/peer-logins-$STAMP.tsv LOG=$PWD/peer-logins-$STAMP.log MD=$PWD/peer-logins-$STAMP.md
OUT=$PEERS_DIR/peer-logins-$STAMP.out   # one run's ldload line
declare -A PORT=([bindfirst]=$BINDFIRST_PORT [slapd]=$SLAPD_PORT [opendj]=$OPENDJ_PORT)
declare -A PIDFILE=([bindfirst]=$MAIN/logs/server.pid [slapd]=$PEERS_DIR/slapd/slapd.pid [opendj]=$PEERS_DIR/opendj/logs/server.pid)
declare -A CMDLINE=([bindfirst]=io.bindfirst.server.Launcher [slapd]=slapd [opendj]=org.opends.server.core.DirectoryServer)
declare -A STARTED=() SPID=() BIND_AS=() BIND_PW=() NOTE=()

log() { echo "[$(date +%H:%M:%S)] $*"; }

# listener_pid PORT: the pid listening on 127.0.0.1:PORT, when ss can tell
listener_pid() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true; }

# find_pid NAME: the server's pid (BINDFIRST_PID, else the listener on its port, else its pid file), or nothing
find_pid() {
  local name=$1 pid
  if [[ $name == bindfirst && -n "${BINDFIRST_PID:-}" ]]; then echo "$BINDFIRST_PID"; return 0; fi
  pid=$(listener_pid "${PORT[$name]}")
  if [[ -n "$pid" ]] && pid_alive "$pid" "${CMDLINE[$name]}"; then echo "$pid"; return 0; fi
  [[ -s "${PIDFILE[$name]}" ]] || return 0
  pid=$(tr -dc '0-9' <"${PIDFILE[$name]}")
  if pid_alive "$pid" "${CMDLINE[$name]}"; then echo "$pid"; fi
}

# check_listener NAME PID: the port is open and (when ss can tell) it is this pid that listens on it
check_listener() {
  local name=$1 pid=$2 port=${PORT[$1]} owners
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$name (pid $pid) does not listen on 127.0.0.1:$port" >&2; return 1; }
  owners=$(ss -Hltnp "sport = :$port" 2>/dev/null || true)
  if [[ "$owners" == *pid=* && "$owners" != *"pid=$pid,"* ]]; then
    echo "127.0.0.1:$port is served by another process than $name (pid $pid): $owners" >&2; return 1
  fi
}

# set_affinity PID CPULIST: all the process's threads (once more if a thread ended meanwhile)
set_affinity() { taskset -a -p -c "$2" "$1" >/dev/null 2>&1 || taskset -a -p -c "$2" "$1" >/dev/null; }

LPID='' NAP=''
# nap SECONDS: a sleep that INT/TERM interrupt at once (bash runs traps only between foreground commands)
nap() { sleep "$1" & NAP=$!; wait "$NAP"; NAP=; }
cleanup() {
  local rc=$? s
  trap - EXIT INT TERM
  if [[ -n "$NAP" ]]; then kill "$NAP" 2>/dev/null || true; fi
  if [[ -n "$LPID" ]] && pid_alive "$LPID" ldload; then kill -TERM "$LPID" 2>/dev/null || true; fi
  rm -f "$OUT"
  for s in "${!SPID[@]}"; do
    if pid_alive "${SPID[$s]}" "${CMDLINE[$s]}"; then set_affinity "${SPID[$s]}" "$ALL_CPUS" 2>/dev/null || true; fi
  done
  (( ${#SPID[@]} )) && log "servers back on CPUs $ALL_CPUS: ${!SPID[*]}"
  if (( ${#STARTED[@]} )); then
    if [[ "${KEEP:-0}" == 1 ]]; then
      log "KEEP=1: leaving running what this script started: ${!STARTED[*]}"
    else
      log "stopping what this script started: ${!STARTED[*]}"
      # shellcheck disable=SC2068
      "$PEERS/stop-peers.sh" ${!STARTED[@]} || true
    fi
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the expected duration -------------------------------------------------------------------------
read -ra SV <<<"$SERVERS"; NS=${#SV[@]}
NL=$(wc -w <<<"$LOADS"); NP=$(wc -w <<<"$PIN"); NC=$(wc -w <<<"$CONNS")
NRUNS=$((REPS * NP * NL * NC * NS))
RUN_S=$((WARM + SECS + PAUSE + 1))                        # + connecting and the pauses' slack, about 1 s
PREWARM_S=$(( PREWARM > 0 ? NS * NL * (PREWARM + 2) : 0 ))
TOTAL=$((NRUNS * RUN_S + PREWARM_S))
log "peer-logins $STAMP: servers $SERVERS; loads $LOADS; pin $PIN; conns $CONNS; $REPS reps of ${WARM}+${SECS} s; $USERS users"
log "expected duration: about $((TOTAL / 60)) min $((TOTAL % 60)) s ($NRUNS runs of ~${RUN_S} s, pre-warm ${PREWARM_S} s)," \
  "plus starting slapd if it does not run (~10 s)$([[ $NS == 3 ]] && echo ', OpenDJ (1-2 min, more the first time)')"
log "results: $TSV (ldload's stderr: $LOG)"
others=$(pgrep -x ldload 2>/dev/null | paste -sd' ' || true)
[[ -n "$others" ]] && log "WARNING: other ldload processes run (pid $others): another measurement shares this machine; see 'other CPU'"

# --- servers ---------------------------------------------------------------------------------------
pid=$(find_pid bindfirst)
if [[ -z "$pid" ]] || ! pid_alive "$pid" "${CMDLINE[bindfirst]}" || ! check_listener bindfirst "$pid" 2>/dev/null; then
  echo "this server does not run on 127.0.0.1:$BINDFIRST_PORT${BINDFIRST_PID:+ (BINDFIRST_PID=$BINDFIRST_PID does not run this server listening there)}." >&2
  fpid=$(tr -dc '0-9' 2>/dev/null <"${PIDFILE[bindfirst]}" || true)
  if pid_alive "$fpid" "${CMDLINE[bindfirst]}"; then
    echo "The checkout's instance (pid $fpid, $MAIN/logs/server.pid) runs with:" \
      "$(tr '\0' ' ' </proc/"$fpid"/cmdline | grep -o -- '--port [0-9]*' || echo 'the default port');" \
      "set BINDFIRST_PORT to its port, or start another checkout's." >&2
  else
    echo "Start it (sample data, plain LDAP only) and run this again:" >&2
    echo "  (cd $MAIN && bin/start-ds --port $BINDFIRST_PORT --ldaps-port 0 --metrics-port 0)" >&2
  fi
  exit 2
fi
SPID[bindfirst]=$pid
log "bindfirst: pid $pid on 127.0.0.1:$BINDFIRST_PORT (not started here, never stopped here)"

for s in "${SV[@]:1}"; do
  pid=$(find_pid "$s")
  if [[ -z "$pid" ]]; then
    if [[ $s == slapd ]]; then
      log "starting slapd: $PEERS/setup-slapd.sh (127.0.0.1:$SLAPD_PORT, a fresh load of $USERS users)"
      "$PEERS/setup-slapd.sh" 2>&1 | sed 's/^/  slapd setup: /' || { echo "setup-slapd.sh failed (lines above)" >&2; exit 1; }
    else
      log "starting OpenDJ: $PEERS/setup-opendj.sh (installs it first if needed: 1-2 min, 84 MB download)"
      "$PEERS/setup-opendj.sh" 2>&1 | sed 's/^/  opendj setup: /' || { echo "setup-opendj.sh failed (lines above)" >&2; exit 1; }
    fi
    pid=$(find_pid "$s")
    [[ -n "$pid" ]] || { echo "$s did not start (no live pid in ${PIDFILE[$s]} nor on port ${PORT[$s]})" >&2; exit 1; }
    STARTED[$s]=1
    log "$s: pid $pid on 127.0.0.1:${PORT[$s]} (started here; stopped at the end unless KEEP=1)"
  else
    log "$s: pid $pid on 127.0.0.1:${PORT[$s]} (already running: reused, not stopped)"
  fi
  check_listener "$s" "$pid" || exit 2
  SPID[$s]=$pid
done

# every user the load draws must bind everywhere
for s in "${SV[@]}"; do
  for u in 0 $((USERS - 1)); do
    ldapwhoami -x -H "ldap://127.0.0.1:${PORT[$s]}" -D "uid=user.$u,ou=People,dc=example,dc=com" -w password >/dev/null 2>&1 \
      || { echo "a bind as uid=user.$u,ou=People,dc=example,dc=com fails on $s (port ${PORT[$s]}): it needs $USERS users" >&2; exit 1; }
  done
done

# The service account of svc-login: this server's sample data has it; the peers' get it added (or the root DN).
svc_binds() { ldapwhoami -x -H "ldap://127.0.0.1:$1" -D "$2" -w "$3" >/dev/null 2>&1; }
add_service_account() {   # NAME: ou=Services and SVC_DN, added as the peer's root DN
  local s=$1 parent=${SVC_DN#*,} rdn=${SVC_DN%%,*} pw=$SVC_PW
  [[ $s == slapd ]] && command -v slappasswd >/dev/null && pw=$(slappasswd -h '{SSHA}' -s "$SVC_PW")
  ldapadd -c -x -H "ldap://127.0.0.1:${PORT[$s]}" -D "$PEER_ROOT_DN" -w "$PEER_ROOT_PW" >>"$LOG" 2>&1 <<LDIF || true
dn: $parent
objectClass: top
objectClass: organizationalUnit
ou: $(sed 's/^ou=//; s/,.*//' <<<"$parent")

dn: $SVC_DN
objectClass: top
objectClass: account
objectClass: simpleSecurityObject
${rdn%%=*}: ${rdn#*=}
description: An application's service account (added by peer-logins.sh)
userPassword: $pw
LDIF
}
if [[ " $LOADS " == *" svc-login "* ]]; then
  for s in "${SV[@]}"; do
    BIND_AS[$s]=$SVC_DN BIND_PW[$s]=$SVC_PW
    svc_binds "${PORT[$s]}" "$SVC_DN" "$SVC_PW" && { NOTE[$s]="svc-login binds as $SVC_DN (present)"; continue; }
    if [[ $s == bindfirst ]]; then
      echo "$SVC_DN does not bind on this server (port $BINDFIRST_PORT): the sample data of a first start has it;" \
        "an instance set up without it cannot run svc-login (drop it from LOADS or set SVC_DN, SVC_PW)" >&2
      exit 1
    fi
    log "$s has no $SVC_DN: adding it (and its parent) with ldapadd as $PEER_ROOT_DN"
    add_service_account "$s"
    if svc_binds "${PORT[$s]}" "$SVC_DN" "$SVC_PW"; then
      NOTE[$s]="svc-login binds as $SVC_DN, added by this script"
      [[ $s == opendj ]] && NOTE[$s]="${NOTE[$s]} (its password hashed by OpenDJ's default policy)"
    elif svc_binds "${PORT[$s]}" "$PEER_ROOT_DN" "$PEER_ROOT_PW"; then
      BIND_AS[$s]=$PEER_ROOT_DN BIND_PW[$s]=$PEER_ROOT_PW
      NOTE[$s]="svc-login binds as the ROOT DN $PEER_ROOT_DN (could not add $SVC_DN; see $LOG): no access control on its searches"
    else
      echo "$s: neither $SVC_DN nor the root DN $PEER_ROOT_DN binds; set SVC_DN/SVC_PW or PEER_ROOT_DN/PEER_ROOT_PW" >&2; exit 1
    fi
  done
  for s in "${SV[@]}"; do
    counts=
    for u in 0 $((USERS - 1)); do
      n=$(ldapsearch -x -LLL -o ldif-wrap=no -H "ldap://127.0.0.1:${PORT[$s]}" -D "${BIND_AS[$s]}" -w "${BIND_PW[$s]}" \
            -b ou=People,dc=example,dc=com "(uid=user.$u)" isMemberOf 2>/dev/null | grep -ci '^isMemberOf:' || true)
      counts="$counts${counts:+, }user.$u $n"
    done
    NOTE[$s]="${NOTE[$s]}; isMemberOf values returned: $counts"
    [[ $s == slapd ]] && NOTE[$s]="${NOTE[$s]} (no memberof overlay: no such attribute in slapd)"
    log "$s: ${NOTE[$s]}"
  done
fi

# --- measurement -----------------------------------------------------------------------------------
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }     # user nice system irq softirq steal
pticks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }  # utime+stime, all threads
field() { grep -o " $1=[^ ]*" <<<" $2" | head -1 | cut -d= -f2 || true; }   # field KEY LINE

# load_args LOAD SERVER: ldload's options for the load, in LARGS
# shellcheck disable=SC2054   # --attrs takes a comma-separated list
load_args() {
  case $1 in
    search) LARGS=(--mode search --filter '(uid=user.%d)' --attrs 1.1) ;;
    login) LARGS=(--mode login) ;;
    login2) LARGS=(--mode login2) ;;
    svc-login) LARGS=(--mode login --bind-as "${BIND_AS[$2]}" --bind-password "${BIND_PW[$2]}"
                      --filter '(&(objectClass=inetOrgPerson)(uid=user.%d))' --attrs cn,mail,isMemberOf) ;;
  esac
}

# pin_for PIN: every server's affinity for this pin; the client's taskset prefix in CLI
pin_for() {
  local s
  if [[ $1 == pinned ]]; then for s in "${SV[@]}"; do set_affinity "${SPID[$s]}" "$SERVER_CPU"; done; CLI=(taskset -c "$CLIENT_CPU")
  else for s in "${SV[@]}"; do set_affinity "${SPID[$s]}" "$ALL_CPUS"; done; CLI=(); fi
}

FAILED=0
COLS="server	pin	load	conns	rep	slot	rate	p50_us	p99_us	server_cpu_us_per_op	client_cpu_us_per_op	errors	ops	entries_per_search	server_cores	client_cores	other_cores	bind_as	exit"
echo "$COLS" >"$TSV"
: >"$LOG"

# one_run SERVER PIN LOAD CONNS REP SLOT: one ldload run, sampled from /proc, one line into the TSV
one_run() {
  local s=$1 pin=$2 load=$3 c=$4 rep=$5 slot=$6 pid=${SPID[$1]} line rc=0 b0 s0 c0 t0 b1 s1 c1 t1 row
  pin_for "$pin"; load_args "$load" "$s"
  echo "== $(date -u +%FT%TZ) $s $pin $load conns=$c rep=$rep" >>"$LOG"
  ${CLI[@]+"${CLI[@]}"} "$LDLOAD" --port "${PORT[$s]}" --connections "$c" --seconds "$SECS" --warmup "$WARM" \
    --users "$USERS" --server-pid "$pid" "${LARGS[@]}" >"$OUT" 2>>"$LOG" &
  LPID=$!
  nap "$(awk -v w="$WARM" 'BEGIN { print w + 0.3 }')"
  b0=$(busy); s0=$(pticks "$pid"); c0=$(pticks "$LPID"); t0=$(date +%s.%N)
  nap "$(awk -v s="$SECS" 'BEGIN { print s - 0.6 }')"
  b1=$(busy); s1=$(pticks "$pid"); c1=$(pticks "$LPID"); t1=$(date +%s.%N)
  wait "$LPID" || rc=$?
  LPID=
  line=$(tail -1 "$OUT"); cat "$OUT" >>"$LOG"; rm -f "$OUT"
  [[ "$line" == *rate=* ]] || line=
  row=$(awk -v b=$((b1 - b0)) -v sj=$((s1 - s0)) -v cj=$((c1 - c0)) -v t0="$t0" -v t1="$t1" -v hz="$HZ" 'BEGIN {
      dt = t1 - t0; printf "%.3f\t%.3f\t%.3f", sj / hz / dt, cj / hz / dt, (b - sj - cj) / hz / dt }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$pin" "$load" "$c" "$rep" "$slot" \
    "$(field rate "$line")" "$(field p50_us "$line")" "$(field p99_us "$line")" "$(field server_cpu_us_per_op "$line")" \
    "$(field client_cpu_us_per_op "$line")" "$(field errors "$line")" "$(field ops "$line")" \
    "$(field entries_per_search "$line")" "$row" "$([[ $load == svc-login ]] && echo "${BIND_AS[$s]}" || echo -)" "$rc" >>"$TSV"
  if [[ -n "$line" ]]; then
    log "$(printf 'rep %s %-8s %-9s %3s %-9s %8.0f/s p50 %5s p99 %6s µs  server %6s client %5s µs/op  errors %s  other CPU %s' \
      "$rep" "$pin" "$load" "$c" "$s" "$(field rate "$line")" "$(field p50_us "$line")" "$(field p99_us "$line")" \
      "$(field server_cpu_us_per_op "$line")" "$(field client_cpu_us_per_op "$line")" "$(field errors "$line")" "${row##*	}")"
  fi
  if (( rc != 0 )); then
    FAILED=1
    log "  ldload exited $rc against $s ($load, $c conns): see $LOG"
    pid_alive "$pid" "${CMDLINE[$s]}" || { echo "$s (pid $pid) no longer runs" >&2; exit 1; }
  fi
}

# --- pre-warm (not recorded): every load once per server, which also checks that each load works --------
read -ra CV <<<"$CONNS"
if (( PREWARM > 0 )); then
  for s in "${SV[@]}"; do for load in $LOADS; do
    pin_for unpinned; load_args "$load" "$s"
    echo "== $(date -u +%FT%TZ) pre-warm $s $load conns=${CV[0]}" >>"$LOG"
    "$LDLOAD" --port "${PORT[$s]}" --connections "${CV[0]}" --seconds "$PREWARM" --warmup 0 --users "$USERS" \
      "${LARGS[@]}" >/dev/null 2>>"$LOG" &
    LPID=$!; rc=0; wait "$LPID" || rc=$?; LPID=
    (( rc == 0 )) || { echo "the pre-warm $load against $s failed (ldload exit $rc): see $LOG" >&2; exit 1; }
  done; done
  log "pre-warm done: each load for $PREWARM s at ${CV[0]} connections on each server"
fi

# --- the runs --------------------------------------------------------------------------------------
for rep in $(seq 1 "$REPS"); do for pin in $PIN; do for load in $LOADS; do for c in $CONNS; do
  for k in $(seq 0 $((NS - 1))); do
    one_run "${SV[$(( (k + rep - 1) % NS ))]}" "$pin" "$load" "$c" "$rep" "$((k + 1))"
    nap "$PAUSE"
  done
done; done; done; done
for s in "${SV[@]}"; do set_affinity "${SPID[$s]}" "$ALL_CPUS"; done

# --- the table -------------------------------------------------------------------------------------
{
  echo "peer-logins $STAMP: $(git -C "$MAIN" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$MAIN" diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)')," \
    "$(slapd -VV 2>&1 | sed -n 's/.*\(slapd [^ ]*\).*/\1/p' | head -1), $NCPU CPUs ($(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo))," \
    "ldload, $USERS users, medians of $REPS runs of $SECS s after $WARM s of warm-up"
  echo
  table "$TSV"
  echo
  legend
  for s in "${SV[@]}"; do [[ -n "${NOTE[$s]:-}" ]] && echo "- $s: ${NOTE[$s]}"; done
  true
} | tee "$MD"
log "results: $TSV; table: $MD"
(( FAILED == 0 )) || { echo "some runs failed (exit column of $TSV; details in $LOG)" >&2; exit 1; }
