"""A line chart of running totals per deal, drawn with pygame lines: axes, ticks, target."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from display import theme
from display.canvas import Canvas
from display.fonts import clusters


def nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return float(m * power)
    return float(10 * power)


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def tags(names: Sequence[str]) -> list[str]:
    """A short tag per name for the ends of the chart's lines, all different: the names' first
    one, two or three characters (as a reader counts them), the fewest that tell every name
    apart; names alike that far take their first two and their place in the list."""
    cut = [clusters(" ".join(n.split())) for n in names]
    for k in (1, 2, 3):
        short = ["".join(c[:k]) for c in cut]
        if len(set(short)) == len(short):
            return short
    return [f"{''.join(c[:2])}{i + 1}" for i, c in enumerate(cut)]


def spread(ys: Sequence[int], height: int, top: int, bottom: int) -> list[int]:
    """Tops for labels ``height`` tall wanting to centre on ``ys``, at least ``height`` apart
    and within ``top``..``bottom`` (as near their wishes as that allows), in ``ys``'s order."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0] * len(ys)
    floor = top
    for i in order:  # downwards, each below the one above
        placed[i] = max(ys[i] - height // 2, floor)
        floor = placed[i] + height
    ceiling = bottom
    for i in reversed(order):  # then upwards from the bottom edge
        placed[i] = max(top, min(placed[i], ceiling - height))
        ceiling = placed[i]
    return placed


def draw_line_chart(
    canvas: Canvas,
    rect: pygame.Rect,
    series: Sequence[tuple[Sequence[float], theme.Colour]],
    *,
    names: Sequence[str] = (),
    target: float | None = None,
    target_label: str = "",
    name: str = "chart",
) -> None:
    """Lines of running totals, deal 1 at the left, over a light grid, inside ``rect``. With
    ``names``, each line ends in its player's tag (see :func:`tags`), in the line's colour, so
    that no line is known by its colour alone."""
    L = canvas.layout
    surf = canvas.surface
    canvas.mark(name, rect)
    small = L.line("small")
    axis_w = max(canvas.cache.width("0000", small, False), L.py(0.05))
    labels = tags(names) if len(names) == len(series) else []
    tag_w = max((canvas.cache.width(t, small, True) for t in labels), default=0)
    room = tag_w + L.py(0.02) if labels else 0
    plot = pygame.Rect(rect.x + axis_w + L.py(0.01), rect.y + small // 2,
                       rect.w - axis_w - L.py(0.02) - room, rect.h - small * 2)
    canvas.mark(f"{name}:plot", plot)
    deals = max((len(s) for s, _ in series), default=0)
    values = [v for s, _ in series for v in s]
    low = min([0.0, *values])
    high = max([1.0, *values, *([target] if target is not None else [])])
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high <= low:
        high = low + step

    def xy(i: int, v: float) -> tuple[int, int]:
        x = plot.x + (plot.w * (i / (deals - 1)) if deals > 1 else plot.w / 2)
        y = plot.bottom - plot.h * (v - low) / (high - low)
        return round(x), round(y)

    grid = theme.dim(theme.PANEL_EDGE, 0.7)
    v = low
    while v <= high + step / 2:
        y = xy(0, v)[1]
        pygame.draw.line(surf, grid, (plot.x, y), (plot.right, y), 1)
        canvas.text(_label(v), small, pygame.Rect(rect.x, y - small // 2, axis_w, small), theme.TEXT_DIM, align="right", bold=False)
        v += step
    pygame.draw.line(surf, theme.TEXT_DIM, plot.bottomleft, plot.bottomright, max(1, L.py(0.003)))
    pygame.draw.line(surf, theme.TEXT_DIM, plot.topleft, plot.bottomleft, max(1, L.py(0.003)))
    label_every = max(1, math.ceil(deals * canvas.cache.width("00", small, False) * 2 / max(1, plot.w)))
    # the last deal is always labelled; the regular label just before it gives way when the
    # two would run together ("…11 1314")
    crowded = label_every > 1 and (deals - 1) % label_every != 0  # nearer than a label's room
    for i in range(deals):
        last_regular = i == (deals - 1) // label_every * label_every and i != deals - 1
        if (i % label_every == 0 and not (crowded and last_regular)) or i == deals - 1:
            x = xy(i, low)[0]
            box = pygame.Rect(0, plot.bottom + 2, small * 2, small)
            box.centerx = x
            box.clamp_ip(pygame.Rect(rect.x, rect.y, rect.w, rect.h))
            canvas.text(str(i + 1), small, box, theme.TEXT_DIM, align="center", bold=False)

    if target is not None and low <= target <= high:
        y = xy(0, target)[1]
        dash = L.py(0.02)
        for x in range(plot.x, plot.right, dash * 2):
            pygame.draw.line(surf, theme.WARNING, (x, y), (min(x + dash, plot.right), y), max(2, L.py(0.004)))
        canvas.mark(f"{name}:target", pygame.Rect(plot.x, y - 1, plot.w, 3))

    width = max(2, L.py(0.006))
    dot = max(3, L.py(0.009))
    for k, (totals, colour) in enumerate(series):
        points = [xy(i, t) for i, t in enumerate(totals)]
        if len(points) > 1:
            pygame.draw.lines(surf, colour, False, points, width)
        for p in points:
            pygame.draw.circle(surf, colour, p, dot)
        if points:
            canvas.mark(f"{name}:end:{k}", pygame.Rect(points[-1][0] - dot, points[-1][1] - dot, 2 * dot, 2 * dot))
    ends = [(k, xy(len(totals) - 1, totals[-1])) for k, (totals, _) in enumerate(series) if totals]
    if labels and ends:
        tops = spread([p[1] for _, p in ends], small, rect.y, rect.bottom)
        for (k, (x, y)), top in zip(ends, tops, strict=True):
            colour = series[k][1]
            box = pygame.Rect(plot.right + dot + L.py(0.01), top, tag_w + 2, small)
            if abs(box.centery - y) > small // 2:  # moved off its line's end: a leader to it
                pygame.draw.line(surf, colour, (x + dot, y), (box.x - 1, box.centery), 1)
            canvas.text(labels[k], small, box, colour, align="left")
            canvas.mark(f"{name}:tag:{k}", box)

    if target is not None and target_label and low <= target <= high:
        # over the lines, on a backing of its own, so a line crossing it cannot hide it
        y = xy(0, target)[1]
        width = min(plot.w // 2, canvas.cache.width(target_label, small) + small)
        box = pygame.Rect(plot.x + small // 2, y - small - 3, width, small + 2)
        box.clamp_ip(plot)
        pygame.draw.rect(surf, theme.BACKGROUND, box, border_radius=max(2, small // 5))
        canvas.text(target_label, small, box.inflate(-small // 2, 0), theme.WARNING, align="center")
