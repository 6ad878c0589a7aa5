/**
 * The TCP stream model (docs/tcp.md): {@link dev.weft.tcp.TcpNetwork}, reached as {@code core.tcp()}, owns listeners
 * and streams, in-order segments whose delivery times come from the fate source, back-pressure, partitions that stall
 * and resets; {@code TcpState} is its immutable picture for {@code weft state} and the workbench.
 */
package dev.weft.tcp;
