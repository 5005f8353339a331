package io.caskbench.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * What {@link BenchMain} was asked to do, from system properties (as {@code exec:exec} passes them) and
 * command-line arguments (taken as extra JMH arguments, so {@code java -jar benchmarks.jar -f 1 -wi 0}
 * runs the suites with one fork and no warm-up). Arguments that ask for what JMH's own main does (help,
 * a listing, a benchmark regex) never get here: {@link #isPlainJmh} sends them to JMH.
 *
 * @param suites names of the suites to run, in order
 * @param profile the profile
 * @param include regex a benchmark's name must also match; empty for all
 * @param jmhArgs JMH command-line arguments that override the suites' settings
 * @param results where results go: the results root for {@link BenchMain#main}, which makes a folder
 *     per run in it; the run's own folder for {@link BenchMain#run}
 */
public record RunSettings(List<String> suites, Suite.Profile profile, String include, List<String> jmhArgs,
        Path results) {

    /** Suites run when {@code caskbench.suites} is not set. */
    public static final String DEFAULT_SUITES = "store";

    /** Reads {@code caskbench.suites|profile|include|jmhArgs|results} and appends {@code args}. */
    public static RunSettings from(Properties props, String... args) {
        List<String> suites = Arrays.stream(props.getProperty("caskbench.suites", DEFAULT_SUITES).split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        String profileName = blankToDefault(props.getProperty("caskbench.profile"), "quick");
        Suite.Profile profile;
        try {
            profile = Suite.Profile.valueOf(profileName.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown caskbench.profile '" + profileName
                    + "'; use quick, full or smoke", e);
        }
        List<String> jmhArgs = jmhArgs(props, args);
        Path results = Path.of(blankToDefault(props.getProperty("caskbench.results"), "results")).toAbsolutePath();
        return new RunSettings(suites, profile, props.getProperty("caskbench.include", "").trim(), jmhArgs, results);
    }

    /** The JMH arguments of {@code caskbench.jmhArgs}, followed by the command line's. */
    public static List<String> jmhArgs(Properties props, String... args) {
        List<String> jmhArgs = new ArrayList<>(tokenize(props.getProperty("caskbench.jmhArgs", "")));
        jmhArgs.addAll(Arrays.asList(args));
        return jmhArgs;
    }

    /**
     * Whether JMH arguments ask for what JMH's own main does and the suites have no part in: help
     * ({@code -h}), a listing ({@code -l}, {@code -lp}, {@code -lprof}, {@code -lrf}) or a benchmark
     * regex, which selects from every benchmark in the jar. Arguments JMH cannot parse count too, so that
     * JMH reports them in its own words.
     */
    public static boolean isPlainJmh(List<String> jmhArgs) {
        if (jmhArgs.isEmpty()) {
            return false;
        }
        try {
            CommandLineOptions o = new CommandLineOptions(jmhArgs.toArray(new String[0]));
            return o.shouldHelp() || o.shouldList() || o.shouldListWithParams() || o.shouldListProfilers()
                    || o.shouldListResultFormats() || !o.getIncludes().isEmpty();
        } catch (CommandLineOptionException e) {
            return true;
        }
    }

    private static String blankToDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    /** Splits a command line on blanks, keeping single- or double-quoted parts together. */
    static List<String> tokenize(String line) {
        List<String> tokens = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inToken = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    current.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(current.toString());
                    current.setLength(0);
                    inToken = false;
                }
            } else {
                current.append(c);
                inToken = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unbalanced quote in caskbench.jmhArgs: " + line);
        }
        if (inToken) {
            tokens.add(current.toString());
        }
        return tokens;
    }
}
