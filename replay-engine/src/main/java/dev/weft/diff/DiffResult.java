package dev.weft.diff;

/** The outcome of comparing two recordings; divergences are null when there are none. */
public record DiffResult(Alignment alignment, SideSummary a, SideSummary b, RecordDivergence firstRecord,
        EffectDivergence firstEffect) {

    public boolean identical() {
        return firstRecord == null && firstEffect == null;
    }
}
