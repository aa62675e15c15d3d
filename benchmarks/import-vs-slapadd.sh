#!/usr/bin/env bash
# This server's bulk import against OpenLDAP's slapadd -q, side by side: the same LDIF, the same equality
# indexes, an empty database each time, the two alternating round after round; then the medians and the ratio.
#   benchmarks/import-vs-slapadd.sh [--help]
# This server's side is bin/import-ldif --clearBackend (its own JVM options, or TOOLS_JAVA_OPTS) into a scratch
# instance: a copy of config/ whose equality indexes are INDEXES. slapd's side is slapadd -q with the slapd.conf
# peers/setup-slapd.sh writes (back-mdb, equality indexes on INDEXES). Each is timed as a whole process by
# /usr/bin/time (wall, user and system CPU, peak resident memory), after an untimed sync; which goes first
# alternates.
# Run it from a scratch folder outside the checkout: the sample LDIF and both databases go under ./.peers (or
# PEERS_DIR); a million users take ~0.3 GB of LDIF and ~0.7 GB of database on each side. Needs slapadd and
# slappasswd (Debian: apt-get install slapd, or APT=1 peers/setup-slapd.sh) and /usr/bin/time (apt-get install time).
# The machine should be otherwise idle: read the ratio and the pairs, not the absolute times.
# Env: ROUNDS=3  USERS=1000000  INDEXES="objectClass uid mail cn sn givenName" (the shipped six)  PEERS_DIR=./.peers
# Output: a line per run, "import|slapadd round=R wall_s=W user_s=U sys_s=S peak_mib=M", then
#   RESULT import_median_s=.. slapadd_median_s=.. import_rate_vs_slapadd=.. (slapadd's median / this server's)
#          pairs_import_faster=N/ROUNDS
# Exit: 0 measured; 1 a run failed (its output is printed); 2 usage, a missing tool, or a work folder inside the
# checkout.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
USERS=${USERS:-1000000}
source "$HERE/peers/_lib.sh"
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") ;;
  *) die 2 "unknown argument '$1' (see --help)" ;;
esac
ROUNDS=${ROUNDS:-3}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die 2 "ROUNDS must be a positive number, not '$ROUNDS'"
[[ $USERS =~ ^[1-9][0-9]*$ ]] || die 2 "USERS must be a positive number, not '$USERS'"
INDEXES=${INDEXES:-objectClass uid mail cn sn givenName}
INDEX_CONF=$(slapd_index_conf "$INDEXES") || exit 2
for tool in slapadd slaptest slappasswd python3; do
  command -v "$tool" >/dev/null || die 2 "$tool is not on the PATH (Debian: apt-get install slapd python3)"
done
[[ -x /usr/bin/time ]] || die 2 "/usr/bin/time is missing (Debian: apt-get install time)"
init_work_dir
WORK=$PEERS_DIR/import-vs-slapadd
LDIF=$(users_ldif)

# This server's instance: config/ with INDEXES as its equality indexes, in place of the shipped ones.
INSTANCE=$WORK/instance
rm -rf "$WORK" && mkdir -p "$INSTANCE" "$WORK/slapd/data" "$WORK/slapd/rootdn"
cp -r "$CHECKOUT/config" "$INSTANCE/"
awk -v indexes="$INDEXES" '
  /^ds-cfg-equality-index:/ {
    if (!done) { n = split(indexes, a, " "); for (i = 1; i <= n; i++) print "ds-cfg-equality-index: " a[i]; done = 1 }
    next
  }
  { print }
  END { if (!done) exit 3 }' "$CHECKOUT/config/config.ldif" >"$INSTANCE/config/config.ldif" \
  || die 1 "config/config.ldif has no ds-cfg-equality-index line to replace"
# Any build bin/import-ldif needs happens here, not in a timed run; so does the making of its class-data archive
# (bin/_class-archive.sh: the first import after a build lists the classes it loads, the next has the archive
# written from the list). The LDIF's first two entries (paragraphs; a "version:" line is not counted), whatever
# their length.
"$CHECKOUT/bin/import-ldif" --help >/dev/null || die 1 "bin/import-ldif --help failed (does the build work?)"
awk 'BEGIN { RS = ""; ORS = "\n\n" } { print } !/^version:[ ]*1[ ]*$/ && ++n == 2 { exit }' "$LDIF" \
  >"$WORK/first.ldif"
for _ in 1 2; do
  "$CHECKOUT/bin/import-ldif" --instanceRoot "$INSTANCE" -l "$WORK/first.ldif" --clearBackend >/dev/null \
    || die 1 "bin/import-ldif of the LDIF's first two entries failed"
done

write_slapd_conf "$WORK/slapd" "$INDEX_CONF"
check=$(slaptest -u -f "$WORK/slapd/slapd.conf" 2>&1) || { echo "$check" >&2; die 1 "slaptest rejects $WORK/slapd/slapd.conf"; }

RESULTS=$WORK/results.txt
: >"$RESULTS"
# timed NAME ROUND COMMAND...: runs COMMAND under /usr/bin/time and records its line. First, untimed, the file
# system's dirty pages are written out (sync): slapadd -q leaves its ~1 GB database to the kernel to write back,
# which it did during the run that followed (this server's, whose own time includes the writing of its data, as
# an import is on disk when it says it is done); so neither run pays for the other's writes.
timed() {
  local name=$1 round=$2 out figures wall user sys peak_kib
  shift 2
  sync
  out=$(/usr/bin/time -f "TIMED %e %U %S %M" "$@" 2>&1) || { echo "$out" >&2; die 1 "the $name run of round $round failed"; }
  figures=$(grep '^TIMED ' <<<"$out" | tail -n 1)
  read -r _ wall user sys peak_kib <<<"$figures"
  echo "$name round=$round wall_s=$wall user_s=$user sys_s=$sys peak_mib=$((peak_kib / 1024))" | tee -a "$RESULTS"
}
echo "$USERS users, equality indexes: $INDEXES; $ROUNDS rounds (files in $WORK)"
import_run() {
  rm -rf "$INSTANCE/db"
  timed import "$1" "$CHECKOUT/bin/import-ldif" --instanceRoot "$INSTANCE" -l "$LDIF" --clearBackend \
    -R "$WORK/rejects.ldif"
}
slapadd_run() {
  rm -rf "$WORK/slapd/data" "$WORK/slapd/rootdn" && mkdir -p "$WORK/slapd/data" "$WORK/slapd/rootdn"
  timed slapadd "$1" slapadd -q -f "$WORK/slapd/slapd.conf" -b dc=example,dc=com -l "$LDIF"
}
# Which goes first alternates from round to round, so that a machine growing busier or quieter favours neither.
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then
    import_run "$round"; slapadd_run "$round"
  else
    slapadd_run "$round"; import_run "$round"
  fi
done
python3 - "$RESULTS" <<'PY'
import statistics, sys
runs = {"import": [], "slapadd": []}
for line in open(sys.argv[1]):
    fields = line.split()
    runs[fields[0]].append(float(fields[2].split("=")[1]))
imp, sa = statistics.median(runs["import"]), statistics.median(runs["slapadd"])
faster = sum(1 for i, s in zip(runs["import"], runs["slapadd"]) if i < s)
print(f"RESULT import_median_s={imp:.2f} slapadd_median_s={sa:.2f} import_rate_vs_slapadd={sa / imp:.2f} "
      f"pairs_import_faster={faster}/{len(runs['import'])}")
PY
