# Shared by bin/start-ds and bin/stop-ds: where things are, and how to build and run the server.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PID_FILE="$ROOT/logs/server.pid"
OUT_FILE="$ROOT/logs/server.out"
SERVER_JAR_DIR="$ROOT/opendj-backend-je/target"

# The running server's pid, or nothing.
running_pid() {
  [[ -s "$PID_FILE" ]] || return 0
  local pid
  pid=$(cat "$PID_FILE")
  if kill -0 "$pid" 2>/dev/null && grep -q 'io.bindfirst.server.Launcher' "/proc/$pid/cmdline" 2>/dev/null; then
    echo "$pid"
  fi
}

# Builds with Maven when there is no build yet or a source file is newer than it.
build_if_needed() {
  local jar
  jar=$(ls "$SERVER_JAR_DIR"/opendj-backend-je-*.jar 2>/dev/null | head -n 1 || true)
  if [[ -z "$jar" || ! -d "$SERVER_JAR_DIR/lib" ]] || \
     [[ -n $(find "$ROOT/pom.xml" "$ROOT/opendj-server-core" "$ROOT/opendj-backend-je" \
                 -path '*/target' -prune -o -newer "$jar" -type f -print -quit) ]]; then
    echo "Building the server (mvn package, tests skipped)..."
    local build_log
    build_log=$(mktemp)
    if ! (cd "$ROOT" && mvn -q -B -Dstyle.color=never -DskipTests -pl opendj-backend-je -am package) >"$build_log" 2>&1; then
      cat "$build_log" >&2
      rm -f "$build_log"
      echo "The build failed; see the Maven output above." >&2
      exit 1
    fi
    rm -f "$build_log"
  fi
}

server_classpath() {
  echo "$(ls "$SERVER_JAR_DIR"/opendj-backend-je-*.jar | head -n 1):$SERVER_JAR_DIR/lib/*"
}

# Raises the soft open-files limit to the hard limit: each client connection is a file descriptor, and a
# server out of them stops accepting without a word from the transport. Whether the limit can hold the
# configured maximum of client connections is the server's to say: it checks at start, against the
# configuration it actually loaded (--config FILE included) and the limit its own process got, and
# warns in logs/server.out, which bin/start-ds shows.
raise_open_files() {
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}
