package io.caskbench.examples.service;

import io.caskbench.bitcask.BitCaskOptions;
import io.caskbench.bitcask.ProtostuffCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ObjectStoreTest {

    private static final Instant T = Instant.parse("2026-01-02T03:04:05.678Z");

    @TempDir
    Path dir;

    private static ObjectMeta meta(String bucket, String key) {
        return new ObjectMeta(bucket, key, 42, "9e107d9d372bb6826bd81d3542a419d6", "image/png", T, Map.of("owner", "alice"));
    }

    @Test
    void protostuffRoundTripKeepsEveryField() {
        ProtostuffCodec<ObjectMeta> codec = ProtostuffCodec.of(ObjectMeta.class);
        ObjectMeta full = new ObjectMeta("b", "ключ/κλειδί.png", Long.MAX_VALUE, "00", "a/b", T, Map.of("x", "1", "y", ""));
        ObjectMeta bare = new ObjectMeta("b", "k", 0, "00", "a/b", Instant.EPOCH, Map.of());

        assertThat(codec.decode(codec.encode(full))).isEqualTo(full);
        assertThat(codec.decode(codec.encode(full)).userMetadata()).containsEntry("y", "");
        assertThat(codec.decode(codec.encode(bare))).isEqualTo(bare);
        assertThat(codec.decode(codec.encode(bare)).userMetadata()).isEmpty();
        assertThat(codec.decode(codec.encode(full)).created()).isEqualTo(T);
    }

    @Test
    void putGetDeleteAndTheCreatedFlag() {
        try (ObjectStore store = ObjectStore.open(dir, BitCaskOptions.defaults())) {
            assertThat(store.put(meta("photos", "a.png"))).isTrue();
            assertThat(store.put(meta("photos", "a.png"))).isFalse();
            assertThat(store.get("photos", "a.png")).isEqualTo(meta("photos", "a.png"));
            assertThat(store.get("other", "a.png")).isNull();
            assertThat(store.delete("photos", "a.png")).isTrue();
            assertThat(store.delete("photos", "a.png")).isFalse();
            assertThat(store.get("photos", "a.png")).isNull();
        }
    }

    @Test
    void listingIsPerBucketSortedAndLimited() {
        try (ObjectStore store = ObjectStore.open(dir, BitCaskOptions.defaults())) {
            for (String key : new String[] {"c", "a/2", "a/1", "b", "a/3"}) {
                store.put(meta("photos", key));
            }
            store.put(meta("photos2", "a/0"));   // its store key starts with "photos" too, but not "photos/"

            assertThat(store.list("photos", "a/", 10).objects()).extracting(ObjectMeta::key).containsExactly("a/1", "a/2", "a/3");
            ObjectStore.Listing page = store.list("photos", "", 2);
            assertThat(page.objects()).extracting(ObjectMeta::key).containsExactly("a/1", "a/2");
            assertThat(page.truncated()).isTrue();
            assertThat(store.list("photos", "", 5).truncated()).isFalse();
            assertThat(store.list("photos2", "", 5).objects()).extracting(ObjectMeta::key).containsExactly("a/0");
        }
    }

    @Test
    void storeKeyPutsTheBucketFirst() {
        assertThat(ObjectStore.storeKey("photos", "2024/a.png")).isEqualTo("photos/2024/a.png");
    }
}
