/**
 * The protocol seam: what a protocol case study brings to the engine ({@link dev.weft.protocol.Protocol}: its name,
 * which state reports are its own, its checker, its findings' kind and words, its violations placed on ops for the
 * findings ranking and the Perfetto export, its campaign checker), the registry that finds the registered protocols
 * through {@link java.util.ServiceLoader} in one fixed order ({@link dev.weft.protocol.Protocols}), and the generic
 * pass that picks the protocol a recording speaks and runs its checker ({@link dev.weft.protocol.ProtocolVerdicts}).
 * Generic code names no protocol; each one lives in its own package and registers itself in
 * {@code META-INF/services/dev.weft.protocol.Protocol}.
 */
package dev.weft.protocol;
