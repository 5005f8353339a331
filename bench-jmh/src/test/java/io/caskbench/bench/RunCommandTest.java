package io.caskbench.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The command recorded beside a run is one a user can paste into a fresh clone. */
class RunCommandTest {

    @Test
    void theRecordedCommandUsesTheWrapperAndNamesTheSuites() {
        String cmd = RunCommand.current(Path.of("results").toAbsolutePath());
        // A system mvn is often 3.8, which the enforcer refuses; the wrapper brings 3.9.
        assertThat(cmd).startsWith("./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests")
                .contains(" -Dcaskbench.suites=", " -Dcaskbench.profile=");
    }
}
