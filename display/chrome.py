"""What frames every screen: the header band, the footer prompt, the toast and health icons."""

from __future__ import annotations

import pygame

from display import theme
from display.canvas import Canvas, printable
from display.layout import FOOTER_LINES, HEADER, MIN_PARAGRAPH_PX, inset, split_columns
from display.viewmodel import DeviceHealth, Toast

FOOTER_MARGIN = 0.03  # the prompt's margin at the sides (``Layout.across``)
TITLE_MIN_SCALE = 0.4  # a screen's title shrinks this far before it is cut...
STATUS_MIN_SCALE = 0.5  # ...and the status at the header's right this far


def header(canvas: Canvas, title: str, right: str = "", colour: theme.Colour = theme.TEXT) -> pygame.Rect:
    """The top band: the screen's title on the left, a short status on the right."""
    L = canvas.layout
    band = L.rect(HEADER)
    pygame.draw.rect(canvas.surface, theme.PANEL, band)
    y = band.bottom - 1
    pygame.draw.line(canvas.surface, theme.PANEL_EDGE, (band.x, y), (band.right, y), max(1, L.py(0.003)))
    inner = inset(band, L.py(0.03), L.py(0.012))
    if right:
        left_box, right_box = pygame.Rect(inner.x, inner.y, int(inner.w * 0.62), inner.h), pygame.Rect(
            inner.x + int(inner.w * 0.64), inner.y, int(inner.w * 0.36), inner.h
        )
        if not (canvas.paragraph_fit(title, L.line("title"), left_box, min_scale=TITLE_MIN_SCALE)[2]
                and canvas.paragraph_fit(right, L.line("body"), right_box, min_scale=STATUS_MIN_SCALE)[2]):
            # the one too long for its share (a game's name in a 320×240 screen's one-line
            # header) takes the room the other leaves
            left_box, right_box = split_columns(inner, [0.62, 0.36], gap=right_box.x - left_box.right, needs=[
                canvas.paragraph_width(title, L.line("title"), inner.h, min_scale=TITLE_MIN_SCALE),
                canvas.paragraph_width(right, L.line("body"), inner.h, min_scale=STATUS_MIN_SCALE)])
        canvas.paragraph(right, L.line("body"), right_box, theme.TEXT_DIM, align="right", min_scale=STATUS_MIN_SCALE)
    else:
        left_box = inner
    # shrunk, then over two lines where the band is narrow (a portrait screen), before a cut
    canvas.paragraph(title, L.line("title"), left_box, colour, min_scale=TITLE_MIN_SCALE)
    return canvas.mark("header", band)


def footer(canvas: Canvas, prompt: str) -> None:
    """The bottom band: what the buttons do now."""
    if not prompt:
        return
    L = canvas.layout
    # the side margins as on a 4:3 screen of this width: a portrait screen's narrow band keeps
    # its width for words
    side, pad = L.across(FOOTER_MARGIN), L.py(0.012)
    words = canvas.cache.displayable(printable(prompt), MIN_PARAGRAPH_PX, False)
    lines = len(canvas.wrap_lines(words, MIN_PARAGRAPH_PX, L.footer_band().w - 2 * side, bold=False))
    # as many lines as the prompt takes in the smallest type (two at least): a long prompt in a
    # narrow band (a 320×480 screen's) reaches up into the gap under the body; where even that
    # is too short the margins above and below give way before a line does
    band = L.footer_band(max(FOOTER_LINES, lines))
    band = inset(band, side, min(pad, max(0, (band.h - lines * MIN_PARAGRAPH_PX) // 2)))
    # over as many lines as the band holds where it is narrow (a portrait screen) rather than cut
    canvas.paragraph(prompt, L.line("small"), band, theme.TEXT_DIM, align="center", bold=False, min_scale=0.4)
    canvas.mark("footer", band)


def toast(canvas: Canvas, note: Toast | None) -> None:
    """A one-line message in a coloured pill over the footer."""
    if note is None or not note.text:
        return
    L = canvas.layout
    prompt = canvas.regions.get("footer")
    if prompt is not None:  # a long prompt's band (three lines) is taller and wider than the pill
        pygame.draw.rect(canvas.surface, theme.BACKGROUND, prompt)  # no word of it peeks out
    band = inset(L.footer_band(), L.py(0.03), L.py(0.006))
    colour = theme.LEVEL_COLOURS.get(note.level, theme.LEVEL_COLOURS["info"])
    ink = theme.LEVEL_TEXT.get(note.level, theme.TEXT)
    canvas.panel(band, colour, ink, width=L.py(0.003), radius=band.h // 2)
    # a long notice (a ruling's reason) wraps onto a second line before it is cut
    canvas.paragraph(note.text, L.line("body"), inset(band, band.h // 2, L.py(0.003)), ink, align="center", min_scale=0.6)
    canvas.mark("toast", band)


SOFT_KEYS = (("key:menu", "MENU"), ("key:ok", "OK"))


def soft_keys(canvas: Canvas) -> None:
    """The on-screen MENU and OK keys in the bottom right corner: a tap on one is a press of
    the box's button (the regions "key:menu" and "key:ok" are where taps are tested)."""
    L = canvas.layout
    rects = L.soft_keys()
    for name, label in SOFT_KEYS:
        rect = rects[name]
        canvas.panel(rect, theme.KEY, theme.KEY_EDGE, width=max(2, L.py(0.004)), radius=rect.h // 4)
        canvas.text(label, max(16, rect.h * 9 // 20), inset(rect, rect.h // 8), theme.TEXT, align="center")
        canvas.mark(name, rect)


def _box_icon(surf: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """The button box: a bar with three round buttons."""
    body = rect.inflate(-rect.w // 8, -rect.h // 2)
    pygame.draw.rect(surf, colour, body, max(2, rect.h // 12), border_radius=rect.h // 8)
    for i in range(3):
        cx = body.x + body.w * (i + 1) // 4
        pygame.draw.circle(surf, colour, (cx, body.centery), max(2, body.h // 4))


def _camera_icon(surf: pygame.Surface, rect: pygame.Rect, colour: theme.Colour) -> None:
    """A camera: body, lens and a bump on top."""
    body = pygame.Rect(0, 0, rect.w * 7 // 8, rect.h * 5 // 8)
    body.midbottom = (rect.centerx, rect.bottom - rect.h // 10)
    pygame.draw.rect(surf, colour, body, max(2, rect.h // 12), border_radius=rect.h // 10)
    bump = pygame.Rect(0, 0, body.w // 3, rect.h // 7)
    bump.midbottom = (body.centerx, body.top + 1)
    pygame.draw.rect(surf, colour, bump)
    pygame.draw.circle(surf, colour, body.center, max(3, body.h // 3), max(2, rect.h // 12))


def health_icons(canvas: Canvas, area: pygame.Rect, link: DeviceHealth, camera: DeviceHealth) -> str:
    """Two icons (button box, camera) coloured by health, a strike through a lost one.

    Returns the message to show for the worst device ("" when both are fine).
    """
    size = min(area.h, area.w // 2)
    icons = [("health:link", link, _box_icon), ("health:camera", camera, _camera_icon)]
    x = area.right - size * 2 - size // 4
    worst = ""
    rank = {"lost": 2, "fallback": 1}
    worst_rank = 0
    for name, health, draw in icons:
        rect = pygame.Rect(x, area.centery - size // 2, size, size)
        colour = theme.HEALTH_COLOURS.get(health.state, theme.NEUTRAL)
        pygame.draw.rect(canvas.surface, theme.dim(colour, 0.25), rect, border_radius=size // 5)
        draw(canvas.surface, rect.inflate(-size // 5, -size // 5), colour)
        if health.state == "lost":
            pygame.draw.line(canvas.surface, colour, rect.topright, rect.bottomleft, max(3, size // 10))
        canvas.mark(name, rect)
        if health.message and rank.get(health.state, 0) > worst_rank:
            worst, worst_rank = health.message, rank[health.state]
        x += size + size // 4
    return worst
