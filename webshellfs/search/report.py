"""The text a retrieve leaves behind: `_search/Q0001.md` (every ranked result with its snippet
and what became of it) and the short response read back from `.ctl`.

Both take the outcomes by URL and the page addresses by URL, so a result that was already
stored (and not fetched again) shows its old address, and a failure shows its reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from webshellfs.contract.layout import clean_field
from webshellfs.search.base import SearchResult
from webshellfs.search.outcomes import FetchOutcome


def result_status(
    result: SearchResult, outcomes: Mapping[str, FetchOutcome], addresses: Mapping[str, str]
) -> tuple[str, bool]:
    """(what became of the result, whether it has a page): `N0003`, `N0001 (already stored)`,
    or the failure's reason."""
    outcome = outcomes.get(result.url)
    address = addresses.get(result.url)
    if address and outcome is None:
        return f"{address} (already stored)", True
    if address and outcome is not None and outcome.ok:
        return address, True
    if outcome is None:
        return "not fetched", False
    if outcome.ok:
        return "fetched, but the command's deadline came before it was stored", False
    return outcome.reason, False


def _tally(
    results: Sequence[SearchResult],
    outcomes: Mapping[str, FetchOutcome],
    addresses: Mapping[str, str],
) -> str:
    pages = sum(1 for r in results if result_status(r, outcomes, addresses)[1])
    return f"{_count(len(results), 'result')}, {_count(pages, 'page')}, {len(results) - pages} failed"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def render_search_report(
    query: str,
    results: Sequence[SearchResult],
    outcomes: Mapping[str, FetchOutcome],
    addresses: Mapping[str, str],
    *,
    search_id: str = "",
    backend: str = "",
) -> str:
    """The whole of `_search/Q0001.md`."""
    heading = f"# {search_id}: {clean_field(query)}" if search_id else f"# {clean_field(query)}"
    out = [heading]
    if backend:
        out.append(f"backend: {backend}")
    out.append(_tally(results, outcomes, addresses))
    for result in results:
        status, has_page = result_status(result, outcomes, addresses)
        out += [
            "",
            f"## {result.rank}. {clean_field(result.title)}",
            f"url: {clean_field(result.url)}",
            f"page: {status}" if has_page else f"failed: {clean_field(status)}",
        ]
        if result.snippet:
            out.append(f"snippet: {clean_field(result.snippet)}")
    return "\n".join(out) + "\n"


def render_failed_search(query: str, reason: str, search_id: str) -> str:
    """`_search/Q0001.md` of a retrieve whose search itself failed: the query and why."""
    return f"# {search_id}: {clean_field(query)}\nfailed: {clean_field(reason)}\n"


def render_retrieve_response(
    query: str,
    results: Sequence[SearchResult],
    outcomes: Mapping[str, FetchOutcome],
    addresses: Mapping[str, str],
    *,
    search_id: str,
    backend: str,
    outlines: Mapping[str, str] | None = None,
) -> str:
    """The `.ctl` response: one line per result, its page address first (or why it failed),
    and under it the page's outline on one line when outlines (page → line) has one."""
    report = f"_search/{search_id}.md"
    if not results:
        return f'retrieve "{clean_field(query)}": no results from {backend} → {report}\n'
    tally = _tally(results, outcomes, addresses)
    out = [f'retrieve "{clean_field(query)}": {tally} ({backend}) → {report}']
    for result in results:
        status, has_page = result_status(result, outcomes, addresses)
        shown = status if has_page else f"failed: {clean_field(status)} —"
        title, url = clean_field(result.title), clean_field(result.url)
        out.append(f'{result.rank}. {shown} "{title}" {url}')
        outline = (outlines or {}).get(addresses.get(result.url, ""))
        if outline:
            out.append(f"   {outline}")
    pages = list(dict.fromkeys(addresses[r.url] for r in results if r.url in addresses))
    if pages:
        out.append(f"next: cat {pages[0]}/_map.md   or grep -rn WORD {' '.join(pages)}")
    return "\n".join(out) + "\n"
