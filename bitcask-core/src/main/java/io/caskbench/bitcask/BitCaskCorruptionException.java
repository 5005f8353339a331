package io.caskbench.bitcask;

/**
 * Threading: an exception, immutable once thrown.
 *
 * <p>Stored bytes failed their CRC or do not form a record. The store never returns such bytes: it
 * throws this instead.
 */
public class BitCaskCorruptionException extends BitCaskException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; the message names the file and offset. */
    public BitCaskCorruptionException(String message) {
        super(message);
    }
}
