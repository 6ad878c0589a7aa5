/**
 * The engine's JSON reading, byte-level and with the reference parser's accept rules (no BOM, no lone surrogate
 * escapes, strict UTF-8, any nesting without recursion):
 * <ul>
 * <li>{@link dev.weft.json.JsonCursor}: the zero-copy cursor over one line in the caller's buffer that the weft-log
 * schema ({@code dev.weft.log.LineParser}) drives member by member; names are matched in place against
 * {@link dev.weft.json.JsonNames} tables, numbers parsed in the buffer, errors are
 * {@link dev.weft.json.JsonLineException}s naming the field and column. The hot path of reading a recording.</li>
 * <li>{@link dev.weft.json.JsonTokenizer}: pull tokens from a whole document with errors located by line and column
 * in serde's words ({@link dev.weft.json.JsonSyntaxError}); the fuzz config and regression file
 * ({@code dev.weft.fuzz.StrictJson}) and the scenario DSL ({@code dev.weft.scenario}) are thin schema layers over
 * it.</li>
 * </ul>
 * Both are layers over one lexer, {@code JsonLexer}: numbers, strings, escapes, surrogate pairs and UTF-8 are scanned
 * there and reported as problem codes at a byte position, which each layer words in its own texts (so neither
 * reader's error texts changed when they were merged). The rules under it have one home each:
 * {@link dev.weft.json.Utf8} and {@link dev.weft.json.JsonEscapes}.
 */
package dev.weft.json;
