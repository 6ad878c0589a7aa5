/**
 * Views: thin JavaFX panes bound to the view models; they never reach the recording source (an ArchUnit rule in
 * the tests keeps it so). {@link dev.weft.app.view.MainWindow} wires menus, keys and the document area;
 * {@link dev.weft.app.view.DocumentPane} lays out one recording.
 */
package dev.weft.app.view;
