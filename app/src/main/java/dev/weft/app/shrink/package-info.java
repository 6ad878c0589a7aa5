/**
 * Tools ▸ Shrink…: {@code weft shrink} (docs/shrinking.md) run from the workbench in a child process, its progress
 * shown and cancellable, its minimal recording opened with its plan when it is done.
 */
package dev.weft.app.shrink;
