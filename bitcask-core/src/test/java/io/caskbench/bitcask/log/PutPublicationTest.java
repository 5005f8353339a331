package io.caskbench.bitcask.log;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.BitCaskStats;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A put publishes its record in the key directory after it has written it and let go of the write lock;
 * the publication reads the key's previous record to check the key. When that read fails, the put
 * throws, the key keeps its previous value, and the record counts as dead, not live, in the statistics
 * that decide when to merge, and the put still counts as done, so close does not wait for it.
 */
class PutPublicationTest {

    @TempDir
    Path dir;

    @EveryBackend
    // A publication that throws must still end its count, or close waits for it for ever: that must fail, not stall the build.
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPutWhosePublicationFailsLeavesItsRecordCountedDead(Backend backend) {
        WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).build();
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("k", new byte[100]);
            BitCaskStats before = db.stats();
            Thread putter = Thread.currentThread(); // no background read may fail by accident
            watching.beforeRead = name -> {
                if (Thread.currentThread() == putter) {
                    throw new BitCaskException("injected: cannot read " + name);
                }
            };
            assertThatThrownBy(() -> db.put("k", new byte[300])).isInstanceOf(BitCaskException.class);
            watching.beforeRead = name -> { };
            BitCaskStats after = db.stats();
            assertThat(after.liveBytes()).as("live bytes").isEqualTo(before.liveBytes());
            assertThat(after.deadBytes()).as("dead bytes: the record that was written but not published")
                    .isGreaterThan(before.deadBytes() + 300);
            assertThat(db.get("k")).hasSize(100);
            db.put("k", new byte[50]); // the store still takes writes
            assertThat(db.get("k")).hasSize(50);
        }
    }
}
