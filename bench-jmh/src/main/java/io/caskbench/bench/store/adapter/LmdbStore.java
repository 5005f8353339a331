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
 *   <li>{@code MDB_NOTLS} and a reader slot per thread: each thread keeps one read transaction object and
 *       {@code renew}s it before a get and {@code reset}s it after, the cheapest way LMDB offers to start a
 *       read that sees every earlier put, as every other store's get does ({@code LMDB}). The
 *       sensitivity rows renew it only every 100th get ({@code LMDB_RENEW_100}: a get may miss puts made
 *       since its renewal) or never ({@code LMDB_TXN_REUSED}: one snapshot for the whole trial, which
 *       also keeps LMDB from reusing pages freed by later writes), to show what the headline get figure
 *       owes to that choice.</li>
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
    /** Gets per renewal of a thread's read transaction; 0: renewed once and kept for good. */
    private final int renewEvery;
    private final Queue<Reader> readers = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Reader> reader;
    private final ThreadLocal<ByteBuffer> keyBuffer = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(MAX_KEY));
    private final ThreadLocal<ByteBuffer> valueBuffer;

    /** One thread's read transaction and how many gets it has served since its renewal. */
    private static final class Reader {
        final Txn<ByteBuffer> txn;
        int gets;
        boolean active;

        Reader(Txn<ByteBuffer> txn) {
            this.txn = txn;
        }
    }

    LmdbStore(Path dir, StoreConfig config, int renewEvery) {
        this.renewEvery = renewEvery;
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
            Reader r = new Reader(txn);
            readers.add(r);
            return r;
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
        Reader r = reader.get();
        if (!r.active) {
            r.txn.renew();
            r.active = true;
        }
        try {
            ByteBuffer found = dbi.get(r.txn, key(key));
            if (found == null) {
                return null;
            }
            byte[] copy = new byte[found.remaining()];
            found.get(copy);
            return copy;
        } finally {
            if (renewEvery > 0 && ++r.gets >= renewEvery) {
                r.txn.reset();
                r.active = false;
                r.gets = 0;
            }
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
        for (Reader r; (r = readers.poll()) != null; ) {
            // lmdbjava only aborts a transaction that is live, so a reset one is renewed first.
            if (!r.active) {
                r.txn.renew();
            }
            r.txn.close();
        }
        dbi.close();
        env.close();
    }
}
