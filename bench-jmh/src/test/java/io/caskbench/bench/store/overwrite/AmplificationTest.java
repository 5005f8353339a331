package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The amplification arithmetic and the {@code /proc/self/io} parsing it is fed from. */
class AmplificationTest {

    @Test
    void liveBytesAreKeysTimesRecordSize() {
        assertThat(Amplification.liveBytes(2_000_000, 16, 100)).isEqualTo(232_000_000L);
        assertThat(Amplification.liveBytes(2_000_000, 16, 1024)).isEqualTo(2_080_000_000L);
        assertThatThrownBy(() -> Amplification.liveBytes(-1, 16, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Amplification.liveBytes(Long.MAX_VALUE, 16, 100))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void ratiosAndTheirUnknowns() {
        assertThat(Amplification.space(348_000_000L, 232_000_000L)).isEqualTo(1.5);
        assertThat(Amplification.write(30, 10)).isEqualTo(3.0);
        assertThat(Amplification.write(0, 10)).isZero();
        assertThat(Amplification.write(-1, 10)).isNaN();
        assertThat(Amplification.write(10, 0)).isNaN();
        assertThat(Amplification.space(10, -1)).isNaN();
    }

    @Test
    void procIoWriteBytesIsParsed() {
        String text = "rchar: 323934931\nwchar: 323929600\nsyscr: 632687\nsyscw: 632675\n"
                + "read_bytes: 0\nwrite_bytes: 323932160\ncancelled_write_bytes: 0\n";
        assertThat(ProcIo.parse(text)).isEqualTo(323_932_160L);
        assertThat(ProcIo.parse("rchar: 1\n")).isEqualTo(-1);
        assertThat(ProcIo.parse("write_bytes: lots\n")).isEqualTo(-1);
    }

    @Test
    void aSampleDerivesItsRatios() {
        IntervalSample s = new IntervalSample(2.0, 800, 200, 0.5, 10, 20, 30, 300, 200, 90, 30, 1, -1, -1, -1);
        assertThat(s.opsPerSecond()).isEqualTo(2000.0);
        assertThat(s.putsPerSecond()).isEqualTo(1600.0);
        assertThat(s.spaceAmp()).isEqualTo(1.5);
        assertThat(s.writeAmp()).isEqualTo(3.0);
    }
}
