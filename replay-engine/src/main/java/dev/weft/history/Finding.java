package dev.weft.history;

import java.util.List;

/**
 * One anomaly of a history: its {@code kind} ({@code not-linearizable}, {@code lost}, {@code duplicated},
 * {@code reordered}, {@code phantom}), the object's key (null: the one object), a one-line {@code headline} in
 * plain words, and the operations that show it, in invocation order. {@code note} says anything the reader should
 * know about the operations shown (e.g. that shrinking stopped at its budget), or is empty.
 */
public record Finding(String kind, String key, String headline, List<Operation> operations, String note) {

    public Finding {
        operations = List.copyOf(operations);
    }
}
