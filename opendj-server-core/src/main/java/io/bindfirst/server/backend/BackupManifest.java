package io.bindfirst.server.backend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.virtual.VirtualEntries;

/**
 * What a backup directory holds, written last by whoever made the backup (the server for an online backup,
 * the backup tool offline), and what restore checks every file against before it changes anything: the
 * backend's id, when the backup was made, by which server version, and each file's name, size and SHA-256.
 * A directory without a manifest is an unfinished backup.
 *
 * <p>Text, one {@code key: value} per line, so an administrator can read it: {@code file: NAME SIZE SHA256}.
 */
public record BackupManifest(String backendId, Instant created, String serverVersion, List<FileSum> files) {
    /** The manifest's name inside the backup directory. */
    public static final String NAME = "backup-manifest.txt";

    /** One backed-up file: its name in the backup directory, its size, its SHA-256 in lower-case hex. */
    public record FileSum(String name, long size, String sha256) {
    }

    public BackupManifest {
        files = List.copyOf(files);
    }

    /**
     * Makes {@code dir} ready to receive a backup: created if missing; refused if it holds anything, so that
     * no older backup is mixed with or overwritten by a new one.
     */
    public static void prepareTarget(Path dir) throws BackendException {
        if (!dir.isAbsolute()) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                    "The backup directory must be an absolute path, not " + dir);
        }
        try {
            Files.createDirectories(dir);
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                if (s.iterator().hasNext()) {
                    throw new BackendException(ResultCode.UNWILLING_TO_PERFORM, "The backup directory " + dir
                            + " is not empty: give a new or empty directory (an older backup is never overwritten)");
                }
            }
        } catch (IOException e) {
            throw new BackendException(ResultCode.UNWILLING_TO_PERFORM,
                    "The backup directory " + dir + " cannot be created or read: " + e, e);
        }
    }

    /**
     * Sums the files {@code names} of {@code dir} and writes the manifest there, through a temporary file moved
     * into place, so that a manifest is never seen half-written.
     */
    public static BackupManifest write(Path dir, String backendId, List<String> names) throws BackendException {
        try {
            List<FileSum> sums = new ArrayList<>();
            for (String name : names) {
                Path f = dir.resolve(name);
                sums.add(new FileSum(name, Files.size(f), sha256(f)));
            }
            BackupManifest m = new BackupManifest(backendId, Instant.now(), VirtualEntries.VENDOR_VERSION, sums);
            Path tmp = dir.resolve(NAME + ".tmp");
            Files.writeString(tmp, m.text(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(NAME));
            }
            return m;
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "The backup manifest in " + dir + " cannot be written: "
                    + e, e);
        }
    }

    /** The manifest of the backup in {@code dir}. */
    public static BackupManifest read(Path dir) throws BackendException {
        List<String> lines;
        try {
            lines = Files.readAllLines(dir.resolve(NAME), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, dir + " holds no backup: it has no " + NAME
                    + " (a backup that did not finish has none)", e);
        } catch (IOException e) {
            throw new BackendException(ResultCode.OTHER, "Cannot read " + dir.resolve(NAME) + ": " + e, e);
        }
        String id = null;
        Instant created = null;
        String version = null;
        List<FileSum> files = new ArrayList<>();
        for (String line : lines) {
            int colon = line.indexOf(": ");
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (colon < 0) {
                throw malformed(dir, line);
            }
            String key = line.substring(0, colon);
            String value = line.substring(colon + 2);
            try {
                switch (key) {
                    case "backend-id" -> id = value;
                    case "created" -> created = Instant.parse(value);
                    case "server-version" -> version = value;
                    case "file" -> {
                        String[] f = value.split(" ");
                        if (f.length != 3 || f[0].contains("/") || f[0].startsWith(".")) {
                            throw malformed(dir, line);
                        }
                        files.add(new FileSum(f[0], Long.parseLong(f[1]), f[2]));
                    }
                    default -> throw malformed(dir, line);
                }
            } catch (RuntimeException e) {
                throw malformed(dir, line);
            }
        }
        if (id == null || created == null || files.isEmpty()) {
            throw new BackendException(ResultCode.OTHER, dir.resolve(NAME) + " is incomplete: it needs backend-id, "
                    + "created and at least one file");
        }
        return new BackupManifest(id, created, version, files);
    }

    /**
     * Every difference between the files of {@code dir} and this manifest, one sentence each naming the file
     * (missing, another size, another checksum, or a database file the manifest does not list); empty when the
     * backup is intact.
     */
    public List<String> problems(Path dir) {
        List<String> problems = new ArrayList<>();
        for (FileSum f : files) {
            Path p = dir.resolve(f.name());
            try {
                long size = Files.size(p);
                if (size != f.size()) {
                    problems.add(f.name() + " is " + size + " bytes, the manifest says " + f.size());
                } else if (!sha256(p).equals(f.sha256())) {
                    problems.add(f.name() + " does not have the SHA-256 the manifest gives (changed or damaged)");
                }
            } catch (NoSuchFileException e) {
                problems.add(f.name() + " is missing");
            } catch (IOException e) {
                problems.add(f.name() + " cannot be read: " + e.getMessage());
            }
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.jdb")) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (files.stream().noneMatch(f -> f.name().equals(name))) {
                    problems.add(name + " is not in the manifest");
                }
            }
        } catch (IOException e) {
            problems.add(dir + " cannot be listed: " + e.getMessage());
        }
        return problems;
    }

    /** The sum of the files' sizes. */
    public long bytes() {
        return files.stream().mapToLong(FileSum::size).sum();
    }

    private String text() {
        StringBuilder b = new StringBuilder("# A backup of one backend; restore checks every file against this.\n")
                .append("backend-id: ").append(backendId).append('\n')
                .append("created: ").append(created).append('\n')
                .append("server-version: ").append(serverVersion).append('\n');
        for (FileSum f : files) {
            b.append("file: ").append(f.name()).append(' ').append(f.size()).append(' ').append(f.sha256())
                    .append('\n');
        }
        return b.toString();
    }

    private static BackendException malformed(Path dir, String line) {
        return new BackendException(ResultCode.OTHER, dir.resolve(NAME) + " is not a backup manifest: cannot read "
                + "the line \"" + line + "\"");
    }

    static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
