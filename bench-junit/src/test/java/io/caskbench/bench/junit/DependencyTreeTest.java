package io.caskbench.bench.junit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a project gets when it adds this artefact as a test dependency: JMH, and no store and no
 * logging binding. The build writes the artefact's compile and runtime dependency tree (Maven's
 * {@code dependency:tree}) before the tests run; this test reads it.
 */
class DependencyTreeTest {

    /** One artefact line of {@code dependency:tree}'s text output: group:artifact:type[:classifier]:version:scope. */
    private static final Pattern ARTIFACT = Pattern.compile("([\\w.-]+):([\\w.-]+):[\\w-]+(?::[\\w.-]+)?:([^:\\s]+):(\\w+)");
    /** Stores this project benchmarks, and the project's own store. */
    private static final Pattern STORE = Pattern.compile(
            "org\\.rocksdb:.*|org\\.lmdbjava:.*|net\\.openhft:.*|org\\.mapdb:.*|com\\.h2database:.*|io\\.caskbench:bitcask-core");
    /** SLF4J and Log4j bindings, and the logging back ends themselves: the consumer picks its own. */
    private static final Pattern LOGGING_BINDING = Pattern.compile("ch\\.qos\\.logback:.*|org\\.slf4j:slf4j-(simple|nop|jdk14|reload4j|log4j12)"
            + "|org\\.apache\\.logging\\.log4j:log4j-(core|slf4j-impl|slf4j2-impl)");
    private static final Set<String> LOGGING_CONFIG = Set.of("logback.xml", "logback-test.xml", "log4j2.xml",
            "log4j.properties", "simplelogger.properties");

    @Test
    void theArtefactBringsJmhAndNoStoreAndNoLoggingBinding() throws IOException {
        List<Dependency> tree = parse(Files.readAllLines(Path.of(System.getProperty("caskbench.consumerTree"))));

        assertThat(tree.get(0).coordinates()).isEqualTo("io.caskbench:bench-junit");
        assertThat(tree).extracting(Dependency::coordinates).contains("org.openjdk.jmh:jmh-core");
        checkConsumerTree(tree);
    }

    @Test
    void theArtefactShipsNoLoggingConfiguration() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of(System.getProperty("caskbench.mainClasses")))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(LOGGING_CONFIG::contains);
        }
    }

    @Test
    void theCheckRefusesATreeWithAStoreOrABinding() {
        List<Dependency> leaky = parse(List.of(
                "io.caskbench:bench-jmh:jar:0.1.0-SNAPSHOT",
                "+- org.openjdk.jmh:jmh-core:jar:1.37:compile",
                "+- org.rocksdb:rocksdbjni:jar:11.8.1:compile",
                "|  \\- io.caskbench:bitcask-core:jar:0.1.0-SNAPSHOT:compile",
                "\\- ch.qos.logback:logback-classic:jar:1.6.6:compile"));

        assertThatThrownBy(() -> checkConsumerTree(leaky)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("org.rocksdb:rocksdbjni").hasMessageContaining("io.caskbench:bitcask-core")
                .hasMessageContaining("ch.qos.logback:logback-classic");
    }

    private static void checkConsumerTree(List<Dependency> tree) {
        List<Dependency> dependencies = tree.subList(1, tree.size());
        assertThat(dependencies).as("stores in the tree").noneMatch(d -> STORE.matcher(d.coordinates()).matches());
        assertThat(dependencies).as("logging bindings in the tree")
                .noneMatch(d -> LOGGING_BINDING.matcher(d.coordinates()).matches());
        assertThat(dependencies).extracting(Dependency::scope).allMatch(s -> s.equals("compile") || s.equals("runtime"));
    }

    /** The root artefact first (its scope empty), then every dependency in tree order. */
    private static List<Dependency> parse(List<String> lines) {
        List<Dependency> out = new ArrayList<>();
        for (String line : lines) {
            if (out.isEmpty()) {
                String[] root = line.trim().split(":");
                out.add(new Dependency(root[0], root[1], root[root.length - 1], ""));
                continue;
            }
            Matcher m = ARTIFACT.matcher(line);
            if (m.find()) {
                out.add(new Dependency(m.group(1), m.group(2), m.group(3), m.group(4)));
            }
        }
        assertThat(out).as("artefacts in the tree").isNotEmpty();
        return out;
    }

    /** One artefact of the tree. */
    private record Dependency(String group, String artifact, String version, String scope) {
        String coordinates() {
            return group + ":" + artifact;
        }

        @Override
        public String toString() {
            return coordinates() + ":" + version + ":" + scope;
        }
    }
}
