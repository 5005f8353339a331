package io.caskbench.report.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every published block of this checkout (README.md, docs/*.md) is regenerated from the committed run it
 * names under docs/runs and must equal what is published; a block without a committed run must be the
 * marked placeholder.
 */
class PublishedDocsTest {

    @Test
    void everyPublishedBlockIsWhatItsCommittedRunGives() {
        Path root = checkout();
        PublishedBlocks.Outcome outcome = PublishedBlocks.check(root);

        assertThat(outcome.problems()).as(outcome.summary()).isEmpty();
        assertThat(outcome.generated() + outcome.placeholders()).as("blocks found in " + root).isPositive();
    }

    /** The checkout's root: the nearest folder above the module that holds the Maven wrapper and docs/. */
    static Path checkout() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("no checkout root above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }
}
