package io.bindfirst.tools;

import picocli.CommandLine.IVersionProvider;

/** The version in the tools jar's manifest (nothing when run from classes, as the tests do). */
final class ToolVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = ToolVersion.class.getPackage().getImplementationVersion();
        return new String[] {"${COMMAND-FULL-NAME} " + (v != null ? v : "(version unknown: not run from its jar)")};
    }
}
