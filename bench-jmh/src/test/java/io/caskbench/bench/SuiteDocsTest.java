package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The suites' block of docs/benchmarks.md is exactly what the suite definitions generate, so the page can
 * never describe runs the suites do not make. With {@code -Dcaskbench.writeDocs=true} the test rewrites the
 * block instead of failing.
 */
class SuiteDocsTest {

    /** The page, from the module's folder (where the build runs its tests). */
    private static final Path PAGE = Path.of("..", "docs", "benchmarks.md");

    @Test
    void theSuiteListOfTheDocsIsWhatTheSuitesRun() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String generated = SuiteDocs.render(BenchMain.suites().values());
        if (Boolean.getBoolean("caskbench.writeDocs")) {
            Files.writeString(PAGE, SuiteDocs.replace(page, generated), StandardCharsets.UTF_8);
            return;
        }
        assertThat(SuiteDocs.block(page)).as("docs/benchmarks.md's suite list has drifted from the suites; rerun"
                + " this test with -Dcaskbench.writeDocs=true and commit the page").isEqualTo(generated);
    }

    @Test
    void theBlockCountsEveryRowOfTheDefaultSuite() {
        String generated = SuiteDocs.render(BenchMain.suites().values());
        assertThat(generated).startsWith(SuiteDocs.BEGIN).endsWith(SuiteDocs.END)
                .contains("| `store` (default) | nothing | 2, 20, 3 |")
                .contains("| `threads` | `-Dcaskbench.suites=threads` |")
                .contains("1. `PeersSingleThread.get`: 10 rows (keyCount 1000000; order RANDOM; prefilled false; store BITCASK_MAPPED,"
                        + " BITCASK_FILE_CHANNEL, ROCKSDB, LMDB, CHRONICLE_MAP, MAPDB, H2_MVSTORE, CONCURRENT_HASH_MAP,")
                .doesNotContain("MEMORY_SEGMENT,", "MEMORY_SEGMENT)");
    }

    @Test
    void replacingTheBlockKeepsTheRestOfThePage() {
        String page = "before\n" + SuiteDocs.BEGIN + "\nold\n" + SuiteDocs.END + "\nafter\n";
        assertThat(SuiteDocs.replace(page, SuiteDocs.BEGIN + "\nnew\n" + SuiteDocs.END))
                .isEqualTo("before\n" + SuiteDocs.BEGIN + "\nnew\n" + SuiteDocs.END + "\nafter\n");
    }
}
