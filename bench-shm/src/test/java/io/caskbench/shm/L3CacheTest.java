package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The large region is at least eight times the L3 read from sysfs. */
class L3CacheTest {

    @Test
    void readsTheLevelThreeCacheFromSysfs(@TempDir Path caches) throws Exception {
        write(caches.resolve("index0"), "1", "32K");
        write(caches.resolve("index2"), "2", "512K");
        write(caches.resolve("index3"), "3", "32768K");
        assertThat(L3Cache.bytes(caches)).hasValue(32L << 20);
        assertThat(L3Cache.bytes(caches.resolve("absent"))).isEmpty();
    }

    @Test
    void theLargeRegionIsAPowerOfTwoAtLeastEightTimesTheL3() {
        assertThat(L3Cache.largeRegion(OptionalLong.of(32L << 20))).isEqualTo("256MiB");
        assertThat(L3Cache.largeRegion(OptionalLong.of(12L << 20))).isEqualTo("128MiB");
        assertThat(L3Cache.largeRegion(OptionalLong.of(512L << 20))).isEqualTo("1GiB");
        assertThat(L3Cache.largeRegion(OptionalLong.empty())).isEqualTo("1GiB");
        assertThat(RegionSize.parse(L3Cache.largeRegion(L3Cache.bytes()))).isPositive();
        assertThat(Profile.QUICK.regions()).startsWith("64KiB", "64MiB").hasSizeBetween(2, 3);
    }

    private static void write(Path index, String level, String size) throws Exception {
        Files.createDirectories(index);
        Files.writeString(index.resolve("level"), level + "\n");
        Files.writeString(index.resolve("size"), size + "\n");
    }
}
