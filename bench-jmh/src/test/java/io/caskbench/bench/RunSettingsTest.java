package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RunSettingsTest {

    @Test
    void defaultsAreTheQuickStoreSuiteIntoResults() {
        RunSettings s = RunSettings.from(new Properties());
        assertThat(s.suites()).containsExactly("store");
        assertThat(s.profile()).isEqualTo(Suite.Profile.QUICK);
        assertThat(s.include()).isEmpty();
        assertThat(s.jmhArgs()).isEmpty();
        assertThat(s.results()).isEqualTo(Path.of("results").toAbsolutePath());
    }

    @Test
    void readsPropertiesAndAppendsArguments() {
        Properties p = new Properties();
        p.setProperty("caskbench.suites", "store, files");
        p.setProperty("caskbench.profile", "Full");
        p.setProperty("caskbench.include", "Peers");
        p.setProperty("caskbench.jmhArgs", "-f 1 -p store=LMDB,ROCKSDB -jvmArgsAppend '-Xmx2g -Xms2g'");
        p.setProperty("caskbench.results", "/tmp/r");
        RunSettings s = RunSettings.from(p, "-wi", "0");
        assertThat(s.suites()).containsExactly("store", "files");
        assertThat(s.profile()).isEqualTo(Suite.Profile.FULL);
        assertThat(s.include()).isEqualTo("Peers");
        assertThat(s.jmhArgs()).containsExactly("-f", "1", "-p", "store=LMDB,ROCKSDB", "-jvmArgsAppend",
                "-Xmx2g -Xms2g", "-wi", "0");
        assertThat(s.results()).isEqualTo(Path.of("/tmp/r"));
    }

    @Test
    void rejectsUnknownProfilesAndUnbalancedQuotes() {
        Properties p = new Properties();
        p.setProperty("caskbench.profile", "fast");
        assertThatThrownBy(() -> RunSettings.from(p)).hasMessageContaining("quick, full or smoke");
        assertThatThrownBy(() -> RunSettings.tokenize("-jvmArgs 'x")).hasMessageContaining("quote");
    }

    @Test
    void includesMatchOneSuitePatternAndEveryFilter() {
        List<String> combined = Includes.intersect(List.of("\\.PeersSingleThread\\.", "\\.SeedWorkload\\."),
                List.of("get", "Peers"));
        assertThat(matchesAny(combined, "io.caskbench.bench.store.PeersSingleThread.get")).isTrue();
        assertThat(matchesAny(combined, "io.caskbench.bench.store.PeersSingleThread.put")).isFalse();
        assertThat(matchesAny(combined, "io.caskbench.bench.store.SeedWorkload.singleGet")).isFalse();
        assertThat(Includes.intersect(List.of(), List.of())).containsExactly(".*");
    }

    private static boolean matchesAny(List<String> patterns, String name) {
        return patterns.stream().anyMatch(p -> Pattern.compile(p).matcher(name).find());
    }
}
