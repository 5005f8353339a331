package io.caskbench.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real Maven, through the repository's own {@code mvnw} and {@code .mvn/}, on a copy of the
 * project's POMs: a fresh clone as far as Maven can tell. The copy gets a version nobody installed, so a
 * developer's local repository cannot make the fresh clone look built.
 */
class ShortFormTest {

    private static final String VERSION = "0.0.0-fresh-clone";
    private static final String REFUSAL = "This command cannot run yet";

    private final Path root = Paths.get(System.getProperty("build-guard.root"));
    @TempDir
    Path clone;

    @BeforeEach
    void copyTheBuildWithoutItsSources() throws IOException {
        assumeTrue(Files.isExecutable(root.resolve("mvnw")), "needs the POSIX mvnw script");
        String rootPom = Files.readString(root.resolve("pom.xml"));
        copyPom(root.resolve("pom.xml"), clone.resolve("pom.xml"));
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(rootPom);
        while (module.find()) {
            copyPom(root.resolve(module.group(1)).resolve("pom.xml"), clone.resolve(module.group(1)).resolve("pom.xml"));
        }
        try (Stream<Path> walk = Files.walk(root.resolve(".mvn"))) {
            for (Path from : (Iterable<Path>) walk::iterator) {
                Path to = clone.resolve(root.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
        Files.copy(root.resolve("mvnw"), clone.resolve("mvnw"));
    }

    @Test
    void theShortFormFromAFreshClonePrintsTheCommandThatWorks() throws Exception {
        Run run = maven(clone, "./mvnw", "-pl", "bench-jmh", "exec:exec", "-Dcaskbench.suites=files");
        assertThat(run.exit).as(run.output).isEqualTo(1);
        assertThat(run.output)
                .contains(REFUSAL)
                .contains("bench-jmh needs bitcask-core")
                .contains("bench-jmh is not compiled")
                .contains("./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests")
                .contains("-Dcaskbench.suites=files")
                .doesNotContain("Could not resolve dependencies");
    }

    @Test
    void onceEverythingIsBuiltTheGuardStandsAside() throws Exception {
        Files.createDirectories(clone.resolve("bench-jmh/target/classes"));
        Path repo = clone.resolve("repo");
        for (String module : List.of("bitcask-core", "bench-report", "bench-junit")) {
            Path jar = repo.resolve("io/caskbench/" + module + "/" + VERSION + "/" + module + "-" + VERSION + ".jar");
            Files.createDirectories(jar.getParent());
            Files.write(jar, new byte[0]);
        }
        // Maven may still fail afterwards (the jars are empty), but never with the guard's words.
        Run run = maven(clone, "./mvnw", "-pl", "bench-jmh", "exec:help");
        assertThat(run.output).doesNotContain(REFUSAL);
        run = maven(clone, "./mvnw", "-pl", "bench-jmh", "validate", "-Denforcer.skip=true");
        assertThat(run.output).doesNotContain(REFUSAL);
    }

    private Run maven(Path directory, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(command));
        line.addAll(List.of("-B", "-o",
                "-Dmaven.repo.local=" + directory.resolve("repo"),
                "-Dmaven.repo.local.tail=" + System.getProperty("build-guard.localRepository")));
        Process process = new ProcessBuilder(line).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static void copyPom(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.writeString(to, Files.readString(from).replace("0.1.0-SNAPSHOT", VERSION));
    }

    private record Run(int exit, String output) {
    }
}
