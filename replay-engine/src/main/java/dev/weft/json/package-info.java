/**
 * The engine's JSON reading: one byte-level tokenizer with the reference parser's accept rules (no BOM, no lone
 * surrogate escapes, strict UTF-8, any nesting without recursion) and thin layers over it.
 * <ul>
 * <li>{@code JsonScanner} (package-private) is the tokenizer: white space with line and column, the open containers
 * and the walk through their members and elements (separators, trailing commas), member names up to their ':',
 * numbers, strings, escapes, surrogate pairs, literals and UTF-8. It never throws: each problem is a code at a byte
 * position, which each layer words in its own texts (so neither layer's error texts changed when they were merged).
 * The rules under it have one home each: {@link dev.weft.json.Utf8} and {@link dev.weft.json.JsonEscapes}.</li>
 * <li>{@link dev.weft.json.JsonCursor}: the zero-copy layer over one line in the caller's buffer that the weft-log
 * schema ({@code dev.weft.log.LineParser}) drives member by member, with {@link dev.weft.json.JsonMembers} keeping
 * each object's member names (matched in place against {@link dev.weft.json.JsonNames} tables: duplicates, unknown
 * names, the writers' order). Numbers are parsed in the buffer, errors are {@link dev.weft.json.JsonLineException}s
 * naming the field and column. The hot path of reading a recording.</li>
 * <li>{@link dev.weft.json.JsonTokenizer}: pull tokens from a whole document, with errors located by line and column
 * in serde's words ({@link dev.weft.json.JsonSyntaxError}); the fuzz config and regression file
 * ({@code dev.weft.fuzz.StrictJson}), fuzz shards, the scenario DSL ({@code dev.weft.scenario}) and the launcher's
 * campaign configs and control lines are thin schema layers over it.</li>
 * </ul>
 */
package dev.weft.json;
