package dev.weft.app.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.timeline.PngWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.chart.XYChart;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The campaign results view on a campaign folder in the format weft campaign writes (docs/campaigns.md: report.json,
 * runs/&lt;cell&gt;/s&lt;seed&gt;.result, kept recordings): the tallies per cell, the chart's buckets, every run worth
 * a look in plan order with its class and checker line, sorting, filtering, and a double-click that hands a kept
 * recording to the main window. A folder without a report says why.
 */
@ExtendWith(ApplicationExtension.class)
class CampaignPanelUiTest {

    private CampaignPanel panel;
    private Scene scene;
    private final List<Path> opened = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) {
        panel = new CampaignPanel(opened::add);
        scene = new Scene((Region) panel.node(), 1260, 780);
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void showsTalliesHitsAndOpensAKeptRecording(FxRobot robot, @TempDir Path dir) throws Exception {
        Path folder = fixture(dir.resolve("chord-campaign"));
        robot.interact(() -> panel.open(folder));
        waitUntil(() -> panel.resultsProperty().get() != null, 20);
        CampaignResults r = panel.resultsProperty().get();
        assertEquals(List.of(
                new CampaignResults.Cell("CHORD_FIX=0", 6, 6, 2, 3, 1, 0),
                new CampaignResults.Cell("CHORD_FIX=1", 6, 6, 5, 0, 0, 1)), panel.cellTable().getItems());
        assertTrue(panel.summaryText().contains("complete (12 of 12 runs), 1 distinct violation class"), panel.summaryText());
        // chart: one series per bucket, one bar per cell
        assertEquals(List.of("OK", "VIOLATION", "DISCARD", "ERROR"), panel.chart().getData().stream().map(XYChart.Series::getName).toList());
        assertEquals(List.of(3L, 0L), panel.chart().getData().get(1).getData().stream().map(d -> d.getYValue().longValue()).toList());
        // rows in plan order: cell by cell, seeds ascending
        assertEquals(List.of("CHORD_FIX=0 s1 VIOLATION", "CHORD_FIX=0 s3 VIOLATION", "CHORD_FIX=0 s4 DISCARD",
                "CHORD_FIX=0 s5 VIOLATION", "CHORD_FIX=1 s0 OK", "CHORD_FIX=1 s2 ERROR"), rows(panel.hitTable().getItems()));
        CampaignResults.Hit first = panel.hitTable().getItems().get(0);
        assertEquals("AtLeastOneRing : no ring member", first.violationClass());
        assertEquals("AtLeastOneRing : no ring member", first.identity());
        assertEquals(folder.resolve("runs/CHORD_FIX=0/s1.weftlog"), first.recording());
        assertNull(panel.hitTable().getItems().get(1).recording(), "s3's recording was compacted away");
        assertEquals("time bound of 120 s", panel.hitTable().getItems().get(5).identity());

        // sort by seed, descending: unsigned order, as the seed column compares
        robot.interact(() -> {
            var seedColumn = panel.hitTable().getColumns().stream().filter(c -> c.getText().equals("seed")).findFirst().orElseThrow();
            seedColumn.setSortType(javafx.scene.control.TableColumn.SortType.DESCENDING);
            panel.hitTable().getSortOrder().setAll(List.of(seedColumn));
        });
        assertEquals(List.of(5L, 4L, 3L, 2L, 1L, 0L), panel.hitTable().getItems().stream().map(CampaignResults.Hit::seed).toList());
        robot.interact(() -> panel.hitTable().getSortOrder().clear());

        robot.interact(() -> panel.filterVerdict("VIOLATION"));
        assertEquals(List.of("CHORD_FIX=0 s1 VIOLATION", "CHORD_FIX=0 s3 VIOLATION", "CHORD_FIX=0 s5 VIOLATION"),
                rows(panel.hitTable().getItems()));
        screenshot(robot, "campaign-panel");
        robot.doubleClickOn(firstRow(robot, "#campaignHits"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(folder.resolve("runs/CHORD_FIX=0/s1.weftlog")), opened);
    }

    @Test
    void aFolderWithoutAReportSaysWhy(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> panel.open(dir));
        waitUntil(() -> panel.summaryText().startsWith("✗"), 20);
        assertTrue(panel.summaryText().contains("no report.json"), panel.summaryText());
        Files.writeString(dir.resolve("report.json"), "{\n  \"campaign\": {,\n}\n");
        robot.interact(() -> panel.open(dir));
        waitUntil(() -> panel.summaryText().contains("line 2"), 20);
    }

    /** The table's row showing item 0 (the flow may keep spare row cells around). */
    static javafx.scene.Node firstRow(FxRobot robot, String table) {
        return robot.lookup(table + " .table-row-cell").match((javafx.scene.Node n) -> n instanceof javafx.scene.control.TableRow<?> r
                && r.getIndex() == 0 && !r.isEmpty() && r.isVisible()).queryAs(javafx.scene.Node.class);
    }

    private static List<String> rows(List<CampaignResults.Hit> hits) {
        return hits.stream().map(h -> h.cell() + " s" + h.seed() + " " + h.verdict()).toList();
    }

    /** A 2-cell Chord campaign folder as weft campaign writes it (keys sorted, results beside kept recordings). */
    static Path fixture(Path f) throws Exception {
        String report = """
                {
                  "campaign": {
                    "checker": "chord 6",
                    "env": {"CHORD_NNODES": "7"},
                    "keep_pass_permille": 100,
                    "matrix": {"CHORD_FIX": ["0", "1"]},
                    "net": "latency=uniform:1000-60000",
                    "nodes": 7,
                    "seed_count": 6,
                    "seed_start": 0,
                    "target": ["examples/chord_node", "6", "45", "3"],
                    "time_bound_secs": 120,
                    "watchdog_secs": 30
                  },
                  "cells": [
                    {"DISCARD": 1, "ERROR": 0, "OK": 2, "VIOLATION": 3, "cell": "CHORD_FIX=0", "discard_seeds": [4], "done": 6, "error_seeds": [], "planned": 6, "violation_seeds": [1, 3, 5]},
                    {"DISCARD": 0, "ERROR": 1, "OK": 5, "VIOLATION": 0, "cell": "CHORD_FIX=1", "discard_seeds": [], "done": 6, "error_seeds": [2], "planned": 6, "violation_seeds": []}
                  ],
                  "complete": true,
                  "done": 12,
                  "planned": 12,
                  "violations": [
                    {"class": "AtLeastOneRing : no ring member", "count": 3, "first": {"cell": "CHORD_FIX=0", "recording": "runs/CHORD_FIX=0/s1.weftlog", "replay": "weft replay runs/CHORD_FIX=0/s1.weftlog && weft check chord runs/CHORD_FIX=0/s1.weftlog 6", "rerun": "CHORD_FIX=0 CHORD_NNODES=7 weft run --seed 1 --net latency=uniform:1000-60000 --nodes 7 --record rerun-s1.weftlog --watchdog 30 -- examples/chord_node 6 45 3", "seed": 1}, "hits": [{"cell": "CHORD_FIX=0", "seed": 1}, {"cell": "CHORD_FIX=0", "seed": 3}, {"cell": "CHORD_FIX=0", "seed": 5}]}
                  ]
                }
                """;
        Files.createDirectories(f);
        Files.writeString(f.resolve("report.json"), report, StandardCharsets.UTF_8);
        Path sample = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(sample.resolve("examples/recordings/sample.weftlog"))) sample = sample.getParent();
        sample = sample.resolve("examples/recordings/sample.weftlog");
        result(f, "CHORD_FIX=0", 0, "OK", false, "");
        result(f, "CHORD_FIX=0", 1, "VIOLATION", true, "AtLeastOneRing : no ring member");
        result(f, "CHORD_FIX=0", 2, "OK", false, "");
        result(f, "CHORD_FIX=0", 3, "VIOLATION", false, "AtLeastOneRing : no ring member");
        result(f, "CHORD_FIX=0", 4, "DISCARD", false, "discard: ring never formed");
        result(f, "CHORD_FIX=0", 5, "VIOLATION", true, "AtLeastOneRing : no ring member");
        result(f, "CHORD_FIX=1", 0, "OK", true, "");
        for (int s = 1; s < 6; s++) result(f, "CHORD_FIX=1", s, s == 2 ? "ERROR" : "OK", false, s == 2 ? "time bound of 120 s" : "");
        for (String kept : List.of("CHORD_FIX=0/s1", "CHORD_FIX=0/s5", "CHORD_FIX=1/s0")) {
            Files.copy(sample, f.resolve("runs/" + kept + ".weftlog"));
        }
        return f;
    }

    private static void result(Path f, String cell, long seed, String verdict, boolean kept, String identity) throws Exception {
        Path dir = Files.createDirectories(f.resolve("runs").resolve(cell));
        Files.writeString(dir.resolve("s" + seed + ".result"), "verdict " + verdict + "\nkept " + (kept ? 1 : 0)
                + "\nidentity " + identity + "\n", StandardCharsets.UTF_8);
    }

    static void waitUntil(java.util.function.BooleanSupplier done, int seconds) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean[] ok = new boolean[1];
            javafx.application.Platform.runLater(() -> ok[0] = done.getAsBoolean());
            WaitForAsyncUtils.waitForFxEvents();
            if (ok[0]) return;
            if (System.nanoTime() > end) throw new AssertionError("not done after " + seconds + " s");
            Thread.sleep(20);
        }
    }

    private void screenshot(FxRobot robot, String name) {
        robot.interact(() -> {
            try {
                scene.getRoot().applyCss();
                scene.getRoot().layout();
                PngWriter.write(scene.snapshot(null), Path.of("target", "screenshots", name + ".png"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
