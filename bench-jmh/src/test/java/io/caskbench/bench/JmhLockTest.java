package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner looks at JMH's lock before it starts: a lock another process holds is named in one line with
 * that process and what to do; a free one, or one the run was told to ignore, lets it go on.
 */
class JmhLockTest {

    @Test
    void aFreeLockOrAnIgnoredOneLetsTheRunGoOn(@TempDir Path dir) {
        Path lock = dir.resolve("jmh.lock");
        assertThat(JmhLock.heldElsewhere(lock, false)).isEmpty();
        assertThat(JmhLock.heldElsewhere(lock, true)).isEmpty();
    }

    @Test
    void aLockAnotherProcessHoldsIsNamedWithItsProcess(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/locks")), "needs Linux's /proc/locks");
        Path lock = dir.resolve("jmh.lock");
        // A JVM of its own takes the lock as JMH does (a POSIX record lock, which flock(1) would not be).
        Path source = Files.writeString(dir.resolve("Holder.java"), String.join("\n",
                "import java.nio.channels.FileChannel;",
                "import java.nio.file.*;",
                "public class Holder {",
                "    public static void main(String[] a) throws Exception {",
                "        FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);",
                "        ch.lock();",
                "        Thread.sleep(60_000);",
                "    }",
                "}"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, source.toString(), lock.toString()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (JmhLock.holder(lock).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(JmhLock.heldElsewhere(lock, false)).hasValueSatisfying(why -> assertThat(why)
                    .startsWith("another JMH run holds " + lock + " (process ")
                    .contains("-Djmh.ignoreLock=true"));
            assertThat(JmhLock.heldElsewhere(lock, true)).as("told to ignore it").isEmpty();
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }
}
