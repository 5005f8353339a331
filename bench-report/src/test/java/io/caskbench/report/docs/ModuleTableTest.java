package io.caskbench.report.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The module table of {@code docs/usage.md} has a row for every module of the reactor, and none besides. */
class ModuleTableTest {

    @Test
    void theModuleTableListsEveryModuleOfTheBuild() throws IOException {
        Path root = PublishedDocsTest.checkout();
        String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);
        List<String> modules = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            modules.add(m.group(1));
        }
        String page = Files.readString(root.resolve("docs/usage.md"), StandardCharsets.UTF_8);
        String table = page.substring(page.indexOf("## Module layout"));
        List<String> rows = new ArrayList<>();
        Matcher r = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\|").matcher(table);
        while (r.find()) {
            rows.add(r.group(1));
        }

        assertThat(modules).as("modules in the parent POM").isNotEmpty();
        assertThat(rows).as("rows of the module table in docs/usage.md").containsExactlyInAnyOrderElementsOf(modules);
    }
}
