#!/usr/bin/env bash
# What successful binds write after their answers (the last-login time, the move off a deprecated scheme): the
# bytes the JE log files (*.jdb) grow by in each of ROUNDS consecutive windows of SECONDS of binds over the sample
# users, on a running server whose password policy sets ds-cfg-last-login-time-attribute/-format or
# ds-cfg-deprecated-password-storage-scheme (or neither: then every window should write nothing).
#   benchmarks/after-bind-writes.sh PORT DB_DIR [SECONDS=20] [THREADS=16] [ROUNDS=2]
# PORT: the server's LDAP port on 127.0.0.1 (sample users, password "password"; root cn=Directory Manager with
# ROOT_PASSWORD, default "password", to count the accounts afterwards). DB_DIR: its backend's folder (e.g.
# db/userRoot of the instance). Env: USERS=10000 (the sample size). Drives peers/authrate.sh (UnboundID
# AuthRate); run it from a scratch folder outside the checkout. Prints one line per window:
#   RESULT round=R binds=N jdb_bytes=B with_last_login=L in_default_scheme=S
# (L: accounts holding ds-pwp-last-login-time; S: accounts whose userPassword is in SCHEME, default SSHA512.)
# Exit: 0 measured; 1 a load failed; 2 usage.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# >= 2 && $# <= 5 )) || { echo "usage: after-bind-writes.sh PORT DB_DIR [SECONDS] [THREADS] [ROUNDS] (see --help)" >&2; exit 2; }
port=$1 db=$2 secs=${3:-20} threads=${4:-16} rounds=${5:-2}
users=${USERS:-10000} scheme=${SCHEME:-SSHA512}
[[ -d "$db" ]] && compgen -G "$db/*.jdb" >/dev/null || { echo "no JE log files (*.jdb) in $db" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
jdb_bytes() { cat "$db"/*.jdb | wc -c; }
# Lines of the people's entries (read as root) that match a pattern: a filter on userPassword matches nothing here.
count() {
  ldapsearch -x -LLL -o ldif-wrap=no -H "ldap://127.0.0.1:$port" -D "cn=Directory Manager" -w "${ROOT_PASSWORD:-password}" \
    -b "ou=People,dc=example,dc=com" "(objectClass=person)" ds-pwp-last-login-time userPassword 2>/dev/null \
    | grep -c "$1" || true
}
for r in $(seq 1 "$rounds"); do
  b0=$(jdb_bytes)
  out=$(USERS=$users "$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 5 2>&1) || { echo "$out" >&2; exit 1; }
  b1=$(jdb_bytes)
  binds=$(echo "$out" | awk '/^RESULT/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "binds_per_s") print kv[2] } }' \
    | awk -v s="$secs" '{ printf "%d", $1 * s }')
  echo "RESULT round=$r binds=$binds jdb_bytes=$((b1 - b0)) with_last_login=$(count '^ds-pwp-last-login-time:')" \
       "in_default_scheme=$(count "^userPassword: {$scheme}")"
done
