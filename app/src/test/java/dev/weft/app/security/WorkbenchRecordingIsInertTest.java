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
import dev.weft.fuzz.Executor;
import dev.weft.fuzz.Op;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.NetSpec;
import dev.weft.testsupport.AccessWatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/security.md, rule "a recording is data", for the workbench: opening, indexing, checking and showing a
 * recording whose meta, payloads and violation text name paths, URLs and shell commands touches none of them,
 * and no workbench class can start a program or hand a string to a browser or the desktop.
 */
class WorkbenchRecordingIsInertTest {

    @TempDir
    Path dir;

    private Path canaryDir() {
        return dir.resolve("canary");
    }

    private Path hostileRecording() throws Exception {
        String c = canaryDir().toString();
        List<String> bait = List.of(c + "/meta-path", "file://" + c + "/meta-url", "https://example.invalid/" + c,
                "$(touch " + c + "/subshell)", "`touch " + c + "/backtick`", "; touch " + c + "/semicolon", c + "/x.weftlog");
        Path log = Files.createDirectories(dir.resolve("logs")).resolve("hostile.weftlog");
        VAddr a = WorkloadGenerator.addressOf(0);
        VAddr b = WorkloadGenerator.addressOf(1);
        List<Op> ops = new ArrayList<>(List.of(new Op.Connect(0), new Op.Bind(0, a), new Op.Connect(1), new Op.Bind(1, b)));
        List<String> payloads = new ArrayList<>(bait);
        payloads.add("RPT 0 1 1 1 1 1");
        for (String text : payloads) {
            ops.add(new Op.Send(0, a, b, text.getBytes(StandardCharsets.UTF_8)));
            ops.add(new Op.Recv(1, false));
        }
        String net = "latency=fixed:10";
        try (LogWriter w = LogWriter.create(log, 1, net, 0, new LogMeta(0L, c + "/weft-version", String.join(" ", bait)))) {
            Executor.Execution run = Executor.execute(1, NetSpec.parse(net), ops, List.of(), (i, vt, e, raised) -> {
                try {
                    w.append(vt, e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            w.append(run.finalVt(), new Event.Violation("per-channel-fifo", "open " + c + "/violation or run `touch " + c + "/v`"));
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
        }
        return log;
    }

    @Test
    void openingIndexingCheckingAndShowingARecordingTouchesNothingItNames() throws Exception {
        Path log = hostileRecording();
        AccessWatcher seen = AccessWatcher.watch(() -> {
            try (IndexedRecordingSource source = IndexedRecordingSource.open(log, Progress.NONE)) {
                DocumentViewModel doc = new DocumentViewModel(source, TaskRunner.direct());
                assertTrue(doc != null);
                for (int op = 0; op < source.size(); op++) {
                    source.eventLine(op);
                    source.canonicalJson(op);
                    source.stateAt(op);
                }
                source.check(Set.of("fifo", "dup"), Progress.NONE);
                source.reports();
            }
            return null;
        });
        String canary = canaryDir().toString();
        assertEquals(List.of(), seen.files().stream().filter(f -> f.contains(canary)).toList(),
                "paths named inside the recording were accessed");
        assertEquals(List.of(), seen.programs(), "programs were started");
        assertEquals(List.of(), seen.sockets(), "sockets were used");
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(log.toString())), "the watcher saw the log being read");
        assertFalse(Files.exists(canaryDir()));
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
