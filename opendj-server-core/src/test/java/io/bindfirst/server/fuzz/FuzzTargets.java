package io.bindfirst.server.fuzz;

/**
 * The fuzz targets: the class Jazzer runs, the folder of its corpus under {@code src/test/resources/fuzz}
 * ({@code seeds}: written by {@link SeedCorpus}; {@code regressions}: inputs that once found something, replayed by
 * every build) and the longest input it is given.
 */
public enum FuzzTargets {
    REQUEST("io.bindfirst.server.net.RequestFuzzTarget", "request", 4096),
    CONTROLS("io.bindfirst.server.core.ControlsFuzzTarget", "controls", 1024),
    FILTER("io.bindfirst.server.core.FilterFuzzTarget", "filter", 1024),
    DN("io.bindfirst.server.core.DnFuzzTarget", "dn", 1024),
    ACI("io.bindfirst.server.access.aci.AciFuzzTarget", "aci", 2048),
    /** Long enough for the shipped config.ldif, which is among its seeds (see {@link JazzerRun}). */
    CONFIG("io.bindfirst.server.config.ConfigLdifFuzzTarget", "config", 32768);

    private final String targetClass;
    private final String directory;
    private final int maxLength;

    FuzzTargets(String targetClass, String directory, int maxLength) {
        this.targetClass = targetClass;
        this.directory = directory;
        this.maxLength = maxLength;
    }

    public String targetClass() {
        return targetClass;
    }

    public String directory() {
        return directory;
    }

    public int maxLength() {
        return maxLength;
    }
}
