package io.caskbench.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides whether a Maven command that runs {@code exec:exec} (or {@code exec:java}) without building
 * anything can work, and if not, words the refusal with the command that does.
 *
 * <p>The case it exists for: {@code mvn -pl bench-jmh exec:exec} from a fresh clone. No lifecycle phase
 * runs, so nothing is compiled; {@code -pl} leaves bitcask-core out of the build, and Maven 3.9 resolves a
 * left-out module only from the local repository, where a fresh clone has nothing. Maven would stop with
 * "Could not resolve dependencies", which does not say what to type instead.
 *
 * <p>Pure: it sees a summary of the session, never Maven itself, so it is tested without a Maven runtime.
 */
public final class ExecRule {

    /** The properties a user never typed: the setting that loads this very extension. */
    private static final String EXT_CLASS_PATH = "maven.ext.class.path";

    private ExecRule() {
    }

    /**
     * One module that the command selected, as the rule needs to see it.
     *
     * @param artifactId the module's artifact id, as {@code -pl} names it
     * @param compiled whether its classes directory exists from an earlier build
     * @param missingUpstream modules of this build that it needs (directly or through one another),
     *        that the command leaves out, and that are not in the local repository
     */
    public record Module(String artifactId, boolean compiled, List<String> missingUpstream) {

        /**
         * Copies the list, so a module summary cannot change after the rule has seen it.
         *
         * @param artifactId the module's artifact id
         * @param compiled whether its classes directory exists
         * @param missingUpstream left-out, uninstalled modules it needs
         */
        public Module {
            missingUpstream = List.copyOf(missingUpstream);
        }
    }

    /**
     * Returns why the command cannot work and what to type instead, or empty when it may go ahead.
     *
     * <p>It only speaks when every task is a plugin goal (a task with a colon; a phase such as
     * {@code package} would build things, so Maven's own messages apply) and one of them is an exec goal.
     *
     * @param goals the tasks given on the command line, in order
     * @param selected the modules the command selected
     * @param userProperties the {@code -D} properties given on the command line
     * @return the refusal, or empty
     */
    public static Optional<String> refusal(List<String> goals, List<Module> selected,
                                           Map<String, String> userProperties) {
        if (!appliesTo(goals)) {
            return Optional.empty();
        }
        List<String> problems = new ArrayList<>();
        for (Module module : selected) {
            if (!module.missingUpstream().isEmpty()) {
                problems.add(module.artifactId() + " needs " + String.join(", ", module.missingUpstream())
                        + ", which this command neither builds nor finds installed");
            }
            if (!module.compiled()) {
                problems.add(module.artifactId() + " is not compiled, and " + String.join(" ", goals)
                        + " compiles nothing");
            }
        }
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder("This command cannot run yet:");
        for (String problem : problems) {
            text.append(System.lineSeparator()).append("  - ").append(problem);
        }
        text.append(System.lineSeparator())
                .append("Build what it needs and run it in one command (no install step):")
                .append(System.lineSeparator()).append("  ")
                .append(workingCommand(goals, selected, userProperties));
        return Optional.of(text.toString());
    }

    /**
     * Whether the rule has anything to say about these tasks: an exec goal and no lifecycle phase.
     *
     * @param goals the tasks given on the command line
     * @return true when {@link #refusal} must look at the modules
     */
    public static boolean appliesTo(List<String> goals) {
        boolean runsPhase = goals.stream().anyMatch(goal -> !goal.contains(":"));
        return !runsPhase && goals.stream().anyMatch(ExecRule::isExecGoal);
    }

    /**
     * The command that builds the selected modules and what they need, then runs the same goals.
     *
     * @param goals the tasks given on the command line
     * @param selected the modules the command selected
     * @param userProperties the {@code -D} properties given on the command line
     * @return a command line a user can paste
     */
    static String workingCommand(List<String> goals, List<Module> selected, Map<String, String> userProperties) {
        StringBuilder command = new StringBuilder("./mvnw -B -pl ");
        command.append(String.join(",", selected.stream().map(Module::artifactId).toList()));
        command.append(" -am package ").append(String.join(" ", goals)).append(" -DskipTests");
        for (Map.Entry<String, String> property : new TreeMap<>(userProperties).entrySet()) {
            String key = property.getKey();
            if (key.equals(EXT_CLASS_PATH) || key.equals("skipTests")) {
                continue;
            }
            command.append(' ').append(quoted("-D" + key + "=" + property.getValue()));
        }
        return command.toString();
    }

    /**
     * Whether a task runs the exec plugin's {@code exec} or {@code java} goal, by prefix or by coordinates.
     *
     * @param goal one task from the command line
     * @return true for {@code exec:exec}, {@code exec:java} and their full-coordinate forms
     */
    static boolean isExecGoal(String goal) {
        String name = goal.contains("@") ? goal.substring(0, goal.indexOf('@')) : goal;
        String[] parts = name.split(":");
        if (parts.length == 2) {
            return parts[0].equals("exec") && isExecMojo(parts[1]);
        }
        return parts.length >= 3 && parts[0].equals("org.codehaus.mojo")
                && parts[1].equals("exec-maven-plugin") && isExecMojo(parts[parts.length - 1]);
    }

    private static boolean isExecMojo(String mojo) {
        return mojo.equals("exec") || mojo.equals("java");
    }

    private static String quoted(String argument) {
        boolean plain = argument.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_.=/,:+@%".indexOf(c) >= 0);
        return plain ? argument : "'" + argument.replace("'", "'\\''") + "'";
    }
}
