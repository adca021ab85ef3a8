"""HTML (or other captured bytes) → CompiledPage, by deterministic rules over the DOM.

Pure and synchronous: no network, no storage, no FUSE. `compile_page` is the only entry point.
"""

from webshellfs.compiler.walker import compile_page

__all__ = ["compile_page"]
