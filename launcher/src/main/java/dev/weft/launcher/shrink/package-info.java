/**
 * {@code weft shrink} and {@code weft campaign shrink}: a live failure shrunk by delta debugging over its fault
 * plan's deviations, with live re-runs, to a 1-minimal plan (docs/shrinking.md).
 */
package dev.weft.launcher.shrink;
