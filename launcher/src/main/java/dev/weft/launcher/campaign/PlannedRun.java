package dev.weft.launcher.campaign;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One run of the campaign: a matrix cell (its variables) and a seed.
 *
 * @param cellIndex the cell's position in {@link CampaignConfig#cells()}
 * @param cell      the cell's variables, in name order
 * @param seed      the run's seed
 */
public record PlannedRun(int cellIndex, Map<String, String> cell, long seed) {

    /** The cell's name, e.g. {@code FIX=0} or {@code A=1,B=x}; {@code all} without a matrix. */
    public static String cellName(Map<String, String> cell) {
        return cell.isEmpty() ? "all"
                : cell.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    public String cellName() {
        return cellName(cell);
    }

    /** Where its result and recording live under the output folder: {@code runs/<cell>/s<seed>}. */
    public String stem() {
        return "runs/" + cellName() + "/s" + Long.toUnsignedString(seed);
    }

    /** Every run in plan order: cells in order, seeds ascending within each. */
    public static List<PlannedRun> plan(CampaignConfig c, long seedStart, long seedCount) {
        List<Map<String, String>> cells = c.cells();
        java.util.ArrayList<PlannedRun> runs = new java.util.ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            for (long s = 0; s < seedCount; s++) {
                runs.add(new PlannedRun(i, cells.get(i), seedStart + s));
            }
        }
        return runs;
    }
}
