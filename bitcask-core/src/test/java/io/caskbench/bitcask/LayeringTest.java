package io.caskbench.bitcask;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering that {@code package-info.java} describes, enforced: dependencies point one way,
 * facade → merge, recovery → log → segment → io, with format, index and events as leaves. Every layer
 * may throw the store's exceptions, the merge may build its public result, and verify and repair
 * theirs; nothing else of the facade's package is seen below it. No two engine packages depend on
 * each other, directly or through others: the layering implies it, and the cycle rule says so on
 * its own, so that a layer split in two later cannot hide a cycle.
 */
@AnalyzeClasses(packages = "io.caskbench.bitcask", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    /**
     * The public types every layer may use: the exceptions, what a merge returns, and what verify
     * and repair return and report their progress to.
     */
    private static final DescribedPredicate<JavaClass> SHARED = assignableTo(BitCaskException.class)
            .or(belongToAnyOf(MergeResult.class, MergeScope.class, VerifyReport.class, RepairReport.class, ProgressListener.class))
            .as("the store's exceptions, MergeResult, MergeScope, VerifyReport, RepairReport and ProgressListener");

    private static final DescribedPredicate<JavaClass> FACADE = resideInAPackage("io.caskbench.bitcask")
            .and(DescribedPredicate.not(SHARED))
            .as("the facade's package");

    private static final String[] ENGINE = {
        "io.caskbench.bitcask.merge..", "io.caskbench.bitcask.recovery..", "io.caskbench.bitcask.log..",
        "io.caskbench.bitcask.segment..", "io.caskbench.bitcask.index..", "io.caskbench.bitcask.io..",
        "io.caskbench.bitcask.format..", "io.caskbench.bitcask.events.."
    };

    @ArchTest
    static final ArchRule DEPENDENCIES_POINT_ONE_WAY = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Facade").definedBy(FACADE)
            .layer("Shared").definedBy(SHARED)
            .layer("Merge").definedBy("io.caskbench.bitcask.merge..")
            .layer("Recovery").definedBy("io.caskbench.bitcask.recovery..")
            .layer("Log").definedBy("io.caskbench.bitcask.log..")
            .layer("Segment").definedBy("io.caskbench.bitcask.segment..")
            .layer("Index").definedBy("io.caskbench.bitcask.index..")
            .layer("Io").definedBy("io.caskbench.bitcask.io..")
            .layer("Format").definedBy("io.caskbench.bitcask.format..")
            .layer("Events").definedBy("io.caskbench.bitcask.events..")
            .whereLayer("Facade").mayNotBeAccessedByAnyLayer()
            .whereLayer("Merge").mayOnlyBeAccessedByLayers("Facade")
            .whereLayer("Recovery").mayOnlyBeAccessedByLayers("Facade")
            .whereLayer("Log").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery")
            .whereLayer("Segment").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery", "Log")
            .whereLayer("Io").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery", "Log", "Segment")
            .whereLayer("Index").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery", "Log", "Segment")
            .whereLayer("Format").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery", "Log", "Segment")
            .whereLayer("Events").mayOnlyBeAccessedByLayers("Facade", "Merge", "Recovery", "Log", "Segment", "Io");

    @ArchTest
    static final ArchRule FORMAT_IS_A_LEAF = noClasses().that().resideInAPackage("io.caskbench.bitcask.format..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.caskbench.bitcask.format..", "java..");

    /** Events see only the JDK, Flight Recorder included, so that every layer may emit them. */
    @ArchTest
    static final ArchRule EVENTS_ARE_A_LEAF = noClasses().that().resideInAPackage("io.caskbench.bitcask.events..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.caskbench.bitcask.events..", "java..", "jdk.jfr..");

    @ArchTest
    static final ArchRule INDEX_IS_A_LEAF = noClasses().that().resideInAPackage("io.caskbench.bitcask.index..")
            .should().dependOnClassesThat().resideOutsideOfPackages("io.caskbench.bitcask.index..", "java..");

    @ArchTest
    static final ArchRule THE_ENGINE_NEVER_SEES_THE_FACADE = noClasses().that().resideInAnyPackage(ENGINE)
            .should().dependOnClassesThat().belongToAnyOf(BitCask.class, BitCaskOptions.class, WriteBatch.class);

    /** Every first-level engine package is a slice; none depends back on one that depends on it. */
    @ArchTest
    static final ArchRule ENGINE_PACKAGES_HAVE_NO_CYCLES = slices().matching("io.caskbench.bitcask.(*)..")
            .should().beFreeOfCycles();
}
