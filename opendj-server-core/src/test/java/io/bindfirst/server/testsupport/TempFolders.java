package io.bindfirst.server.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Temporary folders of a test class, deleted with all they hold when it closes (a test class's
 * {@code @AfterClass(alwaysRun = true)}), so that test runs do not fill the machine's temporary folder.
 */
public final class TempFolders implements AutoCloseable {
    private final List<Path> folders = new ArrayList<>();

    /** A new empty folder whose name starts with {@code prefix}. */
    public synchronized Path create(String prefix) throws IOException {
        Path folder = Files.createTempDirectory(prefix);
        folders.add(folder);
        return folder;
    }

    @Override
    public synchronized void close() {
        for (Path folder : folders) {
            delete(folder);
        }
        folders.clear();
    }

    private static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
