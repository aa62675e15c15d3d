#!/usr/bin/env bash
# Builds ldload, the light C load generator, into benchmarks/ldload/target/ldload.
#   build.sh [--help]
# Needs a C compiler as `cc` (Debian: apt-get install gcc) and nothing but libc. CC=clang build.sh picks another.
# Exit: 0 built; 1 the compiler is missing or failed; 2 usage.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "") ;;
  *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
CC=${CC:-cc}
command -v "$CC" >/dev/null || {
  echo "build.sh: no C compiler: '$CC' is not on the PATH (Debian: apt-get install gcc, or set CC)" >&2
  exit 1
}
mkdir -p "$HERE/target"
# -Werror: the source builds without a warning; a new one should be seen, not scrolled past.
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -o "$HERE/target/ldload" "$HERE/ldload.c"
echo "built $HERE/target/ldload"
