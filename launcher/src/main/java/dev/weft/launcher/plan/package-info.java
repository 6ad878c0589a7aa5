/** {@code weft plan}: the fault plan a recording followed, every deviation from the baseline (docs/fault-plans.md). */
package dev.weft.launcher.plan;
