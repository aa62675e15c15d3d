/**
 * JMH micro-benchmarks of the bind path's parts: the registry of authenticated connections
 * ({@link io.bindfirst.bench.AuthenticatedUsersBenchmark}, against the
 * {@link io.bindfirst.bench.RwLockAuthenticatedUsers} baseline; {@link io.bindfirst.bench.RegistryThreads}
 * runs it at 1 to 32 threads), password verification, DN parsing and BindRequest decoding, plus
 * {@link io.bindfirst.bench.CpuTimeProfiler} ({@code -prof}) for CPU time per operation on a noisy machine.
 * Build with {@code mvn -q -DskipTests package}, run from the repository root with
 * {@code java -jar benchmarks/target/benchmarks.jar}; see docs/BENCHMARKS.md for figures.
 */
package io.bindfirst.bench;
