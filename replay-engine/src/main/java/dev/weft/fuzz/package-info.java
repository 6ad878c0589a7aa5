/**
 * {@code weft fuzz} (fuzz.md): the config and its strict reader, the deterministic workload, the seed queue, the
 * sweep over seeds on several threads (whose result does not depend on the thread count), shrinking each distinct
 * violation, the reproducer files and the report. Entry point: {@link dev.weft.fuzz.FuzzRun}.
 */
package dev.weft.fuzz;
