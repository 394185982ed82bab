"""Test-wide setup: Qt runs headless, and no test touches the user's real data dir."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
