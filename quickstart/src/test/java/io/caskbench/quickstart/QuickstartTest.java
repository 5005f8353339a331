package io.caskbench.quickstart;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's Quickstart as a new user follows it: the install command it prints, the
 * dependencies its Maven and Gradle files name (with the versions this build uses), what its
 * minimal pom.xml must hold to work with an older system Maven, and its program, compiled with
 * javax.tools into a project of its own and run in a JVM of its own on the class path those
 * dependencies make, with the built bitcask-core jar, leaving nothing behind.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard for a loaded machine, not a speed limit
class QuickstartTest {

    private static final Pattern FENCE = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern MAVEN_DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>([^<]+)</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern GRADLE_DEPENDENCY = Pattern.compile("(?:implementation|runtimeOnly)\\(\"([^\"]+)\"\\)");
    /** A direct dependency in {@code dependency:tree}'s output: one level below the root. */
    private static final Pattern DIRECT = Pattern.compile("^[+\\\\]- ([\\w.-]+):([\\w.-]+):jar:([^:]+):\\w+$");

    private static String section;

    @BeforeAll
    static void readQuickstart() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("caskbench.readme")), StandardCharsets.UTF_8);
        int start = readme.indexOf("\n## Quickstart\n");
        assertThat(start).as("README has a Quickstart section").isPositive();
        int end = readme.indexOf("\n## ", start + 1);
        section = readme.substring(start, end < 0 ? readme.length() : end);
    }

    @Test
    void theInstallStepComesFirst() {
        List<String> bash = blocks("bash");
        assertThat(bash).isNotEmpty();
        assertThat(bash.get(0).strip()).isEqualTo("./mvnw -B -ntp -pl bitcask-core -am install -DskipTests");
        assertThat(section.indexOf("```bash")).isLessThan(section.indexOf("```xml"));
    }

    @Test
    void mavenAndGradleSnippetsNameWhatThisBuildUses() throws IOException {
        Set<String> maven = coordinates(MAVEN_DEPENDENCY, String.join("\n", blocks("xml")));
        Set<String> gradle = coordinates(GRADLE_DEPENDENCY, String.join("\n", blocks("kotlin")));

        assertThat(gradle).isEqualTo(maven);
        assertThat(maven).containsExactlyInAnyOrderElementsOf(directDependencies());
    }

    @Test
    void theMinimalPomAndTheGradleFileSetJava17AndNameTheProgram() throws Exception {
        List<String> poms = blocks("xml").stream().filter(x -> x.contains("<project")).toList();
        assertThat(poms).as("one whole pom.xml").hasSize(1);
        Document pom = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader(poms.get(0))));
        Element project = pom.getDocumentElement();
        assertThat(project.getNamespaceURI()).isEqualTo("http://maven.apache.org/POM/4.0.0");
        assertThat(text(project, "modelVersion")).isEqualTo("4.0.0");
        assertThat(List.of(text(project, "groupId"), text(project, "artifactId"), text(project, "version"))).doesNotContain("");
        // The system Maven's defaults compile for Java 5 ("Source option 5 is no longer supported"), and its
        // default compiler plugin ignores maven.compiler.release: the pom names both.
        assertThat(text(child(project, "properties"), "maven.compiler.release")).isEqualTo("17");
        Element compiler = plugin(project, "maven-compiler-plugin");
        assertThat(text(compiler, "groupId")).isEqualTo("org.apache.maven.plugins");
        Matcher version = Pattern.compile("(\\d+)\\.(\\d+)(\\..*)?").matcher(text(compiler, "version"));
        assertThat(version.matches()).as(text(compiler, "version")).isTrue();
        assertThat(Integer.parseInt(version.group(1)) * 1000 + Integer.parseInt(version.group(2)))
                .as("at least 3.6, the first compiler plugin that knows release").isGreaterThanOrEqualTo(3006);
        Element exec = plugin(project, "exec-maven-plugin");
        assertThat(text(exec, "groupId")).isEqualTo("org.codehaus.mojo");
        assertThat(text(exec, "version")).isNotEmpty();
        assertThat(text(child(exec, "configuration"), "mainClass")).isEqualTo(programName());

        assertThat(String.join("\n", blocks("kotlin"))).contains("mainClass.set(\"" + programName() + "\")")
                .contains("options.release.set(17)");
        assertThat(blocks("bash")).anyMatch(b -> b.contains("mvn -q -ntp compile exec:java") && b.contains("gradle run"));
    }

    /** The program deletes its stores, so the CLI example must make the store it reads. */
    @Test
    void theCliExampleMakesTheStoreItReads() {
        List<String> cli = blocks("bash").stream().filter(b -> b.contains("bitcask.jar")).toList();
        assertThat(cli).as("one block of bitcask commands").hasSize(1);
        List<String> commands = cli.get(0).lines().filter(l -> l.contains("bitcask.jar")).toList();
        Matcher first = Pattern.compile("bitcask\\.jar put --create (\\S+) ").matcher(commands.get(0));
        assertThat(first.find()).as("the first command makes a store: %s", commands.get(0)).isTrue();
        String dir = first.group(1);
        assertThat(commands).allMatch(c -> c.contains(" " + dir + " ") || c.endsWith(" " + dir));
    }

    @Test
    void theProgramCompilesAndRunsAsPrinted() throws Exception {
        List<String> java = blocks("java");
        assertThat(java).hasSize(1);
        String source = java.get(0);
        Matcher name = Pattern.compile("public class (\\w+)").matcher(source);
        assertThat(name.find()).as("the program declares a public class").isTrue();

        Path project = Files.createDirectories(Path.of(System.getProperty("caskbench.workDir")));
        deleteBelow(project);
        Path sourceFile = Files.createDirectories(project.resolve("src")).resolve(name.group(1) + ".java");
        Files.writeString(sourceFile, source, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(project.resolve("classes"));
        List<Path> classPath = userClassPath();
        assertThat(classPath).as("the built bitcask-core jar").anyMatch(p -> p.getFileName().toString().matches("bitcask-core-.*\\.jar"));

        compile(sourceFile, classes, classPath);

        Path temp = Files.createDirectories(project.resolve("tmp"));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + temp, "-cp", classes + File.pathSeparator + classPath.stream().map(Path::toString)
                        .collect(Collectors.joining(File.pathSeparator)),
                name.group(1));
        Process run = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();

        assertThat(run.exitValue()).as(output).isZero();
        assertThat(output).contains("3 keys, 245761 bytes of image/png, merge reclaimed ")
                .doesNotContain("SLF4J(W)", "Exception", "NoClassDefFoundError");
        try (Stream<Path> left = Files.list(project)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("nothing written into the working directory")
                    .containsExactlyInAnyOrder("src", "classes", "tmp");
        }
        try (Stream<Path> left = Files.list(temp)) {
            assertThat(left).as("the program deletes its temporary directory").isEmpty();
        }
    }

    /** The name of the program's public class. */
    private static String programName() {
        Matcher name = Pattern.compile("public class (\\w+)").matcher(blocks("java").get(0));
        assertThat(name.find()).isTrue();
        return name.group(1);
    }

    /** The plugin of {@code artifactId} under build/plugins. */
    private static Element plugin(Element project, String artifactId) {
        NodeList plugins = child(child(project, "build"), "plugins").getElementsByTagNameNS("*", "plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element p = (Element) plugins.item(i);
            if (artifactId.equals(text(p, "artifactId"))) {
                return p;
            }
        }
        throw new AssertionError("the pom names no " + artifactId);
    }

    /** The direct child element called {@code name}. */
    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getLocalName())) {
                return e;
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getLocalName() + ">");
    }

    /** The trimmed text of the direct child called {@code name}, or "" when there is none. */
    private static String text(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getLocalName())) {
                return e.getTextContent().strip();
            }
        }
        return "";
    }

    private static void compile(Path source, Path classes, List<Path> classPath) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-Xlint:all", "-d", classes.toString(),
                    "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
            boolean ok = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source)).call();
            assertThat(diagnostics.getDiagnostics()).as("compiler messages").isEmpty();
            assertThat(ok).isTrue();
        }
    }

    /** The fenced blocks of the section in one language, in order. */
    private static List<String> blocks(String language) {
        List<String> out = new ArrayList<>();
        Matcher m = FENCE.matcher(section);
        while (m.find()) {
            if (m.group(1).equals(language)) {
                out.add(m.group(2));
            }
        }
        return out;
    }

    private static Set<String> coordinates(Pattern dependency, String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = dependency.matcher(text);
        while (m.find()) {
            out.add(m.groupCount() == 3 ? m.group(1) + ":" + m.group(2) + ":" + m.group(3) : m.group(1));
        }
        return out;
    }

    /** What this module depends on directly: the same list as the README, or the check is of something else. */
    private static Set<String> directDependencies() throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (String line : Files.readAllLines(Path.of(System.getProperty("caskbench.userTree")))) {
            Matcher m = DIRECT.matcher(line);
            if (m.matches()) {
                out.add(m.group(1) + ":" + m.group(2) + ":" + m.group(3));
            }
        }
        return out;
    }

    private static List<Path> userClassPath() throws IOException {
        String text = Files.readString(Path.of(System.getProperty("caskbench.userClasspath"))).strip();
        return Stream.of(text.split(File.pathSeparator)).map(Path::of).toList();
    }

    private static void deleteBelow(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> all = walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
            for (Path p : all) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        }
    }
}
