package io.caskbench.report.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFoldersTest {

    private static final Clock AT = Clock.fixed(Instant.parse("2026-11-22T14:05:33Z"), ZoneOffset.UTC);

    @TempDir
    Path root;

    @Test
    void everyRunGetsItsOwnFolderAndLatestFollows() throws IOException {
        Path first = RunFolders.create(root, "store", AT);
        Files.writeString(first.resolve("store.json"), "[]");
        assertThat(first.getFileName()).hasToString("2026-11-22T14-05-33-store");
        assertThat(RunFolders.latest(root)).contains(first);

        Path second = RunFolders.create(root, "store", AT);
        assertThat(second.getFileName()).as("same second, new folder").hasToString("2026-11-22T14-05-33-store-2");
        assertThat(RunFolders.latest(root)).contains(second);
        assertThat(first.resolve("store.json")).as("the earlier run is untouched").hasContent("[]");
        assertThat(Files.isSymbolicLink(root.resolve(RunFolders.LATEST))).isTrue();
        assertThat(Files.readSymbolicLink(root.resolve(RunFolders.LATEST))).as("relative, so the root can move")
                .isEqualTo(Path.of("2026-11-22T14-05-33-store-2"));
        try (var entries = Files.list(root)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("2026-11-22T14-05-33-store", "2026-11-22T14-05-33-store-2", "latest");
        }
    }

    @Test
    void labelsBecomeFileNameCharacters() {
        assertThat(RunFolders.create(root, "Store+Files", AT).getFileName()).hasToString("2026-11-22T14-05-33-store+files");
        assertThat(RunFolders.create(root, "a b/c", AT).getFileName()).hasToString("2026-11-22T14-05-33-a_b_c");
        assertThat(RunFolders.create(root, "", AT).getFileName()).hasToString("2026-11-22T14-05-33");
    }

    @Test
    void aLatestFileServesWhereLinksAreNotPossible() throws IOException {
        Path run = Files.createDirectories(root.resolve("2026-01-01T00-00-00-shm"));
        Files.writeString(root.resolve(RunFolders.LATEST), "2026-01-01T00-00-00-shm\n");
        assertThat(RunFolders.latest(root)).contains(run);
        assertThat(RunFolders.resolve(root)).isEqualTo(run);
        // the next run replaces the file with a link
        Path next = RunFolders.create(root, "shm", AT);
        assertThat(RunFolders.latest(root)).contains(next);
    }

    @Test
    void resolveLeavesRunFoldersFilesAndOldFlatFoldersAlone() throws IOException {
        Path run = RunFolders.create(root, "store", AT);
        Path json = Files.writeString(run.resolve("store.json"), "[]");
        assertThat(RunFolders.resolve(root)).isEqualTo(run);
        assertThat(RunFolders.resolve(run)).isEqualTo(run);
        assertThat(RunFolders.resolve(json)).isEqualTo(json);
        Path flat = Files.createDirectories(root.resolveSibling("flat"));
        assertThat(RunFolders.latest(flat)).isEmpty();
        assertThat(RunFolders.resolve(flat)).isEqualTo(flat);
    }

    @Test
    void aRealLatestFolderIsNotReplaced() throws IOException {
        Files.createDirectories(root.resolve(RunFolders.LATEST).resolve("inside"));
        assertThatThrownBy(() -> RunFolders.create(root, "store", AT)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot create a run folder").cause().hasMessageContaining("move it away");
    }

    @Test
    void anUnpointedRunLeavesLatestAloneUntilPointed() {
        Path first = RunFolders.create(root, "store", AT);
        Path second = RunFolders.createUnpointed(root, "store", AT);
        assertThat(second).isDirectory().isNotEqualTo(first);
        assertThat(RunFolders.latest(root)).contains(first);
        RunFolders.point(root, second);
        assertThat(RunFolders.latest(root)).contains(second);
    }

    @Test
    void aPartialFileMarksARunUntilItIsRemoved() throws IOException {
        Path run = RunFolders.create(root, "store", AT);
        assertThat(RunFolders.partial(run)).isEmpty();
        Files.writeString(run.resolve(RunFolders.PARTIAL), "interrupted after 2 of 9 runs\n");
        assertThat(RunFolders.partial(run)).contains("interrupted after 2 of 9 runs");
    }
}
