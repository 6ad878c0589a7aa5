/**
 * File input and output the commands share: {@link dev.weft.io.OutputTarget} and {@link dev.weft.io.OutputFile}
 * (the one rule for an output path: regular file or new path replaced whole, FIFO or character device written
 * into, anything else refused), {@link dev.weft.io.AtomicFile} (a file appears under its name only complete),
 * {@link dev.weft.io.InputFile} (why an input path cannot be read, named as what it is),
 * {@link dev.weft.io.BoundedFiles} (a whole-file read that never reads past its limit) and
 * {@link dev.weft.io.ByteBudget} (one bound on what several writers produce together). docs/security.md.
 */
package dev.weft.io;
