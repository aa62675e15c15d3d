#!/usr/bin/env bash
# What binds write to the database, measured on a running server with lockout on: the bytes its JE log files
# (*.jdb) grow by during SECONDS of successful binds (expected: nothing), then during SECONDS of wrong passwords
# against one account (expected: one write, the lock).
#   benchmarks/lockout-writes.sh PORT DB_DIR [SECONDS=20] [THREADS=16] [ACCOUNT]
# PORT: the server's LDAP port on 127.0.0.1, with the sample users (password "password") and a password policy
# with ds-cfg-lockout-failure-count > 0. DB_DIR: its backend's folder (e.g. db/userRoot of the instance).
# ACCOUNT (default: the last sample user, uid=user.<USERS-1>, which the successful binds leave out) must not
# be locked at the start; the run leaves it locked (unlock: delete pwdAccountLockedTime). Env: USERS=5000.
# Drives peers/authrate.sh (UnboundID AuthRate); run it from a scratch folder outside the checkout. Prints:
#   RESULT binds=N binds_jdb_bytes=B storm_binds=N storm_jdb_bytes=B locked_at=<pwdAccountLockedTime>
# (storm_binds counts the warm-up too: every failed bind of the storm.)
# Exit: 0 measured; 1 a load failed; 2 usage.
set -euo pipefail
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; }
(( $# >= 2 && $# <= 5 )) || { echo "usage: lockout-writes.sh PORT DB_DIR [SECONDS] [THREADS] [ACCOUNT] (see --help)" >&2; exit 2; }
users=${USERS:-5000}
port=$1 db=$2 secs=${3:-20} threads=${4:-16} account=${5:-uid=user.$((users - 1)),ou=People,dc=example,dc=com}
[[ -d "$db" ]] && compgen -G "$db/*.jdb" >/dev/null || { echo "no JE log files (*.jdb) in $db" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
jdb_bytes() { cat "$db"/*.jdb | wc -c; }
figure() { awk -v k="$1" '/^RESULT/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }'; }

b0=$(jdb_bytes)
out=$(USERS=$((users - 1)) "$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 5 2>&1) \
  || { echo "$out" >&2; exit 1; }
b1=$(jdb_bytes)
binds=$(echo "$out" | figure binds_per_s | awk -v s="$secs" '{ printf "%d", $1 * s }')
# Every bind of the storm fails, so the tool exits 49: its per-interval error counts are the figure.
out=$(BIND_DN="$account" PASSWORD=wrong-password "$HERE/peers/authrate.sh" 127.0.0.1 "$port" "$threads" "$secs" 5 2>&1) \
  || true
b2=$(jdb_bytes)
storm=$(echo "$out" | awk '/invalid credentials:/ { n += $NF } END { printf "%d", n }')
(( storm > 0 )) || { echo "$out" >&2; echo "the storm made no failed binds" >&2; exit 1; }
locked=$(ldapsearch -x -LLL -H "ldap://127.0.0.1:$port" -b "$account" -s base "(objectClass=*)" pwdAccountLockedTime \
  2>/dev/null | awk '/^pwdAccountLockedTime:/ { print $2 }')
echo "RESULT binds=$binds binds_jdb_bytes=$((b1 - b0)) storm_binds=$storm storm_jdb_bytes=$((b2 - b1)) locked_at=${locked:-none}"
