package io.caskbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Progress bars appear on a terminal and nowhere else. The terminal is a pseudo-terminal that
 * util-linux {@code script} makes; without it the test is skipped.
 */
class ProgressIT {

    private static final Path SCRIPT = Path.of("/usr/bin/script");

    @TempDir
    Path tmp;

    private String onTerminal(String args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = System.getProperty("bitcask.jar", "target/bitcask.jar");
        Process p = new ProcessBuilder(SCRIPT.toString(), "-qec", "'" + java + "' -jar '" + jar + "' " + args, "/dev/null")
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void verifyDrawsABarOnATerminalUnlessToldNotTo() throws Exception {
        assumeTrue(Files.isExecutable(SCRIPT), "util-linux script is not installed");
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 300);
        String drawn = onTerminal("verify '" + dir + "'");
        assertThat(drawn).contains("verify").contains("100%").contains("\r").contains("no damage found");
        String plain = onTerminal("--no-progress verify '" + dir + "'");
        assertThat(plain).doesNotContain("100%").contains("no damage found");
    }

    @Test
    void aDumpIntoAFileStillShowsItsBarOnTheTerminal() throws Exception {
        assumeTrue(Files.isExecutable(SCRIPT), "util-linux script is not installed");
        Path dir = tmp.resolve("db");
        TestStore.build(dir, 300);
        Path file = tmp.resolve("dump.jsonl");
        String drawn = onTerminal("dump '" + dir + "' > '" + file + "'");
        assertThat(drawn).contains("dump").contains(" keys");
        assertThat(Files.readString(file)).startsWith("{\"key\":").doesNotContain("\r");
    }
}
