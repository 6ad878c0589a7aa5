/**
 * The run, fuzz and campaign panels' windows beside the main window, and where what they produce is opened.
 */
package dev.weft.app.tools;
