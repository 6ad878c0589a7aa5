/**
 * Tools ▸ Run: the form for a live {@code weft run}, checked with the launcher's own parsers; the run itself is a
 * child JVM started by the launcher, never a program started by the workbench; its recording is followed live.
 */
package dev.weft.app.run;
