package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code exec:exec} starts ShmMain in a JVM of its own, which sees only the {@code -D} arguments the
 * POM lists; a {@code caskbench.*} option the code reads but the POM leaves out would be ignored without
 * a word when typed on the Maven command line.
 */
class ExecArgumentsTest {

    private static final Pattern PROPERTY_READ = Pattern.compile("getProperty\\(\\s*\"(caskbench\\.[A-Za-z.]+)\"");
    private static final Pattern ARGUMENT = Pattern.compile("<argument>-D(caskbench\\.[A-Za-z.]+)=\\$\\{\\1}</argument>");

    @Test
    void everyOptionTheCodeReadsIsHandedToShmMain() throws IOException {
        Set<String> read = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                PROPERTY_READ.matcher(Files.readString(f)).results().forEach(m -> read.add(m.group(1)));
            }
        }
        assertThat(read).as("options the code reads").contains("caskbench.profile", "caskbench.shm.diskDir",
                "caskbench.shm.cc");

        String pom = Files.readString(Path.of("pom.xml"));
        List<String> forwarded = ARGUMENT.matcher(pom).results().map(m -> m.group(1)).toList();
        assertThat(forwarded).containsAll(read);
        // a path or a compiler must arrive as its default when nobody sets it, never as ""
        for (String p : forwarded) {
            if (p.startsWith("caskbench.shm.")) {
                assertThat(pom).as("default of %s", p).containsPattern("<" + Pattern.quote(p) + ">[^<]");
            }
        }
    }
}
