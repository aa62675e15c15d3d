package io.bindfirst.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.forgerock.opendj.ldap.Connection;
import org.forgerock.opendj.ldap.LDAPConnectionFactory;
import org.forgerock.opendj.ldap.LdapException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.responses.GenericExtendedResult;

import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackupManifest;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.core.BackupRequest;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/backup}: a consistent copy of a backend's storage (JE's hot backup) plus a manifest. When the
 * server answers on 127.0.0.1 it makes the backup itself, on a root user's request (writes go on meanwhile);
 * otherwise the tool opens the backend and runs the same backup code.
 */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Backs up a backend into a new or empty directory: its database files, as of the moment the backup "
                    + "starts, and a manifest (" + BackupManifest.NAME + ": each file's size and SHA-256, the "
                    + "backend, the time, the server version) that restore checks.",
            "If the server runs (it answers on 127.0.0.1 at the configured LDAP port, or --port), the server makes "
                    + "the backup while it goes on serving, on the request of a root user (-D, -j or -w); the "
                    + "directory is then written by the server's process, on this host. Otherwise the tool opens "
                    + "the backend itself."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the backup is complete",
            "1:the backup failed (a directory without a manifest is no backup)",
            "2:the command line is wrong"})
public final class Backup implements Callable<Integer> {
    private static final String LOCALHOST = "127.0.0.1";

    @Option(names = {"-d", "--backupDirectory"}, paramLabel = "DIR", required = true,
            description = "Where to write the backup: a new or empty directory.")
    Path directory;

    @Mixin
    BackendOptions target;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT",
            description = "The server's LDAP port on 127.0.0.1 (default: the one in the configuration).")
    Integer port;

    @Option(names = {"-D", "--bindDN"}, paramLabel = "DN", defaultValue = "cn=Directory Manager",
            description = "The root user to bind as when the server runs (default: ${DEFAULT-VALUE}).")
    String bindDn;

    @ArgGroup(exclusive = true)
    Password password;

    static final class Password {
        @Option(names = {"-j", "--bindPasswordFile"}, paramLabel = "FILE",
                description = "A file whose first line is the root user's password.")
        Path file;

        @Option(names = {"-w", "--bindPassword"}, paramLabel = "PASSWORD",
                description = "The root user's password (visible to other users of this host: prefer -j).")
        String value;
    }

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        Tools.main(new Backup(), args);
    }

    @Override
    public Integer call() {
        return Tools.run(spec, (out, err) -> {
            out.println(run());
            return Tools.OK;
        });
    }

    private String run() throws ToolException {
        Path dir = directory.toAbsolutePath().normalize();
        ServerConfig config = OfflineBackend.loadConfig(target.config(), target.root());
        String id = OfflineBackend.backendConfig(config, target.config(), target.backendId).id();
        int ldapPort = port != null ? port : runningPort(config.listener().port());
        LDAPConnectionFactory factory = new LDAPConnectionFactory(LOCALHOST, ldapPort);
        try {
            Connection c;
            try {
                c = factory.getConnection();
            } catch (LdapException e) {
                // Nothing answers: the server is stopped (or listens elsewhere, which the offline open tells).
                return offline(id, dir, ldapPort);
            }
            try (c) {
                return online(c, id, dir, ldapPort);
            }
        } finally {
            factory.close();
        }
    }

    /**
     * The port the running server of this instance was started on ({@code bin/start-ds --port N} overrides the
     * configuration, as bin/status reads it too), else the configured one.
     */
    private int runningPort(int configured) {
        java.util.OptionalLong pid = ServerProcess.runningPid(target.root());
        String given = pid.isPresent() ? ServerProcess.argument(pid.getAsLong(), "--port") : null;
        try {
            return given == null ? configured : Integer.parseInt(given);
        } catch (NumberFormatException e) {
            return configured;
        }
    }

    private String online(Connection c, String id, Path dir, int ldapPort) throws ToolException {
        String where = LOCALHOST + ":" + ldapPort;
        char[] pw = password();
        if (pw == null) {
            throw new ToolException("The server runs (it answers on " + where + "), so it makes the backup: give "
                    + "the root user's password with -j FILE (or -w)");
        }
        try {
            c.bind(Requests.newSimpleBindRequest(bindDn, pw));
        } catch (LdapException e) {
            throw new ToolException("The bind as " + bindDn + " on " + where + " failed: " + said(e)
                    + "; give a root user's DN with -D and its password with -j or -w");
        }
        try {
            GenericExtendedResult r = c.extendedRequest(Requests.newGenericExtendedRequest(BackupRequest.OID,
                    new BackupRequest(id, dir.toString()).encode()));
            return r.getDiagnosticMessage() + " (online, by the server on " + where + ")";
        } catch (LdapException e) {
            throw new ToolException("The server on " + where + " did not back up backend " + id + ": " + said(e));
        }
    }

    private String offline(String id, Path dir, int ldapPort) throws ToolException {
        OfflineBackend opened;
        try {
            opened = OfflineBackend.open(target.config(), target.root(), id, false, 0);
        } catch (ToolException e) {
            if (OfflineBackend.inUse(e)) {
                throw new ToolException(e.getMessage() + ". Nothing answers on " + LOCALHOST + ":" + ldapPort
                        + ": if the server runs on another port, give it with --port to back up online", e);
            }
            throw e;
        }
        try (opened) {
            BackupManifest m = opened.backend().maintenance().backup(dir);
            return String.format(Locale.ROOT, "Backed up backend %s to %s: %d files, %,d bytes (offline)", id, dir,
                    m.files().size(), m.bytes());
        } catch (BackendException e) {
            throw new ToolException(e.getMessage(), e);
        }
    }

    private char[] password() throws ToolException {
        if (password == null) {
            return null;
        }
        if (password.value != null) {
            return password.value.toCharArray();
        }
        try {
            String text = Files.readString(password.file, StandardCharsets.UTF_8);
            int eol = text.indexOf('\n');
            String line = eol < 0 ? text : text.substring(0, eol);
            return (line.endsWith("\r") ? line.substring(0, line.length() - 1) : line).toCharArray();
        } catch (IOException e) {
            throw new ToolException("Cannot read the password file " + password.file + ": "
                    + Tools.why(e, password.file), e);
        }
    }

    private static String said(LdapException e) {
        ResultCode code = e.getResult().getResultCode();
        String message = e.getResult().getDiagnosticMessage();
        return code + (message == null || message.isEmpty() ? "" : ": " + message);
    }
}
