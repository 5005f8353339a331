package io.caskbench.bitcask.index;

import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.WriteBatch;
import io.caskbench.bitcask.format.KeyHash;
import io.caskbench.bitcask.testing.EveryBackend;
import io.caskbench.bitcask.testing.TestOptions;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static io.caskbench.bitcask.testing.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;

/** Weakly consistent iteration: every key that stays live is seen once, whatever replaces the table. */
@org.junit.jupiter.api.Timeout(120)
class IterationTest {

    @TempDir
    Path dir;

    private static BitCaskOptions opts(Backend backend) {
        return TestOptions.with(backend, 64 << 10);
    }

    @EveryBackend
    void everyKeyThatStaysLiveIsSeenOnceWhileTheTableGrows(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int i = 0; i < 1000; i++) {
                db.put("stay" + i, b("v" + i));
            }
            Map<String, Integer> seen = new HashMap<>();
            db.forEach((k, v) -> {
                String key = new String(k, StandardCharsets.UTF_8);
                seen.merge(key, 1, Integer::sum);
                if (seen.size() == 10) {
                    for (int j = 0; j < 20_000; j++) {
                        db.put("grow" + j, b("g")); // the key directory grows several times
                    }
                }
            });
            for (int i = 0; i < 1000; i++) {
                assertThat(seen.get("stay" + i)).as("stay" + i).isEqualTo(1);
            }
            assertThat(seen.values()).allMatch(n -> n == 1);
        }
    }

    @EveryBackend
    void everyKeyThatStaysLiveIsSeenOnceWhileAMergeRuns(Backend backend) {
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int i = 0; i < 1000; i++) {
                db.put("stay" + i, b("first" + i));
                db.put("stay" + i, b("v" + i)); // dead bytes for the merge
            }
            Map<String, Integer> seen = new HashMap<>();
            db.forEach((k, v) -> {
                seen.merge(new String(k, StandardCharsets.UTF_8), 1, Integer::sum);
                if (seen.size() == 10) {
                    db.merge();
                }
            });
            assertThat(seen).hasSize(1000);
            assertThat(seen.values()).allMatch(n -> n == 1);
            assertThat(db.keys().count()).isEqualTo(1000);
        }
    }

    /** Two keys whose hashes share their top bits, so every iteration reads them in one block. */
    private static String[] neighbours() {
        Map<Integer, String> byTopBits = new HashMap<>();
        for (int i = 0; ; i++) {
            String key = "pair" + i;
            int top = KeyHash.hash(key.getBytes(StandardCharsets.UTF_8)) >>> 22;
            String other = byTopBits.putIfAbsent(top, key);
            if (other != null) {
                return new String[] {other, key};
            }
        }
    }

    @EveryBackend
    void iterationNeverShowsHalfABatch(Backend backend) {
        String[] pair = neighbours();
        try (BitCask db = BitCask.open(dir, opts(backend))) {
            for (int i = 0; i < 300; i++) {
                db.put("other" + i, b("o"));
            }
            db.put(pair[0], b("old"));
            db.put(pair[1], b("old"));
            Map<String, String> seen = new HashMap<>();
            Set<String> members = new HashSet<>(Set.of(pair));
            db.forEach((k, v) -> {
                String key = new String(k, StandardCharsets.UTF_8);
                if (members.contains(key)) {
                    seen.put(key, new String(v, StandardCharsets.UTF_8));
                    if (seen.size() == 1) {
                        db.write(new WriteBatch().put(pair[0], b("new")).put(pair[1], b("new")));
                    }
                }
            });
            assertThat(seen).hasSize(2);
            assertThat(seen.get(pair[0])).as("both members of the batch, or neither").isEqualTo(seen.get(pair[1]));
        }
    }
}
