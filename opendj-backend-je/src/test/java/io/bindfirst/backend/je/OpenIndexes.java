package io.bindfirst.backend.je;

import java.nio.file.Path;

import com.sleepycat.je.Database;

import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;

/** A backend's storage opened as far as its indexes (the server's six), for the bulk load's tests. */
record OpenIndexes(JeStorage storage, Database meta, Database id2entry, Indexes indexes) implements AutoCloseable {
    /** @param bulk opened for a bulk load (see {@link JeStorage}), or ordinarily */
    static OpenIndexes open(Path dir, boolean bulk) throws BackendException {
        JeStorage storage = new JeStorage("userRoot", dir, 0, bulk, BackendConfig.DEFAULT_FREE_DISK_BYTES);
        Database meta = storage.openDatabase("meta", false);
        Database id2entry = storage.openDatabase(Entries.ID2ENTRY, false);
        return new OpenIndexes(storage, meta, id2entry, Indexes.open(storage, meta, id2entry,
                new EntryCodec(TestSupport.SCHEMA), TestSupport.SERVER_INDEXES, TestSupport.SCHEMA));
    }

    @Override
    public void close() {
        storage.close();
    }
}
