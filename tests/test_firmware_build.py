"""The firmware builds with plain avr-gcc, fits the ATmega328P with room to spare, and scales by seats."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest_hardware import FIRMWARE_DIR, FIRMWARE_ELF, FIRMWARE_HEX, require_sim

FLASH_BUDGET = 8 * 1024  # of 32 KiB, leaving the bootloader and future features plenty
RAM_BUDGET = 1024  # of 2 KiB, leaving the stack the other half


def avr_size(elf: Path) -> tuple[int, int]:
    out = subprocess.run(
        ["avr-size", "--format=avr", "--mcu=atmega328p", str(elf)],
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout
    flash = int(re.search(r"Program:\s+(\d+) bytes", out).group(1))  # type: ignore[union-attr]
    ram = int(re.search(r"Data:\s+(\d+) bytes", out).group(1))  # type: ignore[union-attr]
    return flash, ram


def test_firmware_fits() -> None:
    require_sim()
    assert FIRMWARE_HEX.exists() and FIRMWARE_ELF.exists()
    flash, ram = avr_size(FIRMWARE_ELF)
    assert 0 < flash <= FLASH_BUDGET
    assert 0 < ram <= RAM_BUDGET


def test_a_four_seat_box_builds(tmp_path: Path) -> None:
    require_sim()
    subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={tmp_path}", "SEATS=4"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert (tmp_path / "tablekit-box.hex").stat().st_size > 0
