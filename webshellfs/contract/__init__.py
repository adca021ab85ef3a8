"""The outward contract: addresses, the records a compiled page is made of, and how they
become files. Pure and stdlib-only, so every other room can depend on it."""

from webshellfs.contract.addresses import (
    ObjectAddress,
    PageId,
    format_page_id,
    parse_object_address,
    parse_page_id,
)
from webshellfs.contract.layout import PAGE_FILES, render_page
from webshellfs.contract.names import slugify
from webshellfs.contract.records import (
    Action,
    Cell,
    Choice,
    CompiledPage,
    Fact,
    Field,
    Image,
    Link,
    Resource,
    Section,
    Table,
)

__all__ = [
    "Action",
    "Cell",
    "Choice",
    "CompiledPage",
    "Fact",
    "Field",
    "Image",
    "Link",
    "ObjectAddress",
    "PAGE_FILES",
    "PageId",
    "Resource",
    "Section",
    "Table",
    "format_page_id",
    "parse_object_address",
    "parse_page_id",
    "render_page",
    "slugify",
]
