package io.caskbench.bitcask;

import io.caskbench.bitcask.io.MemorySegmentSupport;
import io.caskbench.bitcask.testing.Backends;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link Backend#MEMORY_SEGMENT} is there exactly when the JVM is 22 or newer and the store's JDK 22
 * classes are loaded, and is refused, saying why, everywhere else.
 */
class MemorySegmentAvailabilityTest {

    @TempDir
    Path dir;

    @Test
    @EnabledForJreRange(max = JRE.JAVA_21)
    void beforeJdk22ChoosingItThrowsNamingTheJdkItNeeds() {
        String expected = "MEMORY_SEGMENT needs JDK 22 or newer; this is JDK " + Runtime.version().feature();
        assertThat(Backend.MEMORY_SEGMENT.available()).isFalse();
        assertThatThrownBy(() -> BitCaskOptions.builder().backend(Backend.MEMORY_SEGMENT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(expected);
        assertThatThrownBy(Backend.MEMORY_SEGMENT::create)
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(expected);
        assertThat(Backends.available()).containsExactly(Backend.MAPPED, Backend.FILE_CHANNEL);
        assertThat(Backend.defaultBackend()).isEqualTo(Backend.MAPPED);
        assertThat(BitCaskOptions.defaults().backend()).isEqualTo(Backend.MAPPED);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_22)
    void fromJdk22OnTheBackendIsThereAndAStoreRunsOnIt() {
        assertThat(Backend.MEMORY_SEGMENT.available()).isTrue();
        assertThat(Backends.available()).containsExactly(Backend.values());
        assertThat(Backend.MEMORY_SEGMENT.create().getClass().getSimpleName()).isEqualTo("MemorySegmentBackend");
        assertThat(Backend.defaultBackend()).isEqualTo(Backend.MEMORY_SEGMENT);
        assertThat(BitCaskOptions.defaults().backend()).isEqualTo(Backend.MEMORY_SEGMENT);
        BitCaskOptions o = BitCaskOptions.builder().backend(Backend.MEMORY_SEGMENT).segmentSize(64 << 10).build();
        try (BitCask db = BitCask.open(dir, o)) {
            for (int i = 0; i < 500; i++) {
                db.put("k" + i, new byte[]{(byte) i});
            }
            assertThat(db.get("k499")).containsExactly((byte) 499);
        }
        try (BitCask db = BitCask.open(dir, o)) {
            assertThat(db.get("k7")).containsExactly((byte) 7);
        }
    }

    /**
     * A bitcask-core built on JDK 17 has only the refusing class, and so has any class path that
     * reads the classes from a directory: on a new JVM its message must say that the build, not the
     * JVM, lacks the backend.
     */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_22)
    void onJdk22AStoreBuiltWithoutTheJdk22ClassesSaysSo() throws Exception {
        URL baseClasses = Backend.class.getProtectionDomain().getCodeSource().getLocation();
        assumeTrue(baseClasses.getPath().endsWith("/"), "the base classes come from a directory, not a jar");
        try (URLClassLoader base = new URLClassLoader(new URL[]{baseClasses}, ClassLoader.getPlatformClassLoader())) {
            Class<?> refusing = base.loadClass(MemorySegmentSupport.class.getName());
            assertThat(refusing.getMethod("available").invoke(null)).isEqualTo(false);
            assertThatThrownBy(() -> invoke(refusing, "requireAvailable"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("this is JDK " + Runtime.version().feature())
                    .hasMessageContaining("this build of bitcask-core has no JDK 22 classes");
        }
    }

    private static void invoke(Class<?> type, String method) throws Throwable {
        try {
            type.getMethod(method).invoke(null);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
