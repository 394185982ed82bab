"""Smoke-test a built or installed ClubDesk: the programs in BIN_DIR, run in a clean environment.

    /usr/bin/python3 -I installer/smoke.py BIN_DIR --version 0.1.0

Run by installer/build-linux.sh on the bundle it built and (with --install) on the installed package. Only the
standard library is used, so the system Python runs it outside any virtualenv. Each program runs with an
environment holding nothing of the build: PATH=/usr/bin:/bin, a fresh HOME and CLUBDESK_HOME, no PYTHON* and
no VIRTUAL_ENV. Checks:
  1. ``clubdesk-cli version --json`` prints the version of pyproject.toml;
  2. ``clubdesk-cli --lang es --help`` speaks Spanish (the compiled catalogs are in the bundle);
  3. ``clubdesk-cli demo`` builds the demo club in a fresh database (its Swiss rounds paired by rustworkx),
     every migration applied (``info --demo``);
  4. a standings PDF of a demo event is rendered and read back with pdftotext: every entrant's name and points
     (from ``standings --json``) are in it, and the DejaVu fonts are embedded (pdffonts);
  5. ``clubdesk --demo`` opens the window offscreen and is closed by its own timer (``--quit-after``), exit 0,
     and its log says which database it opened;
  6. portable mode, when BIN_DIR is the bundle itself and writable (not /usr/bin): ``portable.txt`` beside
     the programs, no CLUBDESK_HOME: the database is ``ClubDesk-data/clubdesk.sqlite3`` beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path


def clean_env(home: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "CLUBDESK_HOME": str(home / "data"),
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_RUNTIME_DIR": str(home / "run"),
    }


def run(args: list[str], env: dict[str, str], timeout: int = 180) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(args), flush=True)
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-4000:], sep="\n", file=sys.stderr)
        raise SystemExit(f"smoke: {args[0]} exited {proc.returncode}")
    return proc


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"smoke: FAILED: {what}")
    print(f"  ok: {what}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir", type=Path)
    parser.add_argument("--version", required=True)
    parser.add_argument("--quit-after", type=int, default=6)
    args = parser.parse_args()
    cli = str(args.bin_dir / "clubdesk-cli")
    gui = str(args.bin_dir / "clubdesk")
    tmp = Path(tempfile.mkdtemp(prefix="clubdesk-smoke-"))
    try:
        home = tmp / "home"
        (home / "run").mkdir(parents=True)
        (home / "run").chmod(0o700)
        env = clean_env(home)

        out = json.loads(run([cli, "version", "--json"], env).stdout)
        check(out.get("version") == args.version, f"version --json is {out} (pyproject: {args.version})")

        usage = run([cli, "--lang", "es", "--help"], env).stdout
        check(usage.startswith("uso:"), "clubdesk-cli --lang es --help speaks Spanish (catalogs bundled)")

        demo = json.loads(run([cli, "demo", "--json"], env).stdout)
        check(demo.get("members") == 40 and len(demo.get("events", [])) >= 1, f"demo club built: {demo}")
        db = home / "data" / "demo.sqlite3"
        check(db.is_file(), f"demo database at {db}")
        info = json.loads(run([cli, "info", "--demo", "--json"], env).stdout)
        check(bool(info.get("schema")), f"schema revision {info.get('schema')} in {info.get('database')}")

        rows: list[dict[str, object]] = []
        event = None
        for event in demo["events"]:
            shown = run([cli, "--db", str(db), "standings", str(event), "--json"], env)
            rows = json.loads(shown.stdout)["rows"]
            if rows:
                break
        check(bool(rows), f"event {event} has standings rows")
        pdf = tmp / "standings.pdf"
        run([cli, "--db", str(db), "report", "standings", str(event), "--lang", "tr", "--out", str(pdf)], env)
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
        lines = text.splitlines()
        for row in rows:
            name, points = str(row["name"]), str(row["points"])
            hit = [line for line in lines if name in line]
            check(bool(hit) and points in hit[0].split(), f"PDF row: {name} with {points} points")
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
        check("DejaVuSans" in fonts, "DejaVu Sans embedded in the PDF")

        # issue 25: the club server's driver (psycopg with its own libpq) and the keyring are in the bundle: a
        # server nobody listens on is refused with the translated one-line message, not an ImportError
        url = "postgresql+psycopg://clubdesk@127.0.0.1:9/clubdesk"
        print("$", cli, "--db", url, "info", flush=True)
        refused = subprocess.run(
            [cli, "--db", url, "info"], env=env, capture_output=True, text=True, timeout=120
        )
        check(
            refused.returncode == 1
            and "cannot be reached" in refused.stderr
            and "Traceback" not in refused.stderr,
            f"a club server that does not answer is one clear refusal: {refused.stderr.strip()[-300:]}",
        )

        # issue 27: the phones' web server runs from the bundle (uvicorn, Starlette, Jinja2, the static files)
        port = free_port()
        serve = [cli, "--db", str(db), "--json", "serve", "--port", str(port)]
        print("$", " ".join(serve), flush=True)
        server = subprocess.Popen(serve, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            started = json.loads(server.stdout.readline() or "{}") if server.stdout else {}
            check(bool(started.get("urls")), f"clubdesk-cli serve started: {started}")
            base = f"http://127.0.0.1:{port}"
            css = urllib.request.urlopen(f"{base}/static/clubdesk.css", timeout=10)
            check(css.status == 200 and b"{" in css.read(), "the stylesheet of the phones is served")
            try:
                urllib.request.urlopen(f"{base}/t/not-a-token", timeout=10)
                check(False, "an unknown table token is refused")
            except urllib.error.HTTPError as err:
                check(err.code == 404, f"an unknown table token is a plain 404 ({err.code})")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                code = server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                code = -1
        check(code == 0, f"clubdesk-cli serve stops cleanly when told to (SIGTERM; exit {code})")

        proc = run([gui, "--demo", "--quit-after", str(args.quit_after)], env, timeout=120)
        log = (home / "data" / "logs" / "clubdesk.log").read_text(encoding="utf-8")
        check(f"opened {db}" in log, "clubdesk --demo opened the window offscreen and quit by its timer")
        del proc

        real = Path(os.path.realpath(cli)).parent
        bundle_itself = real == args.bin_dir.resolve() and os.access(real, os.W_OK)
        if bundle_itself and not (real / "portable.txt").exists():
            portable_env = {k: v for k, v in env.items() if k != "CLUBDESK_HOME"}
            (real / "portable.txt").write_text("", encoding="utf-8")
            try:
                info = json.loads(run([cli, "info", "--json"], portable_env).stdout)
                expected = real / "ClubDesk-data" / "clubdesk.sqlite3"
                check(info.get("database") == str(expected), f"portable.txt: the database is {expected}")
            finally:
                (real / "portable.txt").unlink()
                shutil.rmtree(real / "ClubDesk-data", ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("smoke: all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    os.umask(0o022)
    raise SystemExit(main())
