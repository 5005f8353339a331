package io.caskbench.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Fork;

/** The tests run with the same JVM flags as the benchmark forks, so they exercise the peers as run. */
class ForkFlagsTest {

    @Test
    void surefireArgLineCarriesEveryForkFlag() {
        String[] flags = StoreBenchmark.class.getAnnotation(Fork.class).jvmArgsAppend();
        assertThat(flags).isNotEmpty();
        assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments()).contains(flags);
    }
}
