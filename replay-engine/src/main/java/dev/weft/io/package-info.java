/**
 * File output the engine's commands share: {@link dev.weft.io.AtomicFile} (a file appears under its name only
 * complete) and {@link dev.weft.io.ByteBudget} (one bound on what several writers produce together).
 */
package dev.weft.io;
