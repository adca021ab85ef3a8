"""`webshellfs mcp`: open the store and the engine as a mount does (mount.make_engine), then serve
MCP on stdio until the client closes it, or streamable HTTP on loopback until a signal.

Everything runs on one trio loop, as the mount's daemon does: the SDK is built on anyio, which
runs on trio, and the HTTP transport is served by Hypercorn's trio worker. The engine is closed
(browser, fetchers, then the store and its lock) however the server ends.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from functools import partial

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as serve_asgi
from mcp.server import MCPServer

from webshellfs.config import Settings
from webshellfs.engine import Engine
from webshellfs.mcp.server import build_server
from webshellfs.mount import STOP_SIGNALS, log_path_for, make_engine
from webshellfs.store import Store
from webshellfs.workers import configure_workers, warm_up

__all__ = ["LOOPBACK", "MCP_PATH", "run"]

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
MCP_PATH = "/mcp"


def run(settings: Settings, http_port: int | None = None) -> int:
    """Serve until stdin closes (stdio) or a signal comes. Returns the exit status."""
    if http_port is None:
        _keep_stdio_for_the_wire()
    _configure_logging(settings)
    configure_workers()
    store = Store(settings.cache)
    try:
        engine = make_engine(store, settings)
    except BaseException:
        store.close()
        raise
    trio.run(_serve, engine, build_server(engine), http_port)
    return 0


def _keep_stdio_for_the_wire() -> None:
    """Move the MCP wire off fds 0 and 1, which children inherit (compile workers, Chromium,
    Playwright's driver): a stray line from one of them would corrupt the protocol. The wire
    stays on private descriptors behind sys.stdin/sys.stdout, where the SDK's stdio transport
    reads and writes; fd 0 becomes /dev/null and fd 1 goes to stderr."""
    wire_in, wire_out = os.dup(0), os.dup(1)  # not inherited by children
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdin = open(wire_in, encoding="utf-8", errors="replace")
    sys.stdout = open(wire_out, "w", encoding="utf-8")


def _configure_logging(settings: Settings) -> None:
    """The daemon's log file next to the cache, as for a mount; warnings also on stderr, which
    MCP clients keep in their own logs (stdout is the protocol)."""
    log_path = log_path_for(settings.cache.absolute())
    log_path.parent.mkdir(parents=True, exist_ok=True)
    to_file = logging.FileHandler(log_path, encoding="utf-8")
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.DEBUG if settings.debug else logging.WARNING)
    logging.basicConfig(
        level=logging.DEBUG if settings.debug else logging.INFO,
        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s",
        handlers=[to_file, to_stderr],
        force=True,
    )
    if not settings.debug:
        # The SDK logs every request at INFO; the engine's _log/ already keeps each command.
        logging.getLogger("mcp").setLevel(logging.WARNING)


async def _serve(engine: Engine, server: MCPServer, http_port: int | None) -> None:
    # Signals stay caught until the engine is closed: a client that stops waiting sends
    # SIGTERM, which must not cut the browser's shutdown short.
    with trio.open_signal_receiver(*STOP_SIGNALS) as signals:
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_stop_on_signal, signals, nursery.cancel_scope)
                nursery.start_soon(warm_up)
                if http_port is None:
                    await server.run_stdio_async()
                    log.info("the MCP client closed stdin: stopping")
                else:
                    await _serve_http(server, http_port)
                nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                await engine.aclose()
            log.info("stopped: browser, fetchers and store closed")


async def _stop_on_signal(signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
    async for signum in signals:
        log.info("%s received: stopping", signal.Signals(signum).name)
        scope.cancel()
        return


async def _serve_http(server: MCPServer, port: int) -> None:
    """Streamable HTTP at http://127.0.0.1:PORT/mcp (PORT 0: a free one); the address is said on
    stderr. Binding to loopback only, with the SDK's Host/Origin checks for a loopback host,
    keeps other machines and web pages in a browser from driving the engine."""
    config = Config()
    config.bind = [f"{LOOPBACK}:{port}"]
    config.accesslog = None
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK)
    async with trio.open_nursery() as nursery:
        binds = await nursery.start(partial(serve_asgi, app, config))
        for bind in binds:
            print(f"webshellfs mcp: serving {bind}{MCP_PATH}", file=sys.stderr, flush=True)
            log.info("serving MCP at %s%s", bind, MCP_PATH)
