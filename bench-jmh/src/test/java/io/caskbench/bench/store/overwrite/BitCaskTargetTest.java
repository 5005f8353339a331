package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.MergeResult;
import io.caskbench.bitcask.MergeScope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BitCask's merges as the overwrite suite records them: counted, timed and sized by the store itself. */
class BitCaskTargetTest {

    private static final long SEGMENT = 64 << 10;

    @Test
    void mergesAreCountedTimedAndSizedAndTheBoundIsAtLeastOneSegment(@TempDir Path dir) {
        // No automatic merge: the counts below are those of the two merges this test runs.
        BitCaskOptions options = BitCaskOptions.builder().segmentSize(SEGMENT).mergeMaxInputBytes(1024).autoMerge(false).build();
        BitCask db = BitCask.open(dir, options);
        try (BitCaskTarget target = new BitCaskTarget(db, options)) {
            assertThat(target.compactions()).isZero();
            assertThat(target.compactionMillis()).isZero();
            assertThat(target.longestCompactionMillis()).isEqualTo(-1);
            assertThat(target.largestCompactionBytes()).isEqualTo(-1);
            assertThat(target.compactionInputBound()).isEqualTo(SEGMENT);

            overwrite(target, 1000);
            MergeResult first = db.merge(MergeScope.ALL);
            overwrite(target, 3000);
            MergeResult second = db.merge(MergeScope.ALL);

            assertThat(target.compactions()).isEqualTo(2);
            assertThat(target.compactionMillis()).isGreaterThanOrEqualTo(first.millis() + second.millis());
            assertThat(target.longestCompactionMillis()).isGreaterThanOrEqualTo(Math.max(first.millis(), second.millis()))
                    .isLessThanOrEqualTo(target.compactionMillis());
            assertThat(target.largestCompactionBytes()).isEqualTo(Math.max(first.bytesRead(), second.bytesRead()))
                    .isPositive();
        }
    }

    @Test
    void aStoreWithALargeBoundReportsIt(@TempDir Path dir) {
        BitCaskOptions options = BitCaskOptions.builder().segmentSize(SEGMENT).build();
        try (BitCaskTarget target = new BitCaskTarget(dir, options)) {
            assertThat(target.compactionInputBound()).isEqualTo(BitCaskOptions.DEFAULT_MERGE_MAX_INPUT_BYTES);
        }
    }

    /** Puts keys {@code 0..keys-1} twice, so the first copy of each is dead. */
    private static void overwrite(BitCaskTarget target, int keys) {
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < keys; i++) {
                target.put(("k" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
            }
        }
    }
}
