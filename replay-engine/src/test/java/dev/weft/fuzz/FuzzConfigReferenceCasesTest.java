package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzz-config cases where we disagreed with the reference (issue 12, failure 3): each is accepted or rejected
 * as the reference does, with our own message naming the file and the problem (never a parser library's).
 */
class FuzzConfigReferenceCasesTest {

    private static FuzzConfig parse(String json) throws FuzzConfigException {
        return FuzzConfigLoader.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String error(byte[] json) {
        String m = assertThrows(FuzzConfigException.class, () -> FuzzConfigLoader.parse(json)).getMessage();
        assertFalse(m.contains("\n"), m);
        assertFalse(m.contains("StreamRead") || m.contains("jackson") || m.contains("Jackson"), m);
        return m;
    }

    @Test
    void leadingByteOrderMarkIsRejected() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] doc = "{\"net\":\"\"}".getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[bom.length + doc.length];
        System.arraycopy(bom, 0, withBom, 0, 3);
        System.arraycopy(doc, 0, withBom, 3, doc.length);
        assertEquals("config: Unexpected character byte 0xef: expected a JSON value at line 1 column 1", error(withBom));
    }

    @Test
    void loneSurrogateEscapeIsRejected() {
        assertEquals("config: lone surrogate in string (\\ud800) at line 1 column 14",
                error("{\"net\":\"\\ud800\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("config: lone surrogate in string (\\udc00) at line 1 column 22",
                error("{\"net\":\"\",\"//\":\"\\udc00\"}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void nullCommentIsAccepted() throws Exception {
        assertEquals("latency=fixed:1", parse("{\"//\":null,\"net\":\"latency=fixed:1\"}").net());
    }

    @Test
    void emptyWorkloadSequenceIsTheDefaultWorkload() throws Exception {
        assertEquals(WorkloadSpec.DEFAULT, parse("{\"net\":\"\",\"workload\":[]}").workload());
        // serde's sequence form of a struct: members in declaration order, missing ones defaulted
        assertEquals(new WorkloadSpec(3, 30, 4, 0), parse("{\"net\":\"\",\"workload\":[3,30]}").workload());
        assertEquals("config: trailing characters at line 1 column 31",
                error("{\"net\":\"\",\"workload\":[2,2,2,2,2]}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void payloadLengthOf100000IsAccepted() throws Exception {
        assertEquals(100_000, parse("{\"net\":\"\",\"workload\":{\"payload_len\":100000}}").workload().payloadLen());
    }

    @Test
    void invalidUtf8IsAReadErrorNamingTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.json");
        Files.write(file, new byte[] {'{', '"', 'n', 'e', 't', '"', ':', '"', (byte) 0xC3, '"', '}'});
        String m = assertThrows(FuzzConfigException.class, () -> FuzzConfigLoader.load(file, "cfg/bad.json")).getMessage();
        assertEquals("config cfg/bad.json: stream did not contain valid UTF-8 (line 1 column 9, byte 8)", m);
    }

    @Test
    void deeplyNestedValuesGiveOurOwnMessage() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertEquals("config: invalid type: sequence, expected a string at line 1 column 8",
                error(("{\"net\":" + deep + "}").getBytes(StandardCharsets.UTF_8)));
        assertEquals("config: invalid type: sequence, expected a string at line 1 column 25",
                error(("{\"net\":\"\",\"invariants\":" + deep + "}").getBytes(StandardCharsets.UTF_8)));
    }
}
