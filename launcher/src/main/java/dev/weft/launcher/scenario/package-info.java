/**
 * {@code weft scenario FILE}: validates a scenario with the engine's DSL and prints its schedule in time order.
 */
package dev.weft.launcher.scenario;
