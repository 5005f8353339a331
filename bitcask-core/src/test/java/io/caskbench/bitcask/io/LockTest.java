package io.caskbench.bitcask.io;

import io.caskbench.bitcask.BitCask;
import io.caskbench.bitcask.BitCaskLockedException;
import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.LockHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The directory lock holds across processes, and is released by close and by process death. */
class LockTest {

    @TempDir
    Path dir;

    @Test
    void anotherProcessCannotOpenAnOpenStore() throws Exception {
        try (BitCask db = BitCask.open(dir)) {
            db.put("k", new byte[]{1});
            Process child = ChildJvm.start(LockHolder.class, dir.toString(), "try");
            try (BufferedReader out = ChildJvm.stdout(child)) {
                String line = out.readLine();
                assertThat(line).startsWith("LOCKED").contains(dir.toAbsolutePath().toString()).contains("pid");
            }
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void thisProcessCannotOpenAStoreHeldByAnotherAndCanOnceItDies() throws Exception {
        Process child = ChildJvm.start(LockHolder.class, dir.toString(), "hold");
        try (BufferedReader out = ChildJvm.stdout(child)) {
            assertThat(out.readLine()).isEqualTo("OPENED");
            assertThatThrownBy(() -> BitCask.open(dir))
                    .isInstanceOf(BitCaskLockedException.class)
                    .hasMessageContaining(dir.toAbsolutePath().toString())
                    .hasMessageContaining("pid " + child.pid());
            ChildJvm.kill(child);
        }
        try (BitCask db = BitCask.open(dir)) {
            db.put("mine", new byte[]{2});
        }
    }
}
