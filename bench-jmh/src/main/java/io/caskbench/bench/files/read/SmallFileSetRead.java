package io.caskbench.bench.files.read;

import io.caskbench.bench.files.fixture.Workspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Param;

/**
 * The phone experiment's first set: many small files (800 of 1-4 KiB, about 2 MB in all). Exists because for
 * small files the per-file costs (open, close, map, unmap) dominate the copying; the readers'
 * fixed costs are what this set compares.
 */
public class SmallFileSetRead extends WholeFileReadBenchmark {

    /** Smallest file, as in the seed. */
    public static final int MIN_SIZE = 1024;
    /** Largest file, as in the seed. */
    public static final int MAX_SIZE = 4096;

    /** Number of files; the seed used 800. */
    @Param("800")
    public int fileCount;

    /** For JMH. */
    public SmallFileSetRead() {
    }

    @Override
    protected List<Path> createFiles(Path dir) {
        SplittableRandom sizes = new SplittableRandom(fileCount);
        List<Path> files = new ArrayList<>(fileCount);
        for (int i = 0; i < fileCount; i++) {
            int size = sizes.nextInt(MIN_SIZE, MAX_SIZE + 1);
            files.add(Workspace.writeRandomFile(dir.resolve("small-" + i + ".bin"), size, i));
        }
        return files;
    }
}
