package io.bindfirst.it.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.testng.SkipException;

/** Runs OpenLDAP's client tools (Debian's ldap-utils) for interoperability tests. */
public final class LdapTools {
    private LdapTools() {
    }

    /** The exit code and what the tool printed (stdout and stderr together). */
    public record Run(int exit, String output) {
    }

    /** Skips the test class when a tool is missing, unless {@code -Dldap.tools.required=true} (CI). */
    public static void require(String... tools) {
        for (String tool : tools) {
            if (!Files.isExecutable(Path.of("/usr/bin", tool))) {
                if (Boolean.getBoolean("ldap.tools.required")) {
                    throw new AssertionError(tool + " is required but not installed (.ci/run installs it)");
                }
                throw new SkipException(tool + " is not installed");
            }
        }
    }

    public static Run run(String... command) throws IOException, InterruptedException {
        return runWithInput(null, command);
    }

    /**
     * Runs a tool with OpenLDAP's TLS settings from the environment: trusting only {@code caFile} and checking
     * the server's name. (The other runs set LDAPNOINIT, which also turns off these variables.)
     */
    public static Run runTrusting(Path caFile, String... command) throws IOException, InterruptedException {
        return start(null, java.util.Map.of("LDAPTLS_CACERT", caFile.toString(), "LDAPTLS_REQCERT", "demand",
                "LDAPCONF", "/dev/null", "LDAPRC", "/dev/null"), command);
    }

    /** As {@link #runTrusting}, presenting a client certificate and key (PEM files) in the TLS handshake. */
    public static Run runWithCertificate(Path caFile, Path certificate, Path key, String... command)
            throws IOException, InterruptedException {
        return start(null, java.util.Map.of("LDAPTLS_CACERT", caFile.toString(), "LDAPTLS_REQCERT", "demand",
                "LDAPTLS_CERT", certificate.toString(), "LDAPTLS_KEY", key.toString(),
                "LDAPCONF", "/dev/null", "LDAPRC", "/dev/null"), command);
    }

    /** Runs a tool with a time bound, feeding {@code stdin} if given. */
    public static Run runWithInput(String stdin, String... command) throws IOException, InterruptedException {
        return start(stdin, java.util.Map.of("LDAPNOINIT", "1"), command);
    }

    private static Run start(String stdin, java.util.Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + String.join(" ", command));
        }
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
