#!/usr/bin/env bash
# Re-binds of users whose password is stored with {PBKDF2-HMAC-SHA256} at 10,000 iterations, with the
# verified-credential cache on and off, side by side in one run.
#   benchmarks/verified-credentials-bench.sh [ROUNDS=3] [SECONDS=10] [THREADS=8]
# Builds the server (mvn -o package, tests skipped), makes an instance under PEERS_DIR with USERS sample
# users, starts it on 127.0.0.1:PORT (LDAPS on PORT+1) with ds-cfg-default-password-storage-scheme:
# PBKDF2-HMAC-SHA256 and re-stores every user's "password" through ldapmodify (the server hashes it, 10,000
# iterations). Then ROUNDS rounds, each restarting the server once with ds-cfg-verified-credential-cache-size 0
# (off) and once with the shipped 10000 (on), in alternating order, and driving it with peer-bind-quick.sh:
# UnboundID AuthRate, THREADS connections re-binding as random users, 10 s of warm-up (with the cache on,
# the warm-up proves each user's password once), SECONDS measured (a multiple of 5).
# Prints each run's line, then the median binds/s and server CPU per bind of each setting, and their ratio.
# Run it from a scratch folder outside the checkout (files go to ./.peers, or PEERS_DIR), as the peer
# scripts; needs ldapmodify (ldap-utils) and Java 17. The server is stopped by its pid at the end.
# Env: USERS=5000 (as the peer scripts)  PORT=14389  JAVA_OPTS (default: those of bin/start-ds)
# Exit: 0 measured; 1 a build, start, load or user setup failed; 2 usage.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/peers/_lib.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
ROUNDS=${1:-3} SECS=${2:-10} THREADS=${3:-8}
export USERS   # _lib.sh's default, 5000; peer-bind-quick.sh's AuthRate binds as uid=user.[0-USERS-1]
PORT=${PORT:-14389}
for v in ROUNDS SECS THREADS USERS PORT; do [[ ${!v} =~ ^[0-9]+$ ]] || die 2 "$v must be a whole number"; done
(( SECS > 0 && SECS % 5 == 0 )) || die 2 "SECONDS must be a multiple of 5"
case "$PORT" in 1389|1636|3389|3636|4444) die 2 "PORT $PORT is taken by the peers or a checkout's server" ;; esac
command -v ldapmodify >/dev/null || die 2 "ldapmodify is missing (apt-get install ldap-utils)"
init_work_dir
port_free "$PORT" && port_free $((PORT + 1)) || die 1 "127.0.0.1:$PORT or $((PORT + 1)) is in use"

echo "building the server (mvn -o -q -pl opendj-backend-je -am package -DskipTests)"
(cd "$CHECKOUT" && mvn -o -q -B -pl opendj-backend-je -am package -DskipTests) || die 1 "the build failed"
JARS=$CHECKOUT/opendj-backend-je/target
CP="$(ls "$JARS"/opendj-backend-je-*.jar | head -n 1):$JARS/lib/*"
source "$CHECKOUT/bin/_server-jvm.sh"
# shellcheck disable=SC2206
JVM=(${JAVA_OPTS:-$SERVER_JVM_DEFAULTS})

INSTANCE=$PEERS_DIR/vcache-instance
rm -rf "$INSTANCE"
mkdir -p "$INSTANCE"
cp -r "$CHECKOUT/config" "$INSTANCE/config"
rm -rf "$INSTANCE/config/tls"   # the instance makes its own on its first start
LDIF=$INSTANCE/config/config.ldif
PWS="cn=Password Storage Schemes,cn=config"
sed -i -e "s/^ds-cfg-sample-entries: .*/ds-cfg-sample-entries: $USERS/" \
       -e "s/^ds-cfg-default-password-storage-scheme: .*/ds-cfg-default-password-storage-scheme: PBKDF2-HMAC-SHA256/" \
       "$LDIF"
grep -q "^ds-cfg-verified-credential-cache-size: " "$LDIF" || die 1 "config.ldif has no cache size line"

SERVER_PID=
stop_server() {
  [[ -n "$SERVER_PID" ]] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}
trap stop_server EXIT

# start_server SIZE: the server with ds-cfg-verified-credential-cache-size SIZE, in the background.
start_server() {
  sed -i "s/^ds-cfg-verified-credential-cache-size: .*/ds-cfg-verified-credential-cache-size: $1/" "$LDIF"
  java "${JVM[@]}" -cp "$CP" io.bindfirst.server.Launcher --instanceRoot "$INSTANCE" --config "$LDIF" \
      --port "$PORT" --ldaps-port $((PORT + 1)) --metrics-port 0 >>"$INSTANCE/server.out" 2>&1 </dev/null &
  SERVER_PID=$!
  wait_port "$PORT" 120 || { tail -n 30 "$INSTANCE/server.out" >&2; die 1 "the server did not start"; }
}

start_server 0
echo "re-storing $USERS users' password with PBKDF2-HMAC-SHA256 (the server hashes it)"
for ((i = 0; i < USERS; i++)); do
  printf 'dn: uid=user.%d,ou=People,dc=example,dc=com\nchangetype: modify\nreplace: userPassword\nuserPassword: password\n\n' "$i"
done | ldapmodify -x -H "ldap://127.0.0.1:$PORT" -D "cn=Directory Manager" -w password >/dev/null \
  || die 1 "ldapmodify failed"
stored=$(ldapsearch -x -LLL -o ldif-wrap=no -H "ldap://127.0.0.1:$PORT" -D "cn=Directory Manager" -w password \
  -b "uid=user.$((USERS - 1)),ou=People,dc=example,dc=com" -s base userPassword \
  | awk '/^userPassword:: / { print $2 | "base64 -d" } /^userPassword: / { print $2 }' | cut -c1-26)
[[ "$stored" == "{PBKDF2-HMAC-SHA256}10000:" ]] || die 1 "the last user's password is stored as '$stored...'"
stop_server

results=$(mktemp)
trap 'stop_server; rm -f "$results"' EXIT
for ((r = 1; r <= ROUNDS; r++)); do
  order=(off on); (( r % 2 == 0 )) && order=(on off)
  for mode in "${order[@]}"; do
    size=0; [[ $mode == on ]] && size=10000
    start_server "$size"
    line=$("$HERE/peer-bind-quick.sh" "cache-$mode" "$SERVER_PID" "$PORT" "$THREADS" "$SECS") \
      || { stop_server; die 1 "the load failed (round $r, cache $mode)"; }
    echo "round $r $line"
    echo "$mode $line" >>"$results"
    stop_server
  done
done

awk '
  { mode = $1; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "binds_per_s") b[mode, ++n[mode]] = kv[2];
                                           if (kv[1] == "server_cpu_us_per_bind") c[mode, n[mode]] = kv[2] } }
  function median(arr, mode, k,   v, i, j, t) {
    for (i = 1; i <= k; i++) v[i] = arr[mode, i] + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    on = median(b, "on", n["on"]); off = median(b, "off", n["off"])
    printf "MEDIAN cache=off binds_per_s=%.1f server_cpu_us_per_bind=%.1f (%d runs)\n", off, median(c, "off", n["off"]), n["off"]
    printf "MEDIAN cache=on binds_per_s=%.1f server_cpu_us_per_bind=%.1f (%d runs)\n", on, median(c, "on", n["on"]), n["on"]
    printf "RATIO on/off binds_per_s=%.1f\n", (off > 0 ? on / off : 0)
  }' "$results"
