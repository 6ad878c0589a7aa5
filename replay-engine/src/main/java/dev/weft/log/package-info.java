/**
 * weft-log v2, the recording format (docs/spec/weft-log-v2.md): the data model ({@link dev.weft.log.Event},
 * {@link dev.weft.log.LogRecord}, {@link dev.weft.log.LogHeader}, ...), reading with verification
 * ({@link dev.weft.log.LogReader}), writing ({@link dev.weft.log.LogWriter}), the canonical JSON form and the
 * FNV-1a integrity chain ({@link dev.weft.log.CanonicalJson}, {@link dev.weft.log.Fnv1a}).
 *
 * <p>Inside: {@code LineParser} is the weft-log schema (header, record, event and outcome shapes as tables) over the
 * line layer of the byte-level JSON tokenizer, {@link dev.weft.json.JsonCursor}; together they tell when a line is
 * already canonical, so it can be hashed without re-serialization. {@code CanonBytes} is the one
 * serializer of the canonical form; {@code RecordStream} applies the checks of §9 to the lines of a
 * {@code Lines} source ({@code LineSplitter}, or {@code HashAheadLines} which folds the chain on a helper
 * thread); {@code GzipMemberInputStream} reads exactly one gzip member; {@code ReadAheadInputStream} and
 * {@code BackgroundRecords} move inflating and parsing to helper threads without changing any result; a
 * {@link dev.weft.log.DecompressedCopy} receives a gzip log's inflated bytes on the way (the index's plain cache).
 *
 * <p>Bounded memory: {@code LineSplitter} refuses a line longer than {@link dev.weft.log.LineLimit} (64 MiB by
 * default) and folds record lines' white space while reading; the tokenizer skips ignored values without
 * recursion. Following a log while it is written: {@link dev.weft.log.LogReader#follow} (over
 * {@code TailingInputStream}) and the non-blocking {@link dev.weft.log.LogFollower}, with
 * {@link dev.weft.log.RecordingState}.
 */
package dev.weft.log;
