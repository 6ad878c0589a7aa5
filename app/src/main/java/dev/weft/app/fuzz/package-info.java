/**
 * Tools ▸ Fuzz: edit a fuzz config (checked by the engine's own loader), run the engine's fuzzer in this JVM with
 * progress and cancel, and browse violations, failing seeds and reproducers.
 */
package dev.weft.app.fuzz;
