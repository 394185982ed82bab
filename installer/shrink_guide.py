"""Shrink the built guide's screenshots for the bundle: each PNG as 64 colours (a screen of flat widgets has
few), about 3 times smaller, so four languages of pictures fit the 150 MB target (issue 24). Only the copy
that ships (``resources/guide/<lang>/_images``) is changed; ``scripts/dev.sh guide`` keeps the full pictures.

    python installer/shrink_guide.py src/clubdesk/resources/guide
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image


def shrink(folder: Path) -> tuple[int, int]:
    before = after = 0
    for png in sorted(folder.rglob("*.png")):
        raw = png.read_bytes()
        with Image.open(io.BytesIO(raw)) as im:
            small = im.convert("RGB").quantize(64, method=Image.Quantize.MEDIANCUT)
            out = io.BytesIO()
            small.save(out, "PNG", optimize=True)
        before += len(raw)
        if out.tell() < len(raw):
            png.write_bytes(out.getvalue())
            after += out.tell()
        else:
            after += len(raw)
    return before, after


if __name__ == "__main__":
    b, a = shrink(Path(sys.argv[1]))
    print(f"guide pictures: {b / 1e6:.1f} MB -> {a / 1e6:.1f} MB")
