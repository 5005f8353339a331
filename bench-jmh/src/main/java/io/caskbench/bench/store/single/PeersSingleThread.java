package io.caskbench.bench.store.single;

import io.caskbench.bench.store.fixture.KeysInStore;
import io.caskbench.bench.store.fixture.StoreParam;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

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

    /** Declares the {@code store} parameter, by default every store at every setting ({@link StoreParam.Every}). */
    @Setup(Level.Trial)
    public void stores(StoreParam.Every stores) {
        // Nothing to set up: taking the state is what gives this benchmark the parameter.
    }
}
