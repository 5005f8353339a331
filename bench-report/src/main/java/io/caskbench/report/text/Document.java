package io.caskbench.report.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A comparison as a sequence of headings, lines and tables, rendered as plain text for the results
 * folder or as Markdown for the docs. One builder feeds both, so the published docs say exactly what
 * the run's comparison file says.
 */
public final class Document {

    /** One part of the document. */
    private sealed interface Block permits Heading, Line, Tabular {
    }

    private record Heading(String text) implements Block {
    }

    private record Line(String text, boolean warning) implements Block {
    }

    private record Tabular(Table table) implements Block {
    }

    private final List<Block> blocks = new ArrayList<>();

    /** A section heading. */
    public Document heading(String text) {
        blocks.add(new Heading(text));
        return this;
    }

    /** A line of prose (consecutive lines form one paragraph in Markdown). */
    public Document line(String text) {
        blocks.add(new Line(text, false));
        return this;
    }

    /** A warning line, set apart in both renderings. */
    public Document warning(String text) {
        blocks.add(new Line(text, true));
        return this;
    }

    /** A table; empty tables are left out. */
    public Document table(Table table) {
        if (!table.isEmpty()) {
            blocks.add(new Tabular(table));
        }
        return this;
    }

    /** Plain text: {@code == heading} lines, tables aligned. */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (Block b : blocks) {
            if (b instanceof Heading h) {
                out.append('\n').append("== ").append(h.text()).append('\n');
            } else if (b instanceof Line l) {
                out.append(l.warning() ? "!! WARNING: " : "").append(l.text()).append('\n');
            } else if (b instanceof Tabular t) {
                out.append(t.table().text());
            }
        }
        return out.toString();
    }

    /** Markdown: headings at the given level, blank lines between blocks. */
    public String markdown(int headingLevel) {
        StringBuilder out = new StringBuilder();
        Block previous = null;
        for (Block b : blocks) {
            boolean joinLine = b instanceof Line l && !l.warning() && previous instanceof Line p && !p.warning();
            if (previous != null) {
                out.append(joinLine ? "" : "\n");
            }
            if (b instanceof Heading h) {
                out.append("#".repeat(headingLevel)).append(' ').append(h.text()).append('\n');
            } else if (b instanceof Line l) {
                out.append(l.warning() ? "> **Warning:** " : "").append(l.text()).append('\n');
            } else if (b instanceof Tabular t) {
                out.append(t.table().markdown());
            }
            previous = b;
        }
        return out.toString();
    }
}
