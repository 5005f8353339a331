package io.caskbench.report.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The peer table in {@code docs/store.md} names the versions the parent POM pins, so a version bump that
 * forgets the docs fails the build instead of leaving them behind.
 */
class PeerVersionsTest {

    @Test
    void thePeerTableNamesTheVersionsThePomPins() throws IOException {
        Path root = PublishedDocsTest.checkout();
        String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);
        String page = Files.readString(root.resolve("docs/store.md"), StandardCharsets.UTF_8);
        Map<String, String> labelByProperty = new LinkedHashMap<>();
        labelByProperty.put("rocksdb.version", "| RocksDB %s |");
        labelByProperty.put("lmdbjava.version", "| LMDB (lmdbjava %s) |");
        labelByProperty.put("chronicle-map.version", "| Chronicle Map %s |");
        labelByProperty.put("mapdb.version", "| MapDB %s `HTreeMap` |");
        labelByProperty.put("h2.version", "| H2 MVStore %s |");
        labelByProperty.forEach((property, label) -> {
            Matcher m = Pattern.compile("<" + Pattern.quote(property) + ">([^<]+)</").matcher(pom);
            assertThat(m.find()).as("the parent POM pins %s", property).isTrue();
            assertThat(page).as("docs/store.md's peer table, for %s", property).contains(String.format(label, m.group(1)));
        });
    }
}
