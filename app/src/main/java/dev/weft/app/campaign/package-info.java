/**
 * Tools ▸ Campaign results: a {@code weft campaign} folder's per-cell tallies, chart and every run in plan order.
 */
package dev.weft.app.campaign;
