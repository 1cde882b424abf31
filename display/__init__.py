"""The table screen: pygame screens drawn from plain view-models.

What the app uses:

* `display.viewmodel`: the frozen dataclasses `tablekit.present` builds (no pygame needed).
* `display.renderer.Renderer`: ``render(view, surface)`` draws any view-model on any surface
  and returns the frame's record (texts and named regions, for tests).
* `display.window.Screen`: the display itself (``TABLEKIT_DISPLAY=kiosk|window|headless``,
  else chosen from the environment); ``show(view)``, ``events()``, ``save_screenshot(path)``.
* `display.frameloop.FrameLoop`: calls ``view_at(now)`` and shows it, 30 fps while a
  countdown runs, slowly otherwise, with an injected clock.
* `display.window.render_to_file(view, path, size)`: one screenshot with no display at all.

``python -m display shots DIR`` writes every sample screen; ``python -m display live`` runs a
countdown on the real screen.
"""

import os

# pygame prints a "Hello from the pygame community" banner on import unless told not to; the
# kiosk's journal and the commands' output are no place for it. Set before any display module
# (all of which come through this package) imports pygame.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
