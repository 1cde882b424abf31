"""An image in the other lightness with its hues kept: how a light-on-dark deck looks to a
reader that learnt dark ink on pale paper, and back."""

from __future__ import annotations

import cv2
import numpy as np


def lightness_negative(image: np.ndarray) -> np.ndarray:
    """A BGR image with its lightness turned over and its hues kept (CIELAB's L inverted):
    dark ink on white paper becomes light ink on black, and red ink stays red, as a
    light-on-dark deck prints it (a plain negative would turn red ink cyan). Turning a
    light-on-dark print over gives dark ink on pale paper."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    out: np.ndarray = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    return out
