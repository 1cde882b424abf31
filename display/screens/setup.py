"""The setup screen: the game, the players in their seats, the options, and Start; with a
roster, the list of the table's players to pick from, and the editor of a name being added
(the name so far and the letter wheel)."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.layout import MIN_PARAGRAPH_PX, inset, split_columns, split_rows
from display.viewmodel import NameEntry, RosterName, SetupView

MIN_ROWS = 6  # rows never grow taller than a sixth of the column: a short list stays compact
REMOVE_KEY_ASPECT = 2.2  # the "remove" key beside the roster name under the cursor: width / height
STACKED = 2.5  # a row narrower than this many times its height puts its label above its value

Row = tuple[str, str, str, int]  # label, value, section, index


def draw(canvas: Canvas, view: SetupView) -> None:
    L = canvas.layout
    chrome.header(canvas, "New game", view.variant_name)
    body = L.rect((0.03, 0.12, 0.94, 0.7))
    # the gaps and the cells' margins as on a 4:3 screen of this width: a portrait screen's
    # narrow columns keep their width for words
    gap = L.across(0.03 if view.roster is not None else 0.04)
    weights = [1.0, 1.0, 0.9] if view.roster is not None else [1.0, 1.0]
    columns = split_columns(body, weights, gap=gap)
    left, right = columns[0], columns[-1]

    left_rows: list[Row] = [("Game", view.variant_name, "variant", 0)]
    for i, player in enumerate(view.players):
        label = f"Seat {i + 1}"
        value = player.name + (f"  ({player.team})" if player.team else "")
        left_rows.append((label, value, "player", i))
    right_rows: list[Row] = [(o.label, o.value, "option", i) for i, o in enumerate(view.options)]
    if view.resume:  # the game left unfinished
        right_rows.append(("Resume", view.resume, "resume", 0))
    right_rows.append(("", "Start", "start", 0))

    count = max(len(left_rows), len(right_rows), MIN_ROWS)
    placed = [(left, left_rows)]
    if view.entry is None:
        placed.append((right, right_rows))
    if view.roster is not None and view.entry is None:
        placed.append((columns[1], _roster_rows(view.roster, view, count)))
    for column, rows in placed:
        cells = split_rows(column, count, gap=L.py(0.012))
        label_w = _label_width(canvas, cells[0], rows)
        for rect, (label, value, section, index) in zip(cells, rows, strict=False):
            _row(canvas, rect, label, value, section, index, view, label_w)
    if view.entry is not None:
        _entry(canvas, columns[1].union(right), view.entry)

    if view.problem:
        problem = L.rect((0.03, 0.825, 0.94, 0.05))
        canvas.text(view.problem, L.line("body"), problem, theme.WARNING, align="center")
        canvas.mark("problem", problem)
    chrome.footer(canvas, view.hint)


def _roster_rows(roster: tuple[RosterName, ...], view: SetupView, count: int) -> list[Row]:
    """"Add a name" and as many names as the column holds, the cursor's always among them."""
    slots = count - 1
    start = 0
    if len(roster) > slots:
        at = view.cursor.index if view.cursor.section == "roster" else 0
        start = min(max(0, at - slots // 2), len(roster) - slots)
    total = f"{len(roster)} on the list" if len(roster) > slots else "+"
    rows: list[Row] = [(total, "Add a name", "add", 0)]
    for i in range(start, min(len(roster), start + slots)):
        entry = roster[i]
        rows.append((f"Seat {entry.seat}" if entry.seat is not None else "", entry.name, "roster", i))
    return rows


def _label_share(section: str) -> float:
    """A row's label's share of its width, beside the value (where the words fit)."""
    return 0.3 if section in ("roster", "add", "resume") else 0.36


def _label_width(canvas: Canvas, cell: pygame.Rect, rows: list[Row]) -> int:
    """How wide a column's labels are, beside their values, in a row ``cell``: their share,
    or where a label would be cut and the values have room to spare (a 320×240 screen's
    "Turn timer" beside "45 s"), as much more as the values can give (the roster's keeping
    room for its "remove" key too); one width for the whole column, so that its values line
    up. 0 where the labels fit their share."""
    L = canvas.layout
    inner = inset(cell, L.across(0.02), L.py(0.006))
    labelled = [(label, value) for label, value, section, _ in rows if section != "start"]
    if not labelled:
        return 0
    share = _label_share(rows[-1][2] if rows[-1][2] != "start" else rows[0][2])
    plain = int(inner.w * share)
    # each row its section's share, as ever, where every label fits it: on one line shrunk
    # (a quick measure, enough on most screens: this runs every frame), else over the lines
    # the row holds (a search over widths)
    if all(canvas.least_width(label, L.line("small"), bold=False) <= plain for label, _ in labelled):
        return 0
    needs = [max(_need(canvas, label, L.line("small"), inner.h, bold=False) for label, _ in labelled)]
    if needs[0] <= plain:
        return 0
    needs.append(max(_need(canvas, value, L.line("body"), inner.h, bold=True) for _, value in labelled))
    if any(section == "roster" for _, _, section, _ in rows):
        needs[1] += round(cell.h * REMOVE_KEY_ASPECT) + L.py(0.01)
    label, _ = split_columns(pygame.Rect(0, 0, inner.w, 1), [share, 1 - share], gap=L.py(0.01), needs=needs)
    return max(plain, label.w)


def _need(canvas: Canvas, text: str, line_px: int, height: int, bold: bool) -> int:
    """The least width a label or value shows whole in: over the lines a row ``height`` tall
    holds, or on one line shrunk further (a one-line row's)."""
    return min(canvas.paragraph_width(text, line_px, height, bold=bold, min_scale=0.6),
               canvas.least_width(text, line_px, bold=bold))


def _row(canvas: Canvas, rect: pygame.Rect, label: str, value: str, section: str, index: int, view: SetupView,
         label_w: int) -> None:
    L = canvas.layout
    single = section in ("variant", "start", "add", "resume")
    here = view.cursor.section == section and (single or view.cursor.index == index)
    if section == "start":
        fill = theme.HIGHLIGHT if here else theme.VALID
        canvas.panel(rect, fill, theme.TEXT if here else None, width=L.py(0.005))
        canvas.text(value, L.line("large"), inset(rect, L.py(0.015)), theme.TEXT_DARK, align="center")
    else:
        seated = section == "roster" and bool(label)
        fill = theme.HIGHLIGHT if here and not view.editing else theme.PANEL
        edge = (theme.SELECTION if here and view.editing else theme.VALID if seated else theme.PANEL_EDGE)
        wide = here and view.editing or seated
        canvas.panel(rect, fill, edge, width=L.py(0.006 if wide else 0.002))
        ink = theme.HIGHLIGHT_TEXT if here and not view.editing else theme.TEXT
        inner = inset(rect, L.across(0.02), L.py(0.006))
        stacked = inner.w < STACKED * inner.h
        if stacked:  # a narrow, tall cell (a portrait screen): the label above
            # in two fifths of the cell, less (one line of it) where the value needs two lines
            # under it (a long game's name in a 320×480 screen's column)
            value_h = canvas.lines_height(value, L.line("body"), inner.w)
            label_h = min(inner.h * 2 // 5, max(MIN_PARAGRAPH_PX, inner.h - value_h))
            label_box = pygame.Rect(inner.x, inner.y, inner.w, label_h)
            value_box = pygame.Rect(inner.x, label_box.bottom, inner.w, inner.bottom - label_box.bottom)
        else:
            label_box = pygame.Rect(inner.x, inner.y, label_w or int(inner.w * _label_share(section)), inner.h)
            value_box = pygame.Rect(label_box.right + L.py(0.01), inner.y,
                                    inner.right - label_box.right - L.py(0.01), inner.h)
        if section == "roster" and here and not view.editing:  # a finger takes the name off here
            key = pygame.Rect(0, 0, min(value_box.w // 2, round(rect.h * REMOVE_KEY_ASPECT)), rect.h - 2 * L.py(0.006))
            key.midright = (rect.right - L.py(0.006), rect.centery)
            canvas.panel(key, theme.KEY, theme.KEY_EDGE, width=L.py(0.002))
            canvas.text("remove", L.line("small"), inset(key, L.py(0.006)), theme.TEXT, align="center", bold=False)
            canvas.mark(f"row:remove:{index}", key)
            value_box.w = max(1, key.x - L.py(0.01) - value_box.x)
        label_ink = ink if here else theme.VALID if seated else theme.TEXT_DIM
        # each shrunk a little, then over two lines (a long name, a narrow screen) before a cut
        canvas.paragraph(label, L.line("small"), label_box, label_ink, bold=False, min_scale=0.6)
        value_ink = ink if here or seated or section != "roster" else theme.TEXT_DIM
        canvas.paragraph(value, L.line("body"), value_box, value_ink, min_scale=0.6)
    name = section if single else f"{section}:{index}"
    canvas.mark(f"row:{name}", rect)
    if here:
        canvas.mark("cursor", rect)


def _entry(canvas: Canvas, area: pygame.Rect, entry: NameEntry) -> None:
    """The name being added: the letters so far with the wheel's letter after them, the
    wheel (a tap on a letter takes it), what the buttons do, and why a name was refused."""
    L = canvas.layout
    canvas.panel(area, theme.PANEL, theme.SELECTION, width=L.py(0.006))
    canvas.mark("entry", area)
    inner = inset(area, L.py(0.025), L.py(0.02))
    title, name_row, wheel_row, help_row, problem_row = split_rows(inner, 5, gap=L.py(0.01))
    over = len(entry.text.strip()) > entry.limit
    canvas.text("Add a name", L.line("body"), title, theme.TEXT_DIM, bold=False)
    canvas.text(f"{len(entry.text)} / {entry.limit}", L.line("small"), title,
                theme.WARNING if over else theme.TEXT_DIM, align="right", bold=False)

    # the name so far, then the wheel's letter as OK would add it
    letter = entry.wheel[entry.wheel_index] if entry.wheel else ""
    box = pygame.Rect(name_row.x, name_row.y, name_row.w, name_row.h)
    canvas.panel(box, theme.BACKGROUND, theme.PANEL_EDGE, width=L.py(0.002))
    text_box = inset(box, L.py(0.015), L.py(0.004))
    cell_w = max(L.py(0.06), box.h * 2 // 3)
    typed = pygame.Rect(text_box.x, text_box.y, max(1, text_box.w - cell_w - L.py(0.01)), text_box.h)
    shown = canvas.text(entry.text, L.line("large"), typed, theme.WARNING if over else theme.TEXT, bold=True)
    canvas.mark("entry:text", shown if entry.text else pygame.Rect(typed.x, typed.y, 1, typed.h))
    cell = pygame.Rect(shown.right + L.py(0.008) if entry.text else typed.x, text_box.y, cell_w, text_box.h)
    canvas.panel(cell, theme.HIGHLIGHT, None)
    canvas.text(_label(letter), L.line("large") if letter != " " else L.line("small"), cell,
                theme.HIGHLIGHT_TEXT, align="center")
    canvas.mark("entry:letter", cell)

    # the wheel: the letter under it in the middle, larger
    cells = split_columns(wheel_row, [1.0] * len(entry.wheel), gap=L.py(0.006)) if entry.wheel else []
    for k, (rect, ch) in enumerate(zip(cells, entry.wheel, strict=True)):
        middle = k == entry.wheel_index
        canvas.panel(rect, theme.HIGHLIGHT if middle else theme.KEY, theme.KEY_EDGE, width=L.py(0.002))
        size = L.line("large") if middle else L.line("body")
        canvas.text(_label(ch), size if ch != " " else L.line("small") * 2 // 3, inset(rect, L.py(0.004)),
                    theme.HIGHLIGHT_TEXT if middle else theme.TEXT, align="center")
        canvas.mark(f"row:wheel:{k}", rect)
    canvas.paragraph(entry.hint, L.line("small"), help_row, theme.TEXT_DIM, align="left", bold=False, min_scale=0.55)
    if entry.problem:
        canvas.paragraph(entry.problem, L.line("body"), problem_row, theme.WARNING, align="left", min_scale=0.6)
        canvas.mark("entry:problem", problem_row)


def _label(ch: str) -> str:
    return "space" if ch == " " else ch
