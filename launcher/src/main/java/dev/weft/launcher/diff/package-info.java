/**
 * {@code weft diff}: where two recordings first part ways, the headless twin of the workbench's compare view.
 */
package dev.weft.launcher.diff;
