"""Smoke-test a built or installed ClubDesk: the programs in BIN_DIR, run in a clean environment.

    /usr/bin/python3 -I installer/smoke.py BIN_DIR --version 0.1.0

Run by installer/build-linux.sh on the bundle it built and (with --install) on the installed package. Only the
standard library is used, so the system Python runs it outside any virtualenv. Each program runs with an
environment holding nothing of the build: PATH=/usr/bin:/bin, a fresh HOME and CLUBDESK_HOME, no PYTHON* and
no VIRTUAL_ENV. Checks:
  1. ``clubdesk-cli version --json`` (and ``version``) prints the version of pyproject.toml;
  2. ``clubdesk-cli --lang es --help`` speaks Spanish, ``--lang tr --help`` Turkish (the compiled catalogs);
  3. ``clubdesk-cli demo`` builds the demo club in a fresh database (its Swiss rounds paired by rustworkx),
     every migration applied (``info --demo``);
  4. a standings PDF of a demo event is rendered and read back with pdftotext: every entrant's name and points
     (from ``standings --json``) are in it, and the DejaVu fonts are embedded (pdffonts);
  5. ``federation key`` and ``federation export`` of a finished demo event: an Ed25519 signature by that key;
     ``audit --verify``: the log intact;
  6. ``serve --workers 2``: the hall page, a table's page (``table-links``), the stylesheet, a 404 over HTTP
     on the loopback; SIGTERM stops it with exit 0, no process of its session and no listener left;
  7. ``clubdesk --demo`` opens the window offscreen and is closed by its own timer (``--quit-after``), exit 0,
     and its log says which database it opened; with ``--xvfb`` also on Xvfb (xcb), ``--screenshot`` by xwd;
  8. portable mode, when BIN_DIR is the bundle itself and writable (not /usr/bin): ``portable.txt`` beside
     the programs, no CLUBDESK_HOME: the database is ``ClubDesk-data/clubdesk.sqlite3`` beside them.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
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


def federation_and_audit(cli: str, db: Path, events: list[int], env: dict[str, str], tmp: Path) -> None:
    """The club's signing key, the signed file of a finished demo event (cryptography's Ed25519 in the
    bundle), and the audit log's chain intact after all the demo's writes."""
    key = json.loads(run([cli, "--db", str(db), "--json", "federation", "key"], env).stdout)
    public = str(key.get("public_key", ""))
    check(len(public) == 64 and all(c in "0123456789abcdef" for c in public), f"federation key: {public}")
    signed = tmp / "event.json"
    done = None
    for event in reversed(events):  # the demo's finished events are its last ones
        proc = subprocess.run(
            [cli, "--db", str(db), "--json", "federation", "export", str(event), "--out", str(signed)],
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        check("Traceback" not in proc.stderr, f"federation export {event} answers without a traceback")
        if proc.returncode == 0:
            done = json.loads(proc.stdout)
            break
    check(done is not None, "federation export wrote the signed file of a finished demo event")
    document = json.loads(signed.read_text(encoding="utf-8"))
    signature = document.get("signature") or {}
    value = base64.b64decode(str(signature.get("value", "")), validate=True)
    check(
        document.get("format") == "clubdesk-event"
        and signature.get("algorithm") == "ed25519"
        and signature.get("public_key") == public
        and len(value) == 64,
        f"the event file carries an Ed25519 signature by the club's key ({done})",
    )
    audit = json.loads(run([cli, "--db", str(db), "--json", "audit", "--verify"], env).stdout)
    check(
        audit.get("ok") is True and audit.get("broken_row") is None and int(audit.get("rows", 0)) > 0,
        f"audit --verify: the log is intact ({audit.get('rows')} rows, keyed: {audit.get('keyed')})",
    )


def processes_in_session(sid: int) -> list[int]:
    """The processes still running in session ``sid`` (Linux /proc; the server was started as its leader)."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == sid:  # state, ppid, pgrp, session
            left.append(int(entry.name))
    return left


def cmdline(pid: int) -> str:
    try:
        raw = (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode("utf-8", "replace")


def serve_two_workers(cli: str, db: Path, events: list[int], env: dict[str, str]) -> None:
    """The phones' web server from the bundle with two processes (the second one spawned by running the
    program again): the hall page, a table's page, the stylesheet, a 404; SIGTERM stops both processes."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    links: dict[str, object] = {}
    for event in events:  # the first demo event with a round in play has table links
        proc = subprocess.run(
            [cli, "--db", str(db), "--json", "table-links", str(event), "--base", base],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if proc.returncode == 0:
            links = json.loads(proc.stdout)
            if links.get("tables"):
                break
    tables = links.get("tables") or []
    check(bool(tables), f"table-links gave the hall and {len(tables)} tables' addresses")  # type: ignore[arg-type]
    serve = [cli, "--db", str(db), "--json", "serve", "--port", str(port), "--workers", "2"]
    print("$", " ".join(serve), flush=True)
    server = subprocess.Popen(
        serve, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        started = json.loads(server.stdout.readline() or "{}") if server.stdout else {}
        check(bool(started.get("urls")), f"clubdesk-cli serve --workers 2 started: {started}")
        spawned = [pid for pid in processes_in_session(server.pid) if "multiprocessing-fork" in cmdline(pid)]
        check(bool(spawned), f"a second process serves the phones beside the first: {spawned}")
        for _round in range(3):  # several requests: the kernel hands them to either process
            hall = urllib.request.urlopen(f"{base}/", timeout=20)
            body = hall.read().decode("utf-8")
            check(hall.status == 200 and "<html" in body.lower(), "the hall page is served")
            table = urllib.request.urlopen(str(tables[0]["url"]), timeout=20)  # type: ignore[index]
            body = table.read().decode("utf-8")
            check(
                table.status == 200 and "<form" in body.lower(), "a table's page (its score form) is served"
            )
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
            code = server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            code = -1
    check(code == 0, f"clubdesk-cli serve --workers 2 stops cleanly when told to (SIGTERM; exit {code})")
    # multiprocessing's resource tracker leaves when it reads the end of its pipe, just after the server:
    # wait for the session to empty, up to a deadline far beyond that
    deadline = time.monotonic() + 30
    left = processes_in_session(server.pid)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = processes_in_session(server.pid)
    if left:
        os.killpg(server.pid, signal.SIGKILL)
    check(not left, f"no server process is left behind ({left})")
    with socket.socket() as sock:
        check(sock.connect_ex(("127.0.0.1", port)) != 0, f"nothing listens on port {port} any more")


def window_on_xvfb(gui: str, env: dict[str, str], home: Path, seconds: int, picture: Path | None) -> None:
    """The window on a real X server (Xvfb, the xcb platform plugin of the bundle): it opens, is painted,
    optionally photographed (xwd), and closes itself with exit 0."""
    xvfb = shutil.which("Xvfb", path="/usr/bin:/bin")
    if xvfb is None:
        print("  skipped: no Xvfb for the window on X", flush=True)
        return
    read_fd, write_fd = os.pipe()
    display = subprocess.Popen(
        [xvfb, "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()  # Xvfb writes its display number once it accepts clients
        check(number.isdigit(), f"Xvfb is up on :{number}")
        x_env = {**env, "DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb"}
        log = home / "data" / "logs" / "clubdesk.log"
        before = log.stat().st_size if log.exists() else 0
        print("$", gui, "--demo", "--quit-after", seconds, f"(DISPLAY=:{number})", flush=True)
        window = subprocess.Popen(
            [gui, "--demo", "--quit-after", str(seconds)],
            env=x_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        xwd = shutil.which("xwd", path="/usr/bin:/bin")
        if picture is not None and xwd is not None:
            while window.poll() is None:  # the log says "opened" once the window is shown
                text = log.read_bytes()[before:].decode("utf-8", "replace") if log.exists() else ""
                if "opened" in text:
                    break
                window_wait(window, 0.2)
            window_wait(window, 2.0)  # the first paint
            if window.poll() is None:
                with picture.open("wb") as out:
                    subprocess.run(
                        [xwd, "-root", "-silent", "-display", f":{number}"], stdout=out, timeout=30
                    )
                print(f"  screenshot: {picture}", flush=True)
        try:
            _out, err = window.communicate(timeout=seconds + 120)
        except subprocess.TimeoutExpired:
            window.kill()
            _out, err = window.communicate()
        if window.returncode != 0:
            print(err[-4000:], file=sys.stderr)
        check(window.returncode == 0, f"clubdesk --demo on X (xcb) closed itself, exit {window.returncode}")
    finally:
        display.terminate()
        display.wait(timeout=30)


def window_wait(window: subprocess.Popen[str], seconds: float) -> None:
    try:
        window.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        pass


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir", type=Path)
    parser.add_argument("--version", required=True)
    parser.add_argument("--quit-after", type=int, default=6)
    parser.add_argument("--xvfb", action="store_true", help="also open the window on a real X server (Xvfb)")
    parser.add_argument(
        "--screenshot", type=Path, default=None, help="with --xvfb: the window's picture (.xwd)"
    )
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
        usage = run([cli, "--lang", "tr", "--help"], env).stdout
        check(
            usage.startswith("kullanım:") and "ClubDesk sürümünü yazdır" in usage,
            "clubdesk-cli --lang tr --help speaks Turkish",
        )
        plain = run([cli, "version"], env).stdout
        check(args.version in plain, f"clubdesk-cli version says {plain.strip()!r}")

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

        federation_and_audit(cli, db, demo["events"], env, tmp)
        serve_two_workers(cli, db, demo["events"], env)

        proc = run([gui, "--demo", "--quit-after", str(args.quit_after)], env, timeout=120)
        log = (home / "data" / "logs" / "clubdesk.log").read_text(encoding="utf-8")
        check(f"opened {db}" in log, "clubdesk --demo opened the window offscreen and quit by its timer")
        del proc
        if args.xvfb:
            window_on_xvfb(gui, env, home, args.quit_after, args.screenshot)

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
