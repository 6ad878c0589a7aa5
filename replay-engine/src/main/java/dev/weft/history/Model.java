package dev.weft.history;

/**
 * The sequential specification of one object: its initial state and what an operation does to a state. States
 * must have value equality (they are memoised with the set of operations already linearized).
 */
public interface Model {

    Object initial();

    /** The state after {@code op} takes effect in {@code state}, or null if it cannot (a read of another value). */
    Object step(Object state, Operation op);
}
