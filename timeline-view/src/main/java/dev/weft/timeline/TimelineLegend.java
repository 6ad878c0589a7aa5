package dev.weft.timeline;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Pos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.paint.Color;

/**
 * The timeline's legend: every mark kind drawn exactly as the timeline draws it, and the ruler's markers
 * (violation, search match, bookmark, fault-plan deviation, cursor, selected range, measurement), each with its name.
 */
public class TimelineLegend extends FlowPane {

    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);

    public TimelineLegend() {
        super(10, 2);
        getStyleClass().add("legend");
        setAlignment(Pos.CENTER_LEFT);
        palette.addListener(o -> fill());
        tcp.addListener(o -> fill());
        fill();
    }

    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }

    /** Whether the TCP marks are named too (a recording with TCP streams); off, the legend stays short. */
    public javafx.beans.property.BooleanProperty tcpProperty() { return tcp; }

    private final javafx.beans.property.BooleanProperty tcp = new javafx.beans.property.SimpleBooleanProperty(this, "tcp", false);

    private void fill() {
        getChildren().clear();
        TimelinePalette p = palette.get();
        for (MarkKind k : new MarkKind[] {MarkKind.SEND, MarkKind.RECV, MarkKind.SEND_DROPPED, MarkKind.SEND_NO_RECEIVER,
                MarkKind.RECV_EMPTY, MarkKind.CONNECT, MarkKind.VIOLATION, MarkKind.END}) {
            Canvas c = swatch(p);
            TimelineRenderer.drawMark(c.getGraphicsContext2D(), p, k, 8, 8, 4.5);
            add(c, k == MarkKind.CONNECT ? "connect / hello / bind / disconnect"
                    : k == MarkKind.END ? "end / ext / signal" : k.label());
        }
        if (tcp.get()) {
            for (MarkKind k : new MarkKind[] {MarkKind.TCP_OPEN, MarkKind.TCP_SEND, MarkKind.TCP_RECV, MarkKind.TCP_CLOSE, MarkKind.TCP_RESET}) {
                Canvas c = swatch(p);
                TimelineRenderer.drawMark(c.getGraphicsContext2D(), p, k, 8, 8, 4.5);
                add(c, k == MarkKind.TCP_SEND ? "tcp write (→ the read of its first byte)" : k.label());
            }
        }
        Canvas arrow = swatch(p);
        GraphicsContext g = arrow.getGraphicsContext2D();
        g.setStroke(p.arrow());
        g.setLineWidth(1.2);
        g.strokeLine(1, 12, 15, 4);
        add(arrow, "send → delivery");
        Canvas verdict = swatch(p);
        verdict.getGraphicsContext2D().setFill(p.violation());
        TimelineRenderer.verdictMarker(verdict.getGraphicsContext2D(), 8, 12);
        add(verdict, "protocol / program verdict (ruler ◆)");
        Canvas network = swatch(p);
        network.getGraphicsContext2D().setFill(TimelineRenderer.NETWORK_MARKER);
        TimelineRenderer.networkMarker(network.getGraphicsContext2D(), 8, 4);
        add(network, "network invariant: fifo, dup (ruler ▼)");
        add(tick(p, Color.web("#eab308"), false), "search match");
        add(tick(p, Color.web("#2563eb"), false), "bookmark");
        Canvas plan = swatch(p);
        plan.getGraphicsContext2D().setStroke(TimelineRenderer.PLAN_MARKER);
        TimelineRenderer.planMarker(plan.getGraphicsContext2D(), 8, 8);
        add(plan, "fault-plan deviation (ruler ◇)");
        add(tick(p, p.cursor(), false), "cursor (state after op)");
        Canvas band = swatch(p);
        band.getGraphicsContext2D().setFill(Color.web("#3b82f6", 0.25));
        band.getGraphicsContext2D().fillRect(2, 0, 12, 16);
        add(band, "selected range (drag on the ruler)");
        add(tick(p, Color.web("#7c3aed"), false), "measure (Shift+click)");
    }

    private static Canvas swatch(TimelinePalette p) {
        Canvas c = new Canvas(16, 16);
        c.getGraphicsContext2D().setFill(p.background());
        c.getGraphicsContext2D().fillRect(0, 0, 16, 16);
        return c;
    }

    private static Canvas tick(TimelinePalette p, Color color, boolean triangle) {
        Canvas c = swatch(p);
        GraphicsContext g = c.getGraphicsContext2D();
        g.setFill(color);
        if (triangle) g.fillPolygon(new double[] {3, 13, 8}, new double[] {2, 2, 10}, 3);
        else g.fillRect(6.5, 1, 3, 14);
        return c;
    }

    private void add(Canvas swatch, String text) {
        Label l = new Label(text, swatch);
        getChildren().add(l);
    }
}
