package io.caskbench.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExecRuleTest {

    private static final ExecRule.Module FRESH_BENCH =
            new ExecRule.Module("bench-jmh", false, List.of("bitcask-core", "bench-report"));
    private static final ExecRule.Module BUILT_BENCH = new ExecRule.Module("bench-jmh", true, List.of());

    @Test
    void freshCloneShortFormIsRefusedWithTheCommandThatWorks() {
        assertThat(ExecRule.refusal(List.of("exec:exec"), List.of(FRESH_BENCH), Map.of()))
                .hasValueSatisfying(text -> assertThat(text)
                        .contains("bench-jmh needs bitcask-core, bench-report")
                        .contains("bench-jmh is not compiled")
                        .endsWith("./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests"));
    }

    @Test
    void aModuleWithEverythingBuiltMayRun() {
        assertThat(ExecRule.refusal(List.of("exec:exec"), List.of(BUILT_BENCH), Map.of())).isEmpty();
    }

    @Test
    void anUninstalledUpstreamAloneIsEnoughToRefuse() {
        ExecRule.Module compiledButAlone = new ExecRule.Module("bench-jmh", true, List.of("bitcask-core"));
        assertThat(ExecRule.refusal(List.of("exec:exec"), List.of(compiledButAlone), Map.of()))
                .hasValueSatisfying(text -> assertThat(text).doesNotContain("not compiled"));
    }

    @Test
    void aCommandThatRunsAPhaseIsLeftToMaven() {
        assertThat(ExecRule.refusal(List.of("package", "exec:exec"), List.of(FRESH_BENCH), Map.of())).isEmpty();
        assertThat(ExecRule.refusal(List.of("verify"), List.of(FRESH_BENCH), Map.of())).isEmpty();
    }

    @Test
    void goalsOtherThanExecAreLeftToMaven() {
        assertThat(ExecRule.refusal(List.of("dependency:tree"), List.of(FRESH_BENCH), Map.of())).isEmpty();
        assertThat(ExecRule.refusal(List.of("exec:help"), List.of(FRESH_BENCH), Map.of())).isEmpty();
    }

    @Test
    void everySpellingOfTheExecGoalsIsRecognised() {
        assertThat(ExecRule.isExecGoal("exec:exec")).isTrue();
        assertThat(ExecRule.isExecGoal("exec:java")).isTrue();
        assertThat(ExecRule.isExecGoal("exec:exec@bench")).isTrue();
        assertThat(ExecRule.isExecGoal("org.codehaus.mojo:exec-maven-plugin:exec")).isTrue();
        assertThat(ExecRule.isExecGoal("org.codehaus.mojo:exec-maven-plugin:3.6.3:java")).isTrue();
        assertThat(ExecRule.isExecGoal("exec")).isFalse();
        assertThat(ExecRule.isExecGoal("other:exec")).isFalse();
    }

    @Test
    void theSuggestedCommandKeepsTheUsersPropertiesQuotedForAShell() {
        String command = ExecRule.workingCommand(List.of("exec:exec"), List.of(FRESH_BENCH), Map.of(
                "caskbench.suites", "files",
                "caskbench.jmhArgs", "-f 1 -prof gc",
                "exec.args", "it's",
                "maven.ext.class.path", ".mvn/ext/build-guard.jar",
                "skipTests", "true"));
        assertThat(command).isEqualTo("./mvnw -B -pl bench-jmh -am package exec:exec -DskipTests"
                + " '-Dcaskbench.jmhArgs=-f 1 -prof gc' -Dcaskbench.suites=files '-Dexec.args=it'\\''s'");
    }

    @Test
    void severalSelectedModulesAreNamedTogether() {
        ExecRule.Module shm = new ExecRule.Module("bench-shm", false, List.of());
        assertThat(ExecRule.workingCommand(List.of("exec:exec"), List.of(FRESH_BENCH, shm), Map.of()))
                .startsWith("./mvnw -B -pl bench-jmh,bench-shm -am package exec:exec");
    }
}
