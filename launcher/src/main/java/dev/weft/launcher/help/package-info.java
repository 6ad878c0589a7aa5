/**
 * Texts made from the command list: docs/cli.md ({@link dev.weft.launcher.help.CliReference}) and the bash/zsh
 * completion scripts, so neither can drift from what {@code weft} accepts.
 */
package dev.weft.launcher.help;
