package dev.weft.timeline;

import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The registered protocol views, found once through {@link ServiceLoader} and kept sorted by protocol name (the class
 * path's order never shows).
 */
public final class ProtocolViews {

    private static final List<ProtocolView> ALL = load();

    private ProtocolViews() { }

    private static List<ProtocolView> load() {
        List<ProtocolView> out = new ArrayList<>();
        for (ProtocolView v : ServiceLoader.load(ProtocolView.class, ProtocolViews.class.getClassLoader())) out.add(v);
        out.sort(Comparator.comparing(ProtocolView::protocol));
        return List.copyOf(out);
    }

    /** The view of the protocol named name, or null when it has none. */
    public static ProtocolView of(String name) {
        for (ProtocolView v : ALL) if (v.protocol().equals(name)) return v;
        return null;
    }

    /**
     * A state report in words: read as the recording's protocol when it has one, else as the first registered
     * protocol (in {@link Protocols#byShapeRank()}) whose shape the report fits; null when no view reads it.
     */
    public static String describeReport(Protocol recordingProtocol, int[] fields) {
        Protocol p = recordingProtocol;
        if (p == null) {
            for (Protocol q : Protocols.byShapeRank()) {
                if (q.fits(fields) && of(q.name()) != null) {
                    p = q;
                    break;
                }
            }
        }
        ProtocolView v = p == null ? null : of(p.name());
        return v == null ? null : v.describeReport(fields);
    }
}
