# The server's JVM options when JAVA_OPTS is not set: bin/start-ds and the benchmarks' servers use these
# (BenchSettingsTest checks that the benchmarks' forked servers do too).
# - -Xms64m -Xmx192m: room for the 64 MiB JE cache and 400 connections under 256 MiB resident.
# - G1 told to grow the heap once pauses pass 4% of the time (GCTimeRatio=24) and to start marking at 75%
#   occupancy, not adaptively: 10,000 idle bound connections hold ~40 MiB, which else squeezes the young
#   generation or starts marking cycles back to back.
# - The native heap trimmed every 10 s (TrimNativeHeapInterval): glibc keeps what the JVM's native code frees
#   in its arenas; one trim of a server 21 minutes into a mixed load gave back 22 MiB, and with the option the
#   same soak ran ~20 MiB lower (docs/BENCHMARKS.md, "A soak"). Older JDK 17 updates lack the option, hence
#   IgnoreUnrecognizedVMOptions: they start without trimming instead of refusing to start.
SERVER_JVM_DEFAULTS="-Xms64m -Xmx192m -XX:GCTimeRatio=24 -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=75 -XX:+IgnoreUnrecognizedVMOptions -XX:TrimNativeHeapInterval=10000"
