"""Fetching the training artwork: two runs fetching into one cache at once both succeed.

``npm`` is stood in for by a small script on ``PATH`` that packs a tarball as ``npm pack``
does (a ``package/`` folder, its file name printed last), slowly enough that the two
fetches overlap.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from vision.train import artwork

FAKE_NPM = """#!{python}
import sys, tarfile, time, io
spec, dest = sys.argv[2], sys.argv[4]
name = spec.rsplit("@", 1)[0].strip("@").replace("/", "-") + ".tgz"
time.sleep(0.3)
with tarfile.open(dest + "/" + name, "w:gz") as tar:
    data = spec.encode()
    info = tarfile.TarInfo("package/package.json")
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))
print(name)
"""


def _npm(tmp_path: Path, script: str) -> Path:
    """A folder holding ``script`` as an executable ``npm``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(script)
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)
    return bin_dir


@pytest.fixture
def fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = _npm(tmp_path, FAKE_NPM.format(python=sys.executable))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


def test_two_fetches_at_once_both_succeed(tmp_path: Path, fake_npm: None) -> None:
    cache = tmp_path / "cache"
    errors: list[BaseException] = []

    def fetch() -> None:
        try:
            artwork.fetch(cache)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=fetch) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    for name, version in artwork.PACKAGES:
        unpacked = cache / name.strip("@").replace("/", "-") / "package.json"
        assert unpacked.read_text() == f"{name}@{version}"
    # nothing half-unpacked or packed is left behind
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        name.strip("@").replace("/", "-") for name, _ in artwork.PACKAGES)


def test_a_failed_pack_names_the_package_and_leaves_nothing(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(_npm(tmp_path, "#!/bin/sh\necho 'network unreachable' >&2\nexit 1\n")))
    cache = tmp_path / "cache"
    with pytest.raises(RuntimeError, match="npm pack svg-cards@.*network unreachable"):
        artwork.fetch(cache)
    assert list(cache.iterdir()) == []
