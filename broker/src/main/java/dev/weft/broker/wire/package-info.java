/**
 * The shim ⇄ broker wire protocol (wire-and-abi.md §2): length-prefixed frames, request decoding, reply encoding
 * and the protocol's constants. A message that breaks the protocol is a {@link dev.weft.broker.wire.ProtocolException}
 * whose text says what is wrong.
 */
package dev.weft.broker.wire;
