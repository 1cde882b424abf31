"""Bad input from outside, through the real command line in subprocesses: every case must end
as one ``error:`` line (no traceback), quickly and without a memory blow-up.

Prints, per case, the exit status, the wall time, the child's peak memory and the error line;
then the counts. The cases are the bad options, files and photos the kit is known to meet:
window sizes, house rules, players, demo scripts, report and screenshot paths, a real PNG of
20000×20000 pixels (1.2 GB decoded), broken deck files, an empty photo folder, paths with line
breaks.

    python bench/bench_bad_input.py            # every case
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "tablekit" / "demos" / "indian-pool-101.json"


def huge_png(path: Path, width: int = 20000, height: int = 20000) -> None:
    """A real, valid PNG of ``width``×``height`` black pixels, compressed row by row."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\0" * (1 + 3 * width)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body)
                     + chunk(b"IEND", b""))


def scripts(folder: Path) -> dict[str, Path]:
    base = json.loads(DEMO.read_text(encoding="utf-8"))
    cases: dict[str, object] = {
        "script []": [], "script {}": {},
        "press on seat 7": {**base, "steps": [*base["steps"], {"after": 10, "press": 7}]},
        "after 'x'": {**base, "steps": [*base["steps"], {"after": "x", "ok": True}]},
        "cut key 'x'": {**base, "cuts": {"x": "5D"}},
    }
    out = {}
    for name, data in cases.items():
        path = folder / (name.replace(" ", "-").replace("'", "") + ".json")
        path.write_text(json.dumps(data), encoding="utf-8")
        out[name] = path
    return out


def cases(folder: Path) -> list[tuple[str, list[str]]]:
    import numpy as np

    png = folder / "huge.png"
    huge_png(png)
    photos = folder / "photos"
    photos.mkdir()
    png.rename(photos / "huge.png")
    empty = folder / "empty"
    empty.mkdir()
    deck = folder / "deck.npz"
    np.savez(deck, cards=np.array(["ZZ"]), patches=np.zeros((1, 32, 32)))
    cal = folder / "cal.json"
    cal.write_text(json.dumps({"mat": "A3", "seats": 4, "homography": np.eye(3).tolist(),
                               "image_size": [640, 480], "white_gains": [1, 1, 1], "px_per_mm": 2.0,
                               "deck": "deck.npz"}), encoding="utf-8")
    a_file = folder / "a-file"
    a_file.write_text("x", encoding="utf-8")
    journal = ["--journal", str(folder / "j.sqlite")]
    run = ["run", "--headless", "--seconds", "2", "--no-box", *journal]
    demo = ["demo", "--no-screen", "--box", "keys"]
    out = [
        ("run --size abc", [*run, "--size", "abc", "--variant", "indian-pool-101"]),
        ("run --size=-5x10", [*run, "--size=-5x10", "--variant", "indian-pool-101"]),
        ("run --option deals=abc", [*run, "--variant", "indian-deals", "--option", "deals=abc"]),
        ("run --option unknown key", [*run, "--variant", "indian-deals", "--option", "dealz=3"]),
        ("run --players A,A,B", [*run, "--variant", "indian-pool-101", "--players", "A,A,B"]),
        ("run --players A,,B", [*run, "--variant", "indian-pool-101", "--players", "A,,B"]),
        ("demo --size abc", [*demo, "--size", "abc"]),
        ("demo --report folder", [*demo, "--report", str(folder)]),
        ("demo --screenshots file", [*demo, "--screenshots", str(a_file)]),
        ("demo --script newline path", [*demo, "--script", str(folder / "a\nb.json")]),
        *((f"demo {name}", [*demo, "--script", str(path)]) for name, path in scripts(folder).items()),
        ("see huge PNG", ["see", str(photos / "huge.png")]),
        ("see empty folder", ["see", str(empty)]),
        ("see broken deck", ["see", "--calibration", str(cal), str(photos)]),
    ]
    return out


def run_case(argv: list[str]) -> tuple[int, float, float, str]:
    """Exit status, seconds, the child's own peak memory (MB) and its last stderr line."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "tablekit", *argv], stdout=out, stderr=err,
                                 env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    lines = stderr.strip().splitlines() or stdout.strip().splitlines() or [""]
    if "Traceback" in stderr:
        lines = ["TRACEBACK " + lines[-1]]
    return child.returncode, seconds, usage.ru_maxrss / 1024, lines[-1]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        all_cases = cases(Path(tmp))
        print(f"built the cases (a real 20000x20000 PNG: "
              f"{(Path(tmp) / 'photos' / 'huge.png').stat().st_size / 1e6:.1f} MB) "
              f"in {time.perf_counter() - start:.1f} s")
        tracebacks = silent = 0
        for name, argv in all_cases:
            code, seconds, peak_mb, line = run_case(argv)
            bad = line.startswith("TRACEBACK")
            quiet = code == 0 or not line
            tracebacks += bad
            silent += quiet
            print(f"{name:<28} exit {code}  {seconds:5.2f} s  peak {peak_mb:6.0f} MB  {line[:110]}")
        print(f"{len(all_cases)} cases: {tracebacks} tracebacks, {silent} silent (exit 0 or no message)")
        return 1 if tracebacks or silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
