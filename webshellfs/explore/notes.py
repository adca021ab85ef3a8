"""What `open` adds to its answer for a page of an explored site: that the site has a map,
and the page's template when its structure matches one."""

from __future__ import annotations

from webshellfs.contract.records import CompiledPage
from webshellfs.explore.safety import site_of
from webshellfs.explore.sitemap import written_at, map_address, site_directory
from webshellfs.explore.state import SiteState
from webshellfs.explore.templates import signature
from webshellfs.store import Store

__all__ = ["explored_note"]


def explored_note(store: Store, url: str, page: CompiledPage) -> str:
    """`site: explored …; this page is template T03 …` or "" for a site never explored."""
    site = site_of(url)
    text = store.site_state(site_directory(site))
    if text is None:
        return ""
    state = SiteState.from_json(text)
    shape = signature(page)
    template = next((t for t in state.templates if t.signature == shape), None)
    like = (f"; this page has template {template.id} (like {template.example})"
            if template is not None else "; this page matches none of its templates")
    return (f"site: explored {written_at(state.updated_ns or state.started_ns)}, "
            f"{len(state.stored())} pages{like}\n"
            f"site map: {map_address(site)}/map.md\n")
