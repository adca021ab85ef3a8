"""What `open` tells of a page on an explored site, in its answer and in the page's _map.md:
that the site has a map, and the page's template when its structure matches one."""

from __future__ import annotations

from dataclasses import dataclass

from webshellfs.contract.records import CompiledPage
from webshellfs.explore.safety import site_of
from webshellfs.explore.sitemap import map_address, site_directory, written_at
from webshellfs.explore.state import SiteState
from webshellfs.explore.templates import signature
from webshellfs.store import Store

__all__ = ["Explored", "explored"]


@dataclass(frozen=True)
class Explored:
    """An explored site as a page of it sees it: its map, when it was made, its template."""

    site_map: str
    when: str
    pages: int
    template: str = ""
    example: str = ""

    def _template(self) -> str:
        if not self.template:
            return "this page matches none of its templates"
        return f"this page has template {self.template} (like {self.example})"

    def answer(self) -> str:
        """The lines `open` adds to its answer."""
        return (f"site: explored {self.when}, {self.pages} pages; {self._template()}\n"
                f"site map: {self.site_map}\n")

    def map_note(self) -> str:
        """The note the page's _map.md holds."""
        return f"this site was explored {self.when}: {self.site_map}; {self._template()}"


def explored(store: Store, url: str, page: CompiledPage) -> Explored | None:
    """What is known of url's site, None if it was never explored."""
    site = site_of(url)
    kept = store.site_state(site_directory(site))
    if kept is None:
        return None
    state = SiteState.load(*kept)
    shape = signature(page)
    template = next((t for t in state.templates if t.signature == shape), None)
    return Explored(f"{map_address(site)}/map.md", written_at(state.updated_ns or state.started_ns),
                    len(state.stored()), template.id if template else "",
                    template.example if template else "")
