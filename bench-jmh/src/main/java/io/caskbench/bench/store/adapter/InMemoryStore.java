package io.caskbench.bench.store.adapter;

/**
 * A store adapter with no files: nothing survives {@link #close()}, so it is never closed and reopened to
 * finish background work, and there is nothing buffered to settle after a bulk load.
 */
interface InMemoryStore extends StoreAdapter {

    /** Nothing is buffered, so nothing needs settling. */
    @Override
    default void settle() {
    }

    /** False: the data lives only in this JVM. */
    @Override
    default boolean persistent() {
        return false;
    }
}
