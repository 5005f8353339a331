package io.caskbench.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The command recorded beside a bench-shm run is one a user can paste into a fresh clone. */
class RunCommandTest {

    @Test
    void theRecordedCommandUsesTheWrapper() {
        String cmd = ShmMain.command(Path.of("results").toAbsolutePath(), Profile.QUICK, "", "",
                Set.of("jmh", "c", "msg"));
        // A system mvn is often 3.8, which the enforcer refuses; the wrapper brings 3.9.
        assertThat(cmd).isEqualTo("./mvnw -B -pl bench-shm -am package exec:exec -DskipTests -Dcaskbench.profile=quick");
    }
}
