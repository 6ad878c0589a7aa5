package dev.weft.timeline;

/** What the x axis measures: the op index (every event equally wide) or the broker's virtual time. */
public enum AxisMode { OP, VIRTUAL_TIME }
