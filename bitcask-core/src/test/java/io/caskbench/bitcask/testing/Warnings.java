package io.caskbench.bitcask.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The WARNs one class logs while a test runs, kept for the test and out of the build log; close
 * puts the logger back as it was.
 */
public final class Warnings implements AutoCloseable {

    /** Final. */
    private final Logger log;
    /** Final. */
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();
    /** The logger's level before. Final. */
    private final Level level;

    private Warnings(Class<?> source) {
        this.log = (Logger) LoggerFactory.getLogger(source);
        this.level = log.getLevel();
        seen.start();
        log.setLevel(Level.WARN);
        log.setAdditive(false); // seen by the test, kept out of the build log
        log.addAppender(seen);
    }

    /** Starts keeping what {@code source}'s logger logs at WARN and above. */
    public static Warnings of(Class<?> source) {
        return new Warnings(source);
    }

    /** What was logged so far. */
    public List<ILoggingEvent> events() {
        return seen.list;
    }

    @Override
    public void close() {
        log.detachAppender(seen);
        log.setAdditive(true);
        log.setLevel(level);
    }
}
