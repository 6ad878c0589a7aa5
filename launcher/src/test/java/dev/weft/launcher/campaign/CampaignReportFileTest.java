package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.fuzz.RegressionFile;
import dev.weft.log.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.json and campaign.json are one Jackson type each (CampaignReportFile, CampaignFile), written and read
 * through one mapper, in the layout these files always had: the texts below are what the hand-built writers wrote.
 */
class CampaignReportFileTest {

    /** A windowed campaign's report as weft campaign wrote it before the files had a type (one hit not kept). */
    static final String WINDOWED = """
            {
              "campaign": {
                "checker": "raft",
                "env": {"RAFT_NNODES": "5"},
                "keep_pass_permille": 0,
                "matrix": {"RAFT_FIX": ["0", "1"]},
                "net": "latency=uniform:2000-60000",
                "nodes": 5,
                "seed_count": 3,
                "seed_start": 18446744073709551614,
                "shim": "/opt/weft/libweft_shim.so",
                "target": ["/opt/raft_node", "5"],
                "time_bound_secs": 120,
                "watchdog_secs": 30,
                "window_ns": 1000
              },
              "cells": [
                {"DEADLOCK": 0, "DISCARD": 0, "ERROR": 0, "OK": 1, "VIOLATION": 2, "cell": "RAFT_FIX=0", "deadlock_seeds": [], "discard_seeds": [], "done": 3, "error_seeds": [], "planned": 3, "violation_seeds": [18446744073709551614, 18446744073709551615]},
                {"DEADLOCK": 1, "DISCARD": 0, "ERROR": 0, "OK": 0, "VIOLATION": 0, "cell": "RAFT_FIX=1", "deadlock_seeds": [0], "discard_seeds": [], "done": 1, "error_seeds": [], "planned": 3, "violation_seeds": []}
              ],
              "complete": false,
              "done": 4,
              "planned": 6,
              "violations": [
                {"class": "term #: leaders [#, #]", "count": 2, "first": {"cell": "RAFT_FIX=0", "confirmation": "confirmed: same bytes", "identity": "term 2: leaders [0, 2]", "recording": null, "replay": "weft replay runs/RAFT_FIX=0/s18446744073709551614.weftlog && weft check raft runs/RAFT_FIX=0/s18446744073709551614.weftlog", "rerun": "RAFT_FIX=0 weft run --seed 18446744073709551614", "seed": 18446744073709551614}, "hits": [{"cell": "RAFT_FIX=0", "seed": 18446744073709551614}, {"cell": "RAFT_FIX=0", "seed": 18446744073709551615}]}
              ]
            }
            """;

    /** A campaign with nothing run yet and an external checker. */
    static final String EMPTY = """
            {
              "campaign": {
                "checker_command": ["/opt/check.sh", "--strict"],
                "env": {},
                "keep_pass_permille": 100,
                "matrix": {},
                "net": "reliable",
                "nodes": 2,
                "seed_count": 10,
                "seed_start": 0,
                "target": ["/opt/pingpong"],
                "time_bound_secs": 60,
                "watchdog_secs": 0
              },
              "cells": [],
              "complete": false,
              "done": 0,
              "planned": 0,
              "violations": []
            }
            """;

    private static CampaignReportFile read(String text) throws Exception {
        return CampaignJson.read(text.getBytes(StandardCharsets.UTF_8), CampaignReportFile.class);
    }

    @Test
    void aReportReadsAndWritesBackToTheSameBytes() throws Exception {
        for (String text : List.of(WINDOWED, EMPTY)) {
            assertEquals(text, read(text).text());
        }
        CampaignReportFile r = read(WINDOWED);
        assertEquals(-2L, r.campaign().seedStart(), "seeds are unsigned 64-bit");
        assertEquals(List.of(-2L, -1L), r.cells().get(0).violationSeeds());
        assertNull(r.violations().get(0).first().recording());
        assertEquals(1000, r.campaign().windowNs());
    }

    @Test
    void campaignJsonIsTheReportsCampaignMemberAtTheTopLevel() throws Exception {
        CampaignFile c = read(EMPTY).campaign();
        String expected = EMPTY.substring(EMPTY.indexOf("\"campaign\": ") + 12, EMPTY.indexOf("  },\n") + 3)
                .replace("\n  ", "\n") + "\n";
        assertEquals(expected, c.text());
        // and the config parser reads it back to the config that writes it
        CampaignConfig parsed = CampaignConfig.parse(c.text().getBytes(StandardCharsets.UTF_8), Path.of("/"));
        assertEquals(c.text(), parsed.canonicalJson());
    }

    @Test
    void aReportWithoutDeadlockMembersReadsAsNoDeadlocks() throws Exception {
        String older = EMPTY.replace("\"cells\": []", "\"cells\": [\n    {\"DISCARD\": 0, \"ERROR\": 0, \"OK\": 1,"
                + " \"VIOLATION\": 0, \"cell\": \"all\", \"discard_seeds\": [], \"done\": 1, \"error_seeds\": [],"
                + " \"planned\": 1, \"violation_seeds\": []}\n  ]");
        CampaignReportFile.Cell cell = read(older).cells().get(0);
        assertEquals(0, cell.deadlock());
        assertEquals(List.of(), cell.deadlockSeeds());
    }

    @Test
    void stringsAreEscapedAsTheProjectsJsonStringWriterEscapesThem() throws Exception {
        String odd = "a\"b\\c\u0001\u001f\b\f\n\r\té—";
        CampaignReportFile r = new CampaignReportFile(read(EMPTY).campaign(), List.of(new CampaignReportFile.Cell(0, 0,
                0, 0, 0, odd, List.of(), List.of(), 0, List.of(), 0, List.of())), true, 0, 0, List.of());
        assertTrue(r.text().contains("\"cell\": " + CanonicalJson.string(odd) + ","), r.text());
        assertEquals(odd, read(r.text()).cells().get(0).cell());
        assertEquals(Map.of(), read(EMPTY).campaign().env());
    }

    @Test
    void aCellsRegressionFileIsWeftFuzzsRegressionFormat(@TempDir Path dir) throws Exception {
        List<Long> seeds = List.of(0L, 32L, -1L);
        String text = RegressionFile.oneLine(seeds);
        assertEquals("[0, 32, 18446744073709551615]\n", text, "the layout campaigns always wrote");
        assertEquals("[]\n", RegressionFile.oneLine(List.of()));
        Files.writeString(dir.resolve("r.json"), text);
        assertEquals(seeds, RegressionFile.read(dir.resolve("r.json"), "r.json"));
    }
}
