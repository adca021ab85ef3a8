"""Undoing a response's Content-Encoding without ever holding more than the size limit.

httpx inflates each network chunk whole, so a few kilobytes of gzip can become hundreds of
megabytes in one step before any size check runs (a decompression bomb). Here zlib is asked for
at most one byte more than the room left under the limit, so the decoded total is checked while
streaming and the inflated body never exceeds the limit in memory.
"""

from __future__ import annotations

import zlib

from webshellfs.errors import FetchError

__all__ = ["ACCEPT_ENCODING", "BoundedDecoder", "OverLimit"]

# What the fetcher asks for: the encodings decoded here, nothing else.
ACCEPT_ENCODING = "gzip, deflate"
_GZIP = zlib.MAX_WBITS | 16
_ZLIB = zlib.MAX_WBITS
_RAW_DEFLATE = -zlib.MAX_WBITS
_WBITS = {"gzip": _GZIP, "x-gzip": _GZIP, "deflate": _ZLIB}


class OverLimit(Exception):
    """The decoded body would pass the limit."""


class BoundedDecoder:
    """Decodes one response body of the given Content-Encoding ("" or identity: as is),
    raising OverLimit as soon as the decoded total passes `limit`; with `truncate`, giving
    the bytes up to the limit instead and setting `full`."""

    def __init__(self, content_encoding: str, limit: int, *, truncate: bool = False) -> None:
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        codings = [c for c in codings if c != "identity"]
        if len(codings) > 1 or (codings and codings[0] not in _WBITS):
            raise FetchError(f"the response has a content encoding that is not supported: "
                             f"{content_encoding}")
        self.limit = limit
        self.total = 0
        self.truncate = truncate
        self.full = False
        self._wbits = _WBITS[codings[0]] if codings else None
        self._inflater = zlib.decompressobj(self._wbits) if self._wbits is not None else None

    def feed(self, data: bytes) -> bytes:
        """The decoded bytes for the next piece of the body as sent."""
        if self._inflater is None:
            return self._count(data)
        room = self.limit - self.total + 1  # one byte past the limit proves it is over
        try:
            decoded = self._inflater.decompress(data, room)
        except zlib.error as error:
            if self._wbits != _ZLIB or self.total:
                raise FetchError(f"the response body is not valid {self._name}: {error}") from None
            # "deflate" is sent both zlib-wrapped (as specified) and raw; try raw.
            self._wbits = _RAW_DEFLATE
            self._inflater = zlib.decompressobj(_RAW_DEFLATE)
            return self.feed(data)
        return self._count(decoded)

    def flush(self) -> bytes:
        """Whatever the decoder still holds at the end of the body."""
        if self._inflater is None:
            return b""
        return self._count(self._inflater.flush(self.limit - self.total + 1))

    @property
    def decompressing(self) -> bool:
        return self._inflater is not None

    @property
    def _name(self) -> str:
        return "gzip" if self._wbits == _GZIP else "deflate"

    def _count(self, decoded: bytes) -> bytes:
        room = self.limit - self.total
        self.total += len(decoded)
        if self.total <= self.limit:
            return decoded
        if not self.truncate:
            raise OverLimit
        self.full = True
        return decoded[:room]
