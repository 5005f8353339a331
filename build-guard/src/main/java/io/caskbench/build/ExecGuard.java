package io.caskbench.build;

import java.io.File;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.inject.Named;
import javax.inject.Singleton;
import org.apache.maven.AbstractMavenLifecycleParticipant;
import org.apache.maven.MavenExecutionException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Dependency;
import org.apache.maven.project.MavenProject;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.LocalRepositoryManager;

/**
 * A Maven core extension that turns "Could not resolve dependencies" into the command that works, when
 * {@code exec:exec} is asked to run modules that nothing has built (see {@link ExecRule}).
 *
 * <p>Maven loads it from {@code .mvn/ext/build-guard.jar}, named in {@code .mvn/maven.config}, and calls it
 * once, after reading the projects and before any plugin runs. It reads the session and changes nothing.
 */
@Named("caskbench-exec-guard")
@Singleton
public final class ExecGuard extends AbstractMavenLifecycleParticipant {

    /** Creates the participant; Maven's container does this once per build. */
    public ExecGuard() {
    }

    @Override
    public void afterProjectsRead(MavenSession session) throws MavenExecutionException {
        if (!ExecRule.appliesTo(session.getGoals())) {
            return; // every ordinary build leaves here, having read nothing
        }
        Map<String, String> userProperties = new HashMap<>();
        session.getUserProperties().forEach((key, value) -> userProperties.put(key.toString(), value.toString()));
        List<ExecRule.Module> selected = new ArrayList<>();
        for (MavenProject project : session.getProjects()) {
            selected.add(summarise(session, project));
        }
        Optional<String> refusal = ExecRule.refusal(session.getGoals(), selected, userProperties);
        if (refusal.isPresent()) {
            throw new MavenExecutionException(refusal.get(), session.getRequest().getPom());
        }
    }

    private static ExecRule.Module summarise(MavenSession session, MavenProject project) {
        Map<String, MavenProject> reactor = new HashMap<>();
        for (MavenProject module : session.getAllProjects()) {
            reactor.put(key(module.getGroupId(), module.getArtifactId()), module);
        }
        Set<String> selectedKeys = new HashSet<>();
        for (MavenProject module : session.getProjects()) {
            selectedKeys.add(key(module.getGroupId(), module.getArtifactId()));
        }
        List<String> missing = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<MavenProject> todo = new ArrayDeque<>(List.of(project));
        while (!todo.isEmpty()) {
            for (Dependency dependency : todo.pop().getDependencies()) {
                String key = key(dependency.getGroupId(), dependency.getArtifactId());
                MavenProject upstream = reactor.get(key);
                if (upstream == null || selectedKeys.contains(key) || !seen.add(key)) {
                    continue;
                }
                if (!installed(session.getRepositorySession(), upstream)) {
                    missing.add(upstream.getArtifactId());
                }
                todo.push(upstream);
            }
        }
        boolean compiled = new File(project.getBuild().getOutputDirectory()).isDirectory();
        return new ExecRule.Module(project.getArtifactId(), compiled, missing);
    }

    private static boolean installed(RepositorySystemSession repositories, MavenProject module) {
        LocalRepositoryManager local = repositories.getLocalRepositoryManager();
        String path = local.getPathForLocalArtifact(
                new DefaultArtifact(module.getGroupId(), module.getArtifactId(), "jar", module.getVersion()));
        return new File(local.getRepository().getBasedir(), path).isFile();
    }

    private static String key(String groupId, String artifactId) {
        return groupId + ":" + artifactId;
    }
}
