package io.caskbench.bench.openloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A mix draws puts at its share, and a mix of one kind draws only that kind. */
class OperationMixTest {

    @Test
    void fivePercentPutsDrawAboutOneInTwenty() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        OperationMix mix = OperationMix.withPutShare(0.05);
        int puts = 0;
        for (int i = 0; i < 200_000; i++) {
            puts += mix.next(random) == OpType.PUT ? 1 : 0;
        }
        // The standard deviation is about 97 puts; 5 of them either side.
        assertThat(puts).as("seed %d", seed).isBetween(9_500, 10_500);
        assertThat(mix.types()).containsExactly(OpType.GET, OpType.PUT);
        assertThat(mix).hasToString("95% get, 5% put");
    }

    @Test
    void aMixOfOneKindDrawsOnlyThatKind() {
        SplittableRandom random = new SplittableRandom(1);
        assertThat(OperationMix.getsOnly().next(random)).isEqualTo(OpType.GET);
        assertThat(OperationMix.putsOnly().next(random)).isEqualTo(OpType.PUT);
        assertThat(OperationMix.putsOnly().types()).containsExactly(OpType.PUT);
        assertThatThrownBy(() -> OperationMix.withPutShare(1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
