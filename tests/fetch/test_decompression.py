"""Content-Encoding is undone by our bounded decoder: a gzip or deflate page reads as usual, and a
decompression bomb is refused by its decoded size while streaming, never inflated in memory."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.fetch.test_http import fetch
from tests.site import send_body
from webshellfs.errors import FetchError
from webshellfs.fetch import ERROR_BODY_BYTES, HttpStatusError, TooLargeError
from webshellfs.fetch.decoding import BoundedDecoder, OverLimit

PAGE = b"<!DOCTYPE html><title>Packed</title><p>" + b"Trail boots. " * 2000 + b"</p>"
BOMB_INFLATED = 200 * 1024 * 1024
LIMIT = 1024 * 1024


def gzip_of_zeros(size: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(1024 * 1024)
    return b"".join([*(packer.compress(block) for _ in range(size // len(block))), packer.flush()])


BOMB = gzip_of_zeros(BOMB_INFLATED)


class _Packed(BaseHTTPRequestHandler):
    """/gzip and /deflate: PAGE encoded; /bomb: 200 MiB of zeros in about 200 KB of gzip;
    /refuse-bomb: the same as a 503; /brotli: an encoding we never asked for."""

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        bodies = {
            "/gzip": (200, "gzip", gzip.compress(PAGE)),
            "/deflate": (200, "deflate", zlib.compress(PAGE)),
            "/raw-deflate": (200, "deflate", zlib.compress(PAGE, wbits=-zlib.MAX_WBITS)),
            "/bomb": (200, "gzip", BOMB),
            "/refuse-bomb": (503, "gzip", BOMB),
            "/brotli": (200, "br", b"\x8b\x03\x80hello\x03"),
        }
        status, encoding, body = bodies[self.path]
        send_body(self, HTTPStatus(status), "text/html; charset=utf-8", body,
                  (("Content-Encoding", encoding),))


@pytest.fixture(scope="module")
def packed() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Packed)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path", ["/gzip", "/deflate", "/raw-deflate"])
def test_encoded_pages_are_decoded(packed: str, path: str) -> None:
    assert fetch(packed + path).body == PAGE


def test_an_encoding_we_did_not_ask_for_is_a_clear_failure(packed: str) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(packed + "/brotli")
    assert str(failed.value) == "the response has a content encoding that is not supported: br"


def test_a_decompression_bomb_is_refused_by_its_decoded_size(packed: str) -> None:
    assert len(BOMB) < 1024 * 1024 < BOMB_INFLATED
    with pytest.raises(TooLargeError) as refused:
        fetch(packed + "/bomb", max_page_bytes=LIMIT)
    assert str(refused.value) == (
        f"{packed}/bomb is over the limit of {LIMIT} bytes once decompressed")


def test_an_error_response_bomb_keeps_only_its_decoded_start(packed: str) -> None:
    with pytest.raises(HttpStatusError) as failed:
        fetch(packed + "/refuse-bomb")
    assert failed.value.capture.body == bytes(ERROR_BODY_BYTES)


def test_the_decoder_never_inflates_past_the_limit() -> None:
    decoder = BoundedDecoder("gzip", LIMIT)
    with pytest.raises(OverLimit):
        for start in range(0, len(BOMB), 65536):
            decoder.feed(BOMB[start:start + 65536])
    assert decoder.total == LIMIT + 1


def test_the_decoder_passes_identity_and_refuses_stacked_encodings() -> None:
    assert BoundedDecoder("identity", 10).feed(b"plain") == b"plain"
    with pytest.raises(OverLimit):
        BoundedDecoder("", 3).feed(b"plain")
    with pytest.raises(FetchError, match="not supported: gzip, gzip$"):
        BoundedDecoder("gzip, gzip", 10)


# Run in a fresh interpreter so its peak RSS is the fetch's alone.
_MEASURE = """
import json, resource, sys, trio
from tests.fetch.test_http import fetch
from tests.site import send_body
from webshellfs.fetch import TooLargeError
def peak_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
before = peak_kib()
try:
    fetch(sys.argv[1], max_page_bytes=int(sys.argv[2]))
    outcome = "fetched"
except TooLargeError as error:
    outcome = str(error)
print(json.dumps({"outcome": outcome, "growth_kib": peak_kib() - before}))
"""


def test_refusing_a_bomb_keeps_memory_bounded(packed: str) -> None:
    """200 MiB inflated would be 200 MiB of RSS; the peak grows by about the limit at most
    (plus one network chunk and the interpreter's own churn)."""
    run = subprocess.run([sys.executable, "-c", _MEASURE, packed + "/bomb", str(LIMIT)],
                         capture_output=True, text=True, timeout=60, check=True)
    measured = json.loads(run.stdout)
    assert measured["outcome"].endswith("once decompressed")
    assert measured["growth_kib"] < 24 * 1024
