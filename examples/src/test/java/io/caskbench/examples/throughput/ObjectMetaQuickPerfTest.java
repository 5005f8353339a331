package io.caskbench.examples.throughput;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.caskbench.bench.junit.QuickThroughput;
import io.caskbench.bench.junit.ScoreTable;
import io.caskbench.bitcask.Backend;
import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.ProtostuffCodec;
import io.caskbench.bitcask.TypedBitCask;
import io.caskbench.examples.service.ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static io.caskbench.bench.junit.ThroughputAssertions.assertThat;

/**
 * The light form, for code without a JMH benchmark: the seed's "write, then read ObjectMeta" test
 * made honest with {@link QuickThroughput} (warm-up, repetitions, an error estimate, a Blackhole,
 * cases interleaved). Like the seed it times the typed path a service uses: building the key
 * string, Protostuff encoding or decoding, and the store call. Tagged {@code perf}, excluded from
 * the default build.
 */
@Tag("perf")
class ObjectMetaQuickPerfTest {

    /** Distinct keys in each store; operations go round them. */
    private static final int KEYS = 50_000;

    /**
     * Floor for typed puts of an ObjectMeta with SyncPolicy NONE. Measured 380 to 640 k ops/s on
     * the development machine (see docs/examples.md); a put that forces every write to disk
     * (about 1 k ops/s there) falls below it.
     */
    static final double TYPED_PUT_FLOOR_OPS_PER_SECOND = 20_000;

    /** Typed MAPPED get against typed FILE_CHANNEL get, decoding included: measured 2.7x and 3.0x. */
    static final double MAPPED_OVER_FILE_CHANNEL = 1.5;

    private final Path root = Path.of("target");
    private Path dir;

    @AfterEach
    void deleteStores() throws IOException {
        MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
    }

    @Test
    void typedObjectMetaThroughput() throws IOException {
        dir = Files.createTempDirectory(Files.isDirectory(root) ? root : Path.of(System.getProperty("java.io.tmpdir")), "quick-perf-");
        ObjectMeta meta = new ObjectMeta("photos", "object.png", 245_761, "9e107d9d372bb6826bd81d3542a419d6",
                "image/png", Instant.parse("2026-01-01T00:00:00Z"), Map.of("owner", "alice"));
        try (BitCask mapped = open(Backend.MAPPED); BitCask channel = open(Backend.FILE_CHANNEL)) {
            TypedBitCask<ObjectMeta> viaMapped = mapped.typed(ProtostuffCodec.of(ObjectMeta.class));
            TypedBitCask<ObjectMeta> viaChannel = channel.typed(ProtostuffCodec.of(ObjectMeta.class));
            for (int i = 0; i < KEYS; i++) {
                viaMapped.put("object" + i + ".png", meta);
                viaChannel.put("object" + i + ".png", meta);
            }
            int[] next = new int[3];   // one cursor per case, so every case walks all keys

            ScoreTable scores = QuickThroughput.create()
                    .add("put", bh -> viaMapped.put(key(next, 0), meta))
                    .add("get", Map.of("backend", "MAPPED"), bh -> bh.consume(viaMapped.get(key(next, 1))))
                    .add("get", Map.of("backend", "FILE_CHANNEL"), bh -> bh.consume(viaChannel.get(key(next, 2))))
                    .run();

            assertThat(scores).benchmark("put").isAtLeast(TYPED_PUT_FLOOR_OPS_PER_SECOND);
            assertThat(scores).benchmark("get").param("backend", "MAPPED").isAtLeastTimes(MAPPED_OVER_FILE_CHANNEL, "FILE_CHANNEL");
        }
    }

    private BitCask open(Backend backend) {
        return BitCask.open(dir.resolve(backend.name()), BitCaskOptions.builder().backend(backend).build());
    }

    private static String key(int[] cursors, int c) {
        int i = cursors[c];
        cursors[c] = i + 1 == KEYS ? 0 : i + 1;
        return "object" + i + ".png";
    }
}
