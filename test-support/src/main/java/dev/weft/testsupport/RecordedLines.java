package dev.weft.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Questions tests ask of a recording's text lines (weft-log-v2.md's canonical record form). */
public final class RecordedLines {

    private static final Pattern HELLO = Pattern.compile("\"k\":\"hello\",\"conn\":(\\d+),\"node\":(\\d+)\\}");

    private RecordedLines() {
    }

    /** The connections that said hello as {@code node}, in log order (a restarted node's new ones come later). */
    public static List<Long> helloConns(List<String> lines, long node) {
        List<Long> conns = new ArrayList<>();
        for (String l : lines) {
            Matcher m = HELLO.matcher(l);
            if (m.find() && Long.parseLong(m.group(2)) == node) {
                conns.add(Long.parseLong(m.group(1)));
            }
        }
        return conns;
    }
}
