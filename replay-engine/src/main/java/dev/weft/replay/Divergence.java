package dev.weft.replay;

/** The first record whose replayed event or vt differs from the recording, with both canonical texts. */
public record Divergence(long op, String recorded, String replayed) {
}
