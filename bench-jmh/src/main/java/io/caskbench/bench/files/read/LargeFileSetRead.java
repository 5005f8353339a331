package io.caskbench.bench.files.read;

import io.caskbench.bench.files.fixture.Workspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Param;

/**
 * The phone experiment's second set: a few large files (7 files, sizes spread evenly from 45% of the largest
 * to the largest). The seed's largest was 94 MB (42.6-93.8 MB, 443 MB in all). Exists because for
 * large files the per-byte costs (copies, page faults, read-ahead) dominate, the opposite regime
 * of {@link SmallFileSetRead}.
 */
public class LargeFileSetRead extends WholeFileReadBenchmark {

    /** Number of files in the set, as in the seed. */
    public static final int FILE_COUNT = 7;
    /** Smallest file as a fraction of the largest: 42.63 / 93.76 in the seed. */
    public static final double SMALLEST_FRACTION = 0.4547;

    /** Size of the largest file in MiB; 94 reproduces the seed, the quick profile uses less. */
    @Param("94")
    public int largestMb;

    /** For JMH. */
    public LargeFileSetRead() {
    }

    @Override
    protected List<Path> createFiles(Path dir) {
        long largest = largestMb * (1L << 20);
        long smallest = (long) (largest * SMALLEST_FRACTION);
        List<Path> files = new ArrayList<>(FILE_COUNT);
        for (int i = 0; i < FILE_COUNT; i++) {
            long size = smallest + (largest - smallest) * i / (FILE_COUNT - 1);
            files.add(Workspace.writeRandomFile(dir.resolve("large-" + i + ".bin"), size, 1000 + i));
        }
        return files;
    }
}
