package io.bindfirst.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A server instance folder for a test: the repository's {@code config/} (without {@code config/tls}) copied
 * into a temp dir, whose {@code db/userRoot} the tools create. Deleted by {@link #close()}.
 */
final class Instance implements AutoCloseable {
    private final Path root;

    private Instance(Path root) {
        this.root = root;
    }

    static Instance create() throws IOException {
        Path root = Files.createTempDirectory("bindfirst-tools-");
        Path repoConfig = Path.of(System.getProperty("bindfirst.repo.root", "..")).resolve("config")
                .toAbsolutePath().normalize();
        try (Stream<Path> s = Files.walk(repoConfig)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.startsWith(repoConfig.resolve("tls"))) {
                    continue;
                }
                Path target = root.resolve("config").resolve(repoConfig.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return new Instance(root);
    }

    Path root() {
        return root;
    }

    Path file(String name) {
        return root.resolve(name);
    }

    /** A file in the instance with these lines. */
    Path write(String name, String... lines) throws IOException {
        return Files.write(root.resolve(name), List.of(lines));
    }

    /** {@code args} preceded by {@code --instanceRoot} this folder, as the bin scripts pass it. */
    String[] args(String... args) {
        List<String> all = new ArrayList<>(List.of("--instanceRoot", root.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Override
    public void close() {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
