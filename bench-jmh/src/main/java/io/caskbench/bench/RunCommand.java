package io.caskbench.bench;

import io.caskbench.report.input.RunRecord;
import java.nio.file.Path;

/**
 * Records, beside a suite's results, the Maven command that reproduces them from a fresh clone, rebuilt
 * from the {@code caskbench.*} properties this JVM was started with (exec:exec passes them all). The
 * generated docs name it with the machine and date.
 */
public final class RunCommand {

    private RunCommand() {
    }

    /** The command as {@code ./mvnw ... exec:exec} would be typed to produce these results again. */
    public static String current(Path results) {
        StringBuilder cmd = new StringBuilder("./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests");
        option(cmd, "caskbench.suites", System.getProperty("caskbench.suites", RunSettings.DEFAULT_SUITES));
        option(cmd, "caskbench.profile", System.getProperty("caskbench.profile", "quick"));
        option(cmd, "caskbench.include", System.getProperty("caskbench.include", ""));
        option(cmd, "caskbench.jmhArgs", System.getProperty("caskbench.jmhArgs", ""));
        return cmd.append(RunRecord.resultsOption(results)).toString();
    }

    private static void option(StringBuilder cmd, String name, String value) {
        if (value != null && !value.isBlank()) {
            boolean plain = value.matches("[A-Za-z0-9_.,/=-]+");
            cmd.append(" -D").append(name).append('=').append(plain ? value : "'" + value + "'");
        }
    }

    /** Writes {@link #current} for {@code suite} into {@code results}. */
    public static void record(Path results, String suite) {
        RunRecord.write(results, suite, current(results));
    }
}
