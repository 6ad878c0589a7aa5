package dev.weft.history;

/**
 * A register (initially null): a write sets it, a read returns it, a cas {@code [old,new]} that took effect found
 * {@code old} and set {@code new}. An indeterminate cas either took effect (then it found {@code old}) or did not
 * take effect at all, which the search expresses by not linearizing it; a failed cas is a {@code fail}.
 */
public final class RegisterModel implements Model {

    @Override
    public Object initial() {
        return HistoryValue.NULL.text();
    }

    @Override
    public Object step(Object state, Operation op) {
        return switch (op.f()) {
            case READ -> op.output().text().equals(state) ? state : null;
            case WRITE -> op.input().text();
            case CAS -> op.input().elements().get(0).equals(state) ? op.input().elements().get(1) : null;
            default -> throw new IllegalArgumentException("not a register operation: " + op.f());
        };
    }
}
