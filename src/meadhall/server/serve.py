"""``meadhall serve``: run the browser table with uvicorn and print the lobby's address."""

from __future__ import annotations

import socket
from pathlib import Path

import uvicorn

from meadhall.server.app import create_app
from meadhall.server.store import default_path


def lobby_url(host: str, port: int) -> str:
    """The address to open: the lobby, on this machine when listening everywhere."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path | None = None,
          bot_delay: float = 0.5, echo: object = print) -> None:
    """Open the database, print where the lobby is, and serve until interrupted."""
    path = db or default_path()
    app = create_app(path, bot_delay=bot_delay)
    echo(f"meadhall table: open {lobby_url(host, port)} (tables stored in {path})")  # type: ignore[operator]
    if host in ("0.0.0.0", "::"):
        echo(f"friends on your network: http://{socket.gethostname()}:{port}/")  # type: ignore[operator]
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_ping_interval=20)
