"""README's Ctrl+digit keys are the sidebar's: every "Section (Ctrl+N)" it names is that section's digit."""

from __future__ import annotations

import re
from pathlib import Path

from clubdesk.ui.shell.sections import SECTIONS

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_ctrl_digit_in_the_readme_opens_the_section_it_names() -> None:
    digit = {s.title: str((i + 1) % 10) for i, s in enumerate(SECTIONS)}  # the tenth: Ctrl+0
    text = " ".join(README.read_text(encoding="utf-8").split())
    named = re.findall(r"([A-Z][a-z]+) \(Ctrl\+(\d)\)", text)
    sections = [(name, d) for name, d in named if name in digit]
    assert [(name, d, digit[name]) for name, d in sections if digit[name] != d] == []
    assert {name for name, _d in sections} == set(digit)  # every section is named with its key
