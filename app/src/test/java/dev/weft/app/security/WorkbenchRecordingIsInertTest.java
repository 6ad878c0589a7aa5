package dev.weft.app.security;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.Progress;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.TaskRunner;
import dev.weft.testsupport.AccessWatcher;
import dev.weft.testsupport.BaitRecording;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/security.md, rule "a recording is data", for the workbench: opening, indexing, checking and showing a
 * recording whose meta, payloads and violation text name paths, URLs and shell commands touches none of them,
 * and no workbench class can start a program or hand a string to a browser or the desktop. The recording is
 * shown in a child JVM under strace ({@link AccessWatcher}), so this holds on every Java version.
 */
class WorkbenchRecordingIsInertTest {

    /** A recording under dir whose strings all point into {@code canary}, a folder nothing creates. */
    private static Path hostileRecording(Path dir, Path canary) throws Exception {
        String c = canary.toString();
        List<String> bait = List.of(c + "/meta-path", "file://" + c + "/meta-url", "https://example.invalid/" + c,
                "$(touch " + c + "/subshell)", "`touch " + c + "/backtick`", "; touch " + c + "/semicolon", c + "/x.weftlog");
        Path log = Files.createDirectories(dir.resolve("logs")).resolve("hostile.weftlog");
        BaitRecording.write(log, bait, c + "/weft-version", "open " + c + "/violation or run `touch " + c + "/v`");
        return log;
    }

    /** Opens, indexes, checks and shows (every event's line, JSON and state) the recording named by args[0]. */
    static final class Viewer {
        public static void main(String[] args) throws Exception {
            try (IndexedRecordingSource source = IndexedRecordingSource.open(Path.of(args[0]), Progress.NONE)) {
                new DocumentViewModel(source, TaskRunner.direct()); // what the workbench builds for an opened file
                for (int op = 0; op < source.size(); op++) {
                    source.eventLine(op);
                    source.canonicalJson(op);
                    source.stateAt(op);
                }
                source.check(Set.of("fifo", "dup"), Progress.NONE);
                source.reports();
                System.out.println("shown " + source.size() + " events");
            }
        }
    }

    @Test
    void openingIndexingCheckingAndShowingARecordingTouchesNothingItNames(@TempDir Path dir) throws Exception {
        Path canaryDir = dir.resolve("canary");
        Path log = hostileRecording(dir, canaryDir);
        AccessWatcher seen = AccessWatcher.watch(Viewer.class, log.toString());
        assertEquals(0, seen.exitCode(), seen.output());
        assertTrue(seen.output().contains("shown "), seen.output());
        String canary = canaryDir.toString();
        assertEquals(List.of(), seen.files().stream().filter(f -> f.contains(canary)).toList(),
                "paths named inside the recording were accessed");
        assertEquals(List.of(), seen.programs(), "programs were started");
        assertEquals(List.of(), seen.sockets(), "sockets were used");
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(log.toString())), "the watcher saw the log being read");
        assertFalse(Files.exists(canaryDir));
    }

    /** Nothing in the workbench may start a program, open a URL or hand a string to the desktop or a browser. */
    private static ArchRule nothingStartsProgramsOrOpensUrls() {
        return noClasses().should().dependOnClassesThat().haveFullyQualifiedName(ProcessBuilder.class.getName())
                .orShould().callMethod(Runtime.class, "exec", String.class)
                .orShould().callMethod(Runtime.class, "exec", String[].class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.awt.Desktop")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("javafx.application.HostServices")
                .orShould().callMethod(java.net.URL.class, "openConnection")
                .orShould().callMethod(java.net.URL.class, "openStream");
    }

    @Test
    void noWorkbenchClassStartsProgramsOrOpensUrls() {
        JavaClasses app = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPath(Path.of("target", "classes"));
        nothingStartsProgramsOrOpensUrls().check(app);
    }

    /** A class that does what the rule forbids, to show the rule is not vacuous. */
    static final class Offender {
        void open(String s) throws IOException {
            new ProcessBuilder(s).start();
        }
    }

    @Test
    void theRuleCatchesAProgramStart() {
        JavaClasses offender = new ClassFileImporter().importClasses(Offender.class);
        assertThrows(AssertionError.class, () -> nothingStartsProgramsOrOpensUrls().check(offender));
    }
}
