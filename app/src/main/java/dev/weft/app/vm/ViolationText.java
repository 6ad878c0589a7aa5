package dev.weft.app.vm;

import dev.weft.app.source.ViolationInfo;
import dev.weft.findings.FindingWords;

/** A plain-English line for a violation: the engine's words ({@link FindingWords}), the same `weft explain` prints. */
public final class ViolationText {

    private ViolationText() { }

    public static String plainEnglish(ViolationInfo v) {
        return FindingWords.plain(v.invariant(), v.op(), v.message());
    }
}
