package io.caskbench.bench.store.overwrite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The time-series file: a header, then one line per interval, readable while the run goes on. */
class TimeSeriesWriterTest {

    @Test
    void writesTheHeaderThenEachIntervalAsItComes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/overwrite-x.csv");
        try (TimeSeriesWriter out = new TimeSeriesWriter(file)) {
            assertThat(Files.readAllLines(file)).containsExactly(IntervalSample.HEADER);
            out.write(new IntervalSample(1.0, 900, 100, 1.0, 12.5, 80.25, 40, 3_000, 2_000, 600, 200, 0, -1, -1, -1));
            assertThat(Files.readAllLines(file)).hasSize(2);
            out.write(new IntervalSample(2.0, 1000, 0, 1.0, Double.NaN, 70, Double.NaN, 2_400, 2_000, 900, 400, 2, 35, 20, 4_096));
            out.close();
            out.close(); // idempotent
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        int columns = IntervalSample.HEADER.split(",").length;
        assertThat(lines).allSatisfy(l -> assertThat(l.split(",")).hasSize(columns));
        assertThat(lines.get(1)).isEqualTo("1.000,1000.0,900.0,12.5,80.3,40.0,3000,2000,1.5000,600,200,3.0000,0,-1,-1,-1");
        assertThat(lines.get(2)).isEqualTo("2.000,1000.0,1000.0,NaN,70.0,NaN,2400,2000,1.2000,900,400,2.2500,2,35,20,4096");
    }
}
