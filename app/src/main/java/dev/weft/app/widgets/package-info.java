/**
 * Small JavaFX building blocks the tool panels (run, fuzz, campaign results) share: file dialogs over the panel's
 * window and the set-up of their result tables. No state and no view models: each helper does one toolkit chore.
 */
package dev.weft.app.widgets;
