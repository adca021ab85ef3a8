"""The keyless default: the ddgs metasearch library (several public engines, no API key).

ddgs is synchronous, so each search runs in a worker thread under a deadline; the trio thread
that serves the mount never waits on it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import trio
from ddgs import DDGS
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from webshellfs.config import Settings
from webshellfs.search.base import SearchResult, hits_from, ranked, refusal

NAME = "ddgs"
# ddgs says this when every engine answered but none had a hit: an empty result, not a failure.
_NO_RESULTS = "No results found."


class DdgsBackend:
    name = NAME

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout

    async def search(self, query: str, limit: int) -> list[SearchResult]:
        with trio.move_on_after(self.timeout) as scope:
            hits = await trio.to_thread.run_sync(
                self._search_blocking, query, limit, abandon_on_cancel=True
            )
        if scope.cancelled_caught:
            raise refusal(NAME, f"did not answer within {self.timeout:g} s")
        return ranked(hits_from(hits, "title", "href", "body"), limit)

    def _search_blocking(self, query: str, limit: int) -> list[dict[str, object]]:
        try:
            return DDGS(timeout=max(1, int(self.timeout))).text(query, max_results=limit)
        except RatelimitException as exc:
            raise refusal(NAME, f"is rate limited by its engines ({exc}): wait a while") from exc
        except TimeoutException as exc:
            raise refusal(NAME, f"timed out ({exc})") from exc
        except DDGSException as exc:
            if str(exc) == _NO_RESULTS:
                return []
            raise refusal(NAME, _failure(exc)) from exc


# ddgs passes on its HTTP client's error whole: the engine's URL with its tracking query, the
# chain of causes, the resolver's record dump. The reason is its last link.
_URL_TAIL = re.compile(r"([?;][^\s)'\"]*)")
_NO_ADDRESS = re.compile(r"error resolving DNS|Name or service not known|no records found", re.I)
FAILURE_SHOWN = 200


def _failure(exc: DDGSException) -> str:
    """Why ddgs failed, in a line: no engine's address resolving means no network to search."""
    text = str(exc)
    if _NO_ADDRESS.search(text):
        return ("failed: its search engines' addresses could not be resolved (no network or "
                "no DNS here?)")
    reason = _URL_TAIL.sub("", text.rpartition(" > ")[2])
    return f"failed ({reason[:FAILURE_SHOWN]}); its engines may be blocking us"


def create(url: str, settings: Settings, environ: Mapping[str, str]) -> DdgsBackend:
    return DdgsBackend(timeout=settings.fetch_timeout)
