"""The files `upload` may put into a page: only from the directory the mount was started with
(`--uploads DIR`), by name, each a regular file under the size cap. Anything else is refused
before the browser is asked, so a page can never be handed a file from elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from webshellfs.errors import UsageError

__all__ = ["upload_paths"]


def upload_paths(names: Sequence[str], uploads: Path | None, max_bytes: int) -> tuple[str, ...]:
    """The absolute paths of the named files; UsageError (nothing done) for any that is not a
    regular file inside `uploads` within `max_bytes`."""
    if uploads is None:
        raise UsageError("uploads are off on this mount; start it with --uploads DIR to let "
                         "`upload` take files from DIR")
    root = uploads.resolve()
    paths: list[str] = []
    for name in names:
        path = (root / name).resolve()
        if not path.is_relative_to(root):
            raise UsageError(f"{name!r} is outside the uploads directory {root}")
        if not path.is_file():
            raise UsageError(f"no file {name!r} in the uploads directory {root}")
        size = path.stat().st_size
        if size > max_bytes:
            raise UsageError(f"{name!r} is {size} bytes, over the upload limit of {max_bytes}")
        paths.append(str(path))
    return tuple(paths)
