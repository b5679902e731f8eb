"""A built site served on 127.0.0.1 with the standard library: browsers load WebAssembly and
module workers only over http(s), never from file://, and only with the right MIME types."""
from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..core.errors import MechasheetError

HOST = "127.0.0.1"
#: what the page's files must be sent as (a browser refuses a module or wasm sent as anything else)
MIME_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
              ".whl": "application/zip", ".zip": "application/zip", ".json": "application/json",
              ".html": "text/html", ".css": "text/css", ".svg": "image/svg+xml"}


class ServeError(MechasheetError, OSError):
    """The local server cannot start (the port is taken, or not a port)."""


class _Handler(SimpleHTTPRequestHandler):
    """Files of one folder, typed by MIME_TYPES, never cached by the browser (a rebuilt site is
    seen on reload), no request logged (the terminal shows only the URL)."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(site: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Serve ``site`` on 127.0.0.1:``port`` (0: a free port) from a daemon thread; the server
    (``server.shutdown()`` stops it) and the site's URL."""
    try:
        server = ThreadingHTTPServer((HOST, port), partial(_Handler, directory=str(site)))
    except (OSError, OverflowError) as exc:
        detail = getattr(exc, "strerror", None) or str(exc)
        raise ServeError(f"{HOST}:{port}: cannot serve ({detail})", "WEB_SERVE_FAILED",
                         address=f"{HOST}:{port}", detail=detail) from exc
    # a short poll: shutdown() returns within 0.1 s (Ctrl-C, a test's teardown)
    threading.Thread(target=server.serve_forever, args=(0.1,), name="mechasheet-web", daemon=True).start()
    return server, f"http://{HOST}:{server.server_address[1]}/"
