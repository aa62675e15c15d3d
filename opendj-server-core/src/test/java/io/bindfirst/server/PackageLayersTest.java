package io.bindfirst.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The server's packages form the layers docs/ARCHITECTURE.md draws, with no cycle between packages, so that a new
 * capability (replicas, change feeds) has one place to go and a package can be read without the ones above it.
 * From the top: the composition root ({@code io.bindfirst.server}: {@code DirectoryServer}, {@code Launcher}); the
 * transport and what watches it (net, monitor, metrics); the operations (core); the services operations ask
 * (auth, access, group, plugin, and stats, which counts operations by their plugin type); the foundation (commit,
 * backend, config, schema, filter, pwd, virtual, cache, log, tls, work). A layer may use the layers below it,
 * never one above.
 */
public class PackageLayersTest {
    private static final String ROOT = "io.bindfirst.server";
    private JavaClasses classes;

    @BeforeClass
    public void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    public void noCycleBetweenPackages() {
        slices().matching(ROOT + ".(**)").namingSlices("$1").should().beFreeOfCycles().check(classes);
    }

    @Test
    public void onlyTheCompositionRootIsAboveEverything() {
        noClasses().that().resideOutsideOfPackage(ROOT).should().dependOnClassesThat().resideInAPackage(ROOT)
                .because("the composition root wires the server; nothing it wires may reach back into it")
                .check(classes);
    }

    @Test
    public void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Composition").definedBy(ROOT)
                .layer("Transport").definedBy(ROOT + ".net..", ROOT + ".monitor..", ROOT + ".metrics..")
                .layer("Operations").definedBy(ROOT + ".core..")
                .layer("Services").definedBy(ROOT + ".auth..", ROOT + ".access..", ROOT + ".group..",
                        ROOT + ".plugin..", ROOT + ".stats..")
                .layer("Foundation").definedBy(ROOT + ".commit..", ROOT + ".backend..", ROOT + ".config..",
                        ROOT + ".schema..", ROOT + ".filter..", ROOT + ".pwd..",
                        ROOT + ".virtual..", ROOT + ".cache..", ROOT + ".log..", ROOT + ".tls..", ROOT + ".work..")
                .whereLayer("Composition").mayNotBeAccessedByAnyLayer()
                .whereLayer("Transport").mayOnlyBeAccessedByLayers("Composition")
                .whereLayer("Operations").mayOnlyBeAccessedByLayers("Composition", "Transport")
                .whereLayer("Services").mayOnlyBeAccessedByLayers("Composition", "Transport", "Operations")
                .whereLayer("Foundation").mayOnlyBeAccessedByLayers("Composition", "Transport", "Operations",
                        "Services")
                .check(classes);
    }
}
