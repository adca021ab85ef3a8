"""How the browser room is configured: launch a local Chromium or connect to a remote one, and
the waits and caps that bound every call."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from webshellfs.browser.profile import profile_dir
from webshellfs.config import Settings
from webshellfs.errors import UsageError
from webshellfs.fetch.policy import AddressRules

# Without the background-networking flags Chromium keeps dialing home, which on a closed network
# means a stream of failing connections competing with the pages we load.
CHROMIUM_ARGS = (
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
)


@dataclass(frozen=True)
class BrowserOptions:
    """Attributes:
        mode: "local" (launch chromium), "cdp" (connect over CDP) or "ws" (a Playwright server).
        endpoint: the CDP or websocket URL for the remote modes.
        chromium: the binary a local browser launches.
        allow_private: let pages reach loopback and private addresses.
        allow_link_local: let pages reach link-local and cloud-metadata addresses.
        load_timeout: seconds a page may take to reach DOM ready (then FetchTimeout).
        action_timeout: seconds one execute may take to act on its element.
        settle_cap: seconds we wait at most for the network and the DOM to go quiet.
        quiet_ms: the quiet period after a request ends (its answer may take several tasks to
            show); DOM changes alone need only an animation frame without more (scripts.DOM_SETTLE).
        max_tabs: the tab pool's cap; the least recently used tab closes past it.
        recovery_grace: seconds the browser thread gets on top of a call's own deadline to kill
            and replace what hung; past that the caller stops waiting and kills the browser.
        downloads_dir: where Chromium may put downloads before we read them; None refuses them.
        max_body_bytes: cap on a captured response or download body.
        profile_dir: the browser profile (profile.py) whose cookies and storage this browser
            loads and keeps; None keeps nothing after the browser closes.
        screenshots: each capture of a live tab takes the viewport as a PNG (screenshots.py).
    """

    mode: str = "local"
    endpoint: str = ""
    chromium: str = "/usr/bin/chromium"
    allow_private: bool = False
    allow_link_local: bool = False
    load_timeout: float = 30.0
    action_timeout: float = 10.0
    settle_cap: float = 3.0
    quiet_ms: int = 60
    max_tabs: int = 8
    recovery_grace: float = 15.0
    downloads_dir: Path | None = None
    max_body_bytes: int = 50 * 1024 * 1024
    profile_dir: Path | None = None
    screenshots: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> BrowserOptions:
        mode, endpoint = parse_browser_spec(settings.browser)
        return cls(
            mode=mode,
            endpoint=endpoint,
            chromium=settings.chromium,
            allow_private=settings.allow_private,
            allow_link_local=settings.allow_link_local,
            load_timeout=settings.fetch_timeout,
            downloads_dir=settings.cache.parent / "downloads",
            max_body_bytes=settings.max_page_bytes,
            profile_dir=profile_dir(settings.profile) if settings.profile else None,
            screenshots=settings.screenshots,
        )

    @property
    def rules(self) -> AddressRules:
        return AddressRules(self.allow_private, self.allow_link_local)

    @property
    def remote_on_this_machine(self) -> bool:
        """A remote browser whose endpoint is a loopback address: it can reach our gate."""
        if self.mode == "local":
            return False
        host = urlsplit(self.endpoint).hostname or ""
        try:
            return host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    @property
    def call_deadline(self) -> float:
        """The longest a single open/execute may take inside the browser thread."""
        return self.load_timeout + self.action_timeout + 2 * self.settle_cap


def parse_browser_spec(spec: str) -> tuple[str, str]:
    """`local` | `cdp=URL` | `ws=URL` → (mode, endpoint)."""
    if spec == "local":
        return "local", ""
    mode, sep, endpoint = spec.partition("=")
    if sep and mode in ("cdp", "ws") and endpoint:
        return mode, endpoint
    raise UsageError(f"--browser takes local, cdp=URL, ws=URL or http, not {spec!r}")
