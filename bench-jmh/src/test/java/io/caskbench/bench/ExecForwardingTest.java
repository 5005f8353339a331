package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn -pl bench-jmh exec:exec} starts BenchMain in a JVM of its own, which sees only the
 * properties the POM hands on: every {@code caskbench.*} property the benchmark code reads must be among
 * them, or a documented option is silently ignored.
 */
class ExecForwardingTest {

    private static final Pattern READ = Pattern.compile(
            "(?:getProperty|getLong|getInteger|getBoolean)\\(\\s*\"(caskbench\\.[A-Za-z.]+)\"");

    @Test
    void execExecForwardsEveryCaskbenchPropertyTheCodeReads() throws IOException {
        Set<String> read = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = READ.matcher(Files.readString(source));
                while (m.find()) {
                    read.add(m.group(1));
                }
            }
        }
        assertThat(read).as("properties the code reads").contains("caskbench.suites", "caskbench.results",
                "caskbench.data", "caskbench.gangLimitSeconds");

        String commandLine = execCommandLine();
        for (String property : read) {
            assertThat(commandLine).as("exec:exec forwards %s", property)
                    .contains("\"-D" + property + "=${" + property + "}\"");
        }
        assertThat(commandLine).as("JMH arguments come after the main class")
                .endsWith("io.caskbench.bench.BenchMain ${exec.args}");
    }

    private static String execCommandLine() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher m = Pattern.compile("<commandlineArgs>([^<]*)</commandlineArgs>").matcher(pom);
        assertThat(m.find()).as("bench-jmh/pom.xml configures exec:exec's command line").isTrue();
        return m.group(1).trim();
    }
}
