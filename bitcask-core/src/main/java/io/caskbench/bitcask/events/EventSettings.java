package io.caskbench.bitcask.events;

import jdk.jfr.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.HashMap;
import java.util.Map;

/**
 * Threading: static, any thread.
 *
 * <p>The store's JFR settings, {@code bitcask.jfc}, read from the jar: for a recording started
 * from code, where {@code -XX:StartFlightRecording} would name the file.
 */
public final class EventSettings {

    /** Where the settings file lies on the class path. */
    public static final String RESOURCE = "/io/caskbench/bitcask/events/bitcask.jfc";

    private EventSettings() {
    }

    /** The settings of {@code bitcask.jfc}: every store event enabled, gets and puts slower than 10 ms recorded. */
    public static Configuration bitcask() {
        try (InputStream in = EventSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return Configuration.create(r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParseException e) {
            throw new IllegalStateException(RESOURCE + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The JDK's settings named {@code jdkConfiguration} ("default" or "profile") with the store's
     * own laid over them: what {@code -XX:StartFlightRecording:settings=default,settings=bitcask.jfc}
     * records.
     */
    public static Map<String, String> over(String jdkConfiguration) {
        Map<String, String> settings;
        try {
            settings = new HashMap<>(Configuration.getConfiguration(jdkConfiguration).getSettings());
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("no JDK settings named " + jdkConfiguration + ": " + e.getMessage(), e);
        }
        settings.putAll(bitcask().getSettings());
        return settings;
    }
}
