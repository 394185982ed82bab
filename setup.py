"""The build step that pyproject.toml's setuptools backend runs: the package, then its catalogs and its guide.

A wheel (and an install from the sdist) carries what a source checkout gets from ``scripts/dev.sh setup``:

- ``resources/locale/<lang>/LC_MESSAGES/clubdesk.mo``, every ``.po`` compiled with Babel as
  ``python -m clubdesk.i18n_tools compile`` does (a wheel without them would speak English only);
- ``resources/guide/<lang>/``, the user guide F1 opens, built by ``scripts/guide.py`` with the screenshots
  there are (``build/screenshots``, made by ``scripts/dev.sh screenshots``, which needs the window and a
  display: a build does not take them). A picture the build lacks is a blank one, named in the guide's
  ``pictures-missing.txt``, and F1 says so. Without Sphinx (the ``guide`` extra) the build warns and ships no
  guide; F1 then says the guide is not installed.

An editable install (``pip install -e``, ``scripts/dev.sh setup``) skips both: dev.sh makes them in the
checkout.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "src"))

from clubdesk.i18n_tools import compile_all  # noqa: E402


class BuildWithCatalogsAndGuide(build_py):
    """setuptools' build_py, then the compiled catalogs and the built guide in the build's package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        resources = Path(self.build_lib) / "clubdesk" / "resources"
        for mo in compile_all(resources / "locale"):
            print(f"compiled {mo.relative_to(self.build_lib)}")
        self.build_guide(resources / "guide")

    def build_guide(self, out: Path) -> None:
        if importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("myst_parser") is None:
            print("warning: without Sphinx and myst-parser the wheel has no user guide", file=sys.stderr)
            return
        guide = ROOT / "scripts" / "guide.py"
        command = [sys.executable, str(guide), "build", "--placeholders", "--out", str(out)]
        if subprocess.call(command, cwd=ROOT) != 0:
            raise SystemExit("the user guide did not build: python scripts/guide.py build shows why")


setup(cmdclass={"build_py": BuildWithCatalogsAndGuide})
