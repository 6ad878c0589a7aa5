package dev.weft.check;

import java.util.ArrayList;
import java.util.List;

/** Names of the built-in invariants, the {@code --check} list syntax, and fresh instances for a run. */
public final class Invariants {

    private Invariants() {
    }

    /** Thrown for an unknown name; the message is just the offending name. */
    public static final class UnknownInvariantException extends IllegalArgumentException {
        private final String name;

        public UnknownInvariantException(String name) {
            super(name);
            this.name = name;
        }

        public String name() {
            return name;
        }
    }

    /**
     * Appends the canonical names selected by one {@code --check} value: split on ',', empty items skipped;
     * {@code fifo}/{@code per-channel-fifo}, {@code dup}/{@code no-duplicate-delivery}, {@code stream}/{@code
     * stream-integrity} (TCP, docs/tcp.md), {@code all} = fifo then dup (the reference's meaning, unchanged).
     * Repeated names stay repeated (each becomes an independent instance).
     */
    public static void appendCheckList(String value, List<String> into) {
        for (String item : value.split(",", -1)) {
            if (item.isEmpty()) {
                continue;
            }
            switch (item) {
                case "fifo", PerChannelFifo.NAME -> into.add(PerChannelFifo.NAME);
                case "dup", NoDuplicateDelivery.NAME -> into.add(NoDuplicateDelivery.NAME);
                case "stream", StreamIntegrity.NAME -> into.add(StreamIntegrity.NAME);
                case "all" -> {
                    into.add(PerChannelFifo.NAME);
                    into.add(NoDuplicateDelivery.NAME);
                }
                default -> throw new UnknownInvariantException(item);
            }
        }
    }

    /** Canonical name for a known alias, or null when the name is unknown. */
    public static String canonicalName(String name) {
        return switch (name) {
            case "fifo", PerChannelFifo.NAME -> PerChannelFifo.NAME;
            case "dup", NoDuplicateDelivery.NAME -> NoDuplicateDelivery.NAME;
            case "stream", StreamIntegrity.NAME -> StreamIntegrity.NAME;
            default -> null;
        };
    }

    /** Fresh instances, in list order, for one run. */
    public static List<Invariant> instantiate(List<String> names) {
        List<Invariant> out = new ArrayList<>(names.size());
        for (String n : names) {
            String canonical = canonicalName(n);
            if (canonical == null) {
                throw new UnknownInvariantException(n);
            }
            out.add(switch (canonical) {
                case PerChannelFifo.NAME -> new PerChannelFifo();
                case StreamIntegrity.NAME -> new StreamIntegrity();
                default -> new NoDuplicateDelivery();
            });
        }
        return out;
    }
}
