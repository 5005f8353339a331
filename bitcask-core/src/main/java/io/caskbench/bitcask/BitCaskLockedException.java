package io.caskbench.bitcask;

import java.nio.file.Path;

/**
 * Threading: an exception, immutable once thrown.
 *
 * <p>The directory is already open for writing by another {@link BitCask}, in this process or another.
 */
public class BitCaskLockedException extends BitCaskException {

    private static final long serialVersionUID = 1L;

    private final transient Path directory;

    /** Creates the exception for {@code directory}; {@code detail} says who holds it, when known. */
    public BitCaskLockedException(Path directory, String detail) {
        super("BitCask directory " + directory + " is locked by another store" + (detail.isEmpty() ? "" : " (" + detail + ")"));
        this.directory = directory;
    }

    /** The locked directory. */
    public Path directory() {
        return directory;
    }
}
