/**
 * The host agent's relay: nodes on an agent's machine reach a remote broker through a private local socket.
 */
package dev.weft.broker.hostd;
