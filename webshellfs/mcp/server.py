"""The MCP server over one Engine: the command tools (tools.py) plus `read` and `grep` (files.py).

Every answer is text a shell agent would see on the mount: a command's `.ctl` response (also
kept in `_log/`), a file's lines, a directory's listing, `grep -rn` lines. A command that did
not succeed, and a read or grep that cannot be answered, come back as a tool error whose text
says why, as the failed write's response does.
"""

from __future__ import annotations

import base64
import contextlib
import shlex
from collections.abc import Sequence
from typing import Annotated

import anyio
import trio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from webshellfs import __version__
from webshellfs.engine import Engine, Outcome
from webshellfs.errors import WebshellError
from webshellfs.mcp.files import (
    GREP_MATCHES,
    MAX_GREP_MATCHES,
    PNG_TYPE,
    GrepQuery,
    at_last_page,
    grep_pages,
    read_image,
    read_path,
)
from webshellfs.mcp.tools import READ_ONLY, command_tools

__all__ = ["STDIO_SESSION", "build_server", "session_of"]

STDIO_SESSION = "mcp"
SESSION_HEADER = "mcp-session-id"
SESSION_CHARS = 12  # of the HTTP session id, in _log/'s "session:" line
# Lines of progress waiting to be sent as notifications; past this the rest are left out.
PROGRESS_BACKLOG = 256

INSTRUCTIONS = """\
webshellfs: web pages compiled into read-only files, one directory per page (N0001/ …).
Open or search with the command tools; each answers with addresses. Then read N0001/_map.md
(the page's table of contents), grep for evidence, read a slice by line numbers, and act with
execute on an action id from actions.tsv. read("README.md") is the full guide; _pages.tsv
lists every stored page and state.
"""

StorePath = Annotated[
    str,
    Field(description="a path under the store: N0001/_map.md, N0001/content/, @/_map.md (@: the "
          "page your last command named), _pages.tsv, "
          "_log/R0001.md, README.md, .ctl (your last response), or '' for the root"),
]
Start = Annotated[int | None, Field(ge=1, description="first line to show (1-based)")]
End = Annotated[int | None, Field(ge=1, description="last line to show (included)")]
Pattern = Annotated[str, Field(description="a regular expression (Python syntax, like grep -E)")]
GrepPage = Annotated[
    str | None,
    Field(description="only this page, like N0001, or @ for your last page (default: all)"),
]
Group = Annotated[
    str | None,
    Field(description="only this file or folder of each page: content, tables, boilerplate, "
          "links.tsv, actions.tsv, facts.kv, resources, long-values, _map.md …"),
]
IgnoreCase = Annotated[bool, Field(description="match upper and lower case alike (grep -i)")]
MaxMatches = Annotated[
    int, Field(ge=1, le=MAX_GREP_MATCHES, description="stop showing matches after this many")
]

READ_DESCRIPTION = """\
Read a file of the store, as cat (or sed -n 'START,ENDp' with start/end) shows it on the mount;
a directory gives its listing (directories end in /). Long files stop at a line boundary and
say where to read on. A PNG (a page's screenshot.png: the viewport when it was captured) comes
back as an image, after a line naming it."""
GREP_DESCRIPTION = """\
Search the stored pages' files for lines matching a pattern, as grep -rn shows them:
PAGE/FILE:LINE:TEXT, where PAGE/FILE:LINE is the line's address (read it with start=LINE)."""


def _answer(text: str, failed: bool) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=failed)


def _image(path: str, png: bytes) -> CallToolResult:
    """A PNG as an image item, after a line that names it for a client that shows no images."""
    line = TextContent(type="text", text=f"{path}: a PNG image of {len(png)} bytes\n")
    picture = ImageContent(type="image", data=base64.b64encode(png).decode("ascii"),
                           mime_type=PNG_TYPE)
    return CallToolResult(content=[line, picture], is_error=False)


def session_of(ctx: Context) -> str:
    """The engine session a caller's commands run in (reading `.ctl` shows its last response):
    "mcp" on stdio, "mcp-<id>" for an HTTP session; stateless HTTP requests (a protocol version
    without sessions) carry nothing to tell them apart and share "mcp"."""
    headers = ctx.headers or {}
    found = headers.get(SESSION_HEADER, "")
    return f"{STDIO_SESSION}-{found[:SESSION_CHARS]}" if found else STDIO_SESSION


def build_server(engine: Engine) -> MCPServer:
    """An MCP server whose tools run on engine; serve it with run_stdio_async or as an app."""
    server = MCPServer("webshellfs", instructions=INSTRUCTIONS, version=__version__)

    async def run_words(words: Sequence[str], ctx: Context) -> CallToolResult:
        # A long command's progress (a retrieve's results as they arrive) goes out as progress
        # notifications, to a client that asked for them with a progress token.
        send, receive = trio.open_memory_channel[str](PROGRESS_BACKLOG)

        def on_progress(line: str) -> None:
            with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError):
                send.send_nowait(line)

        async def notify() -> None:
            sent = 0
            async with receive:
                async for line in receive:
                    sent += 1
                    try:
                        await ctx.report_progress(sent, message=line)
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        return  # the client went: the command runs on and is kept in _log/

        async with trio.open_nursery() as nursery:
            nursery.start_soon(notify)
            async with send:
                response = await engine.command(shlex.join(words), session_of(ctx), on_progress)
        return _answer(response.text, response.outcome is not Outcome.OK)

    for tool in command_tools(run_words):
        server.add_tool(tool.run, name=tool.name, description=tool.description,
                        annotations=tool.annotations, structured_output=False)

    async def read(
        path: StorePath, ctx: Context, start: Start = None, end: End = None
    ) -> CallToolResult:
        # Point queries and one blob, as a FUSE read does, on the thread that runs the engine.
        try:
            image = read_image(engine, path, session_of(ctx))
            if image is not None:
                return _image(*image)
            return _answer(read_path(engine, path, session_of(ctx), start, end), False)
        except WebshellError as error:
            return _answer(f"{error}\n", True)

    async def grep(
        pattern: Pattern, ctx: Context, page: GrepPage = None, group: Group = None,
        ignore_case: IgnoreCase = False, max_matches: MaxMatches = GREP_MATCHES,
    ) -> CallToolResult:
        try:
            page = at_last_page(engine, page.strip(), session_of(ctx)) if page else page
            query = GrepQuery.make(pattern, page, group, ignore_case, max_matches)
            # Reads every file in scope: in a worker thread, so commands and reads go on.
            return _answer(await trio.to_thread.run_sync(grep_pages, engine.store, query), False)
        except WebshellError as error:
            return _answer(f"{error}\n", True)

    server.add_tool(read, name="read", description=READ_DESCRIPTION, annotations=READ_ONLY,
                    structured_output=False)
    server.add_tool(grep, name="grep", description=GREP_DESCRIPTION, annotations=READ_ONLY,
                    structured_output=False)
    return server
