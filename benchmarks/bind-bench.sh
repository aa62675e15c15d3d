#!/usr/bin/env bash
# One run of the end-to-end bind benchmark (opendj-tests/.../BindLatencyBenchmarkTestCase) through Maven,
# from the root of this checkout, offline. Prints the run's BIND-BENCH line and where its results are.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: benchmarks/bind-bench.sh [options] [-- extra Maven arguments]

  --threads N           fast bind connections, one thread each (default 16)
  --seconds S           measured window (default 30)
  --warmup S            warm-up before it (default 10)
  --users N             users bound against: created by a started server, or the range on a given one
                        (default 10000 started, 5000 given)
  --idle N              idle connections opened and bound before the warm-up, held silent (default 0)
  --slow-fraction F     slow connections as a fraction of all: round(threads*F/(1-F)) more (default 0)
  --slow-kind K         pbkdf2 | search | mixed | wrong_password (PBKDF2 users, wrong passwords) (default mixed)
  --slow-iterations N   PBKDF2 iterations of the slow users (default 9000000, about 2 s of CPU here)
  --server M            inprocess | fork (default inprocess; fork by itself above 2000 idle connections)
  --host H              a server already listening (with --port)
  --port P              its port
  --server-pid PID      its process, to read its resident memory around the idle connections
  --server-jvm-opts O   JVM options of a forked server (default: those of bin/start-ds)
  --root-dn DN          root user for the slow users and searches (default "cn=Directory Manager")
  --root-password PW    its password (default "password")
  --label L             label of the results (default bindfirst)
  -h, --help            this text

Builds the modules the test needs (mvn -o verify -pl opendj-tests -am, running no other test), runs the
test with -Dbind.bench=true, and keeps Maven's output in opendj-tests/target/bind-bench/mvn-<time>.log.
Results: opendj-tests/target/bind-bench/bind-bench-v3.csv (one row per run) and one JSON file per run.
Exit status: 0 the run passed its checks; 3 results were written but the test failed a check (e.g. binds
that failed: the line says how many); 1 no results (build failure, server that would not start, ...).
EOF
}

die() { echo "bind-bench.sh: $*" >&2; exit 2; }

props=()
extra=()
label=bindfirst
seconds=30
warmup=10
idle=0
while [[ $# -gt 0 ]]; do
    opt=$1
    case "$opt" in
        -h|--help) usage; exit 0 ;;
        --) shift; extra=("$@"); break ;;
    esac
    [[ $# -ge 2 ]] || die "$opt needs a value (see --help)"
    val=$2
    case "$opt" in
        --threads) props+=("-Dbind.bench.threads=$val") ;;
        --seconds) seconds=$val; props+=("-Dbind.bench.durationSeconds=$val") ;;
        --warmup) warmup=$val; props+=("-Dbind.bench.warmupSeconds=$val") ;;
        --users) props+=("-Dbind.bench.users=$val") ;;
        --idle) idle=$val; props+=("-Dbind.bench.idle=$val") ;;
        --slow-fraction) props+=("-Dbind.bench.slowFraction=$val") ;;
        --slow-kind) props+=("-Dbind.bench.slowKind=$val") ;;
        --slow-iterations) props+=("-Dbind.bench.slowIterations=$val") ;;
        --server) props+=("-Dbind.bench.server=$val") ;;
        --host) props+=("-Dbind.bench.host=$val") ;;
        --port) props+=("-Dbind.bench.port=$val") ;;
        --server-pid) props+=("-Dbind.bench.serverPid=$val") ;;
        --server-jvm-opts) props+=("-Dbind.bench.serverJvmOpts=$val") ;;
        --root-dn) props+=("-Dbind.bench.rootDN=$val") ;;
        --root-password) props+=("-Dbind.bench.rootPassword=$val") ;;
        --label) label=$val; props+=("-Dbind.bench.label=$val") ;;
        *) usage >&2; die "unknown option $opt" ;;
    esac
    shift 2
done
for n in "$seconds" "$warmup" "$idle"; do
    [[ $n =~ ^[0-9]+$ ]] || die "--seconds, --warmup and --idle take whole numbers, not '$n'"
done

cd "$(dirname "$0")/.."
out=opendj-tests/target/bind-bench
mkdir -p "$out"
log=$out/mvn-$(date -u +%Y%m%dT%H%M%SZ)-$$.log

# The test bounds itself (server start, idle opening, window, grace); this only backs it up: build time,
# up to 3 min of server start, the idle opening budget (60 s + 20 ms each), the window, 10 min of margin.
budget=$(( 600 + 180 + 60 + idle / 50 + warmup + seconds + 600 ))

cmd=(mvn -o -B verify -pl opendj-tests -am
     -Dtest=BindLatencyBenchmarkTestCase -Dsurefire.failIfNoSpecifiedTests=false
     -Dbind.bench=true "${props[@]}" "${extra[@]}")
echo "bind-bench.sh: ${cmd[*]}"
echo "bind-bench.sh: Maven output in $log (at most ${budget} s)"
status=0
timeout -k 30 "$budget" "${cmd[@]}" >"$log" 2>&1 || status=$?

grep -E '^BIND-BENCH (forked server|slow users|[0-9]+ idle)' "$log" || true
line=$(grep -E '^BIND-BENCH label=' "$log" | tail -n 1 || true)
wrote=$(grep -E '^BIND-BENCH wrote ' "$log" | tail -n 1 || true)
if [[ -z $line ]]; then
    echo "bind-bench.sh: no result (Maven exit status $status); the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
fi
echo "$line"
echo "results: ${wrote#BIND-BENCH wrote }"
if [[ $status -ne 0 ]]; then
    echo "bind-bench.sh: the test failed a check (Maven exit status $status):" >&2
    grep -E '(AssertionError|IllegalStateException|Exception):' "$log" | head -n 3 >&2 || true
    exit 3
fi
