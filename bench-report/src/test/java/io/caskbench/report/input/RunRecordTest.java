package io.caskbench.report.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The recorded command must reproduce a run: its results option names the root the run folder was made in. */
class RunRecordTest {

    @Test
    void aRunFolderIsRecordedAsTheRootItWasMadeIn() throws IOException {
        Path cwd = Path.of("").toAbsolutePath();
        Path root = Files.createTempDirectory(Files.createDirectories(cwd.resolve("target")), "results-");
        Path run = RunFolders.create(root, "store");

        assertThat(RunRecord.resultsOption(run)).isEqualTo(" -Dcaskbench.results=" + cwd.relativize(root));
        // A folder that is not a run of a root is taken as it is.
        Path plain = Files.createDirectories(
                Files.createTempDirectory(cwd.resolve("target"), "flat-").resolve("results"));
        assertThat(RunRecord.resultsOption(plain)).isEqualTo(" -Dcaskbench.results=" + cwd.relativize(plain));
    }
}
