/**
 * Opened recordings behind one query API ({@link dev.weft.app.source.RecordingSource}): records, states, event
 * lines, fifo/dup checks and the checks of the protocol the recording speaks ({@link dev.weft.app.source.ProtocolChecks}), all
 * safe to call off the FX thread. {@link dev.weft.app.source.IndexedRecordingSource} builds it in one pass over
 * the file through the replay engine's index; {@link dev.weft.app.source.FollowedRecording} follows a file that is
 * still being written and hands out snapshots of it, then the same indexed source once it ends. Toolkit-free; only
 * view models call it.
 */
package dev.weft.app.source;
