/**
 * Text rules with one home each: hex payloads, u64 and Rust-compatible number texts
 * ({@link dev.weft.text.RustText}), and short operating-system error texts in the reference's style.
 */
package dev.weft.text;
