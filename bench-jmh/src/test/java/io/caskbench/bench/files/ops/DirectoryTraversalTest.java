package io.caskbench.bench.files.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every traversal API must see the whole tree; each checks its own count and throws otherwise. */
class DirectoryTraversalTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void everyApiCountsEveryEntry(int levels) throws IOException {
        DirectoryTraversal traversal = new DirectoryTraversal();
        traversal.filesPerLevel = 30;
        traversal.levels = levels;
        traversal.createTree();
        try {
            int expected = 30 * levels + levels - 1;
            assertThat(traversal.filesList()).isEqualTo(expected);
            assertThat(traversal.directoryStream()).isEqualTo(expected);
            assertThat(traversal.filesWalk()).isEqualTo(expected);
            assertThat(traversal.walkFileTree()).isEqualTo(expected);
            assertThat(traversal.fileListFiles()).isEqualTo(expected);
        } finally {
            traversal.deleteTree();
        }
    }
}
