package io.caskbench.raft.cli;

import io.caskbench.raft.Cluster;
import io.caskbench.raft.Tls;
import picocli.CommandLine.Option;

import java.io.File;
import java.util.StringJoiner;

/**
 * Threading: the main thread.
 *
 * <p>The options that name the cluster, for replicas and clients alike: the peers, the number of
 * groups, and the mutual TLS files.
 */
final class ClusterOptions {

    /** Set by picocli. */
    @Option(names = "--peers", required = true, paramLabel = "ID=HOST:PORT,...",
            description = "Every replica: its id and the address it serves on, comma-separated; the same list on every replica and client.")
    String peers;

    /** Set by picocli. */
    @Option(names = "--groups", paramLabel = "N", defaultValue = "1",
            description = "Raft groups (shards) the keys are spread over; the same on every replica and client. Default: ${DEFAULT-VALUE}.")
    int groups;

    /** Set by picocli. */
    @Option(names = "--tls-key", paramLabel = "PEM",
            description = "Mutual TLS: this party's PKCS#8 private key. With --tls-cert and --tls-ca.")
    File tlsKey;

    /** Set by picocli. */
    @Option(names = "--tls-cert", paramLabel = "PEM", description = "Mutual TLS: the key's certificate chain.")
    File tlsCert;

    /** Set by picocli. */
    @Option(names = "--tls-ca", paramLabel = "PEM", description = "Mutual TLS: the authority every peer must be signed by.")
    File tlsCa;

    /**
     * The cluster named.
     *
     * @throws IllegalArgumentException when the peer list or the number of groups is bad
     */
    Cluster cluster() {
        return Cluster.parse(peers, groups);
    }

    /**
     * The TLS files, or null for plain text.
     *
     * @throws IllegalArgumentException when some of the three are given and not all
     */
    Tls tls() {
        if (tlsKey == null && tlsCert == null && tlsCa == null) {
            return null;
        }
        StringJoiner missing = new StringJoiner(", ");
        if (tlsKey == null) {
            missing.add("--tls-key");
        }
        if (tlsCert == null) {
            missing.add("--tls-cert");
        }
        if (tlsCa == null) {
            missing.add("--tls-ca");
        }
        if (missing.length() > 0) {
            throw new IllegalArgumentException("--tls-key, --tls-cert and --tls-ca go together; missing: " + missing);
        }
        return new Tls(tlsKey, tlsCert, tlsCa);
    }
}
