/** JMH micro-benchmarks of the bind path's parts; see docs/BENCHMARKS.md for the command. */
package io.bindfirst.bench;
