"""One MCP tool per `.ctl` command, with typed and described arguments.

A tool only turns its arguments back into the command line a shell agent would write, and runs
that line through the engine as `.ctl` does, so the grammar (ctl.py) stays the one judge of a
command and the answer is the `.ctl` response, word for word. Each tool's description is made
from its verb in ctl.COMMANDS (summary and usage line); a verb added there that has no typed
tool here is still served, by a tool that takes the command's words as a list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from webshellfs import ctl

__all__ = ["CommandTool", "RunWords", "command_tools", "describe"]

# Runs one command given as its words (verb first) for the caller of ctx; the answer is its
# `.ctl` response, marked as an error when the command did not succeed.
RunWords = Callable[[Sequence[str], Context], Awaitable[CallToolResult]]

NOT_A_TOOL = ("help",)  # the grammar is in each tool's description already

Page = Annotated[str, Field(description="a page address from _pages.tsv, like N0001")]
Query = Annotated[str, Field(description="the web search query, in words")]
Results = Annotated[
    int,
    Field(ge=1, le=ctl.MAX_RESULTS, description="how many results to fetch and compile"),
]
Refresh = Annotated[
    bool, Field(description="fetch every result again, even those already stored")
]
Url = Annotated[str, Field(description="the URL to open (a bare host means https://)")]
ObjectId = Annotated[
    str, Field(description="the action (A0003) or link (L0012) id, from actions.tsv / links.tsv")
]
Inputs = Annotated[
    dict[str, str] | None,
    Field(description="the action's inputs by name, as actions.tsv lists them: "
          '{"q": "red shoes", "size": "m"}'),
]
Words = Annotated[
    list[str] | None,
    Field(description="further words of the command, written after the id and before the "
          "inputs (gestures and options: see the usage line above)"),
]
FocusId = Annotated[
    str | None,
    Field(description="an element to give the keyboard focus, where the usage line takes one"),
]
Table = Annotated[str, Field(description="the table id, like T01")]
Row = Annotated[str | None, Field(description="keep the rows whose label matches this")]
Col = Annotated[str | None, Field(description="keep the columns whose label matches this")]
Ref = Annotated[
    str, Field(description="an in-page reference: #anchor, a relative or absolute URL, or L0012")
]
Arguments = Annotated[
    list[str] | None, Field(description="the command's words after the verb, as in .ctl")
]

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
OPEN_WORLD = ToolAnnotations(open_world_hint=True)
QUIET = ("lookup", "resolve")  # answered from a stored page: no web server is asked


@dataclass(frozen=True)
class CommandTool:
    name: str
    run: Callable[..., Awaitable[CallToolResult]]
    description: str
    annotations: ToolAnnotations


def describe(verb: str) -> str:
    """The tool's description from the grammar table: what it does and the `.ctl` line it is."""
    spec = ctl.COMMANDS[verb]
    return (
        f"{spec.summary[:1].upper()}{spec.summary[1:]}.\n"
        f"The .ctl command `{spec.usage}`; the answer is its response, as `cat .ctl` shows it "
        "(first line: request id, outcome, the command)."
    )


def _assignments(values: dict[str, str] | None) -> list[str]:
    return [f"{name}={value}" for name, value in (values or {}).items()]


def _typed(run: RunWords) -> dict[str, Callable[..., Awaitable[CallToolResult]]]:
    async def retrieve(
        query: Query, ctx: Context, k: Results = ctl.DEFAULT_RESULTS, refresh: Refresh = False
    ) -> CallToolResult:
        # The line a person would write: defaults left out; "--" only where the query starts
        # with "-", which it keeps a query.
        options = [*(["-k", str(k)] if k != ctl.DEFAULT_RESULTS else []),
                   *(["--refresh"] if refresh else []), *(["--"] if query.startswith("-") else [])]
        return await run(["retrieve", *options, query], ctx)

    async def open_url(url: Url, ctx: Context) -> CallToolResult:
        return await run(["open", url], ctx)

    async def execute(
        page: Page, id: ObjectId, ctx: Context, inputs: Inputs = None, words: Words = None
    ) -> CallToolResult:
        return await run(["execute", page, id, *(words or []), *_assignments(inputs)], ctx)

    async def focus(page: Page, ctx: Context, id: FocusId = None) -> CallToolResult:
        return await run(["focus", page, *([id] if id else [])], ctx)

    async def lookup(
        page: Page, table: Table, ctx: Context, row: Row = None, col: Col = None
    ) -> CallToolResult:
        filters = {name: value for name, value in (("row", row), ("col", col)) if value is not None}
        return await run(["lookup", page, table, *_assignments(filters)], ctx)

    async def resolve(page: Page, ref: Ref, ctx: Context) -> CallToolResult:
        return await run(["resolve", page, ref], ctx)

    async def close(page: Page, ctx: Context) -> CallToolResult:
        return await run(["close", page], ctx)

    return {
        "retrieve": retrieve, "open": open_url, "execute": execute, "focus": focus,
        "lookup": lookup, "resolve": resolve, "close": close,
    }


def _generic(verb: str, run: RunWords) -> Callable[..., Awaitable[CallToolResult]]:
    async def command(ctx: Context, arguments: Arguments = None) -> CallToolResult:
        return await run([verb, *(arguments or [])], ctx)

    return command


def command_tools(run: RunWords) -> list[CommandTool]:
    """A tool for every verb of ctl.COMMANDS but help, in the table's order."""
    typed = _typed(run)
    tools = []
    for verb in ctl.COMMANDS:
        if verb in NOT_A_TOOL:
            continue
        annotations = READ_ONLY if verb in QUIET else OPEN_WORLD
        tools.append(CommandTool(verb, typed.get(verb) or _generic(verb, run), describe(verb),
                                 annotations))
    return tools
