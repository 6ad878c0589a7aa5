/**
 * Exports of a recording for other tools: {@link dev.weft.export.PerfettoTrace} writes the Trace Event JSON the
 * Perfetto UI and chrome://tracing open (a track per node, flows from send to delivery, violations as instant
 * events, the protocol checker's among them).
 */
package dev.weft.export;
