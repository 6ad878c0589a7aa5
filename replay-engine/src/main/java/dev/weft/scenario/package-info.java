/**
 * The scenario DSL (scenario-dsl.md): {@link dev.weft.scenario.Scenarios} parses (a schema layer over the engine's
 * JSON tokenizer), validates and sorts a scenario; the records it yields describe nodes, network, file-system faults,
 * clock skew and timed events. Every bad input ends in a {@link dev.weft.scenario.ScenarioException} with the spec's
 * text.
 */
package dev.weft.scenario;
