package dev.weft.protocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The registered protocols, found once through {@link ServiceLoader} and kept in two fixed orders: by name, the order
 * of every listing and of the findings kinds, and by {@link Protocol#shapeRank()} (then name), the order recordings
 * are matched in. ServiceLoader's own order follows the class path, so it never reaches output.
 */
public final class Protocols {

    private static final List<Protocol> ALL = load();
    private static final List<Protocol> BY_SHAPE_RANK = ALL.stream()
            .sorted(Comparator.comparingInt(Protocol::shapeRank).thenComparing(Protocol::name)).toList();

    private Protocols() { }

    private static List<Protocol> load() {
        List<Protocol> out = new ArrayList<>();
        for (Protocol p : ServiceLoader.load(Protocol.class, Protocols.class.getClassLoader())) out.add(p);
        out.sort(Comparator.comparing(Protocol::name));
        for (int i = 1; i < out.size(); i++) {
            if (out.get(i).name().equals(out.get(i - 1).name())) {
                throw new IllegalStateException("two protocols are registered as \"" + out.get(i).name() + "\"");
            }
        }
        return List.copyOf(out);
    }

    /** Every registered protocol, by name. */
    public static List<Protocol> all() {
        return ALL;
    }

    /** Every registered protocol in the order recordings are matched in. */
    public static List<Protocol> byShapeRank() {
        return BY_SHAPE_RANK;
    }

    /** The protocol registered under name, or null. */
    public static Protocol named(String name) {
        for (Protocol p : ALL) if (p.name().equals(name)) return p;
        return null;
    }

    /** The protocol one of whose invariants is called invariant, or null. */
    public static Protocol owning(String invariant) {
        for (Protocol p : ALL) if (p.invariants().contains(invariant)) return p;
        return null;
    }

    /** The names, by name, joined by sep. */
    public static String names(String sep) {
        StringBuilder s = new StringBuilder();
        for (Protocol p : ALL) {
            if (s.length() > 0) s.append(sep);
            s.append(p.name());
        }
        return s.toString();
    }
}
