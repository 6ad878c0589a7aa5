/**
 * {@code weft state}: the broker's state right after op N of a recording, through the engine's index.
 */
package dev.weft.launcher.state;
