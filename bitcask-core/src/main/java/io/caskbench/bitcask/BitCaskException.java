package io.caskbench.bitcask;

/**
 * Threading: an exception, immutable once thrown.
 *
 * <p>Root of every failure the store reports that is not a caller's mistake: I/O errors, a full
 * disk, corrupt files, a locked directory. Unchecked, like every exception of this API.
 */
public class BitCaskException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates an exception with a message that names the file or directory involved. */
    public BitCaskException(String message) {
        super(message);
    }

    /** Creates an exception with a message and the I/O failure behind it. */
    public BitCaskException(String message, Throwable cause) {
        super(message, cause);
    }
}
