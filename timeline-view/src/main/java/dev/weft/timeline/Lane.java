package dev.weft.timeline;

/**
 * One horizontal lane of the timeline. A node lane gathers every connection that said hello with that
 * node id; a connection that never said hello gets its own lane; the run lane holds events that belong to
 * no connection (violation and end records).
 */
public record Lane(Type type, long id, String label) {

    public enum Type { NODE, CONNECTION, RUN }

    static Lane node(long node) {
        return new Lane(Type.NODE, node, "node " + Long.toUnsignedString(node));
    }

    static Lane connection(long conn) {
        return new Lane(Type.CONNECTION, conn, "conn " + Long.toUnsignedString(conn));
    }

    /** A connection lane with its own name (a SimFerret guest process, say). */
    static Lane connection(long conn, String label) {
        return label == null ? connection(conn) : new Lane(Type.CONNECTION, conn, label);
    }

    static Lane run() {
        return new Lane(Type.RUN, -1, "run");
    }
}
