/**
 * SimFerret ({@code weft vm record|replay}): a seeded choice plan written before QEMU starts, a run under QEMU's
 * record/replay, the guest's console normalized into events, the assertions and outcome digest, and a run
 * directory whose identity (QEMU build, firmware, kernel, initramfs, command line) a replay must match.
 */
package dev.weft.vm;
