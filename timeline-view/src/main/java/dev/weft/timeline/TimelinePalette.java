package dev.weft.timeline;

import javafx.scene.paint.Color;

/** Colours of the timeline; one light and one dark set so the control follows the application's theme. */
public record TimelinePalette(Color background, Color laneStripe, Color gutter, Color text, Color grid,
                              Color send, Color recv, Color dropped, Color noReceiver, Color recvEmpty,
                              Color lifecycle, Color violation, Color end, Color arrow, Color cursor,
                              Color selection, Color hover, Color window) {

    public static final TimelinePalette LIGHT = new TimelinePalette(
            Color.web("#ffffff"), Color.web("#f3f5f8"), Color.web("#e9edf2"), Color.web("#1f2933"), Color.web("#d5dbe3"),
            Color.web("#2563eb"), Color.web("#16a34a"), Color.web("#dc2626"), Color.web("#ea7c0c"), Color.web("#9aa5b1"),
            Color.web("#7b8794"), Color.web("#be123c"), Color.web("#111827"), Color.web("#2563eb", 0.45),
            Color.web("#7c3aed"), Color.web("#f59e0b"), Color.web("#0ea5e9"), Color.web("#2563eb", 0.18));

    public static final TimelinePalette DARK = new TimelinePalette(
            Color.web("#1b1f24"), Color.web("#22272e"), Color.web("#2d333b"), Color.web("#d6dde6"), Color.web("#3d444d"),
            Color.web("#60a5fa"), Color.web("#4ade80"), Color.web("#f87171"), Color.web("#fb923c"), Color.web("#6b7785"),
            Color.web("#8b96a3"), Color.web("#fb7185"), Color.web("#e5e7eb"), Color.web("#60a5fa", 0.5),
            Color.web("#c084fc"), Color.web("#fbbf24"), Color.web("#38bdf8"), Color.web("#60a5fa", 0.22));

    /** Colour of a mark of this kind. */
    public Color of(MarkKind k) {
        return switch (k) {
            case SEND -> send;
            case RECV -> recv;
            case SEND_DROPPED -> dropped;
            case SEND_NO_RECEIVER -> noReceiver;
            case RECV_EMPTY -> recvEmpty;
            case VIOLATION -> violation;
            case END -> end;
            case TCP_SEND -> send;
            case TCP_RECV -> recv;
            case TCP_RESET -> dropped;
            default -> lifecycle;
        };
    }
}
