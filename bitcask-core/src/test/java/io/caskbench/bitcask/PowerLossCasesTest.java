package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.PowerLossBackend;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Power losses at the two moments the random power-loss test reaches only by chance: right after
 * the first write of a new store, and right after a merge deleted the only forced copy of a key.
 */
class PowerLossCasesTest {

    @TempDir
    Path tmp;

    /** Cuts the power under {@code db} (closing it writes nothing more), and opens what survived. */
    private BitCask cutAndReopen(BitCask db, PowerLossBackend power, Backend backend) {
        power.cut();
        try {
            db.close();
        } catch (RuntimeException expected) {
            // every call after the cut fails
        }
        Path image = tmp.resolve("image");
        power.materialize(image);
        return BitCask.open(image, BitCaskOptions.builder().backend(backend).segmentSize(64 << 10).build());
    }

    @EveryBackend
    void underAlwaysTheFirstWriteOfANewStoreSurvives(Backend backend) {
        Path dir = tmp.resolve("db");
        PowerLossBackend power = new PowerLossBackend(backend.create(), dir);
        BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentBackend(power).syncPolicy(SyncPolicy.ALWAYS)
                .segmentSize(64 << 10).build());
        db.put("first", b("acknowledged"));
        try (BitCask survivor = cutAndReopen(db, power, backend)) {
            assertThat(survivor.get("first")).isEqualTo(b("acknowledged"));
        }
    }

    /**
     * A merge skips a key's old record because a newer one superseded it, then deletes the old
     * one's segment. If the newer record was written during the merge and never forced, a power
     * loss would take the key entirely, where without the merge it would have read the old value.
     */
    @EveryBackend
    void aMergeNeverTurnsLosingTheLastWriteIntoLosingTheKey(Backend backend) throws Exception {
        Path dir = tmp.resolve("db");
        PowerLossBackend power = new PowerLossBackend(backend.create(), dir);
        // No automatic merge: the merge whose output opening writes v2 must be this test's own.
        BitCask db = BitCask.open(dir, BitCaskOptions.builder().segmentBackend(power).segmentSize(64 << 10)
                .autoMerge(false).build());
        db.put("first", b("live, so the merge opens its output before it reaches key"));
        db.put("key", b("v1"));
        db.put("churn", b("1"));
        db.put("churn", b("2"));
        db.sync(); // v1 is on the device
        AtomicBoolean once = new AtomicBoolean();
        power.beforeOpenWritable = file -> {
            if (file.toString().endsWith(".data.tmp") && once.compareAndSet(false, true)) {
                // The merge has sealed the log and is about to copy: v2 lands in the new active
                // segment, and is not forced under NONE.
                CompletableFuture.runAsync(() -> db.put("key", b("v2"))).join();
            }
        };
        db.merge(MergeScope.ALL); // finds v1 superseded, skips it, and deletes its segment
        assertThat(once).isTrue();
        try (BitCask survivor = cutAndReopen(db, power, backend)) {
            assertThat(survivor.get("key")).as("the key holds v1 or v2, never nothing").isIn(b("v1"), b("v2"));
            assertThat(survivor.get("churn")).isEqualTo(b("2"));
            assertThat(survivor.get("first")).isNotNull();
        }
    }
}
