package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.raft.Cluster;
import io.caskbench.raft.Tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>How one replica runs: its place in the cluster, its folder, and the Raft settings that tests
 * and operators change.
 *
 * @param cluster         the peers and groups
 * @param id              this replica's peer id
 * @param dir             its folder: Raft's log and snapshots and the local stores, one subfolder per group
 * @param snapshotEvery   applied entries between automatic snapshots; the log is purged up to each
 * @param logSegmentBytes size of a Raft log segment; only whole closed segments are purged
 * @param electionTimeout the shortest election timeout; the longest is twice it
 * @param tls             mutual TLS for every connection, or null for plain text
 * @param store           options of the local stores (the sync policy is always NONE, and the key,
 *                        value and segment sizes are set from {@link io.caskbench.raft.RaftLimits})
 */
public record ReplicaConfig(Cluster cluster, String id, Path dir, long snapshotEvery, long logSegmentBytes,
                            Duration electionTimeout, Tls tls, BitCaskOptions store) {

    /** Checks the values. */
    public ReplicaConfig {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(electionTimeout, "electionTimeout");
        Objects.requireNonNull(store, "store");
        cluster.port(id); // the id must be a peer
        if (snapshotEvery < 1 || logSegmentBytes < 1024) {
            throw new IllegalArgumentException("snapshotEvery must be positive and logSegmentBytes at least 1024");
        }
    }

    /** Defaults: a snapshot every 100,000 entries, 8 MiB log segments, 1 s election timeout, no TLS. */
    public static ReplicaConfig of(Cluster cluster, String id, Path dir) {
        return new ReplicaConfig(cluster, id, dir, 100_000, 8L << 20, Duration.ofSeconds(1), null,
                BitCaskOptions.defaults());
    }

    /** With another snapshot interval, in applied entries. */
    public ReplicaConfig withSnapshotEvery(long entries) {
        return new ReplicaConfig(cluster, id, dir, entries, logSegmentBytes, electionTimeout, tls, store);
    }

    /** With another Raft log segment size. */
    public ReplicaConfig withLogSegmentBytes(long bytes) {
        return new ReplicaConfig(cluster, id, dir, snapshotEvery, bytes, electionTimeout, tls, store);
    }

    /** With another shortest election timeout. */
    public ReplicaConfig withElectionTimeout(Duration timeout) {
        return new ReplicaConfig(cluster, id, dir, snapshotEvery, logSegmentBytes, timeout, tls, store);
    }

    /** With mutual TLS. */
    public ReplicaConfig withTls(Tls tlsFiles) {
        return new ReplicaConfig(cluster, id, dir, snapshotEvery, logSegmentBytes, electionTimeout, tlsFiles, store);
    }
}
