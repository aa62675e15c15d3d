#!/usr/bin/env bash
# A soak: CONNECTIONS connections of mixed binds, searches and modifies against this server for MINUTES,
# watching for leaks and for a slow-down. Opt-in (never run by the build; SoakShortTest is its one-minute
# version there). Nice it on a shared machine: nice benchmarks/soak.sh ...
#   benchmarks/soak.sh [--connections 200] [--minutes 60] [--rate 1000] [--interval 60] [--port 14489]
#                      [--warmup MINUTES] [--warmup-rate 10000] [--out DIR] [--no-build] [--nmt]
#   benchmarks/soak.sh --report DIR      (the summary of a finished run again, from its files)
# Builds the server and the benchmarks (mvn -o package, tests skipped; --no-build skips that), makes an
# instance in DIR/instance from the checkout's config/ (10,000 sample users), starts it on 127.0.0.1:PORT
# (LDAPS on PORT+1, /metrics on PORT+2), and drives it with io.bindfirst.bench.MixedLoad (benchmarks.jar):
# CONNECTIONS connections held open, RATE operations per second in all; nine in ten connections re-bind as
# random users and search by uid, one in ten (bound as root) modifies a user's description and searches.
# Every INTERVAL seconds it forces a full GC and counts the bytes of the objects live after it (jcmd PID
# GC.class_histogram), has the JVM return freed native memory to the system (jcmd PID System.trim_native_heap),
# then samples the RSS, the open descriptors (/proc/PID/fd; "fds_nojdb" leaves out the database's log files,
# which come and go as the log grows and is cleaned) and threads (/proc/PID/status);
# every 10 s it scrapes /metrics into DIR/metrics.txt (for soak-chart.py).
# --warmup MINUTES: before the judged run, the same load at --warmup-rate operations/s for MINUTES, sampled and
# scraped the same way into DIR/warmup.csv and DIR/warmup-metrics.txt, its client's output in DIR/warmup.out; its
# errors count with the run's, nothing else of it is judged. A server in service has run its code for hours, and
# the JIT compiles for as long as code it runs now and then gets hot enough (a compiled method's code and profile
# are native memory that stays): the native RSS of a fresh server's first hours grows with the work done, not
# with the time, and a warm-up of many operations brings it toward where a server in service is, so that the judged
# run measures what such a server still grows. Code that runs on a clock rather than per operation (the /metrics
# scrape: the Prometheus registry, the HTTP server, the /proc reads behind the process metrics) gets no hotter with
# more load, so the warm-up also scrapes /metrics five times a second (into nothing; its every-10-s scrape still
# goes to its file): 30 minutes of it is a day of a 10-s scraper's calls.
# --nmt: the server runs with the JVM's native memory tracking (-XX:NativeMemoryTracking=summary: some CPU and
# a header more per native allocation: a diagnosis, not a judged run), and each sample also reads the JVM's
# own accounts (jcmd PID VM.native_memory summary): what it has committed in all, what it holds from malloc, and its
# code cache. The report gives their slopes beside the RSS's: a malloc account that stays flat while the arenas'
# RSS grows says the C library keeps what the JVM freed; one that grows names a leak inside the JVM.
# Writes DIR/samples.csv (t_s,heap_after_gc_bytes,rss_bytes,fds,fds_nojdb,threads,rss_heap_bytes,rss_code_bytes,
# rss_malloc_bytes,rss_file_bytes: the RSS by kind of mapping, from /proc/PID/smaps: in the Java heap's reserved
# range, the JIT's code, the C library's malloc arenas, mapped files; metaspace_bytes: the class metadata space
# committed, which also holds the JIT's method profiles; jit_compiles: compilations so far, from the JVM's
# performance counters, jcmd PID PerfCounter.print), DIR/load.out (the
# client's output), DIR/metrics.txt, and prints one summary line (also in DIR/summary.txt):
#   SOAK ... [warmup_minutes=.. warmup_ops=.. warmup_errors=..] errors=N (the run's and the warm-up's) [PASS|FAIL]
#   heap_slope_B_per_min=SLOPE±SE [..] rss_slope_B_per_min=SLOPE±SE
#   rss_heap_slope_B_per_min=SLOPE±SE native_rss_slope_B_per_min=SLOPE±SE [..]
#   native_by_kind_B_per_min: code_cache=.. malloc=.. files=.. other_anonymous=.. (which kind grows; not judged)
#   metaspace_B_per_min=.. (within other_anonymous) jit_compiles_per_h=.. (a JIT still warming up; not judged)
#   [nmt_B_per_min: committed=.. malloc=.. code=..   with --nmt; not judged]
#   fds_slope_per_h=SLOPE±SE [..] threads_slope_per_h=SLOPE±SE [..] p99_first_ms=... p99_last_ms=...
#   p99_ratio=... [..] ... RESULT=PASS|FAIL|UNSURE
# Slopes are least squares over the samples after the first fifth of the run (at most 10 minutes: caches
# warming up), with their standard error (SE). Goals: no error; slopes of the heap after GC and of the RSS
# outside the Java heap ("native") that would add less than a tenth of the maximum heap (-Xmx) in a day; less
# than one descriptor (not counting .jdb files) and one
# thread more per hour; the p99 over all operations in the last WINDOW within 1.2x of the first (WINDOW:
# 10 minutes, or a third of shorter runs). The RSS inside the Java heap is the heap's committed size, which G1
# grows and shrinks as it sees fit up to -Xmx (a bound, not a leak; what the heap holds is the heap-after-GC
# goal), so the total RSS slope and its heap part are reported, not judged. A slope goal is PASS when slope + 2 SE is under its limit, FAIL
# when slope - 2 SE is over it, and UNSURE in between: the samples are too noisy or too few, run longer.
# The server is stopped by its pid at the end, whatever happens.
# Env: JAVA_OPTS (default: those of bin/start-ds)  USERS (10000)
# Exit: 0 every goal met; 1 a goal failed; 2 usage; 3 the run failed (build, start, the server or client
# died); 4 no goal failed but a slope was UNSURE.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CHECKOUT=$(cd "$HERE/.." && pwd -P)
die() { local code=$1; shift; echo "soak.sh: $*" >&2; exit "$code"; }

# report: the summary of the run in $OUT, from run.env, samples.csv and load.out.
report() {
  local RESULT CSV=$OUT/samples.csv
  RESULT=$(grep '^RESULT' "$OUT/load.out") || { cat "$OUT/load.out" >&2; die 3 "the load client printed no result"; }
  grep '^error' "$OUT/load.out" >&2 || true
  field() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<<"$RESULT"; }
  # slope COLUMN SCALE: least squares of a samples.csv column (times SCALE) per minute over the samples at or
  # after SKIP s, and its standard error: "slope se".
  # With a third argument (columns, separated by spaces), the slope of column COLUMN minus those columns.
  slope() {
    awk -F, -v c="$1" -v k="$2" -v d="${3:-}" -v skip="$SKIP" 'BEGIN { n = 0; nd = split(d, sub_cols, " ") }
      NR > 1 && $1 >= skip { v = $c; for (j = 1; j <= nd; j++) v -= $(sub_cols[j]); x[n] = $1 / 60; y[n] = v * k; n++ }
      END { if (n < 3) { print "0 0"; exit }
            for (i = 0; i < n; i++) { mx += x[i] / n; my += y[i] / n }
            for (i = 0; i < n; i++) { sxx += (x[i] - mx) ^ 2; sxy += (x[i] - mx) * (y[i] - my) }
            b = sxy / sxx; a = my - b * mx
            for (i = 0; i < n; i++) ss += (y[i] - a - b * x[i]) ^ 2
            printf "%.1f %.1f", b, sqrt(ss / (n - 2) / sxx) }' "$CSV"
  }
  # leak SLOPE SE LIMIT: PASS when even slope + 2 SE is under the limit, FAIL when slope - 2 SE is over it,
  # UNSURE when the noise leaves both possible (run longer).
  leak() {
    awk -v b="$1" -v se="$2" -v l="$3" 'BEGIN { print (b + 2 * se < l ? "PASS" : b - 2 * se > l ? "FAIL" : "UNSURE") }'
  }
  local heap heap_se rss rss_se rss_heap rss_heap_se native native_se fds fds_se threads threads_se limit errors ratio
  read -r heap heap_se <<<"$(slope 2 1)"
  read -r rss rss_se <<<"$(slope 3 1)"
  read -r rss_heap rss_heap_se <<<"$(slope 7 1)"
  read -r native native_se <<<"$(slope 3 1 7)"
  # The native RSS by kind (not judged; see rss_by_kind), for runs whose samples have the columns.
  local kinds=""
  if head -n 1 "$CSV" | grep -q rss_file_bytes; then
    local code code_se malloc malloc_se file file_se other other_se
    read -r code code_se <<<"$(slope 8 1)"
    read -r malloc malloc_se <<<"$(slope 9 1)"
    read -r file file_se <<<"$(slope 10 1)"
    read -r other other_se <<<"$(slope 3 1 "7 8 9 10")"
    kinds=" native_by_kind_B_per_min: code_cache=$code±$code_se malloc=$malloc±$malloc_se files=$file±$file_se"
    kinds+=" other_anonymous=$other±$other_se"
  fi
  # The JIT's part (runs whose samples have the columns): compiled code lands in the code cache and each
  # method's profile in the metaspace, so a server still compiling grows both while its work is steady.
  if head -n 1 "$CSV" | grep -q jit_compiles; then
    local meta meta_se compiles compiles_se
    read -r meta meta_se <<<"$(slope 11 1)"
    read -r compiles compiles_se <<<"$(slope 12 60)"
    kinds+=" metaspace_B_per_min=$meta±$meta_se jit_compiles_per_h=$compiles±$compiles_se"
  fi
  # The JVM's own accounts (runs made with --nmt: their samples have the columns, with values).
  if head -n 1 "$CSV" | grep -q nmt_malloc_bytes && awk -F, 'NR == 2 { exit ($14 == "") }' "$CSV"; then
    local nmt_total nmt_total_se nmt_malloc nmt_malloc_se nmt_code nmt_code_se
    read -r nmt_total nmt_total_se <<<"$(slope 13 1)"
    read -r nmt_malloc nmt_malloc_se <<<"$(slope 14 1)"
    read -r nmt_code nmt_code_se <<<"$(slope 15 1)"
    kinds+=" nmt_B_per_min: committed=$nmt_total±$nmt_total_se malloc=$nmt_malloc±$nmt_malloc_se"
    kinds+=" code=$nmt_code±$nmt_code_se"
  fi
  read -r fds fds_se <<<"$(slope 5 60)"          # per hour
  read -r threads threads_se <<<"$(slope 6 60)"
  limit=$(awk -v x="$XMX" 'BEGIN { printf "%.0f", x / 10 / 1440 }')   # bytes per minute: a tenth of -Xmx a day
  errors=$(( $(field errors) + ${WARMUP_ERRORS:-0} )) ratio=$(field p99_ratio)
  local v_err v_p99 v_heap v_rss v_fds v_threads overall=PASS
  v_err=$( (( errors == 0 )) && echo PASS || echo FAIL)
  # From the two p99s, not the printed ratio: a run whose first window held the JIT's warm-up (seconds) and whose
  # last ran in milliseconds prints 0.00, which must pass; a missing p99 (no operations in a window) fails.
  v_p99=$(awk -v f="$(field p99_first_ms)" -v l="$(field p99_last_ms)" \
      'BEGIN { print (f + 0 > 0 && l + 0 > 0 && l <= 1.2 * f ? "PASS" : "FAIL") }')
  v_heap=$(leak "$heap" "$heap_se" "$limit") v_rss=$(leak "$native" "$native_se" "$limit")
  v_fds=$(leak "$fds" "$fds_se" 1) v_threads=$(leak "$threads" "$threads_se" 1)
  for v in "$v_err" "$v_p99" "$v_heap" "$v_rss" "$v_fds" "$v_threads"; do
    [[ $v == FAIL ]] && overall=FAIL
    [[ $v == UNSURE && $overall == PASS ]] && overall=UNSURE
  done
  local b_heap b_rss b_fds b_nojdb b_threads b_rss_heap a_heap a_rss a_fds a_nojdb a_threads a_rss_heap summary
  IFS=, read -r b_heap b_rss b_fds b_nojdb b_threads b_rss_heap _ <<<"$BASELINE"
  IFS=, read -r a_heap a_rss a_fds a_nojdb a_threads a_rss_heap _ <<<"$AFTER"
  summary="SOAK connections=$CONNECTIONS minutes=$MINUTES rate=$RATE ops=$(field ops) ops_per_s=$(field ops_per_s)"
  if (( ${WARMUP:-0} )); then
    summary+=" warmup_minutes=$WARMUP warmup_rate=$WARMUP_RATE warmup_ops=$WARMUP_OPS warmup_errors=$WARMUP_ERRORS"
  fi
  summary+=" errors=$errors [$v_err] heap_slope_B_per_min=$heap±$heap_se [$v_heap]"
  summary+=" rss_slope_B_per_min=$rss±$rss_se rss_heap_slope_B_per_min=$rss_heap±$rss_heap_se"
  summary+=" native_rss_slope_B_per_min=$native±$native_se [$v_rss] (limit $limit)$kinds"
  summary+=" fds_slope_per_h=$fds±$fds_se [$v_fds] threads_slope_per_h=$threads±$threads_se [$v_threads]"
  summary+=" p99_first_ms=$(field p99_first_ms) p99_last_ms=$(field p99_last_ms) p99_ratio=$ratio [$v_p99]"
  summary+=" window_s=$WINDOW slopes_after_s=$SKIP"
  summary+=" before: heap=$b_heap rss=$b_rss rss_heap=${b_rss_heap:-} fds=$b_fds fds_nojdb=$b_nojdb threads=$b_threads"
  summary+=" after: heap=$a_heap rss=$a_rss rss_heap=${a_rss_heap:-} fds=$a_fds fds_nojdb=$a_nojdb threads=$a_threads RESULT=$overall"
  echo "$RESULT" >"$OUT/summary.txt"
  echo "$summary" | tee -a "$OUT/summary.txt"
  case $overall in PASS) return 0 ;; FAIL) return 1 ;; *) return 4 ;; esac
}

CONNECTIONS=200 MINUTES=60 RATE=1000 INTERVAL=60 PORT=14489 OUT= BUILD=1 REPORT= NMT=0 WARMUP=0 WARMUP_RATE=10000
while (( $# )); do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --connections|--minutes|--rate|--interval|--port|--out|--warmup|--warmup-rate)
      (( $# >= 2 )) || die 2 "$1 needs a value"
      v=${1#--}; v=${v^^}; v=${v//-/_}; printf -v "$v" '%s' "$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --nmt) NMT=1; shift ;;
    --report) (( $# >= 2 )) || die 2 "--report needs a folder"; REPORT=$2; shift 2 ;;
    *) die 2 "unknown option $1 (see --help)" ;;
  esac
done
if [[ -n "$REPORT" ]]; then
  OUT=$(realpath "$REPORT")
  [[ -r $OUT/run.env && -r $OUT/samples.csv && -r $OUT/load.out ]] || die 2 "$REPORT holds no finished soak run"
  source "$OUT/run.env"
  report
  exit
fi
USERS=${USERS:-10000}
for v in CONNECTIONS MINUTES RATE INTERVAL PORT USERS WARMUP_RATE; do
  [[ ${!v} =~ ^[0-9]+$ && ${!v} -gt 0 ]] || die 2 "$v must be a positive whole number"
done
[[ $WARMUP =~ ^[0-9]+$ ]] || die 2 "--warmup is a whole number of minutes (0: none)"
(( MINUTES >= 3 )) || die 2 "a soak lasts at least 3 minutes"
(( INTERVAL >= 10 )) || die 2 "--interval is at least 10 s (each sample is a full GC)"
case "$PORT" in 1389|1636|8080|3389|3636|1391|4444) die 2 "port $PORT is used by the other benchmarks" ;; esac
OUT=$(realpath -m "${OUT:-$PWD/soak-$(date -u +%Y%m%dT%H%M%SZ)}")
case "$OUT/" in "$CHECKOUT"/*) die 2 "--out $OUT is inside the checkout; use a folder outside it" ;; esac
for tool in jcmd curl java; do command -v $tool >/dev/null || die 2 "$tool is missing"; done
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$PORT" $((PORT + 1)) $((PORT + 2)); do port_free "$p" || die 3 "127.0.0.1:$p is in use"; done

SECS=$((MINUTES * 60))
WINDOW=$(( SECS / 3 < 600 ? SECS / 3 : 600 ))
SKIP=$(( SECS / 5 < 600 ? SECS / 5 : 600 ))
if (( BUILD )); then
  echo "building (mvn -o -q -pl opendj-backend-je,benchmarks -am package -DskipTests)"
  (cd "$CHECKOUT" && mvn -o -q -B -pl opendj-backend-je,benchmarks -am package -DskipTests) || die 3 "the build failed"
fi
JARS=$CHECKOUT/opendj-backend-je/target
CP="$(ls "$JARS"/opendj-backend-je-*.jar 2>/dev/null | grep -v -e sources -e tests | head -n 1):$JARS/lib/*"
BENCH_JAR=$HERE/target/benchmarks.jar
[[ -r $BENCH_JAR && -d $JARS/lib ]] || die 3 "no $BENCH_JAR or $JARS/lib: build first (drop --no-build)"
source "$CHECKOUT/bin/_server-jvm.sh"
# shellcheck disable=SC2206
JVM=(${JAVA_OPTS:-$SERVER_JVM_DEFAULTS})
XMX=$(printf '%s\n' "${JVM[@]}" | awk '/^-Xmx/ { v = substr($0, 5); u = tolower(substr(v, length(v)));
  n = v + 0; print (u == "g" ? n * 1073741824 : u == "m" ? n * 1048576 : u == "k" ? n * 1024 : n) }' | tail -n 1)
[[ -n "$XMX" ]] || die 2 "JAVA_OPTS must set -Xmx (the heap goals are a share of it)"
(( NMT )) && JVM+=(-XX:NativeMemoryTracking=summary)

mkdir -p "$OUT"
INSTANCE=$OUT/instance
rm -rf "$INSTANCE"
mkdir -p "$INSTANCE/logs"
cp -r "$CHECKOUT/config" "$INSTANCE/config"
rm -rf "$INSTANCE/config/tls"   # the instance makes its own on its first start
sed -i "s/^ds-cfg-sample-entries: .*/ds-cfg-sample-entries: $USERS/" "$INSTANCE/config/config.ldif"

SERVER_PID= LOAD_PID= SCRAPER_PID=
# Runs under set -e: a kill of a client already gone must not end it before the server is stopped.
cleanup() {
  [[ -z "$LOAD_PID" ]] || kill -TERM "$LOAD_PID" 2>/dev/null || true
  [[ -z "$SCRAPER_PID" ]] || kill -TERM "$SCRAPER_PID" 2>/dev/null || true
  if [[ -n "$SERVER_PID" ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 3' INT TERM

java "${JVM[@]}" -cp "$CP" io.bindfirst.server.Launcher --instanceRoot "$INSTANCE" \
  --config "$INSTANCE/config/config.ldif" --port "$PORT" --ldaps-port $((PORT + 1)) --metrics-port $((PORT + 2)) \
  >"$INSTANCE/logs/server.out" 2>&1 </dev/null &
SERVER_PID=$!
for _ in $(seq 1 1200); do
  grep -q '^The server is listening on' "$INSTANCE/logs/server.out" && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$INSTANCE/logs/server.out" >&2; die 3 "the server did not start"; }
  sleep 0.1
done
grep -q '^The server is listening on' "$INSTANCE/logs/server.out" || die 3 "the server did not listen within 120 s"
echo "server pid $SERVER_PID on 127.0.0.1:$PORT; $CONNECTIONS connections, $RATE ops/s, $MINUTES min; files in $OUT"

# The bytes the heap's live objects hold, counted by the full GC that GC.class_histogram runs first, in the same
# pause: a GC.run then a GC.heap_info are two attaches a second or more apart, and the load allocates meanwhile
# (tens of MB at 1,000 operations/s on a slow machine), which was most of the samples' scatter.
heap_after_gc() {
  jcmd "$SERVER_PID" GC.class_histogram | awk '$1 == "Total" { print $3; exit }'
}
# The Java heap's reserved address range, as 16 hex digits each ("lo hi"), from GC.heap_info's first line.
heap_range() {
  jcmd "$SERVER_PID" GC.heap_info | awk 'match($0, /\[0x[0-9a-f]+, 0x[0-9a-f]+\)/) {
      split(substr($0, RSTART + 1, RLENGTH - 2), a, /, /)
      for (i = 1; i <= 2; i++) { h = substr(a[i], 3); printf "%s%s", substr("0000000000000000", 1, 16 - length(h)) h, (i == 1 ? " " : "\n") }
      exit }'
}
# The RSS by kind of mapping, from /proc/PID/smaps: "heap,code,malloc,file" bytes. heap: in the Java heap's
# reserved range; code: anonymous and executable (the JIT's code cache); malloc: the C library's arenas (the
# brk [heap], and each other arena: an anonymous 64 MiB-aligned read-write map that is 64 MiB long or followed
# by its own unused reserve up to 64 MiB); file: mapped files (libraries, the class data archive). The rest of
# the RSS is the JVM's other maps (class metadata, the collector's tables, thread stacks) and allocations large
# enough for a map of their own. Heuristics, not the JVM's accounts (-XX:NativeMemoryTracking): enough to tell
# which kind grows. smaps prints addresses in lower-case hex of varying width: padded to 16 digits they compare
# as strings; hexval turns them into numbers (exact below 2^53) for the arena test.
rss_by_kind() {
  awk -v lo="${HEAP_RANGE% *}" -v hi="${HEAP_RANGE#* }" '
    function hexval(h,   i, v) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
    function settle(next_perm, next_a, next_b) {   # the pending aligned map is an arena if its reserve follows
      if (cand) { if (cand_len == A || (next_perm == "---p" && next_a == cand_b && next_b == cand_a + A)) m += cand_kb; cand = 0 }
    }
    BEGIN { A = 64 * 1048576 }
    /^[0-9a-f]+-[0-9a-f]+ / {
      split($1, r, "-"); a = hexval(r[1]); b = hexval(r[2]); p = substr("0000000000000000", 1, 16 - length(r[1])) r[1]
      settle($2, a, b)
      kind = (p >= lo && p < hi) ? "h" : ($6 == "[heap]") ? "m" : ($6 ~ /^\//) ? "f" : ($6 == "" && $2 ~ /x/) ? "c" : ""
      if (kind == "" && $6 == "" && $2 == "rw-p" && a % A == 0 && b - a <= A) { cand = 1; cand_a = a; cand_b = b; cand_len = b - a; kind = "a" }
      next }
    /^Rss:/ { if (kind == "h") h += $2; else if (kind == "m") m += $2; else if (kind == "f") f += $2; else if (kind == "c") c += $2; else if (kind == "a") cand_kb = $2 }
    END { settle("", 0, 0); printf "%d,%d,%d,%d\n", h * 1024, c * 1024, m * 1024, f * 1024 }' "/proc/$SERVER_PID/smaps"
}
proc_sample() {   # rss_bytes,fds,fds_nojdb,threads,rss_heap_bytes,rss_code_bytes,rss_malloc_bytes,rss_file_bytes
  local rss threads fds nojdb links kinds
  rss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$SERVER_PID/status")
  kinds=$(rss_by_kind)
  threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SERVER_PID/status")
  links=$(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 -printf '%l\n' 2>/dev/null)  # a descriptor may close meanwhile
  fds=$(grep -c . <<<"$links" || true)
  nojdb=$(grep -cv '\.jdb$' <<<"$links" || true)
  echo "$rss,$fds,$nojdb,$threads,$kinds"
}
# The metaspace committed and the compilations so far: "metaspace_bytes,jit_compiles" (empty if jcmd fails).
jvm_counters() {
  jcmd "$SERVER_PID" PerfCounter.print 2>/dev/null | awk -F= '
    $1 == "sun.gc.metaspace.capacity" { m = $2 } $1 == "sun.ci.totalCompiles" { c = $2 }
    END { printf "%s,%s\n", m, c }'
}
# With --nmt, the JVM's own accounts in bytes: "committed,malloc,code" (the total it has committed, what it holds
# from malloc, its code cache committed); else ",,". The malloc figure is the summary's own line where the JDK
# prints one, else the sum over its categories.
nmt_counters() {
  if (( ! NMT )); then echo ",,"; return; fi
  jcmd "$SERVER_PID" VM.native_memory summary 2>/dev/null | awk '
    /^Total: / && match($0, /committed=[0-9]+KB/) { total = substr($0, RSTART + 10, RLENGTH - 12) }
    /^ +malloc: [0-9]+KB/ && line == "" { line = $2; sub(/KB.*/, "", line) }
    match($0, /\(malloc=[0-9]+KB/) { sum += substr($0, RSTART + 8, RLENGTH - 10) }
    /^- +Code \(/ && match($0, /committed=[0-9]+KB/) { code = substr($0, RSTART + 10, RLENGTH - 12) }
    END { if (total == "") { print ",,"; exit }
          printf "%d,%d,%d\n", total * 1024, (line != "" ? line : sum) * 1024, code * 1024 }'
}
# One sample: "heap,rss,fds,fds_nojdb,threads,rss_heap,rss_code,rss_malloc,rss_file,metaspace,jit_compiles,
# nmt_committed,nmt_malloc,nmt_code".
# The full GC first, then a native trim, then the process: glibc keeps freed native memory in its arenas until
# the JVM's next trim (every 10 s, TrimNativeHeapInterval), so an RSS read at a random moment is a few MB high or
# low by where it falls between trims, and one read right after a full GC counts the GC's own scratch memory.
# Trimming first measures what the process still holds, which is what a leak grows. (A JDK without the
# System.trim_native_heap command skips the trim.)
sample() {
  local heap
  heap=$(heap_after_gc)
  jcmd "$SERVER_PID" System.trim_native_heap >/dev/null 2>&1 || true
  echo "$heap,$(proc_sample),$(jvm_counters),$(nmt_counters)"
}
scrape() { echo "# soak t=$1"; curl -s --max-time 5 "http://127.0.0.1:$((PORT + 2))/metrics" || echo "# scrape failed"; }

HEAP_RANGE=$(heap_range)
[[ $HEAP_RANGE =~ ^[0-9a-f]{16}\ [0-9a-f]{16}$ ]] || die 3 "could not read the Java heap's address range (jcmd $SERVER_PID GC.heap_info)"
# drive NAME RATE SECONDS WINDOW CSV METRICS: the load client at RATE operations/s for SECONDS (p99s compared over
# WINDOW s), its output in DIR/NAME.out; a sample every INTERVAL s into the file CSV and a scrape every 10 s into
# the file METRICS, until the client ends.
drive() {
  local name=$1 rate=$2 secs=$3 window=$4 csv=$5 metrics=$6 start next_sample=0 t load_rc
  echo "t_s,heap_after_gc_bytes,rss_bytes,fds,fds_nojdb,threads,rss_heap_bytes,rss_code_bytes,rss_malloc_bytes,\
rss_file_bytes,metaspace_bytes,jit_compiles,nmt_committed_bytes,nmt_malloc_bytes,nmt_code_bytes" >"$csv"
  : >"$metrics"
  timeout --kill-after=30 $((secs + 120)) java -Xmx512m -cp "$BENCH_JAR" io.bindfirst.bench.MixedLoad \
    --port "$PORT" --connections "$CONNECTIONS" --rate "$rate" --seconds "$secs" --window "$window" \
    --users "$USERS" >"$OUT/$name.out" 2>&1 &
  LOAD_PID=$!
  if [[ $name == warmup ]]; then
    ( while kill -0 "$LOAD_PID" 2>/dev/null; do
        curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$((PORT + 2))/metrics" || true; sleep 0.2
      done ) &
    SCRAPER_PID=$!
  fi
  start=$(date +%s)
  while kill -0 "$LOAD_PID" 2>/dev/null; do
    t=$(( $(date +%s) - start ))
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 30 "$INSTANCE/logs/server.out" >&2; die 3 "the server died at ${t} s of the $name"; }
    scrape "$t" >>"$metrics"
    if (( t >= next_sample && t <= secs )); then
      echo "$t,$(sample)" >>"$csv"
      next_sample=$((next_sample + INTERVAL))
    fi
    sleep 10
  done
  set +e
  wait "$LOAD_PID"; load_rc=$?
  set -e
  LOAD_PID=
  if [[ -n $SCRAPER_PID ]]; then kill "$SCRAPER_PID" 2>/dev/null || true; wait "$SCRAPER_PID" 2>/dev/null || true; SCRAPER_PID=; fi
  (( load_rc == 0 || load_rc == 1 )) || { cat "$OUT/$name.out" >&2; die 3 "the $name's load client failed (exit $load_rc)"; }
  sleep 10   # the server closes the departed connections
  scrape $(( $(date +%s) - start )) >>"$metrics"
}
WARMUP_OPS=0 WARMUP_ERRORS=0
if (( WARMUP )); then
  echo "warm-up: $WARMUP min at $WARMUP_RATE ops/s"
  drive warmup "$WARMUP_RATE" $((WARMUP * 60)) 30 "$OUT/warmup.csv" "$OUT/warmup-metrics.txt"
  WARMUP_OPS=$(sed -n 's/^RESULT.* ops=\([0-9]*\) .*/\1/p' "$OUT/warmup.out")
  WARMUP_ERRORS=$(sed -n 's/^RESULT.* errors=\([0-9]*\) .*/\1/p' "$OUT/warmup.out")
  [[ -n "$WARMUP_OPS" && -n "$WARMUP_ERRORS" ]] || { cat "$OUT/warmup.out" >&2; die 3 "the warm-up's client printed no result"; }
  echo "warm-up done: $WARMUP_OPS operations, $WARMUP_ERRORS errors; the judged run starts"
fi
BASELINE=$(sample)
drive load "$RATE" "$SECS" "$WINDOW" "$OUT/samples.csv" "$OUT/metrics.txt"
AFTER=$(sample)
cat >"$OUT/run.env" <<ENV
CONNECTIONS=$CONNECTIONS MINUTES=$MINUTES RATE=$RATE WINDOW=$WINDOW SKIP=$SKIP XMX=$XMX
WARMUP=$WARMUP WARMUP_RATE=$WARMUP_RATE WARMUP_OPS=$WARMUP_OPS WARMUP_ERRORS=$WARMUP_ERRORS
BASELINE=$BASELINE AFTER=$AFTER
ENV
report
