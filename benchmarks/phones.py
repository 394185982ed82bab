"""Issue 27's targets: results entered on the players' phones, on the loopback only, bounded in time.

    .venv/bin/python benchmarks/phones.py [--quick] [--json] [--tables 64] [--readers 100] [--seconds S]

A club file with 64 tavla tables (128 players, one published Swiss round) is served by ``clubdesk-cli
serve --workers 2`` (``CLUBDESK_BENCH_WORKERS``) on 127.0.0.1 (a free port), as a desk serves a big hall.
Then, for ``--seconds`` (60; ``--quick``: 10): two phones per table each enter a game every 2 s over HTTP,
as a browser does (the table page read first for its CSRF field and version, as after the live poll's
reload; the form posted, answered with the page after it; one post in twenty is sent twice, as a retry
on a flaky Wi-Fi would), and 100 readers load the hall pages (the round's pairings, the standings) every
5 s, as the hall page's own refresh does.

Printed: p50/p95 of a hand entry (the post, answered with the page after it; target p95 <= 100 ms), p95
of a hall page (target <= 50 ms), errors, hands lost or doubled (each table's stored games against the
posts the server acknowledged), the server's CPU per hand, and the desk <-> phone refresh: a phone's hand
seen by the desk's data-version watcher (+ the window's 300 ms timer and 300 ms gathering), and a desk's
entry seen by a phone polling its table's live key every 500 ms (target <= 1 s). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.integration.test_night_helpers import DESK, make_event  # noqa: E402

from clubdesk.keys import keys_dir  # noqa: E402
from clubdesk.services.night.data.tokens import round_tokens  # noqa: E402
from clubdesk.services.night.play import results, rounds  # noqa: E402
from clubdesk.storage import Database, DataVersion  # noqa: E402  # noqa: E402

WORKERS = int(os.environ.get("CLUBDESK_BENCH_WORKERS", "2"))  # serve --workers: the server's processes
HAND_EVERY = 2.0  # seconds between two games entered by one phone
READ_EVERY = 5.0  # seconds between two loads by one hall reader (the hall page's own refresh)
RETRY_SHARE = 0.05  # posts sent twice with the same post id (stored once)
LIVE_POLL = 0.5  # the table page's live.js polls this often
WINDOW_TIMER = 0.6  # ui/shell/live_refresh.py: 300 ms data-version poll + 300 ms gathering
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
FLASH = re.compile(r'class="flash (ok|err)"[^>]*>([^<]*)<')
VERSION = re.compile(r'name="version" value="(\d+)"')


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18] if len(xs) >= 20 else max(xs, default=0.0)


class Client:
    """One browser: one keep-alive connection and its cookies."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=15)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, Any]:
        headers = {"Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                text = resp.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=15)
                if attempt:
                    raise
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                k, _sep, v = pair.partition("=")
                if "max-age=0" in value.lower() or "expires=thu, 01 jan 1970" in value.lower():
                    self.cookies.pop(k.strip(), None)
                else:
                    self.cookies[k.strip()] = v.strip()
        return resp.status, text, resp


class Phone(threading.Thread):
    def __init__(self, bench: Bench, table: int, token: str, side: int, offset: float) -> None:
        super().__init__(daemon=True)
        self.bench, self.table, self.token, self.side, self.offset = bench, table, token, side, offset
        self.client = Client(bench.host, bench.port)
        self.acked: set[str] = set()
        self.times: list[float] = []
        self.post_times: list[float] = []
        self.errors: list[str] = []
        self.stale = 0
        self.sent = 0
        self.refusals: list[str] = []

    def _page(self) -> tuple[str, str]:
        status, text, _r = self.client.request("GET", f"/t/{self.token}")
        if status != 200:
            raise RuntimeError(f"table page {status}")
        csrf, version = CSRF.search(text), VERSION.search(text)
        if csrf is None or version is None:
            raise RuntimeError("no form on the table page")
        return csrf.group(1), version.group(1)

    @staticmethod
    def _flash(html: str) -> dict[str, str]:
        """The message on the page a post was answered with: {"k": "ok"/"err", "t": text}."""
        m = FLASH.search(html)
        return {"k": m.group(1), "t": m.group(2)} if m else {}

    def _post(self, k: int) -> None:
        for _attempt in range(3):
            csrf, version = self._page()
            post_id = uuid.uuid4().hex
            form = {
                "csrf": csrf,
                "post_id": post_id,
                "version": version,
                "winner": str((k + self.side) % 2),
                "kind": "single",
                "cube": "1",
            }
            start = time.perf_counter()
            status, text, _r = self.client.request("POST", f"/t/{self.token}/entry", form)
            posted = done = time.perf_counter()  # the post is answered with the page after it
            flash = self._flash(text)
            self.sent += 1
            if status != 200:
                self.errors.append(f"status {status}")
                return
            if flash.get("k") == "err":  # the other phone entered first: the page reloads, enter again
                self.stale += 1
                last = flash.get("t", "refused")
                self.refusals.append(last)
                continue
            self.acked.add(post_id)
            self.post_times.append((posted - start) * 1000)
            self.times.append((done - start) * 1000)
            if random.random() < RETRY_SHARE:  # the same post again, as a retry on a flaky Wi-Fi: stored once
                status, _t, _r = self.client.request("POST", f"/t/{self.token}/entry", form)
                if status != 200:
                    self.errors.append(f"retry status {status}")
            return
        self.errors.append(f"refused three times: {last}")

    def run(self) -> None:
        try:
            csrf, _v = self._page()
            self.client.request("POST", f"/t/{self.token}/side", {"csrf": csrf, "side": str(self.side)})
        except Exception as exc:  # noqa: BLE001
            self.errors.append(f"setup: {exc!r}")
            return
        time.sleep(self.offset)
        k = 0
        while self.bench.running():
            at = time.monotonic()
            try:
                self._post(k)
            except Exception as exc:  # noqa: BLE001 - counted, the phone goes on
                self.errors.append(repr(exc))
            k += 1
            time.sleep(max(0.0, HAND_EVERY - (time.monotonic() - at)))


class Reader(threading.Thread):
    def __init__(self, bench: Bench, paths: list[str], offset: float) -> None:
        super().__init__(daemon=True)
        self.bench, self.paths, self.offset = bench, paths, offset
        self.client = Client(bench.host, bench.port)
        self.times: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        time.sleep(self.offset)
        k = 0
        while self.bench.running():
            at = time.monotonic()
            start = time.perf_counter()
            try:
                status, _text, _r = self.client.request("GET", self.paths[k % len(self.paths)])
                self.times.append((time.perf_counter() - start) * 1000)
                if status != 200:
                    self.errors.append(f"status {status}")
            except Exception as exc:  # noqa: BLE001
                self.errors.append(repr(exc))
            k += 1
            time.sleep(max(0.0, READ_EVERY - (time.monotonic() - at)))


class Bench:
    def __init__(self, host: str, port: int, seconds: float) -> None:
        self.host, self.port = host, port
        self.until = time.monotonic() + seconds

    def running(self) -> bool:
        return time.monotonic() < self.until


def build(folder: Path, tables: int) -> tuple[Path, int, dict[int, str]]:
    path = folder / "club.sqlite3"
    db = Database(path, backups_dir=folder / "backups")
    ev, _ids = make_event(
        db,
        ruleset="tavla",
        fmt="swiss",
        players=2 * tables,
        rounds=5,
        match_lengths=[999],
        name="Phones night",
    )
    rounds.propose_round(db, DESK, ev)
    rounds.publish_round(db, DESK, ev)
    tokens = round_tokens(db, ev, 1)
    db.close()
    return path, ev, tokens


def serve(path: Path, folder: Path) -> tuple[subprocess.Popen[str], str, int]:
    # the server finds the club's audit key where this process kept it when it built the club
    env = {
        **os.environ,
        "CLUBDESK_HOME": str(folder / "home"),
        "CLUBDESK_KEYS": str(keys_dir()),
        "PYTHONPATH": str(ROOT / "src"),
    }
    code = "import sys; from clubdesk.cli import main; sys.exit(main(sys.argv[1:]))"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "--db",
            str(path),
            "--json",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            str(WORKERS),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line:
        raise RuntimeError("the server did not start: " + (child.stderr.read() if child.stderr else ""))
    url = urlsplit(json.loads(line)["urls"][0])
    return child, url.hostname or "127.0.0.1", int(url.port or 80)


def refresh_times(path: Path, ev: int, token: str, table: int, host: str, port: int) -> tuple[float, float]:
    """(phone -> desk, desk -> phone) in seconds, measured once the load has stopped."""
    db = Database(path)
    try:
        watcher = DataVersion(path)
        phone = Client(host, port)
        status, text, _r = phone.request("GET", f"/t/{token}")
        csrf, version = CSRF.search(text), VERSION.search(text)
        assert status == 200 and csrf is not None and version is not None
        phone.request("POST", f"/t/{token}/side", {"csrf": csrf.group(1), "side": "0"})
        form = {
            "csrf": csrf.group(1),
            "post_id": uuid.uuid4().hex,
            "version": version.group(1),
            "winner": "0",
        }
        form.update(kind="single", cube="1")
        watcher.changed()
        start = time.perf_counter()
        phone.request("POST", f"/t/{token}/entry", form)
        while not watcher.changed():
            time.sleep(0.005)
        to_desk = time.perf_counter() - start + WINDOW_TIMER
        _s, before, _r = phone.request("GET", f"/t/{token}/live")
        start = time.perf_counter()
        results.add_entry(db, DESK, ev, 1, table, {"type": "game", "winner": 1, "kind": "single", "cube": 1})
        while True:  # the page polls its live key every 500 ms (live.js)
            _s, now, _r = phone.request("GET", f"/t/{token}/live")
            if now != before:
                break
            time.sleep(LIVE_POLL)
        to_phone = time.perf_counter() - start
        watcher.close()
        return to_desk, to_phone
    finally:
        db.close()


def cpu_seconds(pid: int) -> float | None:
    """The server's CPU time so far (user + system of the process and of its worker processes; Linux
    /proc), None elsewhere."""
    try:
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat.parent.name == str(pid) or fields[1] == str(pid):  # the server or a worker it started
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total
    except (OSError, ValueError, IndexError):
        return None


def run(tables: int, readers: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="clubdesk-phones-") as tmp:
        folder = Path(tmp)
        print(f"building {tables} tables ...", file=sys.stderr, flush=True)
        path, ev, tokens = build(folder, tables)
        child, host, port = serve(path, folder)
        try:
            bench = Bench(host, port, seconds)
            phones = [
                Phone(bench, t, tok, side, offset=random.uniform(0, HAND_EVERY) if side == 0 else 0.0)
                for t, tok in tokens.items()
                for side in (0, 1)
            ]
            # the second phone of a table enters a second after the first: one game a second per table
            for a, b in zip(phones[0::2], phones[1::2], strict=True):
                b.offset = a.offset + HAND_EVERY / 2
            paths = ["/", f"/hall/{ev}/standings"]
            hall = [Reader(bench, paths, random.uniform(0, READ_EVERY)) for _k in range(readers)]
            print(f"load for {seconds:.0f} s ...", file=sys.stderr, flush=True)
            cpu_before = cpu_seconds(child.pid)
            for th in (*phones, *hall):
                th.start()
            for th in (*phones, *hall):
                th.join(timeout=seconds + 60)
            cpu_after = cpu_seconds(child.pid)
            server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
            hand = [x for p in phones for x in p.times]
            post = [x for p in phones for x in p.post_times]
            pages = [x for r in hall for x in r.times]
            errors = [e for p in phones for e in p.errors] + [e for r in hall for e in r.errors]
            db = Database(path)
            lost = doubled = 0
            acked: dict[int, int] = {}
            for p in phones:
                acked[p.table] = acked.get(p.table, 0) + len(p.acked)
            for t in tokens:
                stored = sum(len(v) for v in results.table_entries(db, ev, 1, t).values())
                lost += max(0, acked.get(t, 0) - stored)
                doubled += max(0, stored - acked.get(t, 0))
            db.close()
            first = min(tokens)
            to_desk, to_phone = refresh_times(path, ev, tokens[first], first, host, port)
        finally:
            child.terminate()
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
    return {
        "tables": tables,
        "phones": 2 * tables,
        "readers": readers,
        "seconds": seconds,
        "hands": len(hand),
        "hand_entry_p50_ms": statistics.median(hand) if hand else None,
        "hand_entry_p95_ms": p95(hand) if hand else None,
        "hand_post_p95_ms": p95(post) if post else None,
        "hall_pages": len(pages),
        "hall_page_p50_ms": statistics.median(pages) if pages else None,
        "hall_page_p95_ms": p95(pages) if pages else None,
        "refused_table_changed": sum(p.stale for p in phones),
        "refusal_samples": sorted({re.sub(r"\d+", "N", r) for p in phones for r in p.refusals})[:5],
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:5],
        "hands_lost": lost,
        "hands_doubled": doubled,
        "server_cpu_s": server_cpu,
        "server_cpu_ms_per_hand": None if server_cpu is None or not hand else server_cpu * 1000 / len(hand),
        "phone_to_desk_s": to_desk,
        "desk_to_phone_s": to_phone,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 s of load instead of 60")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tables", type=int, default=64)
    ap.add_argument("--readers", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=None)
    args = ap.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (10.0 if args.quick else 60.0)
    out = run(max(1, min(args.tables, 256)), max(0, min(args.readers, 500)), max(2.0, min(seconds, 600.0)))
    if args.json:
        print(json.dumps(out, indent=2))
        return 0

    def ms(v: float | None) -> str:
        return "—" if v is None else f"{v:.1f} ms"

    print(
        f"{out['tables']} tables, {out['phones']} phones (a game every {HAND_EVERY:g} s each), "
        f"{out['readers']} hall readers (every {READ_EVERY:g} s), {out['seconds']:g} s"
    )
    print(
        f"hand entry (the post, answered with the page): p50 {ms(out['hand_entry_p50_ms'])}"
        f"  p95 {ms(out['hand_entry_p95_ms'])}  (n={out['hands']})  target p95 <= 100 ms"
    )
    print(
        f"hall page: p50 {ms(out['hall_page_p50_ms'])}  p95 {ms(out['hall_page_p95_ms'])}"
        f"  (n={out['hall_pages']})  target p95 <= 50 ms"
    )
    print(
        f"errors {out['errors']}  hands lost {out['hands_lost']}  doubled {out['hands_doubled']}"
        f"  (refused as the other phone entered first, then entered again: {out['refused_table_changed']})"
    )
    if out["error_samples"]:
        print("  e.g. " + "; ".join(out["error_samples"]))
    if out["refusal_samples"]:
        print("  refusals: " + "; ".join(out["refusal_samples"]))
    if out["server_cpu_s"] is not None:
        print(
            f"server CPU {out['server_cpu_s']:.1f} s in {out['seconds']:g} s of load"
            f" ({out['server_cpu_ms_per_hand']:.1f} ms per hand entered, hall pages included)"
        )
    print(
        f"phone -> desk {out['phone_to_desk_s']:.2f} s (incl. the window's 0.6 s timer)  "
        f"desk -> phone {out['desk_to_phone_s']:.2f} s  target <= 1 s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
