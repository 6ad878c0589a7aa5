package dev.weft.timeline;

import dev.weft.log.LogReader;
import dev.weft.timeline.chord.ChordRingView;
import dev.weft.timeline.raft.RaftTermsView;
import dev.weft.log.LogRecord;
import javafx.scene.Scene;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Raft terms and Chord ring views over real case-study recordings read from the corpus. */
@ExtendWith(ApplicationExtension.class)
class ProtocolViewsUiTest {

    private final RaftTermsView raft = new RaftTermsView();
    private final ChordRingView chord = new ChordRingView();

    @Start
    void start(Stage stage) {
        HBox box = new HBox(raft, chord);
        raft.setPrefSize(760, 360);
        chord.setPrefSize(400, 360);
        stage.setScene(new Scene(box, 1160, 360));
        stage.show();
    }

    private static ReportLog read(String log) throws Exception {
        ReportLog.Builder b = new ReportLog.Builder();
        try (LogReader r = LogReader.open(dev.weft.testcorpus.SharedCorpus.conformance().resolve(log))) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) b.add(rec);
        }
        return b.build();
    }

    private static dev.weft.chord.ChordTimeline chordTimeline(String log) throws Exception {
        dev.weft.chord.ChordTimeline.Builder b = new dev.weft.chord.ChordTimeline.Builder(6);
        try (LogReader r = LogReader.open(dev.weft.testcorpus.SharedCorpus.conformance().resolve(log))) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) b.accept(rec);
        }
        return b.build();
    }

    @Test
    void drawsRaftTermsAndAChordRingFromRecordedReports(FxRobot robot) throws Exception {
        ReportLog raftReports = read("raft/raft-fix0-s18-violation.weftlog");
        ReportLog chordReports = read("chord/chord-fix0-s2-violation.weftlog");
        assertTrue(raftReports.size() > 50 && raftReports.allFit(dev.weft.protocol.Protocols.named("raft")));
        assertTrue(chordReports.size() > 50 && !chordReports.allFit(dev.weft.protocol.Protocols.named("raft")));
        dev.weft.chord.ChordTimeline ring = chordTimeline("chord/chord-fix0-s2-violation.weftlog");
        assertEquals(6, ring.snapshotAt(Long.MAX_VALUE).size(), "six Chord members report");
        robot.interact(() -> {
            raft.reportsProperty().set(raftReports);
            raft.cursorOpProperty().set(raftReports.op(raftReports.size() / 2));
            chord.chordProperty().set(ring);
            chord.cursorOpProperty().set(Integer.MAX_VALUE);
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> Screenshots.save(raft.getScene().getRoot(), "protocol-views"));
    }
}
