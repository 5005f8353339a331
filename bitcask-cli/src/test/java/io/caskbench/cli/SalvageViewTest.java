package io.caskbench.cli;

import io.caskbench.bitcask.VerifyReport;
import io.caskbench.bitcask.VerifyReport.HintState;
import io.caskbench.bitcask.VerifyReport.SegmentReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The links of a salvage view, on a report made by hand over plain files. */
class SalvageViewTest {

    @TempDir
    Path store;

    @Test
    void linksEveryDataFileAndOnlyUsableHintsAndDeletesOnlyTheLinks() throws IOException {
        for (String name : List.of("000000001.data", "000000001.hint", "000000002.data", "000000002.hint",
                "000000003.data", "000000003.hint")) {
            Files.writeString(store.resolve(name), name);
        }
        VerifyReport report = new VerifyReport(store, VerifyReport.Depth.RECORDS, 2, false, List.of(
                new SegmentReport(1, store.resolve("000000001.data"), 14, 2, false, 1, 14, HintState.USABLE, 14),
                new SegmentReport(2, store.resolve("000000002.data"), 14, 2, false, 1, 14, HintState.WRONG, 0),
                new SegmentReport(3, store.resolve("000000003.data"), 14, 2, true, 1, 14, HintState.UNUSABLE, 0)),
                List.of(), 0);

        Path dir;
        try (SalvageView view = SalvageView.of(report)) {
            dir = view.directory();
            assertThat(dir).isNotEqualTo(store);
            try (Stream<Path> links = Files.list(dir)) {
                assertThat(links.map(p -> p.getFileName().toString()))
                        .containsExactlyInAnyOrder("000000001.data", "000000001.hint", "000000002.data", "000000003.data");
            }
            assertThat(Files.isSymbolicLink(dir.resolve("000000002.data"))).isTrue();
            assertThat(Files.readString(dir.resolve("000000002.data"))).isEqualTo("000000002.data");
            view.close(); // twice: close is idempotent
        }
        assertThat(dir).doesNotExist();
        try (Stream<Path> files = Files.list(store)) {
            assertThat(files).as("the store's own files are left").hasSize(6);
        }
    }
}
