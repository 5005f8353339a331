package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The units the summary figures are reported in, and the profiler's guard. */
class OverwriteProfilerTest {

    @Test
    void eachFigureHasItsUnit() {
        assertThat(OverwriteProfiler.unit("put:p99")).isEqualTo("us");
        assertThat(OverwriteProfiler.unit("p99.9")).isEqualTo("us");
        assertThat(OverwriteProfiler.unit("achieved")).isEqualTo("ops/s");
        assertThat(OverwriteProfiler.unit("compactionMillis")).isEqualTo("ms");
        assertThat(OverwriteProfiler.unit("longestCompactionMillis")).isEqualTo("ms");
        assertThat(OverwriteProfiler.unit("largestCompactionBytes")).isEqualTo("bytes");
        assertThat(OverwriteProfiler.unit("spaceAmpMax")).isEqualTo("ratio");
    }

    @Test
    void aRunWithoutTheProfilerFails() {
        assertThatThrownBy(OverwriteProfiler::requireAttached).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("-prof");
    }
}
