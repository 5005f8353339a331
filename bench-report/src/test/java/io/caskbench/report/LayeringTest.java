package io.caskbench.report;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering that {@code package-info.java} draws, enforced: a package uses only the packages below it,
 * cli over docs and page, docs over table, table and page over chart, chart over rule, rule over input and
 * text. No two packages depend on each other, directly or through others; the cycle rule says so on its
 * own, so that a package added later without a layer cannot hide a cycle.
 */
@AnalyzeClasses(packages = "io.caskbench.report", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule NO_CYCLES_BETWEEN_PACKAGES = slices().matching("io.caskbench.report.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule DEPENDENCIES_POINT_DOWN = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Cli").definedBy("io.caskbench.report.cli..")
            .layer("Docs").definedBy("io.caskbench.report.docs..")
            .layer("Page").definedBy("io.caskbench.report.page..")
            .layer("Table").definedBy("io.caskbench.report.table..")
            .layer("Chart").definedBy("io.caskbench.report.chart..")
            .layer("Rule").definedBy("io.caskbench.report.rule..")
            .layer("Input").definedBy("io.caskbench.report.input..")
            .layer("Text").definedBy("io.caskbench.report.text..")
            .whereLayer("Cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("Docs").mayOnlyBeAccessedByLayers("Cli")
            .whereLayer("Page").mayOnlyBeAccessedByLayers("Cli")
            .whereLayer("Table").mayOnlyBeAccessedByLayers("Cli", "Docs")
            .whereLayer("Chart").mayOnlyBeAccessedByLayers("Cli", "Docs", "Page", "Table")
            .whereLayer("Rule").mayOnlyBeAccessedByLayers("Cli", "Docs", "Page", "Table", "Chart")
            .whereLayer("Input").mayOnlyBeAccessedByLayers("Cli", "Docs", "Page", "Table", "Chart", "Rule")
            .whereLayer("Text").mayOnlyBeAccessedByLayers("Cli", "Docs", "Page", "Table", "Chart", "Rule");
}
