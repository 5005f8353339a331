package io.caskbench.bitcask;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jars a user's build receives, opened after {@code package}: the class jar names its module and is
 * multi-release, with the JDK 22 classes when the build ran on JDK 22 or newer, and the sources jar holds
 * every source file, the JDK 22 ones at the versioned path their classes have.
 */
class PackagingIT {

    private static final String VERSIONED = "META-INF/versions/22/";

    @Test
    void theClassJarNamesItsModuleAndIsMultiRelease() throws IOException {
        try (JarFile jar = new JarFile(property("caskbench.jar"))) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Automatic-Module-Name")).isEqualTo("io.caskbench.bitcask");
            assertThat(main.getValue("Multi-Release")).isEqualTo("true");
            assertThat(jar.getEntry("io/caskbench/bitcask/BitCask.class")).isNotNull();
            if (Runtime.version().feature() >= 22) {
                // Built by this JVM, so the memory-segment profile was on. (A build on 17 is not checked for
                // their absence: a tree packaged on 22 and then again on 17 without clean keeps them.)
                Set<String> versioned = sourceNames(Path.of("src/main/java22")).stream()
                        .map(s -> VERSIONED + s.replace(".java", ".class")).collect(Collectors.toSet());
                assertThat(entries(jar)).containsAll(versioned);
            }
        }
    }

    @Test
    void theSourcesJarHoldsEverySourceFileIncludingTheVersionedOnes() throws IOException {
        Set<String> expected = sourceNames(Path.of("src/main/java"));
        sourceNames(Path.of("src/main/java22")).forEach(s -> expected.add(VERSIONED + s));
        assertThat(expected).anyMatch(s -> s.startsWith(VERSIONED));

        try (JarFile jar = new JarFile(property("caskbench.sourcesJar"))) {
            Set<String> java = entries(jar).stream().filter(s -> s.endsWith(".java")).collect(Collectors.toSet());
            assertThat(java).isEqualTo(expected);
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertThat(value).as("system property %s, set by the build", name).isNotBlank();
        assertThat(Path.of(value)).as("%s, packaged before the integration tests", value).isRegularFile();
        return value;
    }

    /** The .java files under a source root, as jar entry names relative to it. */
    private static Set<String> sourceNames(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    private static Set<String> entries(JarFile jar) {
        return jar.stream().map(JarEntry::getName).collect(Collectors.toSet());
    }
}
