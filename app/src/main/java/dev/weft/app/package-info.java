/** Weft Workbench, the JavaFX desktop debugger for weft-log recordings (MVVM: views thin, view models tested). */
package dev.weft.app;
