package io.partita;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layout README.md describes, checked on the compiled classes: one package per concern, no package cycle, and the
 * node and the web layer under every feature rather than beside them.
 */
class LayoutTest {

    /** The packages of the features, which the node, the web layer and refusals must not know. */
    private static final String[] FEATURES = {"io.partita.account..", "io.partita.transaction..",
        "io.partita.locking..", "io.partita.transfer..", "io.partita.job..", "io.partita.schedule..",
        "io.partita.lease..", "io.partita.query..", "io.partita.observe..", "io.partita.load.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.partita");
    }

    @Test
    void shouldHaveNoCycleBetweenPackages() {
        slices().matching("io.partita.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void shouldKeepTheNodeFreeOfEveryFeature() {
        noClasses().that().resideInAPackage("io.partita.node..")
                .should().dependOnClassesThat().resideInAnyPackage(FEATURES).check(classes);
    }

    @Test
    void shouldKeepTheWebLayerAndRefusalsFreeOfEveryFeature() {
        noClasses().that().resideInAnyPackage("io.partita.web..", "io.partita.refusal..")
                .should().dependOnClassesThat().resideInAnyPackage(FEATURES).check(classes);
    }

    @Test
    void shouldKeepTheStoreFreeOfTheRestOfTheNode() {
        // The journal's disk store sits below the node: the node and the features may use it, it uses none of them.
        ArchRuleDefinition.classes().that().resideInAPackage("io.partita.store..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.partita.store..", "java..",
                        "org.rocksdb..", "org.slf4j..")
                .check(classes);
    }

    @Test
    void shouldLeaveTheChoiceOfAnHttpStatusForARefusalToTheWebLayer() {
        noClasses().that().resideOutsideOfPackage("io.partita.web..")
                .should().callMethod(io.partita.web.Refusals.class, "render", io.partita.refusal.Refusal.class)
                .check(classes);
    }
}
