package io.caskbench.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The versions of the libraries the benchmarks measure (the store itself, each peer, JMH), as the build
 * resolved them from the parent POM: every run records them in its {@code machine.json}, so a committed
 * figure names the versions that produced it.
 */
public final class MeasuredLibraries {

    /** The build's list, filled in by Maven's resource filtering. */
    static final String RESOURCE = "libraries.properties";

    private MeasuredLibraries() {
    }

    /**
     * Each library's version by artifact name, sorted.
     *
     * @throws IllegalStateException when the build left the resource out or unfilled
     */
    public static Map<String, String> versions() {
        Properties p = new Properties();
        try (InputStream in = MeasuredLibraries.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the benchmarks' classpath");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        Map<String, String> versions = new TreeMap<>();
        p.stringPropertyNames().forEach(name -> versions.put(name, p.getProperty(name)));
        versions.forEach((name, version) -> {
            if (version.isBlank() || version.contains("${")) {
                throw new IllegalStateException(RESOURCE + " names no version for " + name + " (" + version
                        + "): the build did not filter it");
            }
        });
        return versions;
    }
}
