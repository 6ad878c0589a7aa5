/**
 * Where the broker's linearized operations go: {@link dev.weft.broker.record.LogRecorder} writes a weft-log v2 through
 * the engine's writer with group commit, and the outputs under it make every flush a commit point (plain or one
 * sealable gzip member), so a failed write loses nothing already recorded.
 */
package dev.weft.broker.record;
