"""Small charts as plain SVG, drawn on the server: no script, no library, readable by a screen reader (each chart
has a title and a description listing its values)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from markupsafe import Markup


def bar_chart(bars: Sequence[tuple[str, float]], title: str, *, width: int = 560, height: int = 180,
              unit: str = "") -> Markup:
    """Vertical bars, one per (label, value), left to right. Labels are thinned to fit."""
    if not bars:
        return Markup(f'<p class="empty">{escape(title)}: nothing yet.</p>')
    top = max(v for _, v in bars) or 1.0
    pad_l, pad_b, pad_t = 36, 28, 8
    plot_w, plot_h = width - pad_l - 4, height - pad_b - pad_t
    slot = plot_w / len(bars)
    every = max(1, math.ceil(len(bars) / max(1, plot_w // 48)))   # one label in `every`
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="t d">',
             f'<title id="t">{escape(title)}</title>',
             f'<desc id="d">{escape("; ".join(f"{label}: {_num(v)}{unit}" for label, v in bars))}</desc>',
             f'<line class="axis" x1="{pad_l}" y1="{pad_t + plot_h}" x2="{width - 4}" y2="{pad_t + plot_h}"/>',
             f'<text class="tick" x="{pad_l - 4}" y="{pad_t + 10}" text-anchor="end">{_num(top)}</text>',
             f'<text class="tick" x="{pad_l - 4}" y="{pad_t + plot_h}" text-anchor="end">0</text>']
    for i, (label, value) in enumerate(bars):
        h = plot_h * value / top
        x = pad_l + i * slot + slot * 0.15
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{pad_t + plot_h - h:.1f}" width="{slot * 0.7:.1f}" '
                     f'height="{h:.1f}"><title>{escape(label)}: {_num(value)}{escape(unit)}</title></rect>')
        if i % every == 0:
            parts.append(f'<text class="tick" x="{x + slot * 0.35:.1f}" y="{height - 10}" text-anchor="middle">'
                         f'{escape(label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


def dot_chart(points: Sequence[tuple[float, float, str]], title: str, *, y_max: float = 1.0,
              width: int = 560, height: int = 180) -> Markup:
    """Points (x as epoch seconds, y in [0, y_max], label) on a time axis: e.g. each judgment's utility by when it
    was made."""
    if not points:
        return Markup(f'<p class="empty">{escape(title)}: nothing yet.</p>')
    from ...util import to_iso

    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    first, last = (to_iso(x0) or "")[:10], (to_iso(x1) or "")[:10]
    span = (x1 - x0) or 1.0
    pad_l, pad_b, pad_t = 36, 28, 8
    plot_w, plot_h = width - pad_l - 12, height - pad_b - pad_t
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="t2 d2">',
             f'<title id="t2">{escape(title)}</title>',
             f'<desc id="d2">{escape("; ".join(f"{label}: {y:.2f}" for _, y, label in points))}</desc>',
             f'<line class="axis" x1="{pad_l}" y1="{pad_t + plot_h}" x2="{width - 4}" y2="{pad_t + plot_h}"/>',
             f'<text class="tick" x="{pad_l - 4}" y="{pad_t + 10}" text-anchor="end">{_num(y_max)}</text>',
             f'<text class="tick" x="{pad_l - 4}" y="{pad_t + plot_h}" text-anchor="end">0</text>',
             f'<text class="tick" x="{pad_l}" y="{height - 10}">{first}</text>',
             f'<text class="tick" x="{width - 12}" y="{height - 10}" text-anchor="end">{last}</text>']
    for x, y, label in points:
        cx = pad_l + plot_w * (x - x0) / span
        cy = pad_t + plot_h * (1 - max(0.0, min(y, y_max)) / y_max)
        parts.append(f'<circle class="dot" cx="{cx:.1f}" cy="{cy:.1f}" r="4"><title>{escape(label)}: {y:.2f}'
                     f'</title></circle>')
    parts.append("</svg>")
    return Markup("".join(parts))


def entity_graph(center: str, related: Sequence[tuple[str, int]], link: str = "/entities/", *,
                 size: int = 360) -> Markup:
    """The entity in the middle, the entities named in the same facts around it; an edge's width is how many facts
    name both. Each neighbour links to its own page."""
    from urllib.parse import quote

    c = size / 2
    r = size / 2 - 60
    top = max((n for _, n in related), default=1) or 1
    parts = [f'<svg class="graph" viewBox="0 0 {size} {size}" role="img" aria-labelledby="g1">',
             f'<title id="g1">{escape(center)} and the entities named with it</title>']
    nodes = []
    for i, (name, n) in enumerate(related):
        angle = 2 * math.pi * i / max(1, len(related)) - math.pi / 2
        x, y = c + r * math.cos(angle), c + r * math.sin(angle)
        parts.append(f'<line class="edge" x1="{c:.1f}" y1="{c:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                     f'stroke-width="{1 + 4 * n / top:.1f}"><title>{n} facts</title></line>')
        nodes.append(f'<a href="{escape(link + quote(name, safe=""))}"><circle class="node" cx="{x:.1f}" '
                     f'cy="{y:.1f}" r="7"/><text class="label" x="{x:.1f}" y="{y - 12:.1f}" text-anchor="middle">'
                     f'{escape(name)}</text></a>')
    parts.extend(nodes)
    parts.append(f'<circle class="node centre" cx="{c}" cy="{c}" r="11"/><text class="label centre" x="{c}" '
                 f'y="{c + 26}" text-anchor="middle">{escape(center)}</text></svg>')
    return Markup("".join(parts))


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
