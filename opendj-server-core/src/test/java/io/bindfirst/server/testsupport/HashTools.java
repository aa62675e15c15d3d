package io.bindfirst.server.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.testng.SkipException;

/**
 * Runs the command-line tools that make password hashes (slappasswd, openssl, htpasswd), so that tests
 * check the schemes against values the real tools make now, not only against fixed ones.
 */
public final class HashTools {
    private HashTools() {
    }

    /**
     * The tool's path. When it is missing, skips the test, unless {@code -Dldap.tools.required=true} (as under
     * CI), where the test fails instead.
     *
     * @param tool the command, looked for in /usr/bin and /usr/sbin
     * @param debianPackage the package that ships it, for the message
     */
    public static String require(String tool, String debianPackage) {
        for (String dir : List.of("/usr/bin", "/usr/sbin")) {
            Path path = Path.of(dir, tool);
            if (Files.isExecutable(path)) {
                return path.toString();
            }
        }
        String message = tool + " (Debian package " + debianPackage + ") is not installed";
        if (Boolean.getBoolean("ldap.tools.required")) {
            throw new AssertionError(message + ", and ldap.tools.required is true");
        }
        throw new SkipException(message + "; skipped");
    }

    /** Runs a tool (at most 30 s) and returns its standard output, trimmed; fails unless it exits with 0. */
    public static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command[0]);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new AssertionError(command[0] + " exited with " + p.exitValue());
        }
        return out;
    }
}
