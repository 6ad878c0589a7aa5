package dev.weft.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * replay-engine runs on every OS and inside every other module: it must never reach for JavaFX,
 * AWT/Swing, native code (JNA, JNI loading) or any module above it in the dependency picture.
 */
class EngineArchitectureTest {

    // This module's compiled classes only: the test class path also holds test-only modules (the corpus lookup,
    // which reads sidecars with Jackson), and they are not the engine.
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(java.nio.file.Path.of("target", "classes"));

    @Test
    void engineHasNoUiOrNativeDependencies() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "javafx..", "java.awt..", "javax.swing..", "com.sun.jna..", "picocli..",
                        "dev.weft.broker..", "dev.weft.launcher..", "dev.weft.timeline..", "dev.weft.app..")
                .check(ENGINE);
    }

    @Test
    void everyFormatIsParsedByTheEnginesOwnTokenizer() {
        // One JSON tokenizer (dev.weft.json) with our own accept rules and messages; no library's texts or limits.
        noClasses().should().dependOnClassesThat().resideInAnyPackage("com.fasterxml..").check(ENGINE);
    }

    @Test
    void engineDoesNotLoadNativeLibraries() {
        noClasses().should().callMethod(System.class, "loadLibrary", String.class)
                .orShould().callMethod(System.class, "load", String.class)
                .check(ENGINE);
    }

    @Test
    void engineClassesWereImported() {
        // Guard against a rule that passes because it saw nothing.
        org.junit.jupiter.api.Assertions.assertTrue(ENGINE.contain("dev.weft.log.LogHeader"));
    }
}
