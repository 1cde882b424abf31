"""The play screen: the seat ring around the table, the active seat, the countdown ring.

Drawn in two layers so a running timer stays cheap: `draw_table` draws everything that
changes only when the game does (cached by the renderer), `draw_countdown` the ring and its
seconds, every frame.
"""

from __future__ import annotations

import math

import pygame

from display import chrome, qr, theme
from display.canvas import Canvas, number_text
from display.fonts import clusters
from display.layout import HEADER, MIN_LINE_PX, inset
from display.viewmodel import SEAT_DROPPED, SEAT_ELIMINATED, PlayView, SeatView

CENTRE = (0.5, 0.5)  # the table's centre, as fractions of width and height
RING_RADIUS = 0.19  # of the height
RING_RADIUS_OF_WIDTH = 0.17  # at most, of the width (the side seats' inner edges lie at 0.255)
RING_WIDTH = 0.042
POINTER = 0.04  # the active seat's wedge, of the height (less where the ring is narrowed)
SEAT_ORBIT = (0.355, 0.30)  # seat centres lie on this ellipse (fractions of width, height)
FELT = (0.30, 0.25)
NOTE = (0.62, 0.103, 0.36, 0.036)  # the standing note's box, under the header at the right
SEAT_WIDTH = 0.2  # of the width, up to six seats (and more on a screen narrower than 4:3)
SEAT_WIDTH_CROWDED = 0.18  # seven and eight seats on a screen 4:3 or wider
SEAT_HEIGHT = 0.19  # of the height: as tall as the ring leaves room for, the score must be big
SEAT_HEIGHT_CROWDED = 0.18  # seven and eight seats: clear of the standing note
# A seat panel's rows, as shares of its inner height: the name, the score (the rest), the note.
NAME_SHARE = 0.28
NOTE_SHARE = 0.19
MIN_SCORE_SCALE = 0.6  # a wide score shrinks this far before it is cut
SCORE_AIR = 0.08  # of the score's row, kept clear above and below its digits


def team_colours(view: PlayView) -> dict[str, theme.Colour]:
    teams: dict[str, theme.Colour] = {}
    for seat in view.seats:
        if seat.team and seat.team not in teams:
            teams[seat.team] = theme.series_colour(len(teams))
    return teams


def team_words(team: str) -> str:
    """A seat's team as its box says it: "team North", and "team A" not "team team A"."""
    if not team or team.lower().startswith("team "):
        return team
    return f"team {team}"


def seat_rects(canvas: Canvas, count: int) -> list[pygame.Rect]:
    """Seat boxes around the table, clockwise from the bottom (the screen's own side)."""
    L = canvas.layout
    # up and down squeezed as the layout's boxes are on a short screen (``Layout.down``), so
    # that the bottom seat stays clear of the soft keys
    cx, cy = CENTRE[0] * L.width, L.down(CENTRE[1])
    rx, ry = SEAT_ORBIT[0] * L.width, SEAT_ORBIT[1] * L.height * L.squeeze
    # a screen narrower than 4:3 spreads the seats on its tall orbit further apart up and down
    # than across: seven or eight keep the full width there (a 320×480 screen's seat boxes are
    # too narrow for a note such as "dropped 20" at the crowded one)
    crowded = count > 6 and L.type_height >= L.height
    w = round(L.width * (SEAT_WIDTH_CROWDED if crowded else SEAT_WIDTH))
    h = round(L.height * L.squeeze * (SEAT_HEIGHT if count <= 6 else SEAT_HEIGHT_CROWDED))
    keys = L.soft_key_strip()
    out = []
    for i in range(count):
        t = 2 * math.pi * i / max(1, count)
        x = cx - rx * math.sin(t)
        y = cy + ry * math.cos(t)
        rect = pygame.Rect(0, 0, w, h)
        rect.center = (round(x), round(y))
        if rect.colliderect(keys):  # the bottom seat, on a short screen: the last pixels
            rect.bottom = keys.top
        out.append(rect)
    return out


def first_and_initials(name: str) -> str:
    """A name's first word and the initials of the others ("Alexandrina F.")."""
    words = name.split()
    return " ".join([words[0], *(clusters(w)[0] + "." for w in words[1:])])


def seat_name(canvas: Canvas, name: str, line_px: int, width: int) -> str:
    """A name as its seat box shows it: whole when it fits at nine tenths of its size or more;
    else its first word and the initials of the others ("Alexandrina F."), which a seat box
    shows larger than the whole name shrunk and cut; else whole (shrunk, then cut)."""
    if len(name.split()) < 2 or canvas.cache.width(name, max(1, line_px * 9 // 10), True) <= width:
        return name
    short = first_and_initials(name)
    return short if canvas.cache.width(short, max(12, line_px * 6 // 10), True) <= width else name


def ring_geometry(canvas: Canvas) -> tuple[tuple[int, int], int, int]:
    """The countdown ring's centre, outer radius and width: a share of the height, and no more
    than ``RING_RADIUS_OF_WIDTH`` of the width (which binds on a screen about as wide as high or
    taller: a portrait kiosk), so the ring and its pointer stay clear of the seats at its sides."""
    L = canvas.layout
    radius = min(L.py(RING_RADIUS * L.squeeze), round(RING_RADIUS_OF_WIDTH * L.width))
    width = max(1, round(radius * RING_WIDTH / RING_RADIUS))
    return (round(CENTRE[0] * L.width), round(L.down(CENTRE[1]))), radius, width


def draw_table(canvas: Canvas, view: PlayView) -> None:
    """Everything on the play screen except the countdown ring's moving parts."""
    L = canvas.layout
    surf = canvas.surface
    surf.fill(theme.BACKGROUND)
    _header(canvas, view)

    (cx, cy), radius, width = ring_geometry(canvas)
    felt = pygame.Rect(0, 0, round(2 * FELT[0] * L.width), round(2 * FELT[1] * L.height * L.squeeze) + radius)
    felt.center = (cx, cy)
    pygame.draw.ellipse(surf, theme.FELT, felt)
    pygame.draw.ellipse(surf, theme.FELT_EDGE, felt, L.py(0.008))

    teams = team_colours(view)
    rects = seat_rects(canvas, len(view.seats))
    active = view.active_seat if view.active_seat is not None and 0 <= view.active_seat < len(rects) else None
    if active is not None:
        _pointer(canvas, rects[active], (cx, cy), radius + width)
    for i, (seat, rect) in enumerate(zip(view.seats, rects, strict=True)):
        _seat(canvas, i, seat, rect, i == active, i == view.dealer_seat, teams.get(seat.team), view.missed_turn_limit)

    _note(canvas, view.note)
    _calls(canvas, view.calls, rects)
    _club_code(canvas, view.club_url, rects)
    chrome.footer(canvas, view.hint)
    chrome.soft_keys(canvas)
    chrome.toast(canvas, view.toast)


def _header(canvas: Canvas, view: PlayView) -> None:
    L = canvas.layout
    band = L.rect(HEADER)
    pygame.draw.rect(canvas.surface, theme.PANEL, band)
    inner = inset(band, L.py(0.03), L.py(0.012))
    icons = pygame.Rect(0, inner.y, inner.h * 2 + inner.h // 2, inner.h)
    icons.right = inner.right
    problem = chrome.health_icons(canvas, icons, view.link, view.camera)
    title_box = pygame.Rect(inner.x, inner.y, int(inner.w * 0.4), inner.h)
    status_box = pygame.Rect(title_box.right + L.py(0.02), inner.y, icons.left - title_box.right - L.py(0.04), inner.h)
    # each shrunk, then over two lines where the band is narrow (a portrait screen), before a cut
    canvas.paragraph(view.variant_name, L.line("title"), title_box, theme.TEXT, min_scale=0.4)
    if problem:
        canvas.paragraph(problem, L.line("small"), status_box, theme.WARNING, align="right", min_scale=0.6)
    else:
        parts = [f"Deal {view.deal_number}" + (f" of {view.deals_total}" if view.deals_total else "")]
        if view.target:
            parts.append(view.target)
        canvas.paragraph(" · ".join(parts), L.line("body"), status_box, theme.TEXT_DIM, align="right", min_scale=0.5)
    canvas.mark("header", band)


#: The club's QR code (a table in a club): a white square in the bottom left corner, above
#: the footer, as large as the seat boxes leave room for and at most this share of the
#: screen's height (a phone reads it from a seat away at about 2 cm and more).
CLUB_CODE_MAX = 0.27


def _club_code(canvas: Canvas, url: str, seats: list[pygame.Rect]) -> None:
    if not url:
        return
    L = canvas.layout
    margin, bottom = L.py(0.012), round(L.down(0.905))
    side = L.py(CLUB_CODE_MAX)
    while side > 0:
        box = pygame.Rect(margin, bottom - side, side, side)
        if box.collidelist(seats) < 0:
            break
        side -= 2
    drawn = qr.draw(canvas.surface, url, box) if side > 0 else None
    if drawn is not None:
        canvas.mark("club-code", drawn)


#: The button that opens the call panel (a game with calls): the top left corner, under the
#: header, where no seat box reaches.
CALLS_BUTTON = (0.012, 0.115, 0.16, 0.085)


def _calls(canvas: Canvas, label: str, seats: list[pygame.Rect]) -> None:
    if not label:
        return
    L = canvas.layout
    key = L.rect(CALLS_BUTTON)
    gap = max(2, L.py(0.006))
    for seat in seats:  # with seven or eight seats one comes near: the button gives way
        if key.colliderect(seat.inflate(2 * gap, 2 * gap)):
            shorter = key.h - max(0, key.bottom - (seat.top - gap))
            narrower = key.w - max(0, key.right - (seat.left - gap))
            if shorter * key.w >= narrower * key.h:
                key.h = shorter
            else:
                key.w = narrower
    pygame.draw.rect(canvas.surface, theme.KEY, key, border_radius=L.py(0.012))
    pygame.draw.rect(canvas.surface, theme.KEY_EDGE, key, width=max(1, L.py(0.003)), border_radius=L.py(0.012))
    canvas.text(label, L.line("body"), inset(key, L.py(0.01)), theme.TEXT, align="center", min_scale=0.5)
    canvas.mark("call:open", key)


def _note(canvas: Canvas, note: str) -> None:
    """A standing note in small dim print under the header's right end (below the health
    icons), clear of the seats: no seat box reaches this corner."""
    if not note:
        return
    box = canvas.layout.rect(NOTE)
    canvas.text(note, canvas.layout.line("small"), box, theme.TEXT_DIM, align="right", bold=False)
    canvas.mark("note", box)


def _pointer(canvas: Canvas, seat: pygame.Rect, centre: tuple[int, int], reach: int) -> None:
    """A highlight wedge on the ring's edge, pointing at the active seat."""
    cx, cy = centre
    dx, dy = seat.centerx - cx, seat.centery - cy
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist
    size = max(2, round(reach * POINTER / (RING_RADIUS + RING_WIDTH)))  # as the ring is sized
    tip = (cx + ux * (reach + size * 1.6), cy + uy * (reach + size * 1.6))
    base = (cx + ux * (reach + size * 0.3), cy + uy * (reach + size * 0.3))
    left = (base[0] - uy * size, base[1] + ux * size)
    right = (base[0] + uy * size, base[1] - ux * size)
    pygame.draw.polygon(canvas.surface, theme.HIGHLIGHT, [tip, left, right])


def _seat(
    canvas: Canvas,
    index: int,
    seat: SeatView,
    rect: pygame.Rect,
    active: bool,
    dealer: bool,
    team: theme.Colour | None,
    missed_limit: int,
) -> None:
    L = canvas.layout
    out = seat.state in (SEAT_DROPPED, SEAT_ELIMINATED)
    fill = theme.HIGHLIGHT if active else (theme.dim(theme.PANEL, 0.7) if out else theme.PANEL)
    ink = theme.HIGHLIGHT_TEXT if active else (theme.TEXT_DIM if out else theme.TEXT)
    edge = theme.HIGHLIGHT if active else theme.PANEL_EDGE
    canvas.panel(rect, fill, edge, width=L.py(0.004))
    canvas.mark(f"seat:{index}", rect)
    pad = max(3, rect.h // 20)
    inner = inset(rect, pad)
    if team is not None:
        stripe = pygame.Rect(rect.x, rect.y + rect.h // 8, max(4, pad), rect.h * 3 // 4)
        pygame.draw.rect(canvas.surface, team, stripe, border_radius=2)
        inner = pygame.Rect(inner.x + pad, inner.y, inner.w - pad, inner.h)
    # three rows: the name, the score (the big element: read across the table), a note; the
    # name's and the note's type as on a 4:3 screen of this width where the screen is
    # narrower (a portrait kiosk's tall, narrow seat boxes cut a name at the box's own height)
    name_h = round(inner.h * NAME_SHARE)
    note_h = round(inner.h * NOTE_SHARE)
    narrow = L.type_height / L.height
    name_px = max(MIN_LINE_PX, round(name_h * narrow)) if narrow < 1 else name_h
    note_px = min(note_h, max(MIN_LINE_PX, round(note_h * narrow))) if narrow < 1 else note_h
    name_box = pygame.Rect(inner.x, inner.y, inner.w, name_h)
    if dealer:
        chip_d = min(name_h, inner.w // 5)
        chip = pygame.Rect(0, 0, chip_d, chip_d)
        chip.midright = name_box.midright
        pygame.draw.circle(canvas.surface, theme.TEXT, chip.center, chip_d // 2)
        pygame.draw.circle(canvas.surface, theme.TEXT_DARK, chip.center, chip_d // 2, max(1, chip_d // 12))
        canvas.text("D", int(chip_d * 0.8), chip.inflate(-chip_d // 5, -chip_d // 8), theme.TEXT_DARK, align="center")
        canvas.mark(f"dealer:{index}", chip)
        name_box.w -= chip_d + pad
    canvas.text(seat_name(canvas, seat.name, name_px, name_box.w), name_px, name_box, ink)

    note_row = pygame.Rect(inner.x, inner.bottom - note_h, inner.w, note_h)
    score_box = pygame.Rect(inner.x, name_box.bottom, inner.w, note_row.y - name_box.bottom)
    # the digits' ink, not a line of type, fills the row (less a little air above and below)
    digits = inset(score_box, 0, round(score_box.h * SCORE_AIR))
    score = canvas.figures(number_text(seat.score), digits, ink, min_scale=MIN_SCORE_SCALE, align="left")
    canvas.mark(f"score:{index}", score)

    note = seat.note or (seat.state if out else "") or team_words(seat.team)
    slots = missed_limit if missed_limit > 0 else min(seat.missed_turns, 5)
    if note and slots > seat.missed_turns:
        # in a narrow seat box the turns left give way to a note that would be cut beside them
        # (the turns missed stay)
        room = note_row.w - _marks_width(note_row, slots) - pad
        if canvas.fit(note, note_px, room, bold=False)[0] != note:
            slots = seat.missed_turns
    marks_w = _missed_marks(canvas, index, seat.missed_turns, slots, note_row)
    if note:
        note_box = pygame.Rect(note_row.x, note_row.y, note_row.w - marks_w - (pad if marks_w else 0), note_row.h)
        colour = theme.INVALID_TEXT if seat.state == SEAT_ELIMINATED and not active else ink
        if note != seat.note and not out and team is not None and not active:
            colour = team
        canvas.text(note, note_px, note_box, colour, bold=False)
    if seat.state == SEAT_ELIMINATED:
        pygame.draw.line(canvas.surface, theme.INVALID, rect.topleft, rect.bottomright, max(2, L.py(0.004)))


def _mark_size(row: pygame.Rect) -> tuple[int, int]:
    """A missed-turn dot's diameter in the note row, and the gap between dots."""
    d = max(6, min(row.h - 2, row.w // 9))
    return d, max(2, d // 3)


def _marks_width(row: pygame.Rect, slots: int) -> int:
    d, gap = _mark_size(row)
    return slots * d + (slots - 1) * gap if slots > 0 else 0


def _missed_marks(canvas: Canvas, index: int, missed: int, slots: int, row: pygame.Rect) -> int:
    """``slots`` dots at the right of the note row: red for each missed turn, hollow for those
    left."""
    if slots <= 0:
        return 0
    d, gap = _mark_size(row)
    width = _marks_width(row, slots)
    x = row.right - width
    for k in range(slots):
        centre = (x + k * (d + gap) + d // 2, row.centery)
        if k < missed:
            pygame.draw.circle(canvas.surface, theme.MISSED_MARK, centre, d // 2)
        else:
            pygame.draw.circle(canvas.surface, theme.MISSED_SLOT, centre, d // 2, max(2, d // 6))
    canvas.mark(f"missed:{index}", pygame.Rect(x, row.centery - d // 2, width, d))
    return width


# --- the moving layer ----------------------------------------------------------------------


def ring_colour(fraction: float, running: bool) -> theme.Colour:
    if not running:
        return theme.RING_PAUSED
    if fraction > 0.5:
        return theme.RING_CALM
    if fraction > 0.2:
        return theme.RING_HURRY
    return theme.RING_LAST


def arc_points(centre: tuple[int, int], outer: float, inner: float, fraction: float) -> list[tuple[float, float]]:
    """An annulus sector from twelve o'clock clockwise over ``fraction`` of a turn."""
    cx, cy = centre
    sweep = 2 * math.pi * fraction
    steps = max(2, int(180 * fraction) + 1)
    angles = [-math.pi / 2 + sweep * k / steps for k in range(steps + 1)]
    outside = [(cx + outer * math.cos(a), cy + outer * math.sin(a)) for a in angles]
    inside = [(cx + inner * math.cos(a), cy + inner * math.sin(a)) for a in reversed(angles)]
    return outside + inside


def draw_countdown(canvas: Canvas, view: PlayView) -> None:
    """The large ring: the share of the turn left, the seconds, whose turn it is."""
    L = canvas.layout
    surf = canvas.surface
    centre, radius, width = ring_geometry(canvas)
    bounds = pygame.Rect(0, 0, 2 * radius + 2, 2 * radius + 2)
    bounds.center = centre
    canvas.mark("countdown", bounds)
    pygame.draw.circle(surf, theme.BACKGROUND, centre, radius - width)
    pygame.draw.circle(surf, theme.RING_TRACK, centre, radius, width)
    cd = view.countdown
    inner_box = pygame.Rect(0, 0, int((radius - width) * 1.5), int((radius - width) * 1.5))
    inner_box.center = centre
    name = ""
    if view.active_seat is not None and 0 <= view.active_seat < len(view.seats):
        name = view.seats[view.active_seat].name
    if cd is None:
        canvas.text(name, L.line("large"), inner_box, theme.TEXT, align="center")
        return
    total = cd.total_seconds if cd.total_seconds > 0 and math.isfinite(cd.total_seconds) else 1.0
    left = cd.seconds_left if math.isfinite(cd.seconds_left) else 0.0  # a clock gone wrong: none left
    fraction = min(1.0, max(0.0, left / total))
    colour = ring_colour(fraction, cd.running)
    if fraction > 0:
        if fraction >= 1.0:
            pygame.draw.circle(surf, colour, centre, radius, width)
        else:
            pygame.draw.polygon(surf, colour, arc_points(centre, radius, radius - width, fraction))
    seconds = max(0, math.ceil(left - 1e-9))
    digits = pygame.Rect(inner_box.x, inner_box.y + inner_box.h // 6, inner_box.w, int(inner_box.h * 0.56))
    # the digits' ink fills their box: the seconds left are read from across the table
    canvas.figures(str(seconds), digits, colour if cd.running else theme.TEXT_DIM, align="center",
                   min_scale=0.3)  # a long turn's four digits shrink rather than being cut
    label = pygame.Rect(inner_box.x, digits.bottom, inner_box.w, inner_box.bottom - digits.bottom)
    canvas.text(name, L.line("small"), label, theme.TEXT, align="center")
    if cd.label:
        top = pygame.Rect(inner_box.x, inner_box.y, inner_box.w, inner_box.h // 6)
        canvas.text(cd.label, L.line("small"), top, theme.TEXT_DIM, align="center", bold=False)


def draw_pause(canvas: Canvas, view: PlayView, veil: pygame.Surface | None = None) -> pygame.Surface | None:
    """A banner across the table saying why play is paused. Returns the veil for reuse."""
    if not view.paused_reason:
        return veil
    L = canvas.layout
    band = L.rect((0.0, 0.43, 1.0, 0.18))
    if veil is None or veil.get_size() != band.size:
        veil = pygame.Surface(band.size, pygame.SRCALPHA)
        veil.fill((0, 0, 0, 200))
    canvas.surface.blit(veil, band)
    pygame.draw.line(canvas.surface, theme.WARNING, band.topleft, band.topright, L.py(0.006))
    pygame.draw.line(canvas.surface, theme.WARNING, band.bottomleft, band.bottomright, L.py(0.006))
    rows = inset(band, L.py(0.04), L.py(0.015))
    top = pygame.Rect(rows.x, rows.y, rows.w, rows.h * 45 // 100)
    canvas.text("Paused", L.line("large"), top, theme.WARNING, align="center")
    bottom = pygame.Rect(rows.x, top.bottom, rows.w, rows.bottom - top.bottom)
    canvas.paragraph(view.paused_reason, L.line("body"), bottom, theme.TEXT, align="center", min_scale=0.6)
    canvas.mark("paused", band)
    return veil
