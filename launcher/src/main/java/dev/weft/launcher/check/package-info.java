/**
 * {@code weft check PROTOCOL}, {@code weft trace PROTOCOL} and {@code weft check history}: {@link
 * dev.weft.launcher.check.CheckHelp} picks the command named by the first word from the registered
 * {@link dev.weft.launcher.check.ProtocolCommands} (each protocol's in its own subpackage) and answers their help;
 * {@link dev.weft.launcher.check.Recordings} is the reading and output every checker command shares.
 */
package dev.weft.launcher.check;
