package dev.weft.app.view;

import dev.weft.timeline.TimelineLegend;

/** The legend under the timeline (every mark and ruler marker, named). */
final class Legend {

    private Legend() { }

    static TimelineLegend node() {
        TimelineLegend l = new TimelineLegend();
        l.setId("timelineLegend");
        return l;
    }
}
