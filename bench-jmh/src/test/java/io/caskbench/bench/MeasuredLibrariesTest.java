package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.Runner;

/** The build fills in every measured library's version, and JMH's is the one on the classpath. */
class MeasuredLibrariesTest {

    @Test
    void everyMeasuredLibraryHasTheVersionTheBuildResolved() {
        Map<String, String> versions = MeasuredLibraries.versions();

        assertThat(versions).containsOnlyKeys("bitcask-core", "rocksdbjni", "lmdbjava", "chronicle-map", "mapdb", "h2",
                "jmh");
        assertThat(versions.values()).allSatisfy(v -> assertThat(v).matches("[0-9][0-9A-Za-z.+-]*"));
        String jmhOnClasspath = Runner.class.getPackage().getImplementationVersion();
        if (jmhOnClasspath != null) {
            assertThat(versions.get("jmh")).isEqualTo(jmhOnClasspath);
        }
    }
}
