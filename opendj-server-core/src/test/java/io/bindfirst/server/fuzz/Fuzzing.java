package io.bindfirst.server.fuzz;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.schema.SchemaLoader;

/**
 * What every fuzz target shares: the server's schema, and the check that one input costs memory in proportion to
 * its size. A target's entry point is static by Jazzer's contract ({@code fuzzerTestOneInput}), so each target keeps
 * what it builds once in a static field set by its {@code fuzzerInitialize}; nothing else here holds state.
 */
public final class Fuzzing {
    /**
     * What one input may allocate: a fixed allowance (the SDK's readers, the schema's lazily built matchers) plus a
     * multiple of its length. A length header that claims gigabytes and is believed goes far past it; honest
     * decoding of a few kilobytes stays well below.
     */
    static final long FIXED_ALLOWANCE = 8L << 20;
    static final long PER_INPUT_BYTE = 512;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Fuzzing() {
    }

    /** The server's schema, from {@code config/schema} of the source tree (found from the working directory up). */
    public static Schema serverSchema() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("config/schema"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("No config/schema above " + Path.of("").toAbsolutePath());
        }
        try {
            return SchemaLoader.load(dir.resolve("config/schema"));
        } catch (Exception e) {
            throw new IllegalStateException("The server's schema does not load", e);
        }
    }

    /** One input's work: throws only what a target counts as a finding. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    /**
     * Runs {@code work} and fails if it allocated more than its input's allowance. An input over the allowance is
     * run a second time and only that run counts, so what a first use initializes once (a matching rule's tables,
     * a class's statics) is not taken for the input's cost.
     */
    public static void withinAllowance(int inputLength, Work work) throws Exception {
        long allowance = FIXED_ALLOWANCE + PER_INPUT_BYTE * inputLength;
        long used = allocatedBy(work);
        if (used > allowance) {
            used = allocatedBy(work);
            if (used > allowance) {
                throw new AssertionError("An input of " + inputLength + " bytes allocated " + used
                        + " bytes, more than its allowance of " + allowance);
            }
        }
    }

    private static long allocatedBy(Work work) throws Exception {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        work.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
