package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RegionSizeTest {

    @Test
    void parsesBinaryUnits() {
        assertThat(RegionSize.parse("64KiB")).isEqualTo(65_536);
        assertThat(RegionSize.parse("64MiB")).isEqualTo(64 << 20);
        assertThat(RegionSize.parse("1GiB")).isEqualTo(1 << 30);
        assertThat(RegionSize.parse("4096")).isEqualTo(4096);
    }

    @Test
    void formatsWhatItParses() {
        for (String s : new String[] {"64KiB", "64MiB", "1GiB"}) {
            assertThat(RegionSize.format(RegionSize.parse(s))).isEqualTo(s);
        }
    }

    @Test
    void rejectsSizesAMaskCannotCover() {
        assertThatThrownBy(() -> RegionSize.parse("100KiB")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RegionSize.parse("2GiB")).isInstanceOf(IllegalArgumentException.class);
    }
}
