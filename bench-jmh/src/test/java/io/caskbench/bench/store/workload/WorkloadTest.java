package io.caskbench.bench.store.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    @Test
    void decimalKeysAreSixteenZeroPaddedDigits() {
        assertThat(new String(Workload.decimalKey(0), StandardCharsets.US_ASCII)).isEqualTo("0000000000000000");
        assertThat(new String(Workload.decimalKey(999_999), StandardCharsets.US_ASCII)).isEqualTo("0000000000999999");
        Workload w = Workload.decimal(1000, 100, KeyOrder.SEQUENTIAL);
        assertThat(w.keySize()).isEqualTo(16);
        assertThat(w.fixedKeySize()).isTrue();
        byte[] buffer = w.keyBuffer();
        assertThat(w.fillKey(42, buffer)).isSameAs(buffer);
        assertThat(new String(buffer, StandardCharsets.US_ASCII)).isEqualTo("0000000000000042");
        assertThat(new String(w.readKey(42, buffer), StandardCharsets.US_ASCII)).isEqualTo("0000000000000042");
        assertThat(w.value()).hasSize(100);
    }

    @Test
    void randomOrdersAreFixedPermutationsAndTheReadsDifferFromTheFill() {
        int[] fill = KeyOrder.RANDOM.fillOrder(10_000);
        int[] read = KeyOrder.RANDOM.readOrder(10_000);
        assertThat(fill).isEqualTo(KeyOrder.RANDOM.fillOrder(10_000));
        assertThat(read).isEqualTo(KeyOrder.RANDOM.readOrder(10_000));
        assertThat(fill).isNotEqualTo(KeyOrder.SEQUENTIAL.fillOrder(10_000)).isNotEqualTo(read);
        for (int[] order : new int[][] {fill, read}) {
            int[] sorted = order.clone();
            Arrays.sort(sorted);
            assertThat(sorted).isEqualTo(KeyOrder.SEQUENTIAL.readOrder(10_000));
        }
    }

    @Test
    void randomKeysComeOutOfTheSlabsInTheirOrders() {
        Workload w = Workload.decimal(1000, 8, KeyOrder.RANDOM);
        int[] fill = KeyOrder.RANDOM.fillOrder(1000);
        int[] read = KeyOrder.RANDOM.readOrder(1000);
        byte[] buffer = w.keyBuffer();
        for (int i = 0; i < 1000; i++) {
            assertThat(w.fillKey(i, buffer)).isEqualTo(Workload.decimalKey(fill[i]));
            assertThat(w.readKey(i, buffer)).isEqualTo(Workload.decimalKey(read[i]));
        }
    }

    @Test
    void seedWorkloadUsesObjectNamesAndSerializedMetadata() {
        Workload w = Workload.seed(2000);
        assertThat(new String(w.fillKey(0, w.keyBuffer()), StandardCharsets.UTF_8)).isEqualTo("object0.png");
        assertThat(new String(w.readKey(1999, w.keyBuffer()), StandardCharsets.UTF_8)).isEqualTo("object1999.png");
        assertThat(w.fixedKeySize()).isFalse();
        ObjectMeta meta = ObjectMeta.fromBytes(w.value());
        assertThat(meta.name()).isEqualTo("object0.png");
        assertThat(meta.size()).isEqualTo(348_291L);
        assertThat(w.value().length).isBetween(150, 400);
    }
}
