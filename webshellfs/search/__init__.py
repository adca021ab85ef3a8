"""Web search for `retrieve`: pluggable backends behind one small protocol, and the prefetch
that fetches the top results at once and says, for each, what happened.

    backend = backend_from_spec(settings.search, settings)   # "ddgs", "searxng=URL", …
    policy = PrefetchPolicy.from_settings(settings, accepts=supported_type)
    done = await retrieve(query, k, backend, fetcher, policy, RobotsRules(http_fetcher),
                          stored=address_of_url, keep=compile_and_store, deadline=trio_time)
    done.report("Q0001"), done.response("Q0001")     # _search/Q0001.md and the .ctl answer

Backends are chosen by name from BACKENDS (`--search NAME[=URL]`, else the WEBSHELL_SEARCH
variable, else ddgs). Each lives in its own module and exposes `create(url, settings, environ)`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from webshellfs.config import Settings
from webshellfs.errors import SearchError
from webshellfs.search import brave, ddgs, local, searxng, serper
from webshellfs.search.base import HOW_TO_CHOOSE, SearchBackend, SearchResult
from webshellfs.search.outcomes import FetchOutcome, OutcomeKind
from webshellfs.search.prefetch import PrefetchPolicy, prefetch
from webshellfs.search.query import validate_query
from webshellfs.search.report import (
    render_failed_search,
    render_retrieve_response,
    render_search_report,
)
from webshellfs.search.retrieval import Retrieval, retrieve
from webshellfs.search.robots import RobotsRules

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "SPEC_VARIABLE",
    "FetchOutcome",
    "OutcomeKind",
    "PrefetchPolicy",
    "Retrieval",
    "RobotsRules",
    "SearchBackend",
    "SearchError",
    "SearchResult",
    "backend_from_spec",
    "prefetch",
    "render_failed_search",
    "render_retrieve_response",
    "render_search_report",
    "retrieve",
    "validate_query",
]

SPEC_VARIABLE = "WEBSHELL_SEARCH"
DEFAULT_BACKEND = "ddgs"

BackendFactory = Callable[[str, Settings, Mapping[str, str]], SearchBackend]

BACKENDS: dict[str, BackendFactory] = {
    ddgs.NAME: ddgs.create,
    searxng.NAME: searxng.create,
    serper.NAME: serper.create,
    brave.NAME: brave.create,
    local.NAME: local.create,
}


def backend_from_spec(
    spec: str, settings: Settings, environ: Mapping[str, str] | None = None
) -> SearchBackend:
    """`NAME` or `NAME=URL` → a ready backend. An empty spec falls back to WEBSHELL_SEARCH, then
    to ddgs. Raises SearchError for an unknown name or when the backend lacks what it needs (a
    URL, a key, an index file): a retrieve fails with it, while `open` keeps working."""
    environ = os.environ if environ is None else environ
    spec = spec.strip() or environ.get(SPEC_VARIABLE, "").strip() or DEFAULT_BACKEND
    name, _, url = spec.partition("=")
    factory = BACKENDS.get(name.strip().lower())
    if factory is None:
        raise SearchError(f"unknown search backend {name.strip()!r}. {HOW_TO_CHOOSE}")
    return factory(url.strip(), settings, environ)
