"""The show verdict: the declarer's groups drawn as cards, each marked valid or not with its reason."""

from __future__ import annotations

import io
import math

import pygame

from display import chrome, theme
from display.canvas import Canvas, number_text
from display.cardface import CARD_ASPECT, FaceDrawer
from display.layout import inset
from display.viewmodel import SHOW_CORRECTING, SHOW_READING, GroupView, ShowView

MIN_STEP = 0.32  # of a card's width: enough of an overlapped card shows to read its index
MAX_CARD_HEIGHT = 0.3  # of the screen: one short group need not fill the screen
BAND_HEIGHTS = (0.1, 0.14, 0.18, 0.24)  # the verdict band grows (of the screen) for a long reason
#: ...and its type shrinks down to this share before the reason is cut (a contract game's
#: longest reasons run past 300 characters)
VERDICT_MIN_SCALE = 0.55
AREA = (0.015, 0.215, 0.97, 0.66)  # the groups, under a one-line band, above the soft keys
AREA_GAP = 0.015
PHOTO_SHARE = 0.34  # of the screen's width: the side panel with the photo a reading was made from
UNREADABLE_PHOTO = "photo unreadable"
_decoded: dict[bytes, pygame.Surface | None] = {}  # the last photo decoded (a replay redraws it)


def _band_inner(canvas: Canvas, band: pygame.Rect) -> pygame.Rect:
    return inset(band, canvas.layout.py(0.03), canvas.layout.py(0.008))


def verdict_band(canvas: Canvas, words: str) -> pygame.Rect:
    """The verdict band under the header: one line tall, taller when the verdict's reason
    needs more lines to be read whole (the groups' area gives up the room)."""
    L = canvas.layout
    band = L.rect((0.0, 0.1, 1.0, BAND_HEIGHTS[0]))
    for share in BAND_HEIGHTS:
        band = L.rect((0.0, 0.1, 1.0, share))
        if canvas.paragraph_fit(words, L.line("large"), _band_inner(canvas, band),
                                min_scale=VERDICT_MIN_SCALE)[2]:
            break
    return band


def draw(canvas: Canvas, view: ShowView, faces: FaceDrawer) -> None:
    L = canvas.layout
    right = "" if view.points is None else f"{number_text(view.points)} points"
    chrome.header(canvas, view.title or f"{view.declarer} shows", right)
    if view.stage == SHOW_READING or view.valid is None:
        colour, words = theme.NEUTRAL, view.verdict or "Reading the table…"
    elif view.valid:
        colour, words = theme.VALID, view.verdict or "Valid show"
    else:
        colour, words = theme.INVALID_FILL, view.verdict or "Invalid show"
    banner = verdict_band(canvas, words)
    pygame.draw.rect(canvas.surface, colour, banner)
    canvas.paragraph(words, L.line("large"), _band_inner(canvas, banner), theme.TEXT_DARK if view.valid else theme.TEXT,
                     align="center", min_scale=VERDICT_MIN_SCALE)
    canvas.mark("verdict", banner)

    area = L.rect(AREA)
    area = pygame.Rect(area.x, banner.bottom + L.py(AREA_GAP), area.w, area.bottom - banner.bottom - L.py(AREA_GAP))
    if view.photo is not None:
        side = pygame.Rect(0, area.y, round(L.width * PHOTO_SHARE), area.h)
        side.right = area.right
        area = pygame.Rect(area.x, area.y, side.x - area.x - L.py(0.02), area.h)
        _photo(canvas, view.photo, side)
    if view.stage == SHOW_CORRECTING and view.selected is not None:
        side = pygame.Rect(0, area.y, round(L.width * 0.2), area.h)
        side.right = area.right
        area = pygame.Rect(area.x, area.y, side.x - area.x - L.py(0.02), area.h)
        _correction(canvas, view, side, faces)

    cells: list[tuple[GroupView, str]] = [(g, "") for g in view.groups]
    if view.loose:
        cells.append((GroupView(view.loose, False, "loose"), "loose"))
    if cells:
        cols = 1 if len(cells) == 1 else 2 if len(cells) <= 6 else 3
        rows = math.ceil(len(cells) / cols)
        gap = L.py(0.02)
        cw = (area.w - gap * (cols - 1)) // cols
        ch = (area.h - gap * (rows - 1)) // rows
        for i, (group, tag) in enumerate(cells):
            r, c = divmod(i, cols)
            cell = pygame.Rect(area.x + c * (cw + gap), area.y + r * (ch + gap), cw, ch)
            _group(canvas, view, i, group, cell, faces, loose=tag == "loose")
    chrome.footer(canvas, view.prompt)


def _group(canvas: Canvas, view: ShowView, index: int, group: GroupView, cell: pygame.Rect, faces: FaceDrawer, *, loose: bool) -> None:
    L = canvas.layout
    canvas.panel(cell, theme.PANEL)
    name = "loose" if loose else f"group:{index}"
    canvas.mark(name, cell)
    if loose or not group.judged:
        colour = theme.WARNING if group.reason and not loose else theme.NEUTRAL
    else:
        colour = theme.VALID if group.valid else theme.INVALID
    bar_w = max(6, L.py(0.022))
    bar = pygame.Rect(cell.x, cell.y, bar_w, cell.h)
    pygame.draw.rect(canvas.surface, colour, bar, border_top_left_radius=L.py(0.012), border_bottom_left_radius=L.py(0.012))
    canvas.mark("marker:loose" if loose else f"marker:{index}", bar)

    pad = L.py(0.012)
    inner = pygame.Rect(bar.right + pad, cell.y + pad, cell.right - bar.right - 2 * pad, cell.h - 2 * pad)
    text_h = _words_height(canvas, group, inner, loose, pad // 2)
    cards_box = pygame.Rect(inner.x, inner.y, inner.w, inner.h - text_h)
    badge_d = min(cards_box.h // 2, L.py(0.07))
    badge = pygame.Rect(cards_box.right - badge_d, cards_box.y, badge_d, badge_d)
    if not loose and group.judged:
        _badge(canvas, badge, group.valid)
        canvas.mark(f"badge:{index}", badge)
    cards_box.w -= badge_d + pad
    _fan(canvas, view, index, group.cards, cards_box, faces, selectable=not loose)

    words_box = pygame.Rect(inner.x, cards_box.bottom + pad // 2, inner.w, inner.bottom - cards_box.bottom - pad // 2)
    if loose:
        canvas.text("Not in a group", L.line("small"), words_box, theme.TEXT_DIM, bold=False)
        return
    kind = group.kind or ("meld" if group.valid else "not a meld")
    if not group.judged:  # no verdict: what is wrong with the group itself, else nothing
        if group.reason:
            canvas.paragraph(group.reason, L.line("small"), words_box, theme.WARNING, valign="top", min_scale=0.75)
        else:
            canvas.text(kind, L.line("small"), words_box, theme.TEXT_DIM, bold=False)
    elif group.valid:  # on one line where it fits; over two, not cut, in a narrow cell
        canvas.paragraph(kind, L.line("small"), words_box, theme.VALID, min_scale=0.75)
    else:
        canvas.paragraph(group.reason or kind, L.line("small"), words_box, theme.TEXT, valign="top", min_scale=0.75)


def _words_height(canvas: Canvas, group: GroupView, inner: pygame.Rect, loose: bool, gap: int) -> int:
    """The height under a group's cards for its words (``gap`` above them): three tenths of
    the cell, or up to half of it where a reason, or a valid group's kind, would be cut there
    (a short screen's narrow cells), the cards drawn smaller for it."""
    L = canvas.layout
    height = max(int(inner.h * 0.3), L.line("small") + 4)
    if not group.judged:
        words = group.reason  # else the kind, dim, on one line
    else:
        kind = group.kind or ("meld" if group.valid else "not a meld")
        words = kind if group.valid else group.reason or kind
    if loose or not words:
        return height
    most = max(height, inner.h // 2)
    while height < most and not canvas.paragraph_fit(
            words, L.line("small"), pygame.Rect(0, 0, inner.w, height - gap),
            min_scale=0.75)[2]:
        height = min(most, height + max(1, L.line("small") // 2))
    return height


def _fan(canvas: Canvas, view: ShowView, group: int, cards: tuple[str, ...], box: pygame.Rect, faces: FaceDrawer, *, selectable: bool) -> None:
    """Cards side by side, overlapping as much as needed to fit ``box``."""
    if not cards:
        return
    k = len(cards)
    h = min(box.h, canvas.layout.py(MAX_CARD_HEIGHT))
    w = round(h * CARD_ASPECT)
    if k > 1 and w * (1 + MIN_STEP * (k - 1)) > box.w:
        w = int(box.w / (1 + MIN_STEP * (k - 1)))
        h = round(w / CARD_ASPECT)
    step = w * 1.06 if k == 1 else min(w * 1.06, (box.w - w) / (k - 1))
    top = box.y + (box.h - h) // 2
    wild = set(view.wild_cards)
    chosen = view.selected if selectable and view.selected is not None and view.selected.group == group else None
    last: tuple[str, pygame.Rect] | None = None
    for j, card in enumerate(cards):
        rect = pygame.Rect(round(box.x + j * step), top, w, h)
        canvas.mark(f"card:{group}:{j}", rect)
        if chosen is not None and chosen.index == j:
            last = (card, rect)
            continue
        faces.draw(canvas.surface, card, rect, wild=card in wild)
    if last is not None:
        card, rect = last
        faces.draw(canvas.surface, card, rect, selected=True, wild=card in wild)
        canvas.mark("selected", rect)


def _badge(canvas: Canvas, rect: pygame.Rect, valid: bool) -> None:
    """A round badge with a tick (valid) or a cross (invalid), drawn with lines."""
    colour = theme.VALID if valid else theme.INVALID
    pygame.draw.circle(canvas.surface, colour, rect.center, rect.w // 2)
    w = max(2, rect.w // 8)
    x, y, s = rect.x, rect.y, rect.w
    if valid:
        pts = [(x + s * 0.26, y + s * 0.52), (x + s * 0.43, y + s * 0.69), (x + s * 0.75, y + s * 0.33)]
        pygame.draw.lines(canvas.surface, theme.TEXT_DARK, False, pts, w)
    else:
        a, b = s * 0.3, s * 0.7
        pygame.draw.line(canvas.surface, theme.TEXT, (x + a, y + a), (x + b, y + b), w)
        pygame.draw.line(canvas.surface, theme.TEXT, (x + b, y + a), (x + a, y + b), w)


def _correction(canvas: Canvas, view: ShowView, side: pygame.Rect, faces: FaceDrawer) -> None:
    """The card under correction and what it would become."""
    L = canvas.layout
    canvas.panel(side, theme.PANEL, theme.SELECTION, width=L.py(0.005))
    canvas.mark("correction", side)
    inner = inset(side, L.py(0.015))
    # in a narrow panel (a portrait screen's) the title and the note take two lines, not cut
    title = pygame.Rect(inner.x, inner.y, inner.w, canvas.lines_height("Correct card", L.line("body"), inner.w))
    canvas.paragraph("Correct card", L.line("body"), title, theme.SELECTION, align="center", min_scale=0.75)
    sel = view.selected
    current = ""
    if sel is not None and 0 <= sel.group < len(view.groups) and 0 <= sel.index < len(view.groups[sel.group].cards):
        current = view.groups[sel.group].cards[sel.index]
    avail = pygame.Rect(inner.x, title.bottom + L.py(0.01), inner.w, inner.bottom - title.bottom - L.py(0.01))
    note_px = canvas.lines_height(view.proposed_note, L.line("small"), inner.w, bold=False)
    note_h = note_px + L.py(0.01) if view.proposed_note else 0
    h = min(int((avail.h - note_h) * 0.4), int(inner.w * 0.8 / CARD_ASPECT))
    w = round(h * CARD_ASPECT)
    was = pygame.Rect(0, 0, w, h)
    was.midtop = (inner.centerx, avail.y)
    faces.draw(canvas.surface, current or "?", was)
    arrow = pygame.Rect(inner.x, was.bottom, inner.w, int((avail.h - note_h) * 0.16))
    cx, cy, a = arrow.centerx, arrow.centery, max(6, arrow.h // 3)
    pygame.draw.polygon(canvas.surface, theme.SELECTION, [(cx - a, cy - a // 2), (cx + a, cy - a // 2), (cx, cy + a)])
    becomes = pygame.Rect(0, 0, w, h)
    becomes.midtop = (inner.centerx, arrow.bottom)
    if not view.proposed and view.proposed_note:
        _no_card(canvas, becomes)  # the card is to be removed
    else:
        faces.draw(canvas.surface, view.proposed or "?", becomes, selected=True)
    canvas.mark("proposed", becomes)
    if view.proposed_note:
        note = pygame.Rect(inner.x, becomes.bottom + L.py(0.01), inner.w, note_px)
        canvas.paragraph(view.proposed_note, L.line("small"), note.clip(inner), theme.SELECTION, align="center",
                         bold=False, min_scale=0.75)
        canvas.mark("proposed-note", note)


def _no_card(canvas: Canvas, rect: pygame.Rect) -> None:
    """An empty place where a card was: a dashed-looking outline crossed out."""
    width = max(2, rect.w // 30)
    pygame.draw.rect(canvas.surface, theme.SELECTION, rect, width, border_radius=rect.w // 12)
    a, b = rect.inflate(-rect.w // 3, -rect.h // 3).topleft, rect.inflate(-rect.w // 3, -rect.h // 3).bottomright
    pygame.draw.line(canvas.surface, theme.INVALID, a, b, width * 2)
    c, d = rect.inflate(-rect.w // 3, -rect.h // 3).topright, rect.inflate(-rect.w // 3, -rect.h // 3).bottomleft
    pygame.draw.line(canvas.surface, theme.INVALID, c, d, width * 2)


def _photo_surface(photo: bytes) -> pygame.Surface | None:
    """The photo's pixels, or None when they cannot be read (a damaged or empty blob)."""
    if photo in _decoded:
        return _decoded[photo]
    surf: pygame.Surface | None
    try:
        surf = pygame.image.load(io.BytesIO(photo), "photo.jpg") if photo else None
    except (pygame.error, ValueError, OSError, MemoryError):
        surf = None
    _decoded.clear()
    _decoded[photo] = surf
    return surf


def _photo(canvas: Canvas, photo: bytes, side: pygame.Rect) -> None:
    """The photo the reading was made from, scaled to fit the side panel (or why not)."""
    L = canvas.layout
    canvas.panel(side, theme.PANEL)
    canvas.mark("photo", side)
    inner = inset(side, L.py(0.012))
    title = pygame.Rect(inner.x, inner.y, inner.w, L.line("small"))
    canvas.text("Photo of the reading", L.line("small"), title, theme.TEXT_DIM, align="center", bold=False)
    room = pygame.Rect(inner.x, title.bottom + L.py(0.01), inner.w, inner.bottom - title.bottom - L.py(0.01))
    surf = _photo_surface(photo)
    if surf is None or room.w < 4 or room.h < 4:
        canvas.paragraph(UNREADABLE_PHOTO, L.line("body"), room, theme.WARNING, align="center")
        return
    w, h = surf.get_size()
    scale = min(room.w / w, room.h / h)
    size = (max(1, int(w * scale)), max(1, int(h * scale)))
    picture = pygame.transform.smoothscale(surf.convert() if pygame.display.get_surface() else surf, size)
    rect = picture.get_rect(center=room.center)
    canvas.surface.blit(picture, rect)
    canvas.mark("photo:image", rect)
