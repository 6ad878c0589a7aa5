package dev.weft.app.fuzz;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Issue 26 item 9: a config read from the source tree does not fill the source tree with reproducers. */
class FuzzDefaultsTest {

    @Test
    void theDefaultOutputFolderIsUnderHomeNotBesideTheConfig() throws Exception {
        Path config = Path.of("/src/weft/examples/fuzz/sample.json");
        Path out = FuzzViewModel.defaultOutDir(config, null);
        assertEquals(Path.of(System.getProperty("user.home"), "weft-fuzz", "sample-weft-fuzz-out"), out);
        assertFalse(out.startsWith(Path.of("/src/weft/examples")));
    }
}
