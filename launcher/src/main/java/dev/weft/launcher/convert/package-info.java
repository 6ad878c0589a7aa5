/** {@code weft convert}: a recording into another tool's format (Perfetto Trace Event JSON). */
package dev.weft.launcher.convert;
