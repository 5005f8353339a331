package io.caskbench.cli;

/** The command line asks for something that cannot be done as asked: exit code 2. */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; the message is shown after {@code bitcask: }. */
    UsageException(String message) {
        super(message);
    }
}
