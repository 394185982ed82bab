"""Issue 30: the guide's build scripts for the tests (they live in ``scripts/``, not in the package)."""

from __future__ import annotations

import importlib.util
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "id", "es", "tr")


def script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"clubdesk_script_{name}", ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0\xff\xff\xff"))
        + chunk(b"IEND", b"")
    )


def fixture_shots(into: Path) -> Path:
    """A stand-in for build/screenshots: every file the screenshot script makes, for each language."""
    for lang in LANGUAGES:
        folder = into / lang
        folder.mkdir(parents=True)
        for name in script("screenshots").names():
            (folder / name).write_bytes(tiny_png() if name.endswith(".png") else b"%PDF-1.4\n%%EOF\n")
    return into


def build_guide(tmp: Path) -> Path:
    shots = fixture_shots(tmp / "shots")
    out = tmp / "html"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "guide.py"),
            "build",
            "--out",
            str(out),
            "--shots",
            str(shots),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out
