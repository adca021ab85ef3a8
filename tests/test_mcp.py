"""`webshellfs mcp` driven by the MCP SDK's own client, as an MCP agent would drive it: the server
runs as a child process over stdio (and, once, over streamable HTTP on loopback), the pages come
from the local fixture sites, and the live pages from the real Chromium. The answers must be the
text a shell agent sees on the mount: `.ctl` responses, `_log/` records, files, `grep -rn` lines;
one test mounts the server's cache afterwards and compares them byte for byte."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest
import trio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.server import MCPServer
from mcp_types import CallToolResult

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, fuse_available, require
from tests.fs.conftest import BAD_LOG_LINE, Mount, sh
from tests.fs.test_live import _descendants, _is_chromium
from tests.site import FixtureSite
from webshellfs import ctl
from webshellfs.engine import Entry
from webshellfs.mcp.files import READ_CHARS, read_path
from webshellfs.mcp.tools import command_tools

REPO = Path(__file__).resolve().parent.parent
INDEX = REPO / "fixtures" / "search" / "site-index.tsv"  # the offline demo's search
SESSION_TIMEOUT = 240  # seconds for one client session: the machine is shared and slow
EXIT_TIMEOUT = 30

Body = Callable[[Client], Awaitable[None]]


def server_args(cache: Path, *options: str) -> list[str]:
    return ["-m", "webshellfs", "mcp", "--cache", str(cache), "--allow-private", *options]


def with_client(server: StdioServerParameters | str, body: Body, **options: str) -> None:
    async def main() -> None:
        with trio.fail_after(SESSION_TIMEOUT):
            async with Client(server, **options) as client:
                await body(client)

    trio.run(main)


def assert_clean_log(cache: Path) -> None:
    """The server's log (beside its cache, as a mount's) holds no error or traceback."""
    log = cache.with_suffix(".log")
    bad = [line for line in log.read_text(errors="replace").splitlines() if BAD_LOG_LINE.search(line)]
    assert not bad, "\n".join(bad)


def stdio(cache: Path, *options: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=server_args(cache, *options),
                                 cwd=str(REPO))


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    return result.content[0].text  # type: ignore[union-attr]


async def ok(client: Client, tool: str, **arguments: object) -> str:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text(result)
    return text(result)


async def failed(client: Client, tool: str, **arguments: object) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, text(result)
    return text(result)


def chromiums() -> set[int]:
    """The running Chromium processes started under this test process (the server's)."""
    return {pid for pid in _descendants(os.getpid()) if _is_chromium(pid)}


def new_address(response: str) -> str:
    """The address an execute led to (`→ N0002 …`)."""
    found = re.search(r"^→ (N\d{4})", response, re.MULTILINE)
    assert found, response
    return found.group(1)


def test_a_tool_for_every_command_plus_read_and_grep(tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == set(ctl.COMMANDS) | {"read", "grep"}
        for verb in ctl.COMMANDS:
            assert ctl.COMMANDS[verb].usage in (tools[verb].description or "")
        execute = tools["execute"].input_schema
        assert execute["required"] == ["page", "id"]
        assert {"inputs", "words"} <= set(execute["properties"])
        assert tools["read"].annotations is not None and tools["read"].annotations.read_only_hint

    with_client(stdio(tmp_path / "cache.sqlite", "--browser", "http"), body)


def test_open_grep_execute_and_read_the_new_state(tmp_path: Path, live: LiveSite) -> None:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    url = live.url("/product.html")
    others = chromiums()  # this test process's own, if another test left a browser running
    browsers: set[int] = set()

    async def body(client: Client) -> None:
        opened = await ok(client, "open", url=url)
        assert opened.splitlines()[:2] == [f"R0001 ok: open {url}", "N0001  Trail shoe"]
        assert "live in tab" in opened
        browsers.update(chromiums() - others)

        price = await ok(client, "grep", pattern="^Price", page="N0001")
        assert re.fullmatch(r"N0001/content/[\w.-]+\.md:\d+:Price: 40 EUR\n", price), price
        address, line, _ = price.split(":", 2)
        assert await ok(client, "read", path=address, start=int(line), end=int(line)) == (
            "Price: 40 EUR\n"
        )
        actions = await ok(client, "read", path="N0001/actions.tsv")
        assert actions.splitlines()[1].startswith("A0001\tselect\tSize")

        executed = await ok(client, "execute", page="N0001", id="A0001", inputs={"size": "m"})
        assert executed.startswith("R0002 ok: execute N0001 A0001 size=m\n")
        state = new_address(executed)
        assert f"→ {state} new state of N0001" in executed
        assert await ok(client, "grep", pattern="^Price", page=state, group="content") == (
            price.replace("N0001", state).replace("40 EUR", "45 EUR")
        )
        assert "inputs: size=m\n" in await ok(client, "read", path=f"{state}/_state.md")
        # `@`: the page the last command named, in reads, greps and commands.
        assert await ok(client, "read", path="@/_state.md") == await ok(
            client, "read", path=f"{state}/_state.md")
        assert "45 EUR" in await ok(client, "grep", pattern="^Price", page="@")

        # The same text as the mount: .ctl holds the last response, _log/ keeps each one.
        assert await ok(client, "read", path=".ctl") == executed
        record = await ok(client, "read", path="_log/R0002.md")
        assert record.startswith("# R0002 ok\nrequest: execute N0001 A0001 size=m\nsession: mcp\n")
        assert record.endswith(executed)
        pages = (await ok(client, "read", path="_pages.tsv")).splitlines()
        assert pages[2].split("\t")[:4] == [state, "N0001", "A0001", "active"]

        wrong = await failed(client, "execute", page="N0001", id="A0099")
        assert wrong.startswith("R0003 invalid: execute N0001 A0099\n")

        # A screenshot comes as an image, after a line naming it.
        shot = await client.call_tool("read", {"path": f"{state}/screenshot.png"})
        assert not shot.is_error and [item.type for item in shot.content] == ["text", "image"]
        picture = shot.content[1]
        assert picture.mime_type == "image/png"  # type: ignore[union-attr]
        assert base64.b64decode(picture.data).startswith(b"\x89PNG")  # type: ignore[union-attr]

        # The guide's topics, through the help tool.
        assert "help forms" in await ok(client, "help")
        assert "unticked by `off`" in await ok(client, "help", topic="forms")

    with_client(stdio(tmp_path / "cache.sqlite", "--chromium", chromium), body)
    assert_clean_log(tmp_path / "cache.sqlite")
    assert browsers, "the server ran no Chromium"
    assert {pid for pid in browsers if _is_chromium(pid)} == set(), "Chromium outlived the server"


def test_read_grep_and_retrieve_without_a_browser(tmp_path: Path, site: FixtureSite) -> None:
    async def body(client: Client) -> None:
        await ok(client, "open", url=site.url("/shop.html"))
        listing = await ok(client, "read", path="")
        assert {".ctl", "README.md", "_pages.tsv", "_log/", "_search/", "N0001/"} <= set(
            listing.splitlines()
        )
        assert "content/" in (await ok(client, "read", path="N0001/")).splitlines()
        whole = await ok(client, "read", path="N0001/_map.md")
        lines = whole.splitlines(keepends=True)
        assert await ok(client, "read", path="N0001/_map.md", start=2, end=3) == "".join(lines[1:3])
        assert await ok(client, "read", path="N0001/_map.md", start=len(lines) + 5) == ""
        assert "before start" in await failed(client, "read", path="N0001/_map.md", start=3, end=2)
        assert await failed(client, "read", path="N0001/nothing.md") == (
            "no such file or directory: N0001/nothing.md\n"
        )
        assert "'..'" in await failed(client, "read", path="N0001/../N0001/_map.md")

        cells = await ok(client, "grep", pattern="medium", ignore_case=True, group="tables")
        assert cells and all(line.startswith("N0001/tables/") for line in cells.splitlines())
        one = await ok(client, "grep", pattern=".", page="N0001", max_matches=1)
        first, note = one.splitlines()
        assert first.startswith("N0001/")
        assert re.fullmatch(r"\[… \d+ more matching lines not shown: .*\]", note)
        assert await ok(client, "grep", pattern="zebra-unicorn") == (
            "no line matches 'zebra-unicorn' in any page\n"
        )
        assert "not a regular expression" in await failed(client, "grep", pattern="(")
        assert await failed(client, "grep", pattern="x", page="N0042") == (
            "no page N0042; see _pages.tsv for the stored ones\n"
        )
        # Over plain HTTP there is no live browser: the command's own response says so.
        refused = await failed(client, "focus", page="N0001")
        assert refused.startswith("R0002 failed: focus N0001\nfocus needs the live browser")

        heard: list[str] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            heard.append(message or "")

        retrieved = await client.call_tool("retrieve", {"query": "skerry light", "k": 1},
                                           progress_callback=on_progress)
        found = text(retrieved)
        # A long command's progress comes as notifications to a client that asks for them.
        assert heard[:2] == ["searching local for 'skerry light'",
                             "1 result: 0 stored already, fetching 1"]
        assert heard[2] == f"1/1 N0002 {site.url('/article.html')}"
        assert found.splitlines()[:3] == [
            "R0003 ok: retrieve -k 1 'skerry light'",
            'retrieve "skerry light": 1 result, 1 page, 0 failed (local) → _search/Q0001.md',
            f'1. N0002 "The Lighthouse Keepers" {site.url("/article.html")}',
        ]
        assert "Skerry Light" in await ok(client, "grep", pattern="Skerry", page="N0002")

    server = stdio(tmp_path / "cache.sqlite", "--browser", "http", "--search", f"local={INDEX}")
    server.env = {"WEBSHELL_SEARCH_BASE": site.url("/")}
    with_client(server, body)
    assert_clean_log(tmp_path / "cache.sqlite")


def test_a_mount_of_the_same_cache_shows_a_shell_agent_the_same_text(
    tmp_path: Path, site: FixtureSite
) -> None:
    require(fuse_available(), "FUSE")
    cache = tmp_path / "cache.sqlite"
    pattern = "Lighthouse|Medium"
    seen: dict[str, str] = {}

    async def body(client: Client) -> None:
        await ok(client, "open", url=site.url("/shop.html"))
        await ok(client, "open", url=site.url("/article.html"))
        seen["grep"] = await ok(client, "grep", pattern=pattern)
        for path in ("N0002/_map.md", "N0001/tables/T01.cells", "_log/R0002.md", "_pages.tsv",
                     "N0001/"):
            seen[path] = await ok(client, "read", path=path)

    with_client(stdio(cache, "--browser", "http"), body)
    mount = Mount(tmp_path / "mnt", cache)
    try:
        mount.start()
        root = mount.path
        grep = sh(f"cd {root} && grep -rnE '{pattern}' N0001 N0002").stdout
        assert seen["grep"] == grep
        for path in ("N0002/_map.md", "N0001/tables/T01.cells", "_log/R0002.md", "_pages.tsv"):
            assert seen[path] == (root / path).read_text(), path
        assert seen["N0001/"] == sh(f"cd {root}/N0001 && ls -p").stdout
        mount.unmount()
    finally:
        mount.cleanup()
    assert not mount.bad_log_lines()


def test_a_verb_the_grammar_gains_gets_its_arguments_from_its_usage_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    commands = {
        **ctl.COMMANDS,
        "nudge": ctl.Spec(ctl.COMMANDS["help"].parse, "nudge <page> [<id>] <key…> [up|down]",
                          "nudge an element"),
        "twist": ctl.Spec(ctl.COMMANDS["help"].parse, "twist <page> {how}", "twist the page"),
    }
    monkeypatch.setattr(ctl, "COMMANDS", commands)
    written: list[list[str]] = []

    async def run(words: Sequence[str], ctx: object) -> CallToolResult:
        written.append(list(words))
        return CallToolResult(content=[])

    server = MCPServer("test")
    for tool in command_tools(run):
        server.add_tool(tool.run, name=tool.name, description=tool.description,
                        structured_output=False)

    async def main() -> None:
        schemas = {tool.name: tool.input_schema for tool in await server.list_tools()}
        nudge = schemas["nudge"]
        assert list(nudge["properties"]) == ["page", "id", "keys", "choice", "words"]
        assert nudge["required"] == ["page", "keys"]
        assert list(schemas["twist"]["properties"]) == ["arguments"]  # {how}: not a usage word
        await server.call_tool("nudge", {"page": "N0001", "keys": ["Tab", "Enter"],
                                         "choice": "up", "words": ["--dismiss"]})
        await server.call_tool("nudge", {"page": "N0001", "id": "A0002", "keys": ["x"]})
        await server.call_tool("twist", {"arguments": ["N0001", "{left}"]})

    trio.run(main)
    assert written == [
        ["nudge", "N0001", "Tab", "Enter", "up", "--dismiss"],
        ["nudge", "N0001", "A0002", "x"],
        ["twist", "N0001", "{left}"],
    ]


class OneFile:
    """The read side of an engine holding one file (read_path asks nothing else)."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path, self.data = path, data

    def entry(self, path: str) -> Entry | None:
        found = path == self.path
        return Entry(path, path, False, len(self.data), 0, True) if found else None

    def read(self, path: str, offset: int, size: int) -> bytes:
        return self.data[offset : offset + size]


def test_a_long_file_is_read_in_parts_that_say_where_to_go_on() -> None:
    lines = [f"line {n:05d} " + "x" * 40 for n in range(1, 3001)]  # 156,000 chars
    engine = OneFile("N0001/long-values/V0001.txt", "".join(f"{line}\n" for line in lines).encode())
    first = read_path(engine, engine.path, "mcp")  # type: ignore[arg-type]
    *shown, note = first.splitlines()
    assert READ_CHARS <= len("\n".join(shown)) < READ_CHARS + 60
    assert shown == lines[: len(shown)]
    assert note == f"[… cut after line {len(shown)}: read again with start={len(shown) + 1}]"
    rest = read_path(engine, engine.path, "mcp", start=len(shown) + 1)  # type: ignore[arg-type]
    assert rest.splitlines() == lines[len(shown) :]
    binary = OneFile("N0001/screenshot.png", b"\x89PNG\0\0")
    assert read_path(binary, binary.path, "mcp") == (  # type: ignore[arg-type]
        "N0001/screenshot.png is a binary file (6 bytes); it has no lines to show\n"
    )


def http_status(url: str, headers: dict[str, str]) -> int:
    """The status of a tools/list POST to url with these headers added."""
    request = urllib.request.Request(
        url, method="POST", data=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
        headers={"Content-Type": "application/json",
                 "Accept": "application/json, text/event-stream", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=EXIT_TIMEOUT) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_streamable_http_on_loopback(tmp_path: Path, site: FixtureSite) -> None:
    server = subprocess.Popen(
        [sys.executable, *server_args(tmp_path / "cache.sqlite", "--browser", "http", "--http",
                                      "0")],
        cwd=REPO, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert server.stderr is not None
        said = ""
        while "serving" not in said:
            said = server.stderr.readline()
            assert said, "the server ended before serving"
        url = said.split("serving ", 1)[1].strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", url), url

        async def body(client: Client) -> None:
            assert "open" in {tool.name for tool in (await client.list_tools()).tools}
            opened = await ok(client, "open", url=site.url("/article.html"))
            page = opened.splitlines()[1].split()[0]
            record = await ok(client, "read", path="_log/R0001.md")
            assert re.search(r"^session: mcp-\w{12}$", record, re.MULTILINE), record
            assert page in await ok(client, "read", path="_pages.tsv")

        # A protocol version with sessions: each one is an engine session of its own.
        with_client(url, body, mode="legacy")
        # A page in a browser that reached the port through another name (DNS rebinding), or
        # sent its own origin, is refused before any tool runs.
        assert http_status(url, {"Host": "attacker.example"}) == 421
        assert http_status(url, {"Origin": "http://attacker.example"}) == 403
        server.terminate()
        assert server.wait(timeout=EXIT_TIMEOUT) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
