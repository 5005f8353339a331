package io.caskbench.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Maven loads the guard from a jar kept in the repository (it must exist before any build). These tests
 * fail when that jar no longer matches the sources beside it.
 */
class CommittedJarTest {

    private static final String REBUILD = "rebuild it: ./mvnw -B -pl build-guard package -DskipTests"
            + " && cp build-guard/target/build-guard.jar .mvn/ext/build-guard.jar";

    private final Path committed = Paths.get(System.getProperty("build-guard.committedJar"));
    private final Path classes = Paths.get("target", "classes");

    @Test
    void theMavenConfigLoadsTheCommittedJar() throws IOException {
        Path config = Paths.get(System.getProperty("build-guard.root"), ".mvn", "maven.config");
        assertThat(Files.readString(config)).contains("-Dmaven.ext.class.path=.mvn/ext/build-guard.jar");
        assertThat(committed).isRegularFile();
    }

    @Test
    void theCommittedJarHoldsExactlyTheCompiledFiles() throws IOException {
        assertThat(jarEntries().keySet()).as(REBUILD).isEqualTo(compiledFiles().keySet());
    }

    @Test
    void theCommittedJarsClassesAreTheOnesTheseSourcesCompileTo() throws IOException {
        try (JarFile jar = new JarFile(committed.toFile())) {
            String builtBy = jar.getManifest().getMainAttributes().getValue("Build-Jdk-Spec");
            // javac of another release may lay out the same class differently, so bytes compare only there.
            assumeTrue(String.valueOf(Runtime.version().feature()).equals(builtBy),
                    "the committed jar was built by JDK " + builtBy);
        }
        Map<String, byte[]> inJar = jarEntries();
        compiledFiles().forEach((name, bytes) ->
                assertThat(inJar.get(name)).as(name + " differs from the committed jar; " + REBUILD).isEqualTo(bytes));
    }

    private Map<String, byte[]> jarEntries() throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        try (JarFile jar = new JarFile(committed.toFile())) {
            for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                String name = entry.getName();
                if (!entry.isDirectory() && !name.startsWith("META-INF/maven/") && !name.equals("META-INF/MANIFEST.MF")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        entries.put(name, in.readAllBytes());
                    }
                }
            }
        }
        return entries;
    }

    private Map<String, byte[]> compiledFiles() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                files.put(classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        }
        return files;
    }
}
