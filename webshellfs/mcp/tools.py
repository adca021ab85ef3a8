"""One MCP tool per `.ctl` command, with typed and described arguments.

A tool only turns its arguments back into the command line a shell agent would write, and runs
that line through the engine as `.ctl` does, so the grammar (ctl.py) stays the one judge of a
command and the answer is the `.ctl` response, word for word. Each tool's description is made
from its verb in ctl.COMMANDS (summary and usage line). A verb added there that has no typed
tool here gets its arguments from its usage line (`press <page> [<id>] <key…>`: a page, an
optional id, a list of keys), or, when the line holds a word of another shape, takes the
command's words as a list.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from webshellfs import ctl

__all__ = ["CommandTool", "RunWords", "command_tools", "describe"]

# Runs one command given as its words (verb first) for the caller of ctx; the answer is its
# `.ctl` response, marked as an error when the command did not succeed.
RunWords = Callable[[Sequence[str], Context], Awaitable[CallToolResult]]

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
QUIET = ("lookup", "resolve", "help")  # answered from the store or the guide, not the web


@dataclass(frozen=True)
class CommandTool:
    name: str
    run: Callable[..., Awaitable[CallToolResult]]
    description: str
    annotations: ToolAnnotations


def describe(verb: str) -> str:
    """The tool's description from the grammar table: what it does and the `.ctl` line it is."""
    spec = ctl.COMMANDS[verb]
    summary = spec.summary[:1].upper() + spec.summary[1:]
    return (
        f"{summary}{'' if summary.endswith(('.', '…')) else '.'}\n"
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


@dataclass(frozen=True)
class _Argument:
    """One word of a usage line as a tool argument (required: written without brackets)."""

    name: str
    annotation: Any
    required: bool


# A usage word `<name>` is a string, `[<name>]` an optional one, `<name…>` a list of them;
# `[a|b|c]` is an optional choice of those words.
_PLACEHOLDER = re.compile(r"(?P<open>\[)?<(?P<name>[a-z][a-z-]*)(?P<many>…)?>(?(open)\])")
_CHOICE = re.compile(r"\[(?P<words>[a-z]+(?:\|[a-z]+)+)\]")
_KNOWN = {"page": Page, "id": ObjectId}  # described like the typed tools' arguments
EXTRA = _Argument(
    "words",
    Annotated[list[str] | None,
              Field(description="further words of the command, after those above (options such "
                    "as --accept, --dismiss, --answer TEXT: see help)")],
    False,
)


def _argument(word: str) -> _Argument | None:
    placeholder = _PLACEHOLDER.fullmatch(word)
    if placeholder:
        name = placeholder["name"]
        if placeholder["many"]:
            many = Field(min_length=1, description=f"the {name}s of the usage line, in order")
            return _Argument(f"{name}s".replace("-", "_"), Annotated[list[str], many], True)
        described = _KNOWN.get(name, Annotated[str, Field(description=f"the {name}")])
        if placeholder["open"]:
            return _Argument(name.replace("-", "_"), described | None, False)
        return _Argument(name.replace("-", "_"), described, True)
    choice = _CHOICE.fullmatch(word)
    if choice:
        words = tuple(choice["words"].split("|"))
        return _Argument("choice", Literal[words] | None, False)  # type: ignore[valid-type]
    return None


def _from_usage(verb: str, run: RunWords) -> Callable[..., Awaitable[CallToolResult]] | None:
    """A tool whose arguments are the words of the verb's usage line (None if one is of a
    shape _argument does not know), plus `words` for options; it writes them back in order."""
    arguments = [_argument(word) for word in ctl.COMMANDS[verb].usage.split()[1:]]
    if any(argument is None for argument in arguments):
        return None
    taken = [argument for argument in arguments if argument is not None] + [EXTRA]

    async def command(ctx: Context, **given: Any) -> CallToolResult:
        words = [verb]
        for argument in taken:
            value = given.get(argument.name)
            words += value if isinstance(value, list) else [] if value is None else [value]
        return await run(words, ctx)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("ctx", keyword, annotation=Context)] + [
        inspect.Parameter(argument.name, keyword, annotation=argument.annotation,
                          default=inspect.Parameter.empty if argument.required else None)
        for argument in taken
    ]
    # The SDK reads a tool's arguments from its signature and finds the context by its hints.
    command.__signature__ = inspect.Signature(parameters, return_annotation=CallToolResult)  # type: ignore[attr-defined]
    command.__annotations__ = {"ctx": Context, **{a.name: a.annotation for a in taken},
                               "return": CallToolResult}
    return command


def command_tools(run: RunWords) -> list[CommandTool]:
    """A tool for every verb of ctl.COMMANDS, in the table's order."""
    typed = _typed(run)
    tools = []
    for verb in ctl.COMMANDS:
        annotations = READ_ONLY if verb in QUIET else OPEN_WORLD
        made = typed.get(verb) or _from_usage(verb, run) or _generic(verb, run)
        tools.append(CommandTool(verb, made, describe(verb), annotations))
    return tools
