"""The document walk. Minimal first version: title and visible text, so the other rooms can
integrate; the compiler-walker engineer replaces this with the full rule set."""

from __future__ import annotations

import lxml.html

from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.dom import plain_text
from webshellfs.contract.records import CompiledPage


def compile_page(data: bytes | str, url: str, *, content_type: str = "") -> CompiledPage:
    builder = PageBuilder(url)
    try:
        root = lxml.html.document_fromstring(data or "<html></html>")
    except Exception:  # placeholder only
        return builder.build()
    builder.title = plain_text(root.find(".//title")) if root.find(".//title") is not None else ""
    body = root.find("body")
    if body is not None:
        builder.add_line(plain_text(body))
    return builder.build()
