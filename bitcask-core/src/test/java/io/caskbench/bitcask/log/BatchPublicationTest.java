package io.caskbench.bitcask.log;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskException;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.InternalOptions;
import io.caskbench.bitcask.MergeScope;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.bitcask.testing.Backends;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.WatchingBackend;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A batch points the key directory at its records only after it has written them, and checking a
 * key reads the key's previous record. When one of those reads fails, readers must see all of the
 * batch or none of it: right away, after a full merge (which writes what readers see to new
 * segments), and after a reopen (which replays the log).
 */
class BatchPublicationTest {

    private static final List<String> KEYS = List.of("a", "b", "c", "d");
    /** Value sizes before the batch; -1 for absent. */
    private static final List<Integer> BEFORE = List.of(10, 20, 30, -1);
    /** Value sizes the batch leaves; -1 for absent. */
    private static final List<Integer> AFTER = List.of(11, 21, -1, 41);

    @TempDir
    Path tmp;

    @EveryBackend
    void aBatchWhoseKeyCheckFailsIsSeenWholeOrNotAtAll(Backend backend) {
        for (int failAt = 1; failAt <= 3; failAt++) {
            Path dir = tmp.resolve(backend + "-" + failAt);
            WatchingBackend watching = new WatchingBackend(Backends.segmentBackend(backend));
            BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), watching).build();
            List<Integer> seen;
            try (BitCask db = BitCask.open(dir, o)) {
                for (int i = 0; i < 3; i++) {
                    db.put(KEYS.get(i), new byte[BEFORE.get(i)]);
                }
                WriteBatch batch = new WriteBatch().put("a", new byte[11]).put("b", new byte[21]).delete("c")
                        .put("d", new byte[41]);
                Thread writer = Thread.currentThread(); // no background read may fail by accident
                AtomicInteger reads = new AtomicInteger();
                int fail = failAt;
                watching.beforeRead = name -> {
                    if (Thread.currentThread() == writer && reads.incrementAndGet() == fail) {
                        throw new BitCaskException("injected: cannot read " + name);
                    }
                };
                assertThatThrownBy(() -> db.write(batch)).as("read %d fails", failAt).isInstanceOf(BitCaskException.class);
                watching.beforeRead = name -> { };
                seen = sizes(db);
                assertThat(seen).as("after read %d of the batch failed", failAt).isIn(BEFORE, AFTER);
                db.merge(MergeScope.ALL);
                assertThat(sizes(db)).as("after a full merge, read %d failed", failAt).isEqualTo(seen);
            }
            try (BitCask db = BitCask.open(dir, InternalOptions.withSegmentBackend(BitCaskOptions.builder(), Backends.segmentBackend(backend)).build())) {
                assertThat(sizes(db)).as("after a reopen, read %d failed", failAt).isEqualTo(seen);
            }
        }
    }

    /**
     * The directory update answers a key check from the reads made before it, and from the batch's own
     * earlier members: a key named twice, new or not, ends on its last member.
     */
    @EveryBackend
    void aKeyNamedTwiceInABatchEndsOnItsLastMember(Backend backend) {
        Path dir = tmp.resolve(backend.toString());
        BitCaskOptions o = InternalOptions.withSegmentBackend(BitCaskOptions.builder(), Backends.segmentBackend(backend)).build();
        List<Integer> want = List.of(13, -1, 32, 42);
        try (BitCask db = BitCask.open(dir, o)) {
            db.put("a", new byte[10]);
            db.put("b", new byte[20]);
            db.write(new WriteBatch().put("a", new byte[11]).put("b", new byte[21]).put("d", new byte[40])
                    .delete("a").put("c", new byte[31]).delete("b").put("a", new byte[13]).put("d", new byte[41])
                    .put("c", new byte[32]).put("d", new byte[42]));
            assertThat(sizes(db)).isEqualTo(want);
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(sizes(db)).as("after a reopen").isEqualTo(want);
        }
    }

    private static List<Integer> sizes(BitCask db) {
        List<Integer> out = new ArrayList<>();
        for (String k : KEYS) {
            byte[] v = db.get(k);
            out.add(v == null ? -1 : v.length);
        }
        return out;
    }
}
