"""The variant registry: found by id, case-insensitively; every known id registered; and filled
once, whole, however many threads ask at the same moment (a club's simulated tables start
together)."""

from __future__ import annotations

import importlib
import threading
import time

import pytest

import engine.variants as registry
from engine.errors import UnknownVariantError


def test_every_known_id_is_found_case_insensitively() -> None:
    assert [v.id for v in registry.all_variants()] == list(registry.KNOWN_IDS)
    assert registry.find(" Indian-Pool-101 ").id == "indian-pool-101"
    with pytest.raises(UnknownVariantError, match="unknown variant"):
        registry.find("snap")


def test_threads_asking_while_the_families_load_wait_for_the_whole_registry(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    monkeypatch.setattr(registry, "_loaded", False)
    real_import = importlib.import_module

    def slow_import(name: str, package: str | None = None):  # type: ignore[no-untyped-def]
        time.sleep(0.01)  # a family that takes a moment to import: the others ask meanwhile
        return real_import(name, package)

    monkeypatch.setattr(registry.importlib, "import_module", slow_import)
    start = threading.Barrier(8)
    found: list[str] = []
    failed: list[str] = []

    def ask(variant_id: str) -> None:
        start.wait(5)
        try:
            found.append(registry.find(variant_id).id)
        except UnknownVariantError as exc:
            failed.append(str(exc))

    ids = ["dummy-rummy", "tile-rummy", "push", "indian-points"] * 2
    threads = [threading.Thread(target=ask, args=(i,)) for i in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert not failed and sorted(found) == sorted(ids)
    assert len(registry.all_variants()) == len(registry.KNOWN_IDS)
