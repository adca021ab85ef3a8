"""Browser profiles: cookies and storage kept across mounts (`--profile NAME`).

A profile is a directory `<user data dir>/webshellfs/profiles/NAME/` readable by its owner only
(0700), holding `state.json` (0600): Playwright's storage state — every cookie, session cookies
included, localStorage and IndexedDB of the origins visited. The state is loaded into each new
browser context and saved after every browser call, by writing a temporary file and renaming it
over the old one, so a killed daemon leaves the state of its last finished command, whole.

Why a saved storage state and not Chromium's own persistent profile directory: Chromium keeps
session cookies (most logins) only in memory and writes the others to disk in batches, so a
killed daemon would lose exactly the logins a profile exists for; and a storage state loads into
any context, also one in a remote browser (`--browser cdp=`/`ws=`), while the file stays here.

A profile is used by one mount at a time: `lock` holds an exclusive lock on it while it is open.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from pathlib import Path
from typing import Any

import platformdirs

from webshellfs.errors import UsageError

STATE_FILE = "state.json"
LOCK_FILE = "lock"
MAX_NAME = 64
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def profile_dir(name: str) -> Path:
    """Where the profile NAME lives; UsageError for a name that cannot be a directory's."""
    return Path(platformdirs.user_data_dir("webshellfs")) / "profiles" / check_name(name)


def check_name(name: str) -> str:
    """The name if it can name a profile directory, else UsageError saying why."""
    why = ""
    if not name:
        why = "it is empty"
    elif name.startswith("."):  # ".", "..", and hidden names
        why = "it starts with a dot"
    elif "/" in name or "\\" in name:
        why = "it contains a slash"
    elif not name.isprintable():
        why = "it contains control characters"
    elif len(name) > MAX_NAME:
        why = f"it is longer than {MAX_NAME} characters"
    if why:
        raise UsageError(f"--profile {name!r} cannot name a profile: {why} "
                         "(use letters, digits, '-', '_' or '.')")
    return name


def _private_dir(path: Path) -> None:
    """Make path (and its parent, the profiles directory) exist, owned and readable by us only."""
    for directory in (path.parent, path):
        directory.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        info = directory.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            raise UsageError(f"{directory} is not a directory of this user's; "
                             "it cannot hold a browser profile")
        if stat.S_IMODE(info.st_mode) != PRIVATE_DIR:
            directory.chmod(PRIVATE_DIR)


class Profile:
    """One profile directory (see profile_dir), locked for this mount while open."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name
        self._lock_fd: int | None = None
        self._saved = b""

    @property
    def state_path(self) -> Path:
        return self.path / STATE_FILE

    def lock(self) -> None:
        """Create the directory if needed and take the profile for this mount; UsageError if
        another mount has it."""
        _private_dir(self.path)
        fd = os.open(self.path / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            raise UsageError(f"the browser profile {self.name!r} is in use by another mount"
                             + (f" (pid {holder})" if holder else "")) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def load(self) -> dict[str, Any] | None:
        """The saved storage state, or None for a new profile. UsageError for a file that is
        not one (rather than start empty and overwrite what the user had)."""
        try:
            data = self.state_path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            state = json.loads(data)
        except ValueError as error:
            raise UsageError(f"the browser profile {self.state_path} is not valid JSON "
                             f"({error}); remove it to start the profile afresh") from None
        if not isinstance(state, dict):
            raise UsageError(f"the browser profile {self.state_path} is not a storage state; "
                             "remove it to start the profile afresh")
        self._saved = data
        return state

    def save(self, state: dict[str, Any]) -> None:
        """Replace the saved state at once (a temporary file renamed over it), if it changed."""
        data = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
        if data == self._saved:
            return
        temporary = self.path / f".{STATE_FILE}.{os.getpid()}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC,
                     PRIVATE_FILE)
        with os.fdopen(fd, "wb") as file:
            os.fchmod(fd, PRIVATE_FILE)  # a leftover from a killed daemon keeps its old mode
            file.write(data)
            file.flush()
            os.fsync(fd)
        os.replace(temporary, self.state_path)
        self._saved = data
