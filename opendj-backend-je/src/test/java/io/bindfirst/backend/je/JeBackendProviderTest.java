package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ServiceLoader;

import org.testng.annotations.Test;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendProvider;

public class JeBackendProviderTest {
    @Test
    public void isFoundByServiceLoaderAndOpensABackend() throws Exception {
        BackendProvider je = ServiceLoader.load(BackendProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals("je"))
                .findFirst().orElse(null);
        assertNotNull(je, "no provider of type je registered");
        assertTrue(je instanceof JeBackendProvider);
        Path root = TestSupport.tempDir();
        Path dir = root.resolve("does/not/exist/yet");
        try (Backend backend = je.open(TestSupport.config(dir, TestSupport.SERVER_INDEXES), TestSupport.SCHEMA)) {
            TestSupport.addTree(backend);
            assertEquals(backend.maintenance().entryCount(), 3);
            assertTrue(dir.toFile().isDirectory());
        } finally {
            TestSupport.delete(root);
        }
    }
}
