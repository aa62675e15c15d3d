# The server's JVM options when JAVA_OPTS is not set: bin/start-ds and the benchmarks' servers use these
# (BenchSettingsTest checks that the benchmarks' forked servers do too).
# - -Xms64m -Xmx192m: room for the 64 MiB JE cache and 400 connections under 256 MiB resident.
# - G1 told to grow the heap once pauses pass 4% of the time (GCTimeRatio=24) and to start marking at 75%
#   occupancy, not adaptively: 10,000 idle bound connections hold ~40 MiB, which else squeezes the young
#   generation or starts marking cycles back to back.
# - The native heap trimmed every 10 s (TrimNativeHeapInterval): glibc keeps what the JVM's native code frees
#   in its arenas; one trim of a server 21 minutes into a mixed load gave back 22 MiB, and with the option the
#   same soak ran ~20 MiB lower (docs/benchmarks-history.md, "A soak: the first two hours"). Older JDK 17
#   updates lack the option, hence IgnoreUnrecognizedVMOptions: they start without trimming instead of refusing.
# - The JIT's discarded code swept after 0.05% of the code cache's reservation has changed state (~126 KB;
#   SweeperThreshold, 0.5% by default): compiled code the JIT replaces (a method promoted to its optimised
#   version, or deoptimised) stays in the code cache until a sweep frees it, and sweeps otherwise wait for
#   1.26 MB of such changes. Until then new code is placed above what waits, so the code cache's resident size
#   carried up to that much more: two soaks side by side, minutes 10-75, the code cache grew +25.1 KB/min with
#   the default and +18.1 with 0.05, 3 MiB lower at the end, the same live code in both (docs/BENCHMARKS.md, "A
#   soak"); a sweep costs its thread ~9 ms every few minutes, binds' CPU level. JDK 20 and later have no
#   sweeper (the collector frees such code) and ignore the option.
SERVER_JVM_DEFAULTS="-Xms64m -Xmx192m -XX:GCTimeRatio=24 -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=75 -XX:+IgnoreUnrecognizedVMOptions -XX:TrimNativeHeapInterval=10000 -XX:SweeperThreshold=0.05"
# - Two malloc arenas for the JVM's native allocations (glibc gives each thread's allocations one of up to 8 per
#   core, and each keeps what was freed in it): two 125-minute soaks side by side, 7.3 million operations each,
#   the arenas' resident memory grew +16.7 KB/min with the default and shrank (-11.0) with two, the native RSS
#   +55 against +30 KB/min; binds' server CPU level (docs/benchmarks-history.md, "Late on 2026-11-27"). A
#   MALLOC_ARENA_MAX already set is kept.
SERVER_MALLOC_ARENA_MAX=2
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-$SERVER_MALLOC_ARENA_MAX}"
