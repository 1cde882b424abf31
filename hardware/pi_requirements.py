"""The kit's requirements that pip must install on a Raspberry Pi, one per line.

    python hardware/pi_requirements.py PYPROJECT [EXTRAS]

A requirement whose module the running interpreter already imports from Pi OS's packages
(numpy, OpenCV, matplotlib), at a version the requirement allows, is left out and named on
stderr: picamera2 from apt was built against numpy and OpenCV, and a copy from pip would
shadow them; Pi OS's matplotlib (python3-matplotlib) is built against that numpy too, and saves
building one on the Pi. A system module older than the requirement asks (Bookworm's OpenCV is
4.6; the kit's ArUco calls need 4.7 or later) is installed by pip after all, kept to releases
built for numpy 1 (``COMPATIBLE``: OpenCV 4.12 needs numpy 2, which would hide apt's numpy
from picamera2). Everything else is printed for pip. Run it with the venv's own python (made
with --system-site-packages), so it sees what that venv sees.
"""

from __future__ import annotations

import importlib
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


#: An upper bound added to a requirement pip installs beside the system's numpy 1.
COMPATIBLE = {"opencv-python": "<4.12", "opencv-python-headless": "<4.12"}


def release(text: str) -> tuple[int, ...]:
    """A version's leading numbers ("4.6.0" -> (4, 6, 0); "1.24.2rc1" -> (1, 24, 2))."""
    numbers = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
    return tuple(numbers)


def allows(requirement: str, version: str) -> bool:
    """Whether ``version`` meets the requirement's lower bound (``>=``; none: any version)."""
    bound = re.search(r">=\s*([0-9][0-9.]*)", requirement.split(";")[0])
    return bound is None or release(version) >= release(bound.group(1))


def needed(pyproject: Path, extras: list[str],
           version_of: Callable[[str], str | None]) -> tuple[list[str], list[str]]:
    """(requirements for pip, modules kept from the system). ``version_of(module)`` is the
    version the interpreter imports (None: it imports none)."""
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
        name = requirement_name(requirement)
        module = SYSTEM_MODULES.get(name)
        version = version_of(module) if module else None
        if module and version is not None and allows(requirement, version):
            kept.append(module)
            continue
        if version is not None and name in COMPATIBLE:  # too old a system copy: pip's, for numpy 1
            head, _, marker = requirement.partition(";")
            requirement = f"{head.strip()},{COMPATIBLE[name]}" + (f";{marker}" if marker else "")
        if requirement not in install:
            install.append(requirement)
    return install, kept


def system_version(module: str) -> str | None:
    """The version of ``module`` the interpreter imports, or None when it imports none."""
    if importlib.util.find_spec(module) is None:
        return None
    try:
        imported = importlib.import_module(module)
    except Exception:  # a broken system copy: pip installs one
        return None
    return str(getattr(imported, "__version__", "0"))


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    extras = [e for e in (argv[1] if len(argv) == 2 else "").split(",") if e]
    install, kept = needed(Path(argv[0]), extras, system_version)
    for module in kept:
        print(f"keeping the system's {module}", file=sys.stderr)
    print("\n".join(install))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
