package dev.weft.scenario;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Entry point of the scenario DSL: parse, validate (scenario-dsl.md §2) and return the scenario with
 * its events sorted by time. Any bad input ends in a {@link ScenarioException} whose message is the
 * spec's text; I/O problems reading a file are {@link IOException}s.
 */
public final class Scenarios {

    private Scenarios() {
    }

    public static Scenario load(String json) throws ScenarioException {
        return ScenarioValidator.validate(ScenarioParser.parse(json));
    }

    /** The bytes must be UTF-8; invalid UTF-8 is a parse error naming the byte offset. */
    public static Scenario load(byte[] utf8) throws ScenarioException {
        return load(decodeUtf8(utf8));
    }

    /** A scenario file is at most this large (ours; 1024 nodes with long command lines fit many times over). */
    public static final int MAX_FILE_BYTES = 64 << 20;

    /**
     * Reads and loads a scenario file; one past {@link #MAX_FILE_BYTES} (or {@code /dev/zero}) is an
     * {@link IOException} saying so, read no further than the limit.
     */
    public static Scenario load(Path file) throws IOException, ScenarioException {
        try {
            return load(dev.weft.io.BoundedFiles.read(file, MAX_FILE_BYTES));
        } catch (dev.weft.io.BoundedFiles.TooLargeException e) {
            throw new IOException(e.getMessage() + "; a scenario file is at most that", e);
        }
    }

    private static String decodeUtf8(byte[] bytes) throws ScenarioException {
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return decoder.decode(in).toString();
        } catch (CharacterCodingException e) {
            throw ScenarioException.parse("invalid UTF-8 at byte offset " + in.position());
        }
    }
}
