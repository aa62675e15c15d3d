package io.bindfirst.server.backend;

/** Told of each input an import could not store, and why; the import goes on with the next. */
@FunctionalInterface
public interface ImportRejects<T extends ImportItem> {
    void rejected(T item, BackendException reason);
}
