/** The live broker: accepts shim connections (Unix socket/TCP), drives the core, records a weft-log. */
package dev.weft.broker;
