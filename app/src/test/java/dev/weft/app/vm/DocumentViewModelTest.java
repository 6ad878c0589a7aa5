package dev.weft.app.vm;

import dev.weft.app.source.FakeRecordingSource;
import dev.weft.app.source.ViolationInfo;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocumentViewModelTest {

    private final FakeRecordingSource src = FakeRecordingSource.generated(3, 3, 500);
    private final DocumentViewModel doc = new DocumentViewModel(src, TaskRunner.direct());

    @Test
    void stepsClampAtBothEndsAndSelectionFollowsTheCursor() {
        assertEquals(0, doc.cursor());
        doc.step(-1);
        assertEquals(0, doc.cursor());
        doc.step(10);
        assertEquals(10, doc.cursor());
        assertEquals(10, doc.selectionProperty().get());
        doc.selectionProperty().set(42);
        assertEquals(42, doc.cursor(), "selecting an event moves the cursor");
        doc.end();
        assertEquals(499, doc.cursor());
        doc.step(1);
        assertEquals(499, doc.cursor());
        doc.home();
        assertEquals(0, doc.cursor());
    }

    @Test
    void goToAcceptsWhatPeopleTypeAndExplainsWhatItRejects() {
        assertTrue(doc.goTo(" op 1_23 "));
        assertEquals(123, doc.cursor());
        assertFalse(doc.goTo("500"));
        assertEquals("op 500 is outside 0..499", doc.messageProperty().get());
        assertEquals(123, doc.cursor());
        assertFalse(doc.goTo("-3"));
        assertEquals("not an op number: \"-3\"", doc.messageProperty().get());
        assertFalse(doc.goTo("12x"));
    }

    @Test
    void opensAtTheFirstViolationAndWalksThemBothWays() {
        doc.runChecks(true);
        List<ViolationInfo> v = doc.violations();
        assertTrue(v.size() >= 3, "the generator reorders, so fifo fires: " + v.size());
        assertEquals(v.get(0).op(), doc.cursor());
        assertTrue(doc.nextViolation());
        assertEquals(v.get(1).op(), doc.cursor());
        assertTrue(doc.previousViolation());
        assertEquals(v.get(0).op(), doc.cursor());
        assertFalse(doc.previousViolation());
        assertEquals("no violation before op " + v.get(0).op(), doc.messageProperty().get());
        doc.end();
        assertTrue(doc.previousViolation());
        assertEquals(v.get(v.size() - 1).op(), doc.cursor());
    }

    @Test
    void withNoInvariantsSelectedItOpensAtOpZero() {
        doc.selectedInvariants().clear();
        doc.goTo(77);
        doc.runChecks(true);
        assertTrue(doc.violations().isEmpty());
        assertEquals(0, doc.cursor());
    }

    @Test
    void playAdvancesAtTheChosenSpeedAndStopsAtTheEnd() {
        doc.speedProperty().set(10);
        doc.togglePlay();
        doc.tick(0.05);
        assertEquals(0, doc.cursor(), "half an op is carried, not lost");
        doc.tick(0.05);
        assertEquals(1, doc.cursor());
        doc.tick(1.0);
        assertEquals(11, doc.cursor());
        doc.tick(1000);
        assertEquals(499, doc.cursor());
        assertFalse(doc.playingProperty().get());
    }

    @Test
    void copyAsCommandReproducesTheCursor() {
        doc.goTo(12);
        assertEquals("weft replay fake-3.weftlog --until 12 --check fifo,dup", doc.reproduceCommand());
        assertEquals("weft replay '/tmp/my log.weftlog' --until 3", ReproCommand.replay(Path.of("/tmp/my log.weftlog"), 3, List.of()));
        assertEquals("'it'\\''s'", dev.weft.text.ShellWords.quote("it's"));
    }
}
