"""Headless Debian Chromium at a phone's 360x640 (issue 27's browser tests): ``scripts/dev.sh`` installs
``chromium`` and ``chromium-driver``; no browser is downloaded."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def phone_browsers(folder: Path) -> Iterator[Callable[..., Any]]:
    """``make(lang)`` opens one more phone (its own profile under ``folder``, so its own cookies) in that
    browser language; every phone is closed at the end."""
    assert shutil.which("chromium") and Path("/usr/bin/chromedriver").is_file(), (
        "scripts/dev.sh installs them"
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    made: list[Any] = []

    def make(lang: str = "en") -> Any:
        opts = webdriver.ChromeOptions()
        opts.binary_location = shutil.which("chromium") or "chromium"
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=360,640",
            f"--lang={lang}",
            f"--user-data-dir={folder / f'profile{len(made)}'}",
        ):
            opts.add_argument(arg)
        opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        driver.set_window_size(360, 640)
        made.append(driver)
        return driver

    try:
        yield make
    finally:
        for d in made:
            d.quit()
