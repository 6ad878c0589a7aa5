package dev.weft.launcher.shrink;

import dev.weft.launcher.campaign.CampaignConfig;
import dev.weft.launcher.campaign.PlannedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The matrix cell that {@code --cell K=V} options name: exactly one must match. */
final class CellChoice {
    private CellChoice() {
    }

    static PlannedRun run(CampaignConfig config, Map<String, String> chosen, long seed) throws ShrinkException {
        for (Map.Entry<String, String> e : chosen.entrySet()) {
            List<String> values = config.matrix().get(e.getKey());
            if (values == null) {
                throw new ShrinkException("--cell " + e.getKey() + "=" + e.getValue() + ": " + e.getKey()
                        + " is not a variable of the config's matrix"
                        + (config.matrix().isEmpty() ? " (it has none)" : " (" + String.join(", ", config.matrix().keySet()) + ")"));
            }
            if (!values.contains(e.getValue())) {
                throw new ShrinkException("--cell " + e.getKey() + "=" + e.getValue() + ": not one of its values ("
                        + String.join(", ", values) + ")");
            }
        }
        List<Map<String, String>> cells = config.cells();
        List<Integer> matching = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).entrySet().containsAll(chosen.entrySet())) {
                matching.add(i);
            }
        }
        if (matching.size() != 1) {
            List<String> names = new ArrayList<>();
            for (int i : matching) {
                names.add(PlannedRun.cellName(cells.get(i)));
            }
            throw new ShrinkException("the config's matrix has " + matching.size() + " cells matching; name one with"
                    + " --cell K=V (" + String.join(" | ", names) + ")");
        }
        int i = matching.get(0);
        return new PlannedRun(i, cells.get(i), seed);
    }
}
