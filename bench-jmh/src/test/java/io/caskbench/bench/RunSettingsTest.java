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
    void helpListingsAndARegexAreJmhsOwnCommandLine() {
        for (String args : List.of("-h", "-l", "-lp", "-lprof", "-lrf", "FileCopy", "FileCopy -f 1 -prof gc",
                "-l PeersSingleThread", "-f 1 .*Seed.*", "-nosuchoption")) {
            assertThat(RunSettings.isPlainJmh(List.of(args.split(" ")))).as(args).isTrue();
        }
        for (String args : List.of("-f 1 -wi 0", "-prof gc", "-p store=LMDB -rf json", "-jvmArgsAppend -Xmx2g")) {
            assertThat(RunSettings.isPlainJmh(List.of(args.split(" ")))).as("suite presets with %s", args).isFalse();
        }
        assertThat(RunSettings.isPlainJmh(List.of())).isFalse();
        Properties p = new Properties();
        p.setProperty("caskbench.jmhArgs", "-f 1");
        assertThat(RunSettings.isPlainJmh(RunSettings.jmhArgs(p))).isFalse();
        assertThat(RunSettings.isPlainJmh(RunSettings.jmhArgs(p, "-l"))).as("the property and the command line together")
                .isTrue();
    }

    @Test
    void forksInheritTheRunnersArgumentsWithTheRunsOwnFolderAndWithoutEmptyProperties() {
        List<String> runner = List.of("-Xmx1g", "-Dcaskbench.results=/repo/results", "-Dcaskbench.gangLimitSeconds=",
                "-Dcaskbench.data=/big/disk", "-Dcaskbench.include=", "-Djmh.ignoreLock=false", "-Dother=");
        assertThat(ForkArgs.inherited(runner, Path.of("/repo/results/2026-11-22T14-05-33-store")))
                .containsExactly("-Xmx1g", "-Dcaskbench.data=/big/disk", "-Djmh.ignoreLock=false", "-Dother=",
                        "-Dcaskbench.results=/repo/results/2026-11-22T14-05-33-store");
    }

    @Test
    void inheritedForkArgumentsApplyOnlyWhereNeitherLayerSetsAny() {
        org.openjdk.jmh.runner.options.Options none = new org.openjdk.jmh.runner.options.OptionsBuilder().build();
        org.openjdk.jmh.runner.options.Options suite = new org.openjdk.jmh.runner.options.OptionsBuilder()
                .jvmArgs("-Xmx3g").build();
        assertThat(new LayeredOptions(none, none, List.of(), List.of("-Da=1")).getJvmArgs().get()).containsExactly("-Da=1");
        assertThat(new LayeredOptions(none, suite, List.of(), List.of("-Da=1")).getJvmArgs().get()).containsExactly("-Xmx3g");
        assertThat(new LayeredOptions(none, none, List.of()).getJvmArgs().hasValue()).isFalse();
    }

    @Test
    void includesMatchOneSuitePatternAndEveryFilter() {
        List<String> combined = Includes.intersect(List.of("\\.PeersSingleThread\\.", "\\.SeedWorkload\\."),
                List.of("get", "Peers"));
        assertThat(matchesAny(combined, "io.caskbench.bench.store.single.PeersSingleThread.get")).isTrue();
        assertThat(matchesAny(combined, "io.caskbench.bench.store.single.PeersSingleThread.put")).isFalse();
        assertThat(matchesAny(combined, "io.caskbench.bench.store.threads.SeedWorkload.singleGet")).isFalse();
        assertThat(Includes.intersect(List.of(), List.of())).containsExactly(".*");
    }

    private static boolean matchesAny(List<String> patterns, String name) {
        return patterns.stream().anyMatch(p -> Pattern.compile(p).matcher(name).find());
    }
}
