package io.caskbench.bench.replicated;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.SyncPolicy;
import java.nio.file.Path;

/**
 * The single-node store the replicated rows are compared with: one {@link BitCask} at
 * {@link SyncPolicy#NONE}, the policy every replica's local store runs at (the Raft log is what a replica
 * forces), so the difference is what replication adds: the round trips, the forced log, the copies.
 */
final class SingleNode implements Target {

    /** The store; thread-safe. */
    private final BitCask db;

    SingleNode(Path dir) {
        this.db = BitCask.open(dir, BitCaskOptions.builder().syncPolicy(SyncPolicy.NONE).build());
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public void fill(byte[][] keys, byte[] value) {
        for (byte[] key : keys) {
            db.put(key, value);
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
