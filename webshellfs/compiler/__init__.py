"""Captured bytes → CompiledPage, by deterministic rules; no network, no storage, no FUSE.

`compile_page` is the only entry point: HTML goes through the document walk (walker.py);
PDF, JSON, CSV, text, markdown and images through nonhtml.py.
"""

from __future__ import annotations

from webshellfs.compiler import walker
from webshellfs.compiler.identity import KnownAction, KnownLink, PriorActions
from webshellfs.compiler.nonhtml import compile_nonhtml
from webshellfs.contract.records import CompiledPage

__all__ = ["KnownAction", "KnownLink", "PriorActions", "compile_page"]


def compile_page(
    data: bytes | str, url: str, *, content_type: str = "", prior: PriorActions | None = None
) -> CompiledPage:
    """Compile one captured document. Pure and deterministic; never raises. prior: for a new
    state of a page, the actions of the state before, whose ids it keeps (identity.py)."""
    if isinstance(data, bytes):
        other = compile_nonhtml(data, url, content_type)
        if other is not None:
            return other
    return walker.compile_page(data, url, content_type=content_type, prior=prior)
