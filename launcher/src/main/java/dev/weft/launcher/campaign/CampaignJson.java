package dev.weft.launcher.campaign;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.Instantiatable;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one mapper of a campaign folder's JSON files, campaign.json ({@link CampaignFile}) and report.json
 * ({@link CampaignReportFile}): each file is one Jackson type that its writer and every reader share.
 *
 * <p>The layout is the one these files always had, since people read them and tests compare them byte for byte: the
 * outer containers one member per line, indented by two spaces per level, deeper ones on one line with {@code ", "}
 * between members; {@code ": "} after every name; a newline at the end. Strings are escaped as the project's JSON
 * string writer ({@link dev.weft.log.CanonicalJson#string}) escapes them: Jackson's short escapes are the same ones,
 * and its six-character escapes are switched to lowercase hex.
 */
public final class CampaignJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
            // a newer weft may add members; an older workbench still reads what it knows
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private CampaignJson() {
    }

    /** {@code document} as text, its outer {@code brokenLevels} levels of containers one member per line. */
    static String write(Object document, int brokenLevels) {
        try {
            return MAPPER.writer(new Layout(brokenLevels)).writeValueAsString(document) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e); // records of strings and numbers: nothing here can fail to write
        }
    }

    /** Reads a document; Jackson's exceptions say where the text is not JSON or not the type. */
    static <T> T read(byte[] json, Class<T> type) throws IOException {
        return MAPPER.readValue(json, type);
    }

    /** The layout above, as a Jackson pretty printer (one instance per document: it counts open containers). */
    static final class Layout implements PrettyPrinter, Instantiatable<Layout> {
        private final int brokenLevels;
        /** Containers open around the next token; the innermost is at level {@code open - 1}. */
        private int open;

        Layout(int brokenLevels) {
            this.brokenLevels = brokenLevels;
        }

        @Override
        public Layout createInstance() {
            return new Layout(brokenLevels);
        }

        private boolean broken() {
            return open <= brokenLevels;
        }

        private void newline(JsonGenerator g, int level) throws IOException {
            g.writeRaw('\n');
            for (int i = 0; i < level; i++) {
                g.writeRaw("  ");
            }
        }

        private void open(JsonGenerator g, char c) throws IOException {
            g.writeRaw(c);
            open++;
        }

        private void firstMember(JsonGenerator g) throws IOException {
            if (broken()) newline(g, open);
        }

        private void nextMember(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            if (broken()) {
                newline(g, open);
            } else {
                g.writeRaw(' ');
            }
        }

        private void close(JsonGenerator g, char c, int members) throws IOException {
            if (broken() && members > 0) newline(g, open - 1);
            g.writeRaw(c);
            open--;
        }

        @Override
        public void writeRootValueSeparator(JsonGenerator g) {
            // one document per file
        }

        @Override
        public void writeStartObject(JsonGenerator g) throws IOException {
            open(g, '{');
        }

        @Override
        public void beforeObjectEntries(JsonGenerator g) throws IOException {
            firstMember(g);
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            nextMember(g);
        }

        @Override
        public void writeEndObject(JsonGenerator g, int members) throws IOException {
            close(g, '}', members);
        }

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            open(g, '[');
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            firstMember(g);
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            nextMember(g);
        }

        @Override
        public void writeEndArray(JsonGenerator g, int values) throws IOException {
            close(g, ']', values);
        }
    }

    /** A seed: an unsigned 64-bit number held in a {@code long}, written as its unsigned decimal. */
    static final class UnsignedWriter extends StdSerializer<Long> {
        UnsignedWriter() {
            super(Long.class);
        }

        @Override
        public void serialize(Long value, JsonGenerator g, SerializerProvider provider) throws IOException {
            g.writeNumber(Long.toUnsignedString(value));
        }
    }

    /** Reads what {@link UnsignedWriter} writes (seeds above 2^63 - 1 included). */
    static final class UnsignedReader extends StdDeserializer<Long> {
        UnsignedReader() {
            super(Long.class);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getText();
            try {
                return Long.parseUnsignedLong(text);
            } catch (NumberFormatException e) {
                return (Long) ctxt.handleWeirdStringValue(Long.class, text, "not a seed (0 to 2^64-1)");
            }
        }
    }
}
