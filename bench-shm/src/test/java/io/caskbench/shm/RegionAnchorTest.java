package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.RunResult;

/**
 * region_bench.c must do the same work as the Java benchmarks: same positions from the same PRNG, on
 * every backing, and report iterations CAnchors can read. Skipped when gcc is missing.
 */
class RegionAnchorTest {

    private static final int SIZE = 1 << 16;
    private static final int WRITES = 1 << 20;

    @BeforeAll
    static void needGcc() {
        NativeBuild build = NativeBuild.get();
        assumeTrue(build.available(), () -> "C anchors skipped: " + build.problem().orElse(""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"disk", "shm", "shmget", "anon"})
    void writesTheSamePositionsAsJava(String backing) throws IOException {
        Path file = CAnchors.fileFor(backing);
        List<String> out = CAnchors.runProgram(List.of(
                NativeBuild.get().program(NativeBuild.REGION_BENCH).toString(), backing, Integer.toString(SIZE),
                "selftest", file == null ? "-" : file.toString(), "0", "0", "0"), file);

        assertThat(out).containsExactly(String.format("checksum %016x", javaChecksum()));
        if (file != null) {
            assertThat(Files.exists(file)).as("region file deleted").isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"prng", "write", "write-libc-rand", "clear"})
    void reportsOneResultPerMeasuredIteration(String op) throws IOException {
        RunResult r = CAnchors.measure(NativeBuild.get(), Profile.SMOKE, CAnchors.PREFIX + op, op, "shm", "64KiB");

        assertThat(r.getBenchmarkResults().iterator().next().getIterationResults()).hasSize(1);
        assertThat(r.getPrimaryResult().getScore()).isPositive();
        assertThat(r.getPrimaryResult().getScoreUnit()).isEqualTo("ns/op");
    }

    /** What selftest computes, in Java: value i*31+7 at the i-th xorshift position, then FNV-1a 64. */
    private static long javaChecksum() {
        byte[] region = new byte[SIZE];
        int x = XorShift.SEED;
        for (int i = 0; i < WRITES; i++) {
            x = XorShift.next(x);
            region[x & (SIZE - 1)] = (byte) (i * 31 + 7);
        }
        long h = 0xcbf29ce484222325L;
        for (byte b : region) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
