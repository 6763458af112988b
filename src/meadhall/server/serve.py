"""``meadhall serve``: run the browser table with uvicorn and print the lobby's address."""

from __future__ import annotations

import socket
from pathlib import Path

import uvicorn

from meadhall.core.errors import MeadhallError
from meadhall.server.app import create_app
from meadhall.server.store import default_path


def lobby_url(host: str, port: int) -> str:
    """The address to open: the lobby, on this machine when listening everywhere."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


class PortBusy(MeadhallError):
    """The address to serve on is taken."""


def check_free(host: str, port: int) -> None:
    """Refuse at once, in one line, a port another program holds."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            raise PortBusy(f"cannot serve on {host}:{port} ({e.strerror or e}); is meadhall "
                           "already running? Choose another port with --port") from None


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None,
          bot_delay: float = 0.5, echo: object = print) -> None:
    """Open the database, print where the lobby is, and serve until interrupted."""
    check_free(host, port)
    path = db or default_path()
    app = create_app(path, bot_delay=bot_delay)
    echo(f"meadhall table: open {lobby_url(host, port)} (tables stored in {path})")  # type: ignore[operator]
    if host in ("0.0.0.0", "::"):
        echo(f"friends on your network: http://{socket.gethostname()}:{port}/")  # type: ignore[operator]
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20)
