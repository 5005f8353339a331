package io.caskbench.bitcask;

import io.caskbench.bitcask.testing.ChildJvm;
import io.caskbench.bitcask.testing.StoreRoundTrip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an application embedding the store prints on its own: JDK 24 and newer warn once per process
 * when {@code sun.misc.Unsafe}'s memory methods are called, which {@code MAPPED} does to release a
 * mapping. Each test runs a store's whole life in a child JVM and reads everything it printed.
 */
class UnsafeWarningTest {

    private static final String WARNING = "sun.misc.Unsafe";

    @TempDir
    Path dir;

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22)
    void aStoreOnMemorySegmentsPrintsNoJdkWarning() throws Exception {
        String printed = ChildJvm.run(StoreRoundTrip.class, 120, dir.toString(), Backend.MEMORY_SEGMENT.name());
        assertThat(printed).contains("DONE").doesNotContain(WARNING).doesNotContainIgnoringCase("deprecat");
    }

    /** The contrast that shows the probe above can see the warning at all. */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_24)
    void aStoreOnMappedBuffersMakesJdk24AndNewerWarn() throws Exception {
        String printed = ChildJvm.run(StoreRoundTrip.class, 120, dir.toString(), Backend.MAPPED.name());
        assertThat(printed).contains("DONE").contains(WARNING + "::invokeCleaner");
    }
}
