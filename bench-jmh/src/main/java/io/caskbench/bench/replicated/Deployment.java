package io.caskbench.bench.replicated;

import java.nio.file.Path;

/** What a replicated benchmark row runs against. */
public enum Deployment {

    /** The single-node store in this JVM: the baseline of every ratio. */
    SINGLE {
        @Override
        Target open(Path dir) {
            return new SingleNode(dir);
        }
    },
    /** One Raft group of three replicas on loopback. */
    REPLICATED {
        @Override
        Target open(Path dir) {
            return new LoopbackCluster(dir, 3, 1);
        }
    },
    /** Three Raft groups on the same three replicas, keys hashed to groups: each group elects its own leader. */
    SHARDED {
        @Override
        Target open(Path dir) {
            return new LoopbackCluster(dir, 3, 3);
        }
    };

    /** Starts the deployment with its files under {@code dir}. */
    abstract Target open(Path dir);
}
