package io.caskbench.bench.store.single;

import io.caskbench.bench.store.adapter.StoreKind;
import io.caskbench.bench.store.fixture.KeysInStore;
import org.openjdk.jmh.annotations.Param;

/**
 * Why: the question every user asks, how fast is BitCask compared with what I would use instead. Every
 * store, BitCask's backends included, runs the same single-threaded workload in one JMH run, each with
 * its fastest settings that cost no durability and no semantics and do not force per operation (see
 * each adapter): BitCask runs {@code SyncPolicy.NONE}, and no store forces per write.
 *
 * <p>The suite runs it at the point the performance targets are stated at: 1M keys of 16 bytes,
 * 100-byte values, random order. Heap and disk bytes per key are reported with the get results, the keys
 * the store held with the put results ({@value KeysInStore#METRIC}).
 *
 * <p>Must not measure by accident what {@link SingleThreadWorkload} lists, nor one store at settings
 * another is denied: every peer's main row is its fastest setting that keeps the other stores'
 * durability and semantics.
 */
public class PeersSingleThread extends SingleThreadWorkload {

    /**
     * The store; by default every one that runs on JDK 17. BITCASK_MEMORY_SEGMENT (JDK 22+) runs only when
     * named, as JMH fixes its defaults when the benchmarks are compiled. Read by the fixtures through
     * {@code BenchmarkParams}.
     */
    @Param({"BITCASK_MAPPED", "BITCASK_FILE_CHANNEL", "ROCKSDB", "LMDB", "CHRONICLE_MAP", "MAPDB", "H2_MVSTORE",
        "MAPDB_TX", "H2_MVSTORE_COMMIT", "LMDB_RENEW_100", "LMDB_TXN_REUSED",
        "CONCURRENT_HASH_MAP", "IN_MEMORY_REFERENCE", "HARNESS"})
    public StoreKind store;
}
