package dev.weft.launcher.help;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.launcher.WeftCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/cli.md is exactly the commands' help ({@link CliReference}); -Dweft.docs.update=true rewrites it. */
class CliReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "cli.md");

    @Test
    void cliReferenceMatchesTheCommandsHelp() throws IOException {
        String expected = CliReference.markdown();
        if (Boolean.getBoolean("weft.docs.update")) {
            Files.writeString(PAGE, expected, StandardCharsets.UTF_8);
        }
        assertEquals(expected, Files.readString(PAGE, StandardCharsets.UTF_8),
                "docs/cli.md is stale: regenerate it as its first lines say");
    }

    @Test
    void everyCommandHasASection() {
        String page = CliReference.markdown();
        for (WeftCommand c : WeftCommand.values()) {
            assertEquals(true, page.contains("\n## weft " + c.word() + "\n"), c.word());
        }
    }
}
