package dev.weft.app.campaign;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A campaign output folder for tests, in the format weft campaign writes (docs/campaigns.md). */
public final class CampaignFixture {

    private CampaignFixture() {
    }

    /** A 2-cell Chord campaign folder as weft campaign writes it (keys sorted, results beside kept recordings). */
    public static Path create(Path f) throws Exception {
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

}
