# Shared by bin/start-ds, bin/stop-ds and the tools (bin/import-ldif, bin/rebuild-index, ...): where things are,
# and how to build and run the server and the tools.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PID_FILE="$ROOT/logs/server.pid"
OUT_FILE="$ROOT/logs/server.out"
SERVER_JAR_DIR="$ROOT/opendj-backend-je/target"
TOOLS_JAR_DIR="$ROOT/opendj-tools/target"
source "$ROOT/bin/_server-jvm.sh"
source "$ROOT/bin/_class-archive.sh"

# The running server's pid, or nothing.
running_pid() {
  [[ -s "$PID_FILE" ]] || return 0
  local pid
  pid=$(cat "$PID_FILE")
  if kill -0 "$pid" 2>/dev/null && grep -q 'io.bindfirst.server.Launcher' "/proc/$pid/cmdline" 2>/dev/null; then
    echo "$pid"
  fi
}

# Builds with Maven when there is no build yet or a source file is newer than it. One build makes both the
# server (opendj-backend-je/target) and the tools (opendj-tools/target): the tools module depends on the
# server's, so -am packages both.
build_if_needed() {
  local jar tools_jar
  jar=$(ls "$SERVER_JAR_DIR"/opendj-backend-je-*.jar 2>/dev/null | head -n 1 || true)
  tools_jar=$(ls "$TOOLS_JAR_DIR"/opendj-tools-*.jar 2>/dev/null | head -n 1 || true)
  if [[ -z "$jar" || ! -d "$SERVER_JAR_DIR/lib" || -z "$tools_jar" || ! -d "$TOOLS_JAR_DIR/lib" ]] || \
     [[ -n $(find "$ROOT/pom.xml" "$ROOT/opendj-server-core" "$ROOT/opendj-backend-je" "$ROOT/opendj-tools" \
                 -path '*/target' -prune -o \( -newer "$jar" -o -newer "$tools_jar" \) -type f -print -quit) ]]; then
    echo "Building the server and its tools (mvn package, tests skipped)..."
    local build_log
    build_log=$(mktemp)
    if ! (cd "$ROOT" && mvn -q -B -Dstyle.color=never -DskipTests -pl opendj-tools -am package) >"$build_log" 2>&1; then
      cat "$build_log" >&2
      rm -f "$build_log"
      echo "The build failed; see the Maven output above." >&2
      exit 1
    fi
    rm -f "$build_log"
    # Maven leaves a jar whose classes did not change as it was, older than a test source edited since:
    # without this, every later run would build again.
    touch "$SERVER_JAR_DIR"/opendj-backend-je-*.jar "$TOOLS_JAR_DIR"/opendj-tools-*.jar
  fi
}

server_classpath() {
  echo "$(ls "$SERVER_JAR_DIR"/opendj-backend-je-*.jar | head -n 1):$SERVER_JAR_DIR/lib/*"
}

tools_classpath() {
  echo "$(ls "$TOOLS_JAR_DIR"/opendj-tools-*.jar | head -n 1):$TOOLS_JAR_DIR/lib/*"
}

# Runs one tool's main class with the instance root the server would get from bin/start-ds, so relative
# paths in config/config.ldif (the database directory) mean the same to both.
# JVM options: TOOLS_JAVA_OPTS (default: the JVM's own, a quarter of the memory for the heap), and the tool's
# class-data archive (bin/_class-archive.sh; CLASS_ARCHIVE=off to run without).
run_tool() {
  local main=$1
  shift
  command -v java >/dev/null || { echo "java is not on the PATH (Java 17 is needed)." >&2; exit 1; }
  build_if_needed
  # shellcheck disable=SC2206
  local jvm=(${TOOLS_JAVA_OPTS:-})
  local root=(--instanceRoot "$ROOT")
  local help=
  for a in "$@"; do
    [[ $a == --instanceRoot || $a == --instanceRoot=* ]] && root=()
    [[ $a == -h || $a == --help || $a == -V || $a == --version ]] && help=yes
  done
  local cp archive=()
  cp=$(tools_classpath)
  # An archive made from the classes of a run that only prints its help would hold little more than the option
  # parser's: such a run neither lists its classes nor has an archive made.
  if [[ -z $help ]]; then
    mapfile -t archive < <(class_archive_options "$main" "$cp" ${jvm[@]+"${jvm[@]}"} | grep -- '^-XX:' || true)
  fi
  exec java ${jvm[@]+"${jvm[@]}"} ${archive[@]+"${archive[@]}"} -cp "$cp" "$main" ${root[@]+"${root[@]}"} "$@"
}

# Raises the soft open-files limit to the hard limit: each client connection is a file descriptor, and a
# server out of them stops accepting without a word from the transport. Whether the limit can hold the
# configured maximum of client connections is the server's to say: it checks at start, against the
# configuration it actually loaded (--config FILE included) and the limit its own process got, and
# warns in logs/server.out, which bin/start-ds shows.
raise_open_files() {
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}
