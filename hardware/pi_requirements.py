"""The kit's requirements that pip must install on a Raspberry Pi, one per line.

    python hardware/pi_requirements.py PYPROJECT [EXTRAS]

A requirement whose module the running interpreter already imports from Pi OS's packages
(numpy, OpenCV, matplotlib) is left out and named on stderr: picamera2 from apt was built
against numpy and OpenCV, and a copy from pip would shadow them; Pi OS's matplotlib
(python3-matplotlib) is built against that numpy too, and saves building one on the Pi.
Everything else is printed for pip. Run it with the venv's own python (made with
--system-site-packages), so it sees what that venv sees.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

#: The module a requirement provides, for those Pi OS ships as Debian packages.
SYSTEM_MODULES = {"numpy": "numpy", "opencv-python": "cv2", "opencv-python-headless": "cv2",
                  "matplotlib": "matplotlib"}


def requirement_name(requirement: str) -> str:
    """The distribution's name in a requirement line, lower case."""
    return re.split(r"[<>=!~;\[ @]", requirement.strip(), maxsplit=1)[0].lower()


def needed(pyproject: Path, extras: list[str],
           importable: Callable[[str], bool]) -> tuple[list[str], list[str]]:
    """(requirements for pip, modules kept from the system)."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"pi_requirements: no extra {extra!r} in {pyproject}")
        wanted += optional[extra]
    install: list[str] = []
    kept: list[str] = []
    for requirement in wanted:
        module = SYSTEM_MODULES.get(requirement_name(requirement))
        if module and importable(module):
            kept.append(module)
        elif requirement not in install:
            install.append(requirement)
    return install, kept


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    extras = [e for e in (argv[1] if len(argv) == 2 else "").split(",") if e]
    install, kept = needed(Path(argv[0]), extras,
                           lambda module: importlib.util.find_spec(module) is not None)
    for module in kept:
        print(f"keeping the system's {module}", file=sys.stderr)
    print("\n".join(install))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
