package io.caskbench.bitcask;

/**
 * Threading: an exception, immutable once thrown.
 *
 * <p>A write was attempted on a store opened with {@link BitCaskOptions.Builder#readOnly(boolean)}.
 */
public class BitCaskReadOnlyException extends BitCaskException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception for the store in {@code directory}. */
    public BitCaskReadOnlyException(String directory) {
        super("BitCask store " + directory + " was opened read-only");
    }
}
