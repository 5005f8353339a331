package io.caskbench.bench.store.adapter;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/**
 * LMDB (lmdbjava) with its fastest settings that keep the same durability as BitCask {@code NONE}.
 *
 * <ul>
 *   <li>{@code MDB_NOSYNC}: commits do not fsync; the OS writes the pages back, as with BitCask.</li>
 *   <li>{@code MDB_WRITEMAP}: writes go straight into the shared mapping instead of through
 *       {@code malloc}ed pages and {@code pwrite}, LMDB's fastest write path.</li>
 *   <li>{@code MDB_NOTLS} and a reader slot per thread: each thread keeps one read transaction and
 *       {@code reset}/{@code renew}s it per get, the cheapest way LMDB offers to start a read.</li>
 *   <li>Direct key and value buffers are reused per thread; {@code ByteBufferProxy.PROXY_OPTIMAL}
 *       reads LMDB's memory without an extra copy until the value is copied out for the caller.</li>
 *   <li>{@code -Dlmdbjava.disable.checks=true} (set by the benchmark fork) skips lmdbjava's own
 *       argument and state checks, as lmdbjava's own benchmarks do.</li>
 *   <li>Each put is its own write transaction, because every other store makes each put visible on
 *       its own too.</li>
 * </ul>
 */
final class LmdbStore implements StoreAdapter {

    /** LMDB's compile-time maximum key size. */
    private static final int MAX_KEY = 511;

    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> dbi;
    private final Queue<Txn<ByteBuffer>> readers = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Txn<ByteBuffer>> reader;
    private final ThreadLocal<ByteBuffer> keyBuffer = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(MAX_KEY));
    private final ThreadLocal<ByteBuffer> valueBuffer;

    LmdbStore(Path dir, StoreConfig config) {
        // Room for the data twice over (B-tree pages are half full after random inserts) plus slack;
        // with MDB_WRITEMAP the file is sparse, so unused map space costs no disk.
        long mapSize = Math.max(1L << 30, 3 * (config.payloadBytes() + 64 * config.expectedKeys()));
        env = Env.create(ByteBufferProxy.PROXY_OPTIMAL)
                .setMapSize(mapSize)
                .setMaxDbs(1)
                .setMaxReaders(config.maxThreads() + 64)
                .open(dir.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_WRITEMAP, EnvFlags.MDB_NOTLS);
        dbi = env.openDbi("bench", DbiFlags.MDB_CREATE);
        reader = ThreadLocal.withInitial(() -> {
            Txn<ByteBuffer> txn = env.txnRead();
            txn.reset();
            readers.add(txn);
            return txn;
        });
        int valueCapacity = Math.max(16, config.valueSize());
        valueBuffer = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(valueCapacity));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        ByteBuffer v = valueBuffer.get();
        if (v.capacity() < value.length) {
            v = ByteBuffer.allocateDirect(value.length);
            valueBuffer.set(v);
        }
        v.clear();
        v.put(value).flip();
        dbi.put(key(key), v);
    }

    @Override
    public byte[] get(byte[] key) {
        Txn<ByteBuffer> txn = reader.get();
        txn.renew();
        try {
            ByteBuffer found = dbi.get(txn, key(key));
            if (found == null) {
                return null;
            }
            byte[] copy = new byte[found.remaining()];
            found.get(copy);
            return copy;
        } finally {
            txn.reset();
        }
    }

    private ByteBuffer key(byte[] key) {
        ByteBuffer k = keyBuffer.get();
        k.clear();
        k.put(key).flip();
        return k;
    }

    @Override
    public void settle() {
        // Outside measured time: makes the file's allocated size reflect what was written.
        env.sync(true);
    }

    @Override
    public void close() {
        for (Txn<ByteBuffer> txn; (txn = readers.poll()) != null; ) {
            // lmdbjava only aborts a transaction that is live, so a reset one is renewed first.
            txn.renew();
            txn.close();
        }
        dbi.close();
        env.close();
    }
}
