package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which targets weft run puts under weft_super, and what it tells the user (no native code needed). */
class StaticSupervisionTest {
    private static final Path PROG = Path.of("/opt/x/prog");
    private static final Optional<Path> SUPER = Optional.of(Path.of("/opt/weft/weft_super"));

    private static List<String> prefix(BinaryInspector.Findings f, Optional<Path> supervisor, List<String> notes) {
        return StaticSupervision.prefix(f, supervisor, notes::add);
    }

    @Test
    void aStaticTargetRunsUnderTheSupervisorWithOneNote() {
        List<String> notes = new ArrayList<>();
        assertEquals(List.of("/opt/weft/weft_super", "--"),
                prefix(new BinaryInspector.Findings(PROG, false, true, false), SUPER, notes));
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).startsWith("weft run: note: /opt/x/prog is statically linked; it runs under weft_super:"),
                notes.get(0));
        assertEquals(List.of("/opt/weft/weft_super", "--", "a", "b"),
                StaticSupervision.around(List.of("/opt/weft/weft_super", "--"), List.of("a", "b")));
    }

    @Test
    void aStaticGoTargetIsToldItsTimesAreNotRunStable() {
        List<String> notes = new ArrayList<>();
        prefix(new BinaryInspector.Findings(PROG, false, true, true), SUPER, notes);
        assertTrue(notes.get(0).contains("is a statically linked Go binary;"), notes.get(0));
        assertTrue(notes.get(0).contains("so its times are not run-stable"), notes.get(0));
    }

    @Test
    void aSetuidStaticTargetKeepsItsSetuidWarning() {
        List<String> notes = new ArrayList<>();
        prefix(new BinaryInspector.Findings(PROG, true, true, false), SUPER, notes);
        assertEquals(2, notes.size());
        assertTrue(notes.get(0).startsWith("weft run: warning: /opt/x/prog is setuid/setgid;"), notes.get(0));
    }

    @Test
    void dynamicTargetsAreNotSupervised() {
        List<String> notes = new ArrayList<>();
        assertEquals(List.of(), prefix(new BinaryInspector.Findings(PROG, false, false, true), SUPER, notes));
        assertEquals(List.of("weft run: warning: /opt/x/prog is a Go binary; Go makes its own system calls, so clocks,"
                + " randomness and goroutine scheduling escape the shim"), notes);
        notes.clear();
        assertEquals(List.of(), prefix(new BinaryInspector.Findings(PROG, false, false, false), SUPER, notes));
        assertEquals(List.of(), notes);
    }
}
