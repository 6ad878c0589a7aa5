package dev.weft.app;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** MVVM kept honest: view models and sources use JavaFX beans/collections only, never the toolkit. */
class AppArchitectureTest {

    // Only this module's compiled classes: scanning the whole class path for the package takes half a minute.
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPath(java.nio.file.Path.of("target", "classes"));

    @Test
    void viewModelsAndSourcesNeedNoToolkit() {
        noClasses().that().resideInAnyPackage("dev.weft.app.vm..", "dev.weft.app.source..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..", "javafx.application..",
                        "javafx.animation..", "dev.weft.app.view..", "eu.hansolo..", "org.fxmisc..", "org.controlsfx..")
                .check(classes);
    }

    @Test
    void theRulesSeeToolkitUseWhereItIs() {
        // Guards against a vacuous pass: the same rule must fail for the views, which do use the toolkit.
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> noClasses().that().resideInAnyPackage("dev.weft.app.view..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..").check(classes));
    }

    @Test
    void viewModelsDoNotReachIntoTheEngineDirectly() {
        noClasses().that().resideInAnyPackage("dev.weft.app.vm..", "dev.weft.app.view..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.weft.replay..", "dev.weft.core..", "dev.weft.check..")
                .check(classes);
    }

    @Test
    void viewsTalkToViewModelsOnly() {
        // Views ask the view models; the recording source (files, replay, checks) is the view models' business.
        noClasses().that().resideInAPackage("dev.weft.app.view..")
                .should().callMethod(dev.weft.app.vm.DocumentViewModel.class, "source")
                .orShould().dependOnClassesThat().haveFullyQualifiedName(dev.weft.app.source.RecordingSource.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(dev.weft.app.source.IndexedRecordingSource.class.getName())
                .check(classes);
    }

    @Test
    void theSourceRuleSeesACallWhereThereIsOne() {
        // Guards against a vacuous pass: the application class does reach the source.
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> noClasses().that().resideInAPackage("dev.weft.app.vm..")
                .should().callMethod(dev.weft.app.source.RecordingSource.class, "timeline").check(classes));
    }

    /** The tool packages, whose panels are views of a view model (one package a tool). */
    private static final String[] TOOLS_WITH_VIEW_MODELS = {"dev.weft.app.run..", "dev.weft.app.fuzz..", "dev.weft.app.campaign..",
            "dev.weft.app.shrink.."};

    @Test
    void toolViewModelsAndSessionsNeedNoToolkit() {
        // A tool's form, state and process live in classes a test drives without a display; only its panel draws.
        noClasses().that().resideInAnyPackage("dev.weft.app.run..", "dev.weft.app.fuzz..", "dev.weft.app.campaign..",
                        "dev.weft.app.shrink..")
                .and().haveSimpleNameNotEndingWith("Panel").and().haveNameNotMatching(".*Panel\\$.*")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "javafx.stage..",
                        "javafx.application..", "javafx.animation..", "dev.weft.app.view..", "eu.hansolo..",
                        "org.fxmisc..", "org.controlsfx..")
                .check(classes);
    }

    @Test
    void toolPanelsTalkToTheirViewModelOnly() {
        // The panel neither starts processes nor reaches the launcher: it binds controls to its view model.
        noClasses().that().resideInAnyPackage(TOOLS_WITH_VIEW_MODELS).and().haveSimpleNameEndingWith("Panel")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Session")
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.weft.launcher..")
                .check(classes);
    }

    @Test
    void thePanelRuleSeesASessionWhereThereIsOne() {
        // Guards against a vacuous pass: the view model does hold its session.
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> noClasses().that()
                .resideInAnyPackage(TOOLS_WITH_VIEW_MODELS).and().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Session").check(classes));
    }
}
