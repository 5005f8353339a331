package io.caskbench.bench.store.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.bench.BenchMain;
import io.caskbench.bench.RunSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;

/** Runs a suite in the smoke profile through {@link BenchMain}, as {@code exec:exec} would, and checks it exits 0. */
public final class SmokeRun {

    private SmokeRun() {
    }

    /**
     * Runs {@code suite} (null: the default) into {@code results}, limited to {@code include} unless null.
     *
     * @return what the run printed
     */
    public static String run(Path results, String suite, String include) throws Exception {
        Properties props = new Properties();
        if (suite != null) {
            props.setProperty("caskbench.suites", suite);
        }
        if (include != null) {
            props.setProperty("caskbench.include", include);
        }
        props.setProperty("caskbench.profile", "smoke");
        props.setProperty("caskbench.results", results.toString());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            status = BenchMain.run(RunSettings.from(props), out);
        }
        String output = log.toString(StandardCharsets.UTF_8);
        assertThat(status).as(output).isZero();
        return output;
    }
}
