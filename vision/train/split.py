"""The fixed held-out split of the shared photos, by capture group and hash (no torch needed).

Photos taken seconds apart are near-duplicates, so the split is made per capture group (the
minute of a timestamped phone photo, a run of ten numbered photos, every webcam photo of one
card) and a group is held out when the MD5 of its key falls in the last fifth.
"""

from __future__ import annotations

import hashlib
import re

_TIMESTAMPED = re.compile(r"IMG_(\d{8}_\d{4})\d\d")
_NUMBERED = re.compile(r"(IMG_|cam_image)(\d+)")
_ONE_CARD = re.compile(r"^cc-((?:10|[2-9ajqk])[shdc]|black-joker|red-joker|joker)-", re.IGNORECASE)


def capture_group(name: str) -> str:
    """The capture-group key of a photo's file name."""
    m = _TIMESTAMPED.search(name)
    if m:
        return "ts:" + m.group(1)
    m = _NUMBERED.search(name)
    if m:
        return f"num:{m.group(1)}{int(m.group(2)) // 10}"
    m = _ONE_CARD.match(name)
    if m:
        return "card:" + m.group(1).lower()
    return "one:" + name


def is_held_out(name: str) -> bool:
    """True for photos whose capture group is held out of training."""
    digest = hashlib.md5(capture_group(name).encode()).digest()
    return digest[0] % 5 == 0
