"""The wiring room: open the store, the fetcher and the engine, mount, serve, unmount.

`run(settings)` is what `webshellfs MOUNTPOINT` calls. Unless --foreground is given it forks
first (before trio or any thread exists) and the parent waits on a pipe until the child says the
mount is ready, or says why it could not mount, so the user sees "cache is locked by pid N" and
a non-zero exit status instead of a daemon that died in silence.

The daemon stops cleanly on SIGINT/SIGTERM/SIGHUP (it unmounts) and when someone runs
`fusermount3 -u` (the FUSE loop ends by itself). A mount left behind by a killed daemon
("Transport endpoint is not connected") is cleared before mounting again (fusemount.py).

pyfuse3 is imported only when mounting (fusemount.py), so directory mode (--no-fuse) and
`webshellfs mcp`, which import this module, run on a machine without it.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import select
import signal
import sys
from collections.abc import Callable
from typing import NoReturn
from pathlib import Path

from webshellfs import directory
from webshellfs.browser import Browser, BrowserFetcher, BrowserOptions, parse_browser_spec
from webshellfs.config import Settings
from webshellfs.engine import Engine
from webshellfs.errors import WebshellError
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store
from webshellfs.workers import configure_workers

__all__ = ["log_path_for", "make_engine", "run"]

log = logging.getLogger(__name__)

READY = "ready"
READY_TIMEOUT = 60.0  # seconds the parent waits for the detached daemon to mount
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # SIGHUP: the terminal closed
HTTP_ONLY = "http"  # --browser http: no browser at all (plain HTTP fetches, no execute)


def log_path_for(cache: Path) -> Path:
    """The daemon's log lives next to its cache: cache.sqlite → cache.log."""
    return cache.with_suffix(".log")


def run(settings: Settings) -> int:
    """Mount (with --no-fuse: fill the directory) and serve until unmounted. Returns the
    process exit status."""
    mountpoint = settings.mountpoint.absolute()
    if settings.no_fuse:
        directory.prepare(mountpoint)
    else:
        from webshellfs import fusemount  # only a mount needs pyfuse3 (see fusemount.py)

        fusemount.require_patched_pyfuse3()
        fusemount.prepare_mountpoint(mountpoint)
    log_path = log_path_for(settings.cache.absolute())
    if settings.foreground:
        _configure_logging(settings, log_path, to_stderr=True)
        _serve(settings, mountpoint, lambda: None)
        _leave_at_once(0)
    return _detach(settings, mountpoint, log_path)


def _leave_at_once(status: int) -> NoReturn:
    """End a daemon that has closed everything (the store checkpointed, the browser gone) the
    way the detached one does (`_detach`): without the interpreter's teardown. Freeing the heap
    object by object and then waiting on the compile workers' own teardown kept an unmounted
    daemon alive for a second and more; the workers exit by themselves when their pipe closes."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _configure_logging(settings: Settings, log_path: Path, *, to_stderr: bool) -> None:
    log_path.parent.mkdir(parents=True, exist_ok=True)
    file_handler = logging.FileHandler(log_path, encoding="utf-8")
    handlers: list[logging.Handler] = [file_handler]
    if to_stderr:
        handlers.append(logging.StreamHandler(sys.stderr))
    logging.basicConfig(
        level=logging.DEBUG if settings.debug else logging.INFO,
        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
        force=True,
    )
    # A crash or a hang leaves its stacks in the log; `kill -USR1 PID` dumps them on demand.
    faulthandler.enable(file=file_handler.stream, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=file_handler.stream, all_threads=True)


def _detach(settings: Settings, mountpoint: Path, log_path: Path) -> int:
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        os._exit(_daemon(settings, mountpoint, log_path, write_end))
    os.close(write_end)
    with os.fdopen(read_end, "r", encoding="utf-8") as pipe:
        if not select.select([pipe], [], [], READY_TIMEOUT)[0]:
            os.kill(child, signal.SIGTERM)
            print(f"webshellfs: the daemon did not mount within {READY_TIMEOUT:g} s, so it was "
                  f"stopped; see {log_path}", file=sys.stderr)
            return 1
        message = pipe.readline().strip()
    if message == READY:
        return 0
    os.waitpid(child, 0)
    reason = message or f"the daemon exited before mounting; see {log_path}"
    print(f"webshellfs: {reason}", file=sys.stderr)
    return 1


def _daemon(settings: Settings, mountpoint: Path, log_path: Path, report_fd: int) -> int:
    """The detached child: its own session, stdio on /dev/null and the log; reports on report_fd."""
    reporter = os.fdopen(report_fd, "w", encoding="utf-8")

    def report(message: str) -> None:
        if not reporter.closed:
            reporter.write(message.replace("\n", " ") + "\n")
            reporter.close()

    try:
        os.setsid()
        _configure_logging(settings, log_path, to_stderr=False)
        _redirect_stdio(log_path)
        _serve(settings, mountpoint, lambda: report(READY))
        return 0
    except WebshellError as exc:
        log.info("not mounted: %s", exc)
        report(str(exc))
        return 1
    except BaseException as exc:
        log.exception("the daemon failed")
        report(f"{type(exc).__name__}: {exc} (see {log_path})")
        return 1


def _redirect_stdio(log_path: Path) -> None:
    # libfuse prints its own complaints to stderr: keep them, in the log.
    devnull = os.open(os.devnull, os.O_RDWR)
    log_fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(log_fd, 2)
    os.close(devnull)
    os.close(log_fd)


def _browser_unavailable(settings: Settings) -> str:
    """Why this mount cannot have a browser, or "" if it can (a remote one is tried lazily)."""
    if settings.browser == HTTP_ONLY:
        return "the mount was started with --browser http"
    mode, _ = parse_browser_spec(settings.browser)
    if mode == "local" and not os.access(settings.chromium, os.X_OK):
        return f"no Chromium at {settings.chromium} (give --chromium PATH)"
    return ""


def make_engine(store: Store, settings: Settings) -> Engine:
    """The engine with a live browser per --browser, and plain HTTP for robots.txt and as the
    fallback; HTTP only (logged, and said in responses) when the browser cannot be had."""
    plain = HttpFetcher(settings)
    reason = _browser_unavailable(settings)
    if reason:
        log.warning("no live browser: %s; pages are fetched over plain HTTP and execute, focus "
                    "and close are not available", reason)
        return Engine(store, plain, settings, no_browser=reason)
    browser = Browser(BrowserOptions.from_settings(settings))
    log.info("live browser: %s", settings.browser)
    return Engine(store, BrowserFetcher(browser), settings, plain_fetcher=plain)


def _serve(settings: Settings, mountpoint: Path, on_ready: Callable[[], None]) -> None:
    configure_workers()
    store = Store(settings.cache)
    try:
        engine = make_engine(store, settings)
    except BaseException:
        store.close()
        raise
    if settings.no_fuse:
        directory.serve(engine, mountpoint, on_ready)
        return
    from webshellfs import fusemount

    fusemount.serve(engine, mountpoint, on_ready, STOP_SIGNALS)
