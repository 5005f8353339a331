/**
 * A Maven core extension for building caskbench itself, never a dependency of the library.
 *
 * <p>{@link io.caskbench.build.ExecGuard} runs once per Maven command, on Maven's main thread, before any
 * plugin. It only reads the session. When a command runs {@code exec:exec} on modules that nothing has
 * built, it stops the build with a {@link org.apache.maven.MavenExecutionException} that prints the
 * command that works; otherwise it does nothing. The rule itself is {@link io.caskbench.build.ExecRule}.
 */
package io.caskbench.build;
