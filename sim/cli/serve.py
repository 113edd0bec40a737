"""``thousand serve``: a local web page to tap a hand and read the advisor's verdict.

The command checks its flags, builds the app (:mod:`sim.web.app`), loads the
advisor's tables and compiled code once, binds the address and serves it with
uvicorn until interrupted. The address is printed on stdout (``--port 0``: a free
port, the one printed).
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from sim.cli.common import Console, common_flags, flags_named, lang_flag, positive_int
from sim.i18n import _, language
from sim.jobs.advise import DEFAULT_BUDGET, check_player
from sim.output import UsageError
from sim.players import DEFAULT
from sim.rules import load_rules


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        why = _("must be a port from 0 (any free one) to 65535, got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 600:
        why = _("must be seconds, more than 0 and at most 600, got {value}")
        raise argparse.ArgumentTypeError(why.format(value=repr(text)))
    return value


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port).

    Raises:
        UsageError: the address cannot be bound (in use, not this machine's).
    """
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        why = _("--host {host} --port {port}: cannot listen there ({reason})")
        reason = exc.strerror or type(exc).__name__
        raise UsageError(why.format(host=host, port=port, reason=reason)) from None
    sock.setblocking(False)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    """``thousand serve``: serve the page until interrupted."""
    import uvicorn

    from sim.web.app import Service, Settings, create_app

    settings = Settings(
        rules=load_rules(args.rules),
        lang=args.lang or language(),
        player=args.player,
        max_samples=args.max_samples,
        max_budget=args.max_budget,
        queue=args.queue,
        workers=args.workers,
    )
    with flags_named():
        check_player(settings.player)
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    service = Service(settings)
    feedback = Console(args.quiet)
    feedback.say(_("loading the advisor's tables and compiled code ..."))
    service.warm(feedback)
    line = _("thousand serve: http://{host}:{port}/ (Ctrl+C stops it)")
    print(line.format(host=shown, port=port))
    sys.stdout.flush()
    config = uvicorn.Config(
        create_app(service), log_level="warning", access_log=False, lifespan="off",
        loop="asyncio", http="h11", server_header=False, timeout_graceful_shutdown=3,
    )  # fmt: skip
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        service.close()
        sock.close()
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to the ``thousand`` subparsers; return its parser."""
    p = subparsers.add_parser(
        "serve",
        help=_("a local web page to tap a hand and read the advisor's verdict"),
        description=_(
            "Serve a page on this machine (a phone on the same network with --host "
            "0.0.0.0): tap the cards of a hand, pick the seat, enter the auction bid by "
            "bid and read the verdict, at once from the class tables, then from the "
            "sampling advisor (thousand advise). In English, Russian, Ukrainian and Polish."
        ),
    )
    common_flags(p)
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("the address to listen on (default 127.0.0.1: this machine only)"),
    )
    p.add_argument(
        "--port", type=_port, default=8000, help=_("the port (default 8000; 0: any free port)")
    )
    p.add_argument(
        "--player",
        default=DEFAULT,
        help=_("the advisor when the page names none: strong (default), heuristic, pimc or par"),
    )
    p.add_argument(
        "--max-samples",
        type=positive_int,
        default=4000,
        help=_("the most sampled deals a question may ask for (default 4,000)"),
    )
    p.add_argument(
        "--max-budget",
        type=_seconds,
        default=DEFAULT_BUDGET,
        help=_(
            "the most seconds of sampled play a question may ask for (default {seconds}, also "
            "the budget of a question that names none)"
        ).format(seconds=f"{DEFAULT_BUDGET:g}"),
    )
    p.add_argument(
        "--queue",
        type=positive_int,
        default=64,
        help=_("the most questions waiting for the advisor at once (default 64; more: HTTP 503)"),
    )
    lang_flag(p)
    p.set_defaults(func=cmd_serve)
    return p
