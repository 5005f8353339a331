package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's non-JMH parts end to end at smoke size: C anchors (when gcc is there) and messaging
 * write JMH-schema JSON and the ratio tables. The JMH part is JmhSmokeTest's.
 */
class ShmMainSmokeTest {

    @Test
    void writesResultFilesAndTables(@TempDir Path results) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        String table = ShmMain.run(results, Profile.SMOKE, "", "", Set.of("c", "msg"),
                new PrintStream(log, true, StandardCharsets.UTF_8));

        String messaging = Files.readString(results.resolve("shm-messaging.json"));
        assertThat(messaging).startsWith("[").contains("io.caskbench.shm.msg.Messaging.roundTrip",
                "io.caskbench.shm.msg.Messaging.oneWay", "\"scorePercentiles\"", "\"transport\" : \"udp\"");
        assertThat(table).contains("Random 1-byte write", "Clear whole region", "Messaging");
        // The headings are always printed; a filled messaging row proves the table read the results.
        assertThat(table).containsPattern("(?m)^java +64 +\\d");
        if (NativeBuild.get().available()) {
            assertThat(table).as("C column of the ratio table").containsPattern("(?m)^disk file, mapped +\\d");
            assertThat(Files.readString(results.resolve("shm-c.json")))
                    .contains("io.caskbench.shm.c.RegionAnchor.clear", "\"backing\" : \"shmget\"");
            assertThat(messaging).contains("\"peer\" : \"c\"");
        } else {
            assertThat(log.toString(StandardCharsets.UTF_8)).contains("SKIPPED");
        }
        assertThat(results.resolve("shm-ratios.txt")).exists();
    }
}
