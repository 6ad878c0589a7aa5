/**
 * Comparing two recordings: where they first part ways (the first op whose canonical record differs, and the
 * first delivery a node sees differently) and how they compare in total. Shared by {@code weft diff} and the
 * workbench's compare view; reads logs only through {@link dev.weft.log.LogReader}.
 */
package dev.weft.diff;
