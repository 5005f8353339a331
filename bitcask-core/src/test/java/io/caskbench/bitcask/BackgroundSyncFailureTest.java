package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.FaultyBackend.Kind;
import io.caskbench.bitcask.testing.FaultyBackend;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A failed force that no caller sees: the one of {@link SyncPolicy#INTERVAL}'s background sync. */
class BackgroundSyncFailureTest {

    @TempDir
    Path tmp;

    /**
     * INTERVAL's background sync has no caller to throw to: its failed force is only logged, and
     * from then on the store refuses writes until it is reopened, while reads go on. The test
     * waits for events (the failed force, the first refusal), with generous bounds, not for time.
     */
    @EveryBackend
    void aFailedBackgroundSyncMakesTheStoreRefuseWrites(Backend backend) throws InterruptedException {
        FaultyBackend faulty = new FaultyBackend(backend.create());
        faulty.skipRealForces = true;
        Path dir = tmp.resolve("interval");
        BitCaskOptions o = BitCaskOptions.builder().segmentBackend(faulty).segmentSize(SweepRun.SEGMENT_SIZE)
                .syncPolicy(SyncPolicy.INTERVAL).syncInterval(Duration.ofMillis(5)).build();
        byte[] one = "1".getBytes(StandardCharsets.UTF_8);
        List<String> acked = new ArrayList<>(List.of("a"));
        BitCask db = BitCask.open(dir, o);
        try {
            db.put("a", one);
            faulty.failCall(1, EnumSet.of(Kind.FORCE, Kind.FORCE_FILE, Kind.FORCE_DIRECTORY));
            // Puts give the background sync something to force; a pause after each keeps the
            // store small if the engine never refuses. Each event gets a generous bound: 30 s
            // for the failed background force, then 5 s for the first refusal.
            long deadline = System.nanoTime() + 30_000_000_000L;
            RuntimeException refusal = null;
            for (int i = 0; refusal == null && System.nanoTime() < deadline; i++) {
                try {
                    db.put("w" + i, one);
                    acked.add("w" + i);
                } catch (RuntimeException e) {
                    refusal = e;
                }
                if (faulty.fired() != null) {
                    deadline = Math.min(deadline, System.nanoTime() + 5_000_000_000L);
                }
                Thread.sleep(1);
            }
            assertThat(faulty.fired()).as("a background force was failed").isNotNull();
            assertThat(faulty.fired().thread()).isNotEqualTo(Thread.currentThread().getName());
            assertThat(refusal).as("a write after the failed background sync").isInstanceOf(BitCaskException.class);
            assertThat(refusal.getMessage()).containsIgnoringCase("reopen");
            assertThatThrownBy(() -> db.put("later", one)).as("every later write").isInstanceOf(BitCaskException.class);
            assertThatThrownBy(() -> db.delete("a")).as("a delete").isInstanceOf(BitCaskException.class);
            assertThatThrownBy(db::merge).as("a merge").isInstanceOf(BitCaskException.class);
            assertThat(db.get("a")).as("reads go on").isEqualTo(one);
        } finally {
            try {
                db.close();
            } catch (BitCaskException mayFail) {
                // the store was told its data may not be durable; close may say so again
            }
        }
        try (BitCask reopened = BitCask.open(dir, BitCaskOptions.builder().backend(backend).segmentSize(SweepRun.SEGMENT_SIZE).build())) {
            for (String key : acked) {
                assertThat(reopened.get(key)).as("acknowledged %s after reopen", key).isEqualTo(one);
            }
            assertThat(reopened.get("later")).isNull();
            reopened.put("later", one);
        }
    }
}
