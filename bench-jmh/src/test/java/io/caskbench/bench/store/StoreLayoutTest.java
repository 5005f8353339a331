package io.caskbench.bench.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layout {@code package-info.java} describes, enforced: no two packages of the store benchmarks depend
 * on each other, directly or through others; the shared fixtures depend on no benchmark and no suite; and
 * no benchmark depends on a suite.
 */
@AnalyzeClasses(packages = "io.caskbench.bench.store", importOptions = ImportOption.DoNotIncludeTests.class)
class StoreLayoutTest {

    @ArchTest
    static final ArchRule NO_CYCLES = slices().matching("io.caskbench.bench.store.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule FIXTURES_KNOW_NO_BENCHMARK = noClasses().that()
            .resideInAPackage("io.caskbench.bench.store.fixture..").should().dependOnClassesThat()
            .resideInAnyPackage("io.caskbench.bench.store.single..", "io.caskbench.bench.store.threads..",
                    "io.caskbench.bench.store.latency..", "io.caskbench.bench.store.sustained..",
                    "io.caskbench.bench.store.suite..");

    @ArchTest
    static final ArchRule BENCHMARKS_KNOW_NO_SUITE = noClasses().that()
            .resideOutsideOfPackage("io.caskbench.bench.store.suite..").should().dependOnClassesThat()
            .resideInAPackage("io.caskbench.bench.store.suite..");
}
