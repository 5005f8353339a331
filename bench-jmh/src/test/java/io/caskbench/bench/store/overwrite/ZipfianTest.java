package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Zipfian draw: in range, reproducible from its seed, skewed as Zipf's law says, and scattered. */
class ZipfianTest {

    private static final long SEED = 20261126L;

    @Test
    void theSameSeedDrawsTheSameKeys() {
        Zipfian z = new Zipfian(10_000, Zipfian.DEFAULT_THETA);
        SplittableRandom a = new SplittableRandom(SEED);
        SplittableRandom b = new SplittableRandom(SEED);
        for (int i = 0; i < 1_000; i++) {
            assertThat(z.next(a)).as("draw %d, seed %d", i, SEED).isEqualTo(z.next(b));
        }
    }

    @Test
    void ranksFollowZipfsLaw() {
        int n = 1_000;
        int draws = 400_000;
        Zipfian z = new Zipfian(n, Zipfian.DEFAULT_THETA);
        SplittableRandom random = new SplittableRandom(SEED);
        long[] counts = new long[n];
        for (int i = 0; i < draws; i++) {
            long rank = z.nextRank(random);
            assertThat(rank).as("seed %d", SEED).isBetween(0L, (long) n - 1);
            counts[(int) rank]++;
        }
        double zetan = 0;
        for (int i = 1; i <= n; i++) {
            zetan += 1 / Math.pow(i, Zipfian.DEFAULT_THETA);
        }
        // The two hottest ranks are drawn exactly by the method; rank 0 with probability 1 / zeta(n).
        assertThat(counts[0] / (double) draws).as("seed %d", SEED).isCloseTo(1 / zetan, within(0.01));
        assertThat(counts[1] / (double) draws).as("seed %d", SEED)
                .isCloseTo(1 / Math.pow(2, Zipfian.DEFAULT_THETA) / zetan, within(0.01));
        // The hottest 10% of ranks take most draws; a uniform draw would give them 10%.
        long top = 0;
        for (int i = 0; i < n / 10; i++) {
            top += counts[i];
        }
        assertThat(top / (double) draws).as("seed %d", SEED).isGreaterThan(0.6);
        assertThat(counts[0]).isGreaterThan(counts[10]).isGreaterThan(counts[500]);
    }

    @Test
    void scatteringIsABijectionThatMovesTheHotKeys() {
        for (int n : new int[] {2, 7, 1_000, 1 << 16, 999_983}) {
            Zipfian z = new Zipfian(n, 0.5);
            Set<Long> keys = new HashSet<>();
            for (long r = 0; r < n; r++) {
                long k = z.keyOf(r);
                assertThat(k).isBetween(0L, (long) n - 1);
                keys.add(k);
            }
            assertThat(keys).as("n=%d", n).hasSize(n);
        }
        Zipfian big = new Zipfian(2_000_000, Zipfian.DEFAULT_THETA);
        assertThat(big.keyOf(1) - big.keyOf(0)).isNotEqualTo(1L);
    }

    @Test
    void uniformSkewCoversTheKeySpace() {
        Skew.KeyDraw draw = Skew.UNIFORM.over(100);
        SplittableRandom random = new SplittableRandom(SEED);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            long k = draw.next(random);
            assertThat(k).isBetween(0L, 99L);
            seen.add(k);
        }
        assertThat(seen).as("seed %d", SEED).hasSize(100);
    }

    @Test
    void badSizesAreRefused() {
        assertThatThrownBy(() -> new Zipfian(1, 0.99)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Zipfian(10, 1.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Zipfian(10, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }
}
