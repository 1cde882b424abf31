"""Placeholder."""

from display.canvas import Canvas


def draw(canvas: Canvas, view: object, *a: object) -> None:
    pass
