/**
 * The engine's one JSON reader: {@link dev.weft.json.JsonTokenizer} pulls tokens from a UTF-8 document with the
 * reference parser's accept rules (no BOM, no lone surrogate escapes, strict UTF-8, any nesting without recursion)
 * and errors located by line and column in our own words ({@link dev.weft.json.JsonSyntaxError}). The fuzz config
 * and regression file ({@code dev.weft.fuzz.StrictJson}) and the scenario DSL ({@code dev.weft.scenario}) are thin
 * schema layers over it. The weft-log line parser ({@code dev.weft.log.LineParser}) is specialised for speed on its
 * fixed schema but shares the rules that must not differ: {@link dev.weft.json.Utf8} and
 * {@link dev.weft.json.JsonEscapes}.
 */
package dev.weft.json;
