package dev.weft.json;

import java.util.List;

/**
 * The member names of one object as a schema layer reads them off a {@link JsonCursor}, matched against a
 * {@link JsonNames} table: which known ones were seen (a bit per index; the same one twice is a duplicate), the
 * unknown ones (ignored, but not twice), and whether they came in the writers' order (any other order, an unknown
 * member or a missing one means the line is not in compact form). One instance per object shape of a schema,
 * reused: {@link #begin} for each object read (not thread-safe; shapes that nest need instances of their own).
 */
public final class JsonMembers {

    private static final int[] ANY_ORDER = {};

    private final JsonCursor c;
    private final JsonNames keys;
    private int[] order = ANY_ORDER;
    private String what;
    private int seen;
    private int count;
    private List<String> unknown;

    public JsonMembers(JsonCursor c, JsonNames keys) {
        this.c = c;
        this.keys = keys;
    }

    /**
     * Starts on a new object, {@code what} in errors; {@code order} lists the indices writers emit, in their order
     * (empty where the compact form does not matter).
     */
    public JsonMembers begin(int[] order, String what) {
        this.order = order;
        this.what = what;
        seen = 0;
        count = 0;
        unknown = null;
        return this;
    }

    /** Like {@link #begin(int[], String)}, where no order is canonical. */
    public JsonMembers begin(String what) {
        return begin(ANY_ORDER, what);
    }

    /** The caller has read the object's first member itself (its tag), as writers emit it. */
    public void readFirst(int id) {
        seen = 1 << id;
        count = 1;
    }

    /**
     * Parses the next member's name and its ':': its index in the table, or -1 for an unknown one. A name read
     * before in this object, known or not, is an error.
     */
    public int next() throws JsonLineException {
        int expected = count < order.length ? order[count] : -1;
        count++;
        int id = c.key(keys, expected);
        if (id != expected) {
            c.notCompact();
        }
        if (id >= 0) {
            if ((seen & (1 << id)) != 0) {
                throw c.duplicate(keys.name(id), what);
            }
            seen |= 1 << id;
        } else {
            unknown = c.noteUnknown(unknown, c.lastUnknownKey, what);
        }
        return id;
    }

    /** The known members read so far, a bit per index. */
    public int seen() {
        return seen;
    }

    /** After the object's '}': unless exactly the writers' members were read, the line is not compact. */
    public void end() {
        if (count != order.length) {
            c.notCompact();
        }
    }
}
