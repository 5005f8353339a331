package io.caskbench.bitcask.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * What one class of the store logs at WARN and above while a test looks, kept out of the build log;
 * closing it puts the logger back as it was. The store's loggers are off in the tests' logback
 * configuration, so a test that checks a WARN raises the level here.
 */
public final class LogCapture implements AutoCloseable {

    /** Final; the test's thread. */
    private final Logger logger;
    /** The level to restore; final. */
    private final Level level;
    /** Filled by whichever thread logs; read through {@link #events()}. */
    private final ListAppender<ILoggingEvent> seen = new ListAppender<>();

    private LogCapture(Class<?> source) {
        logger = (Logger) LoggerFactory.getLogger(source);
        level = logger.getLevel();
        seen.start();
        logger.setLevel(Level.WARN);
        logger.setAdditive(false);
        logger.addAppender(seen);
    }

    /** Starts keeping the WARN and ERROR events of the logger of {@code source}. */
    public static LogCapture warnings(Class<?> source) {
        return new LogCapture(source);
    }

    /** The events kept so far, in order. */
    public List<ILoggingEvent> events() {
        synchronized (seen.list) {
            return List.copyOf(seen.list);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(seen);
        logger.setAdditive(true);
        logger.setLevel(level);
    }
}
