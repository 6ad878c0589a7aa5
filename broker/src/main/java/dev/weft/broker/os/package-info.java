/**
 * What the JDK cannot do for the broker's process handling, such as signalling a whole process group.
 */
package dev.weft.broker.os;
