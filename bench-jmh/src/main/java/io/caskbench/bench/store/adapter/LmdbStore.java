package io.caskbench.bench.store.adapter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
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
 *       renews it only when a put has committed since its renewal ({@code LMDB}): a count of committed
 *       puts is read before each renewal, and a get that finds it unchanged reads the snapshot it has.
 *       That is read-transaction reuse at no cost in semantics: every get still sees every put that
 *       returned before it began, as every other store's get does, and a get-only workload never
 *       renews. The sensitivity rows renew it every 100th get whatever was written
 *       ({@code LMDB_RENEW_100}: a get may miss puts made since) or never ({@code LMDB_TXN_REUSED}: one
 *       snapshot for the whole trial, which also keeps LMDB from reusing pages freed by later
 *       writes).</li>
 *   <li>Direct key and value buffers are reused per thread; {@code ByteBufferProxy.PROXY_OPTIMAL}
 *       reads LMDB's memory without an extra copy until the value is copied out for the caller.</li>
 *   <li>{@code -Dlmdbjava.disable.checks=true} (set by the benchmark fork) skips lmdbjava's own
 *       argument and state checks, as lmdbjava's own benchmarks do.</li>
 *   <li>Each put is its own write transaction, because every other store makes each put visible on
 *       its own too.</li>
 * </ul>
 */
final class LmdbStore implements StoreAdapter {

    /** The smallest map: see the constructor. */
    static final long MIN_MAP_BYTES = 16L << 30;

    /** LMDB's compile-time maximum key size. */
    private static final int MAX_KEY = 511;

    private final Env<ByteBuffer> env;
    /** The environment's data file; final. */
    private final Path dataFile;
    private final Dbi<ByteBuffer> dbi;
    /** When a thread's read transaction is renewed. */
    private final Renewal renewal;
    /** Puts committed so far; incremented by a putting thread after its commit, read by getting threads. */
    private final AtomicLong commits = new AtomicLong();
    private final Queue<Reader> readers = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Reader> reader;
    private final ThreadLocal<ByteBuffer> keyBuffer = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(MAX_KEY));
    private final ThreadLocal<ByteBuffer> valueBuffer;

    /** When a thread renews its read transaction. */
    enum Renewal {
        /** When a put has committed since the last renewal: every get sees every earlier put. */
        AFTER_WRITE,
        /** Every 100th get, whatever was written: a get may miss recent puts. */
        EVERY_100,
        /** Never after the first get: one snapshot for the trial. */
        NEVER
    }

    /** One thread's read transaction; only that thread touches it, and {@link #close()} after all gets. */
    private static final class Reader {
        final Txn<ByteBuffer> txn;
        int gets;
        boolean active;
        /** {@link #commits} read just before the transaction was renewed. */
        long commitsSeen;

        Reader(Txn<ByteBuffer> txn) {
            this.txn = txn;
        }
    }

    LmdbStore(Path dir, StoreConfig config, Renewal renewal) {
        this.renewal = renewal;
        this.dataFile = dir.resolve("data.mdb");
        // Room for the data twice over (B-tree pages are half full after random inserts) plus slack, and
        // at least 16 GiB: under 1000 threads mixing gets and puts, each thread's read transaction holds
        // its snapshot until its next get, so pages freed by the commits meanwhile cannot be reused and
        // the file grows; a 1 GiB map filled within one fork. With MDB_WRITEMAP the file is sparse, so
        // unused map space costs no disk.
        long mapSize = Math.max(MIN_MAP_BYTES, 3 * (config.payloadBytes() + 64 * config.expectedKeys()));
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
        commits.incrementAndGet();
    }

    @Override
    public byte[] get(byte[] key) {
        Reader r = reader.get();
        if (r.active && renewal == Renewal.AFTER_WRITE && commits.get() != r.commitsSeen) {
            r.txn.reset();
            r.active = false;
        }
        if (!r.active) {
            // Read before the renewal, so the snapshot holds at least every put counted here.
            r.commitsSeen = commits.get();
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
            if (renewal == Renewal.EVERY_100 && ++r.gets >= 100) {
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
        long used = (env.info().lastPageNumber + 1) * (long) env.stat().pageSize;
        dbi.close();
        env.close();
        // With MDB_WRITEMAP the file is as long as the map (sparse); cut it to the pages in use, so that
        // a filled store copied for each fork copies its data, not 16 GiB of hole. LMDB grows the file
        // to the map again when it opens it.
        try (FileChannel file = FileChannel.open(dataFile, StandardOpenOption.WRITE)) {
            if (file.size() > used) {
                file.truncate(used);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot cut " + dataFile + " to its " + used + " bytes in use", e);
        }
    }
}
