package io.caskbench.raft.server;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.raft.RaftLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.caskbench.raft.LocalCluster.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The replica's store: entries applied with their index, replays skipped, expiry fixed in the entry. */
class ReplicaStoreTest {

    @TempDir
    Path dir;

    private static Command put(String k, String v, long expiry) {
        return Command.decode(Command.relative(List.of(new Command.Op(utf8(k), utf8(v), expiry))).fixExpiry(0).encode());
    }

    @Test
    void theAppliedIndexMovesWithTheDataAndSurvivesAReopen() {
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.defaults())) {
            s.apply(put("a", "1", 0), 1, 5, 1000);
            s.apply(put("a", "2", 0), 1, 6, 1000);
            assertThat(s.appliedIndex()).isEqualTo(6);
        }
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.defaults())) {
            assertThat(s.appliedIndex()).isEqualTo(6);
            assertThat(s.appliedTerm()).isEqualTo(1);
            s.apply(put("a", "old replay", 0), 1, 5, 1000);
            assertThat(s.get(utf8("a"), 1000)).as("an entry at or below the applied index is skipped").isEqualTo(utf8("2"));
        }
    }

    @Test
    void expiryIsAbsoluteAndAnExpiredPutLeavesTheKeyAbsent() {
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.defaults())) {
            s.apply(put("live", "x", 500), 1, 1, 1000); // expiry fixed at 0 + 500: already past at 1000
            assertThat(s.get(utf8("live"), 1000)).isNull();
            Command later = Command.relative(List.of(new Command.Op(utf8("t"), utf8("y"), 100))).fixExpiry(1000);
            s.apply(later, 1, 2, 1000);
            assertThat(s.get(utf8("t"), 1099)).isEqualTo(utf8("y"));
            assertThat(s.get(utf8("t"), 1100)).isNull();
        }
    }

    @Test
    void aBatchIsAppliedWholeAndReportsWhichKeysHeldValues() {
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.defaults())) {
            s.apply(put("a", "1", 0), 1, 1, 0);
            List<Command.Op> ops = new ArrayList<>();
            ops.add(new Command.Op(utf8("a"), null, 0));
            ops.add(new Command.Op(utf8("b"), utf8("2"), 0));
            boolean[] had = s.apply(Command.relative(ops).fixExpiry(0), 1, 2, 0);
            assertThat(had).containsExactly(true, false);
            assertThat(s.get(utf8("a"), 0)).isNull();
            assertThat(s.get(utf8("b"), 0)).isEqualTo(utf8("2"));
        }
    }

    @Test
    void theLeaderRejectsWhatCouldNotBeApplied() {
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.builder().maxKeySize(16).build())) {
            int over = RaftLimits.MAX_KEY_BYTES + 1;
            assertThatThrownBy(() -> s.check(Command.relative(List.of(new Command.Op(new byte[over], utf8("v"), 0)))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key of " + over + " bytes");
            assertThatThrownBy(() -> s.check(Command.relative(List.of(new Command.Op(new byte[0], utf8("v"), 0)))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> s.check(Command.relative(List.of(
                    new Command.Op(utf8("k"), new byte[RaftLimits.MAX_VALUE_BYTES + 1], 0)))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + RaftLimits.MAX_VALUE_BYTES);
        }
    }

    @Test
    void theLeaderAcceptsAndTheStoreAppliesEveryWriteTheClientAllows() {
        // Small segments and a small key limit asked for: the store still takes what the limits allow.
        try (ReplicaStore s = ReplicaStore.open(dir, BitCaskOptions.builder().segmentSize(1 << 20).maxKeySize(16).build())) {
            byte[] key = new byte[RaftLimits.MAX_KEY_BYTES];
            byte[] value = new byte[RaftLimits.MAX_VALUE_BYTES];
            value[value.length - 1] = 7;
            Command largest = Command.relative(List.of(new Command.Op(key, value, 0)));
            s.check(largest);
            s.apply(largest.fixExpiry(0), 1, 1, 0);
            assertThat(s.get(key, 0)).isEqualTo(value);

            // The most records for its size: one-byte keys, empty values, as many as the write's limit holds.
            int count = (RaftLimits.MAX_WRITE_BYTES - 5) / 17;
            List<Command.Op> ops = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ops.add(new Command.Op(new byte[] {(byte) i}, new byte[0], 0));
            }
            Command densest = Command.relative(ops);
            assertThat(densest.encodedSize()).isLessThanOrEqualTo(RaftLimits.MAX_WRITE_BYTES).isEqualTo(densest.encode().length);
            s.check(densest);
            s.apply(densest.fixExpiry(0), 1, 2, 0);
            assertThat(s.appliedIndex()).isEqualTo(2);
        }
    }

    @Test
    void aCommandSurvivesEncodingAndRejectsGarbage() {
        Command c = Command.relative(List.of(new Command.Op(utf8("k"), utf8("v"), 7), new Command.Op(utf8("d"), null, 0)));
        Command back = Command.decode(c.encode());
        assertThat(back.isAbsolute()).isFalse();
        assertThat(back.ops()).hasSize(2);
        assertThat(back.ops().get(0).expiry()).isEqualTo(7);
        assertThat(back.ops().get(1).isDelete()).isTrue();
        assertThat(Command.decode(c.fixExpiry(100).encode()).ops().get(0).expiry()).isEqualTo(107);
        assertThatThrownBy(() -> Command.decode(new byte[] {'A', 0, 0, 0, 1, 1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Command.decode(new byte[] {'X'})).isInstanceOf(IllegalArgumentException.class);
    }
}
