"""A system's party balance as an inline SVG chart (matplotlib): each member's figure as a bar,
the median of its group as a line with the house rules' tolerance around it, outliers marked.

One chart per system, never one per member, so a folder of 600 sheets still renders in a
moment. Text stays SVG text (``svg.fonttype = "none"``) under a CJK-capable font-family stack,
so the browser draws the Japanese labels with a font it has; nothing is fetched or embedded.
"""
from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Any

from ..core.texts import texts

#: the fonts tried in order, for layout here and for display in the browser
FONT_STACK = ["Noto Sans CJK JP", "IPAexGothic", "Hiragino Sans", "Yu Gothic", "Meiryo", "sans-serif"]
FONT_SIZE, ROW_INCHES, COMPACT_ROW_INCHES = 9, 0.24, 0.03
LABELLED_MAX = 40  # members named in the chart; a larger party is drawn without names
LABEL_CHARS = 24  # a longer name is cut in the chart (the roster shows it whole)
MEMBER_COLOUR, OUTLIER_COLOUR, MEDIAN_COLOUR = "#4a78b5", "#c0392b", "#222222"


@dataclass(frozen=True, slots=True)
class Bar:
    """One member in the chart."""

    label: str
    value: float
    group: int | None  # the budget class it is compared within (up), or None
    outlier: bool


def _label(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def party_chart_svg(system: str, view: dict[str, Any], bars: list[Bar], lang: str = "ja") -> str:
    """The chart of one system's party as an ``<svg>`` element (no XML prolog), ready to inline."""
    import matplotlib
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D

    t = texts(lang)
    figure_name = view["figure"][lang if lang in view["figure"] else "ja"]
    medians = {g["budget"]: g["median"] for g in view.get("groups", [])}
    tolerance = float(view.get("tolerance") or 0)
    ordered = sorted(bars, key=lambda b: (b.group is not None, b.group or 0, -b.value))
    font_log = logging.getLogger("matplotlib.font_manager")
    quiet = font_log.level
    font_log.setLevel(logging.ERROR)  # the stack's absent fonts are expected, not news
    try:
        with matplotlib.rc_context({
                "svg.fonttype": "none", "svg.hashsalt": f"mechasheet-{system}", "font.family": ["sans-serif"],
                "font.sans-serif": FONT_STACK[:-1] + ["DejaVu Sans"], "font.size": FONT_SIZE,
                "text.parse_math": False, "text.usetex": False}):
            n = max(1, len(ordered))
            # a large party is drawn as its shape: bars without names (the caption names the
            # outliers, the roster every member), so the chart's cost stays flat in its size
            labelled = len(ordered) <= LABELLED_MAX
            labels = [_label(b.label) for b in ordered] if labelled else []
            # margins set by hand: a layout engine measures every label twice more
            left = 0.4 + FONT_SIZE / 72 * max([len(x) for x in labels] + [4])
            width, height = 8.0 + left, 1.6 + (ROW_INCHES if labelled else COMPACT_ROW_INCHES) * n
            fig = Figure(figsize=(width, max(height, 3.5)))
            height = max(height, 3.5)
            fig.subplots_adjust(left=left / width, right=1 - 0.3 / width, top=1 - 0.45 / height, bottom=1.05 / height)
            ax = fig.add_subplot()
            ys = list(range(n))
            colours = [OUTLIER_COLOUR if b.outlier else MEMBER_COLOUR for b in ordered]
            half = 0.35 if labelled else 0.45
            # one collection for every bar: a patch per bar costs a millisecond each
            ax.add_collection(PolyCollection(
                [((0, y - half), (b.value, y - half), (b.value, y + half), (0, y + half)) for b, y in zip(ordered, ys, strict=False)],
                facecolors=colours, linewidths=0), autolim=True)
            ax.autoscale_view()
            ax.set_yticks(ys[:len(labels)], labels)
            ax.set_ylim(n - 0.5, -0.5)
            for b, y in zip(ordered if labelled else [], ys, strict=False):
                ax.annotate(f"{b.value:g}", (b.value, y), xytext=(3, 0), textcoords="offset points",
                            va="center", fontsize=7, color=OUTLIER_COLOUR if b.outlier else "#444444")
            start = 0
            while start < len(ordered):
                group = ordered[start].group
                end = start
                while end < len(ordered) and ordered[end].group == group:
                    end += 1
                median = medians.get(group, view.get("median"))
                if median is not None:
                    low, high = start - 0.45, end - 0.55
                    ax.fill_betweenx([low, high], median * (1 - tolerance), median * (1 + tolerance),
                                     color=MEDIAN_COLOUR, alpha=0.12, linewidth=0, zorder=0)
                    ax.vlines(median, low, high, colors=MEDIAN_COLOUR, linestyles="dashed", linewidth=1.2)
                    ax.annotate(f"{t['audit_html_median']} {median:g}"
                                + (f" ({t['audit_html_budget_mark']} {group})" if group is not None else ""),
                                (median, low), xytext=(3, -2), textcoords="offset points", va="top", fontsize=7)
                start = end
            ax.set_xlabel(figure_name)
            ax.set_title(f"{system}: {figure_name}", loc="left")
            ax.spines[["top", "right"]].set_visible(False)
            ax.margins(x=0.12)
            ax.legend(handles=[Patch(color=MEMBER_COLOUR, label=t["audit_html_member"]),
                               Patch(color=OUTLIER_COLOUR, label=t["audit_html_outlier"]),
                               Line2D([], [], color=MEDIAN_COLOUR, linestyle="dashed", label=t["audit_html_median"]),
                               Patch(color=MEDIAN_COLOUR, alpha=0.12, label=t["audit_html_band"])],
                      loc="upper left", bbox_to_anchor=(0, -0.55 / (height - 1.5)), ncols=4, fontsize=8,
                      frameon=False)
            out = io.StringIO()
            fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    finally:
        font_log.setLevel(quiet)
    svg = out.getvalue()
    return scoped_ids(svg[svg.index("<svg"):], f"chart-{system}-")


_ID = re.compile(r'(\bid="|\bhref="#|url\(#)')


def scoped_ids(svg: str, prefix: str) -> str:
    """The SVG with every id (and every reference to one) prefixed: matplotlib numbers its ids
    per figure (``text_1``, ``line2d_1``), so two charts inlined in one page would share them."""
    return _ID.sub(lambda m: m.group(1) + prefix, svg)
