package dev.weft.launcher.campaign;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * report.json of a campaign folder (docs/campaigns.md): the one type {@link CampaignReport} writes and the
 * workbench's campaign view reads. Members in sorted order; nothing in it depends on wall time, the job count, the
 * shard or the folder's path, so a merged folder and a single process's give the same bytes.
 *
 * @param campaign   the config, as campaign.json holds it
 * @param cells      per matrix cell, in plan order: the tally and seeds of each verdict
 * @param complete   whether every planned run is done
 * @param violations per violation class (sorted): its hits, and how to replay and record again the first one
 */
@JsonPropertyOrder({"campaign", "cells", "complete", "done", "planned", "violations"})
public record CampaignReportFile(CampaignFile campaign, List<Cell> cells, boolean complete, long done, long planned,
        List<Violation> violations) {

    /** The file's name in a campaign folder. */
    public static final String NAME = "report.json";

    public CampaignReportFile {
        cells = cells == null ? List.of() : cells;
        violations = violations == null ? List.of() : violations;
    }

    /**
     * One matrix cell. The {@code DEADLOCK} count and seeds are absent from reports written before the broker's
     * deadlock verdict: they read as none.
     */
    @JsonPropertyOrder({"DEADLOCK", "DISCARD", "ERROR", "OK", "VIOLATION", "cell", "deadlock_seeds", "discard_seeds",
            "done", "error_seeds", "planned", "violation_seeds"})
    public record Cell(
            @JsonProperty("DEADLOCK") long deadlock,
            @JsonProperty("DISCARD") long discard,
            @JsonProperty("ERROR") long error,
            @JsonProperty("OK") long ok,
            @JsonProperty("VIOLATION") long violation,
            String cell,
            @JsonProperty("deadlock_seeds") @JsonSerialize(contentUsing = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(contentUsing = CampaignJson.UnsignedReader.class) List<Long> deadlockSeeds,
            @JsonProperty("discard_seeds") @JsonSerialize(contentUsing = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(contentUsing = CampaignJson.UnsignedReader.class) List<Long> discardSeeds,
            long done,
            @JsonProperty("error_seeds") @JsonSerialize(contentUsing = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(contentUsing = CampaignJson.UnsignedReader.class) List<Long> errorSeeds,
            long planned,
            @JsonProperty("violation_seeds") @JsonSerialize(contentUsing = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(contentUsing = CampaignJson.UnsignedReader.class) List<Long> violationSeeds) {

        public Cell {
            deadlockSeeds = deadlockSeeds == null ? List.of() : deadlockSeeds;
            discardSeeds = discardSeeds == null ? List.of() : discardSeeds;
            errorSeeds = errorSeeds == null ? List.of() : errorSeeds;
            violationSeeds = violationSeeds == null ? List.of() : violationSeeds;
        }
    }

    /** A violation class (the first report with numbers masked), its hits in plan order, and the first one. */
    @JsonPropertyOrder({"class", "count", "first", "hits"})
    public record Violation(@JsonProperty("class") String violationClass, long count, First first, List<Hit> hits) {
        public Violation {
            hits = hits == null ? List.of() : hits;
        }
    }

    /**
     * A class's first hit: its kept recording (null when it was not kept), the commands to replay it and to record it
     * again, and for a windowed campaign the live re-run's outcome and the exact first report (absent otherwise).
     */
    @JsonPropertyOrder({"cell", "confirmation", "identity", "recording", "replay", "rerun", "seed"})
    public record First(String cell,
            @JsonInclude(JsonInclude.Include.NON_NULL) String confirmation,
            @JsonInclude(JsonInclude.Include.NON_NULL) String identity,
            @JsonInclude(JsonInclude.Include.ALWAYS) String recording,
            String replay,
            String rerun,
            @JsonSerialize(using = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(using = CampaignJson.UnsignedReader.class) long seed) {
    }

    /** One violating run. */
    @JsonPropertyOrder({"cell", "seed"})
    public record Hit(String cell,
            @JsonSerialize(using = CampaignJson.UnsignedWriter.class)
            @JsonDeserialize(using = CampaignJson.UnsignedReader.class) long seed) {
    }

    /** The file's text: the root's members and the campaign's, cells and violations one per line. */
    String text() {
        return CampaignJson.write(this, 2);
    }

    /** Reads {@code folder}'s report.json; Jackson's exceptions say where it is not JSON or not a report. */
    public static CampaignReportFile read(Path folder) throws IOException {
        return CampaignJson.read(Files.readAllBytes(folder.resolve(NAME)), CampaignReportFile.class);
    }
}
