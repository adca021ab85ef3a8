"""Settings for one mount, frozen once the command line is read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

DEFAULT_CHROMIUM = "/usr/bin/chromium"


def default_cache_path() -> Path:
    return Path(platformdirs.user_cache_dir("webshellfs")) / "cache.sqlite"


@dataclass(frozen=True)
class Settings:
    """Attributes:
        mountpoint: where the filesystem is mounted.
        cache: the SQLite file that keeps every stored page.
        search: search backend spec, NAME or NAME=URL ("" = $WEBSHELL_SEARCH, else ddgs).
        browser: local | cdp=URL | ws=URL.
        chromium: the Chromium binary a local browser launches.
        allow_private: fetch loopback and private-network addresses (tests, the offline demo).
        allow_link_local: fetch link-local and cloud-metadata addresses (169.254.0.0/16, fe80::/10,
            169.254.169.254 …); separate from allow_private so a demo never opens the metadata service.
        foreground: stay attached to the terminal instead of detaching.
        debug: log at debug level.
        command_deadline: seconds a `.ctl` command may run before it fails with ETIMEDOUT.
        fetch_timeout: seconds one page fetch may take.
        max_page_bytes: responses larger than this are refused.
        ignore_robots: retrieve and explore fetch pages even where robots.txt disallows them.
        fetches_per_host: how many results of one retrieve are fetched at once from one host.
        profile: the browser profile whose cookies and storage are kept across mounts
            ("" = none: the browser forgets them at unmount).
        no_fuse: keep the tree in `mountpoint` as plain files instead of mounting, with
            commands over a socket there (webshellfs/directory.py).
        uploads: the only directory `upload` takes files from (None: uploads are refused).
        max_upload_bytes: the largest file `upload` puts into a page.
        screenshots: each capture of a live tab stores `screenshot.png` in its page directory
            (off with --no-screenshots).
    """

    mountpoint: Path
    cache: Path
    search: str = ""
    browser: str = "local"
    chromium: str = DEFAULT_CHROMIUM
    allow_private: bool = False
    allow_link_local: bool = False
    foreground: bool = False
    debug: bool = False
    command_deadline: float = 120.0
    fetch_timeout: float = 30.0
    max_page_bytes: int = 50 * 1024 * 1024
    ignore_robots: bool = False
    fetches_per_host: int = 2
    profile: str = ""
    no_fuse: bool = False
    uploads: Path | None = None
    max_upload_bytes: int = 20 * 1024 * 1024
    screenshots: bool = True
