package dev.weft.history;

import java.util.List;

/**
 * One anomaly of a history: its {@code kind} ({@code not-linearizable}, {@code lost}, {@code duplicated},
 * {@code reordered}, {@code phantom}), the object's key (null: the one object), a one-line {@code headline} in
 * plain words, and the operations that show it, in invocation order. {@code note} says anything the reader should
 * know about the operations shown (e.g. that shrinking stopped at its budget), or is empty. {@code named} are the
 * operations the headline speaks of (a lost add and the read that misses it), in invocation order, or empty: a
 * set's smallest inconsistent sub-history keeps every add its read returns, so it can be hundreds of operations
 * of which two are the point.
 */
public record Finding(String kind, String key, String headline, List<Operation> operations, String note,
                      List<Operation> named) {

    public Finding {
        operations = List.copyOf(operations);
        named = List.copyOf(named);
    }

    /** A finding whose headline names no operation in particular. */
    public Finding(String kind, String key, String headline, List<Operation> operations, String note) {
        this(kind, key, headline, operations, note, List.of());
    }
}
