"""Table entry on phones from the command line: ``serve [--host H] [--port P]`` runs the web app
without a window; it prints its addresses and runs until Ctrl+C (or SIGTERM), then stops cleanly. It binds
only where it is told: the loopback by default, ``--host`` the hall network's address (``0.0.0.0``: all)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from clubdesk.cli.core import Context, Output, add_command
from clubdesk.i18n import _


def _serve_actor() -> Any:
    from clubdesk.services.kernel import Actor, Role

    return Actor("clubdesk-cli serve", Role.SECRETARY)  # the audit log names the server that switched it


def register(sub: Any) -> None:
    from clubdesk.web.server import DEFAULT_HOST, DEFAULT_PORT

    p = add_command(sub, "serve", cmd_serve, _("serve the table entry pages to the players' phones"))
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_(
            "the address to serve on (default: this computer only; the hall network's address for phones)"
        ),
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=_("the port (default: {port})").format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_("processes serving the phones (default: 1; 2 or more for a big hall on a club file)"),
    )


def cmd_serve(ctx: Context, args: argparse.Namespace) -> Output:
    from clubdesk.services import phones
    from clubdesk.services.kernel import ServiceError
    from clubdesk.web.server import MAX_WORKERS, TableServer, local_addresses

    if not 1 <= args.workers <= MAX_WORKERS:
        raise ServiceError("bad-workers", _("--workers takes a number from 1 to {n}.").format(n=MAX_WORKERS))
    serve_actor = _serve_actor()
    db = ctx.database()
    server = TableServer(db, args.host, args.port, workers=args.workers)
    stop = threading.Event()

    def ask_stop(_sig: int, _frame: object) -> None:
        stop.set()

    # Ctrl+C and SIGTERM only ask the loop below to end, from before the server starts until it has
    # stopped: a KeyboardInterrupt raised wherever this thread is (a second Ctrl+C during the stop) would
    # skip switching the sheets' address off. Ctrl+C ignored by whoever started us (a background job of a
    # script) stays ignored; a signal mask that blocks it is not kept ("Press Ctrl+C to stop").
    asked = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        asked.append(signal.SIGINT)
    old = {sig: signal.signal(sig, ask_stop) for sig in asked}
    signal.pthread_sigmask(signal.SIG_UNBLOCK, asked)
    try:
        server.start()
        # as the Desk's switch does: score sheets printed meanwhile carry their table's address
        base = server.urls[0].rstrip("/")
        try:
            phones.set_base_url(db, serve_actor, base)
            if ctx.json:
                import json

                print(json.dumps({"urls": server.urls, "addresses": local_addresses()}), flush=True)
            else:
                print(_("Table entry is served at:"), flush=True)
                for url in server.urls:
                    print(f"  {url}", flush=True)
                if args.host in ("127.0.0.1", "localhost", "::1"):
                    print(
                        _(
                            "Only this computer can open it. "
                            "For the phones, serve on the hall network's address: {a}"
                        ).format(
                            a=", ".join(a for a in local_addresses() if not a.startswith("127.")) or "-"
                        ),
                        flush=True,
                    )
                print(_("Press Ctrl+C to stop."), flush=True)
            # a timed wait: the handler may run while this thread waits, whichever thread the signal reached
            while not stop.wait(0.5):
                pass
        finally:
            server.stop()
            if phones.base_url(db) == base:  # off again, unless a window took over meanwhile
                phones.set_base_url(db, serve_actor, None)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    sys.stdout.flush()
    return Output({"stopped": True, "urls": server.urls}, _("The server has stopped."))
