package dev.weft.export;

import dev.weft.log.CanonicalJson;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * A minimal streaming JSON writer for exports: objects, arrays, string and number members, with the commas kept
 * track of by nesting level. Strings are escaped as the weft-log canonical form does (valid JSON), so the engine
 * needs no JSON library at run time.
 */
final class JsonStreamWriter {

    private final Writer out;
    /** For each open container (innermost last): whether it already has a member; at most a few levels deep. */
    private final boolean[] hasMember = new boolean[16];
    private int depth;
    private final StringBuilder scratch = new StringBuilder();

    JsonStreamWriter(OutputStream out) {
        this.out = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }

    void startObject() throws IOException {
        separate();
        open('{');
    }

    void startObject(String name) throws IOException {
        name(name);
        open('{');
    }

    void startArray(String name) throws IOException {
        name(name);
        open('[');
    }

    void endObject() throws IOException {
        close('}');
    }

    void endArray() throws IOException {
        close(']');
    }

    void string(String name, String value) throws IOException {
        name(name);
        quoted(value);
    }

    void number(String name, long value) throws IOException {
        name(name);
        out.write(Long.toString(value));
    }

    /** Finite doubles only (timestamps); Double.toString's forms, such as 1.5E7, are valid JSON numbers. */
    void number(String name, double value) throws IOException {
        if (!Double.isFinite(value)) throw new IllegalArgumentException(name + " is not a finite number: " + value);
        name(name);
        out.write(value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value));
    }

    void flush() throws IOException {
        out.flush();
    }

    private void name(String name) throws IOException {
        separate();
        quoted(name);
        out.write(':');
    }

    private void quoted(String s) throws IOException {
        scratch.setLength(0);
        CanonicalJson.appendString(scratch, s);
        out.append(scratch);
    }

    /** Writes the comma before every member or element but the first of its container. */
    private void separate() throws IOException {
        if (depth == 0) return;
        if (hasMember[depth - 1]) out.write(',');
        hasMember[depth - 1] = true;
    }

    private void open(char c) throws IOException {
        out.write(c);
        hasMember[depth++] = false;
    }

    private void close(char c) throws IOException {
        out.write(c);
        depth--;
    }
}
