package io.caskbench.raft.server;

import io.caskbench.raft.LocalCluster;
import io.caskbench.raft.RaftLimits;
import io.caskbench.raft.client.ReplicatedBatch;
import io.caskbench.raft.client.ReplicatedBitCask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The largest key and value the documentation allows are replicated by three replicas; one byte more is refused. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedLimitsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void theLargestValueUnderTheLongestKeyIsReplicatedAndOneByteMoreIsRefused() {
        try (LocalCluster c = new LocalCluster(dir, 3, 1, cfg -> cfg);
             ReplicatedBitCask client = c.client(Duration.ofSeconds(10))) {
            c.awaitLeader(0, WAIT);
            byte[] key = pattern(RaftLimits.MAX_KEY_BYTES, 7);
            byte[] value = pattern(RaftLimits.MAX_VALUE_BYTES, 31);
            client.put(key, value);
            assertThat(Arrays.equals(client.get(key), value)).as("the 16 MiB value reads back").isTrue();
            for (String id : c.ids) {
                LocalCluster.await(id + " holds the value", WAIT, () -> Arrays.equals(client.getStale(key, id), value));
            }

            byte[] half = pattern(RaftLimits.MAX_VALUE_BYTES / 2, 3);
            client.write(new ReplicatedBatch().put("a", half).put(key, half).delete("b"));
            assertThat(Arrays.equals(client.get(key), half)).as("a batch of 16 MiB").isTrue();

            assertThatThrownBy(() -> client.put(key, new byte[RaftLimits.MAX_VALUE_BYTES + 1]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most " + RaftLimits.MAX_VALUE_BYTES);
        }
    }

    private static byte[] pattern(int length, int step) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * step + 1);
        }
        return b;
    }
}
