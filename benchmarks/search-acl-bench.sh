#!/usr/bin/env bash
# Searches under access control: the same search load with ACIs deciding (a realistic set) and with access
# control off, side by side in one run.
#   benchmarks/search-acl-bench.sh [ROUNDS=3] [SECONDS=10] [THREADS=8]
# Builds the server (mvn -o package, tests skipped), makes an instance under PEERS_DIR with USERS sample users
# and a set of ACIs like a deployment's: the shipped global ones, the sample data's ACI on ou=People for the
# service account uid=app,ou=Services, and ten more on ou=People (target filters, group and attribute rules,
# security strength, a deny on some attributes) that the evaluation must walk past. Then ROUNDS rounds, each
# restarting the server once with cn=Access Control Handler's ds-cfg-enabled false (the fixed rules) and once
# true, in alternating order, and driving it with UnboundID SearchRate bound as uid=app: THREADS connections
# searching ou=People for (uid=user.R), R random over the users, every user attribute returned; 10 s of
# warm-up, SECONDS measured (a multiple of 5). The server's CPU is read from /proc over the measured window.
# Prints each run's line, then the median searches/s and server CPU per search of each setting, and their
# ratio. Run it from a scratch folder outside the checkout (files go to ./.peers, or PEERS_DIR), as the peer
# scripts; needs ldapmodify (ldap-utils) and Java 17. The server is stopped by its pid at the end.
# Env: USERS=5000  PORT=14489  JAVA_OPTS (default: those of bin/start-ds)
# Exit: 0 measured; 1 a build, start or load failed; 2 usage.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/peers/_lib.sh"
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
ROUNDS=${1:-3} SECS=${2:-10} THREADS=${3:-8}
PORT=${PORT:-14489}
for v in ROUNDS SECS THREADS USERS PORT; do [[ ${!v} =~ ^[0-9]+$ ]] || die 2 "$v must be a whole number"; done
(( SECS > 0 && SECS % 5 == 0 )) || die 2 "SECONDS must be a multiple of 5"
case "$PORT" in 1389|1636|3389|3636|4444) die 2 "PORT $PORT is taken by the peers or a checkout's server" ;; esac
command -v ldapmodify >/dev/null || die 2 "ldapmodify is missing (apt-get install ldap-utils)"
init_work_dir
port_free "$PORT" && port_free $((PORT + 1)) || die 1 "127.0.0.1:$PORT or $((PORT + 1)) is in use"
JAR_NAME=unboundid-ldapsdk-7.0.5.jar
maven_fetch com.unboundid:unboundid-ldapsdk:7.0.5 "$JAR_NAME"

echo "building the server (mvn -o -q -pl opendj-backend-je -am package -DskipTests)"
(cd "$CHECKOUT" && mvn -o -q -B -pl opendj-backend-je -am package -DskipTests) || die 1 "the build failed"
JARS=$CHECKOUT/opendj-backend-je/target
CP="$(ls "$JARS"/opendj-backend-je-*.jar | head -n 1):$JARS/lib/*"
source "$CHECKOUT/bin/_server-jvm.sh"
# shellcheck disable=SC2206
JVM=(${JAVA_OPTS:-$SERVER_JVM_DEFAULTS})

INSTANCE=$PEERS_DIR/search-acl-instance
rm -rf "$INSTANCE"
mkdir -p "$INSTANCE"
cp -r "$CHECKOUT/config" "$INSTANCE/config"
rm -rf "$INSTANCE/config/tls"
LDIF=$INSTANCE/config/config.ldif
sed -i -e "s/^ds-cfg-sample-entries: .*/ds-cfg-sample-entries: $USERS/" "$LDIF"
grep -q "^dn: cn=Access Control Handler,cn=config" "$LDIF" || die 1 "config.ldif has no access control handler"

SERVER_PID=
stop_server() {
  [[ -n "$SERVER_PID" ]] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}
results=$(mktemp)
trap 'stop_server; rm -f "$results"' EXIT

# start_server true|false: access control on (ACIs) or off (the fixed rules), in the background.
start_server() {
  awk -v on="$1" '/^dn: / { inHandler = ($0 == "dn: cn=Access Control Handler,cn=config") }
       inHandler && /^ds-cfg-enabled: / { print "ds-cfg-enabled: " on; next } { print }' "$LDIF" >"$LDIF.new"
  mv "$LDIF.new" "$LDIF"
  java "${JVM[@]}" -cp "$CP" io.bindfirst.server.Launcher --instanceRoot "$INSTANCE" --config "$LDIF" \
      --port "$PORT" --ldaps-port $((PORT + 1)) --metrics-port 0 >>"$INSTANCE/server.out" 2>&1 </dev/null &
  SERVER_PID=$!
  wait_port "$PORT" 120 || { tail -n 30 "$INSTANCE/server.out" >&2; die 1 "the server did not start"; }
}

start_server true
echo "adding ten ACIs to ou=People and a group (as a deployment's set would hold)"
G="cn=Readers,ou=People,dc=example,dc=com"
A='(version 3.0; acl'
{
  printf 'dn: %s\nchangetype: add\nobjectClass: top\nobjectClass: groupOfNames\ncn: Readers\n' "$G"
  printf 'member: uid=app,ou=Services,dc=example,dc=com\n\n'
  printf 'dn: ou=People,dc=example,dc=com\nchangetype: modify\nadd: aci\n'
  printf 'aci: (targetattr="telephoneNumber||mobile")%s "phones for readers"; allow (read,search) groupdn="ldap:///%s";)\n' "$A" "$G"
  printf 'aci: (targetattr="description")(targetfilter="(objectClass=inetOrgPerson)")%s "self description"; allow (write) userdn="ldap:///self";)\n' "$A"
  printf 'aci: (targetattr="manager")%s "managers"; allow (write) userattr="manager#USERDN";)\n' "$A"
  printf 'aci: (targetattr="employeeNumber")%s "hr only over tls"; deny (read,search) userdn="ldap:///all" and ssf<"1";)\n' "$A"
  printf 'aci: (targetattr="homePhone||homePostalAddress")%s "private"; deny (read,search,compare) userdn!="ldap:///self";)\n' "$A"
  printf 'aci: (targetattr="cn||sn||givenName")(targetscope="onelevel")%s "names"; allow (compare) userdn="ldap:///all";)\n' "$A"
  printf 'aci: (targetattr="jpegPhoto")%s "photos"; allow (read) userdn="ldap:///all" and authmethod="simple";)\n' "$A"
  printf 'aci: (targetattr="title")%s "office hours"; allow (read) userdn="ldap:///all" and timeofday>="0000";)\n' "$A"
  printf 'aci: (targetattr="mail")%s "internal network"; allow (search) ip="127.0.0.1,10.0.0.0/8";)\n' "$A"
  printf 'aci: %s "helpdesk"; allow (add,delete) groupdn="ldap:///cn=Helpdesk,ou=People,dc=example,dc=com";)\n' "$A"
  printf '\n'
} | ldapmodify -x -H "ldap://127.0.0.1:$PORT" -D "cn=Directory Manager" -w password >/dev/null \
  || die 1 "adding the ACIs failed"
stop_server

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }
tck=$(getconf CLK_TCK)
for ((r = 1; r <= ROUNDS; r++)); do
  order=(false true); (( r % 2 == 0 )) && order=(true false)
  for on in "${order[@]}"; do
    start_server "$on"
    out=$(mktemp)
    ( sleep 10; cpu_ticks >"$out.start" ) &
    sampler=$!
    timeout --kill-after=10 $((SECS + 40)) "${JAVA:-java}" -cp "$PEERS_DIR/dl/$JAR_NAME" \
        com.unboundid.ldap.sdk.examples.SearchRate --hostname 127.0.0.1 --port "$PORT" \
        --bindDN "uid=app,ou=Services,dc=example,dc=com" --bindPassword password \
        --baseDN "ou=People,dc=example,dc=com" --scope sub --filter "(uid=user.[0-$((USERS - 1))])" \
        --numThreads "$THREADS" --intervalDuration 5 --warmUpIntervals 2 --numIntervals $((SECS / 5)) \
        --timestampFormat none >"$out" 2>&1 || { cat "$out" >&2; stop_server; die 1 "the load failed"; }
    wait "$sampler"   # not a bare wait: the server runs in the background too
    end=$(cpu_ticks); start=$(cat "$out.start")
    line=$(awk '/[Ww]arm-up completed/ { m = 1; next } m && NF == 6 && $1 ~ /^[0-9.]+$/ { s = $5 } END { print s }' "$out")
    [[ -n "$line" ]] || { cat "$out" >&2; die 1 "no figures from SearchRate"; }
    us=$(awk -v t=$((end - start)) -v hz="$tck" -v s="$line" -v d="$SECS" 'BEGIN { printf "%.1f", t / hz / (s * d) * 1e6 }')
    echo "round $r acl=$on searches_per_s=$line server_cpu_us_per_search=$us"
    echo "$on $line $us" >>"$results"
    rm -f "$out" "$out.start"
    stop_server
  done
done

awk '
  { k = $1; s[k, ++n[k]] = $2; c[k, n[k]] = $3 }
  function median(arr, key, m,   v, i, j, t) {
    for (i = 1; i <= m; i++) v[i] = arr[key, i] + 0
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END {
    off = median(s, "false", n["false"]); on = median(s, "true", n["true"])
    printf "MEDIAN acl=off searches_per_s=%.1f server_cpu_us_per_search=%.1f (%d runs)\n", off, median(c, "false", n["false"]), n["false"]
    printf "MEDIAN acl=on searches_per_s=%.1f server_cpu_us_per_search=%.1f (%d runs)\n", on, median(c, "true", n["true"]), n["true"]
    printf "RATIO on/off searches_per_s=%.3f\n", (off > 0 ? on / off : 0)
  }' "$results"
