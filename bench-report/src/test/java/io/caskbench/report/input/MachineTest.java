package io.caskbench.report.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineTest {

    @Test
    void captureDescribesThisJvmAndMachine() {
        Machine m = Machine.capture();
        assertThat(m.cpuCount()).isPositive();
        assertThat(m.cpuModel()).isNotBlank();
        assertThat(m.memoryBytes()).isPositive();
        assertThat(m.jdkVersion()).startsWith(String.valueOf(Runtime.version().feature()));
        assertThat(m.javaHome()).isEqualTo(System.getProperty("java.home"));
        assertThat(m.date()).matches("\\d{4}-\\d{2}-\\d{2}T.*");
    }

    @Test
    void writeThenReadRoundTrips(@TempDir Path dir) {
        Path results = dir.resolve("results");
        Path file = Machine.write(results);
        assertThat(file).isEqualTo(results.resolve("machine.json")).exists();
        assertThat(Machine.read(results)).hasValueSatisfying(m -> assertThat(m.cpuCount())
                .isEqualTo(Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void readIsEmptyWhenAbsentOrBroken(@TempDir Path dir) throws Exception {
        assertThat(Machine.read(dir)).isEmpty();
        Files.writeString(dir.resolve("machine.json"), "{not json");
        assertThat(Machine.read(dir)).isEmpty();
    }
}
