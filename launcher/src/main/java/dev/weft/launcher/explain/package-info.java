/** {@code weft explain}: a recording's findings, ranked and in plain words (the engine's dev.weft.findings). */
package dev.weft.launcher.explain;
