"""Command line: `webshellfs MOUNTPOINT [options]` mounts; `webshellfs compile …` compiles to disk;
`webshellfs mcp [options]` serves the engine to MCP clients."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from webshellfs import __version__
from webshellfs.config import DEFAULT_CHROMIUM, Settings, default_cache_path
from webshellfs.errors import WebshellError

COMPILE_USAGE = """%(prog)s PAGE --url URL --out DIR [--stats FILE]
       %(prog)s --manifest PAGES.tsv --out DIR [--stats FILE]"""


def _seconds(text: str) -> float:
    """A duration option: a positive, finite number of seconds, refused at start otherwise."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"a positive number of seconds is needed, not {text!r}")
    return seconds


def _browser_spec(text: str) -> str:
    """--browser: refused at start unless parse_browser_spec (or `http`) takes it."""
    from webshellfs.browser.options import parse_browser_spec
    from webshellfs.mount import HTTP_ONLY

    if text != HTTP_ONLY:
        try:
            parse_browser_spec(text)
        except WebshellError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _mount_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webshellfs",
        description="Mount the web as a read-only filesystem of compiled pages. "
        "Write commands to MOUNTPOINT/.ctl; see MOUNTPOINT/README.md. "
        "Also: 'webshellfs compile --help', 'webshellfs mcp --help'.",
    )
    parser.add_argument("mountpoint", type=Path, help="an empty directory to mount on")
    _add_engine_options(parser)
    parser.add_argument("--no-fuse", action="store_true",
                        help="without FUSE: keep the same tree in MOUNTPOINT as plain read-only "
                        "files, and take commands from `webshell` over a socket there")
    parser.add_argument("--foreground", action="store_true", help="do not detach")
    parser.add_argument("--version", action="version", version=f"webshellfs {__version__}")
    return parser


def _add_engine_options(parser: argparse.ArgumentParser) -> None:
    """The options of the engine behind a mount, shared by `webshellfs mcp`."""
    parser.add_argument("--cache", type=Path, default=None,
                        help=f"the SQLite page store (default {default_cache_path()})")
    parser.add_argument("--search", default="", metavar="NAME[=URL]",
                        help="search backend for retrieve: ddgs, searxng=URL, serper, brave, "
                        "local=INDEX.tsv (default: $WEBSHELL_SEARCH, else ddgs)")
    parser.add_argument("--browser", default="local", type=_browser_spec,
                        metavar="local|cdp=URL|ws=URL|http",
                        help="launch Chromium locally (default), connect to a remote one over "
                        "CDP or a Playwright server, or fetch over plain HTTP with no live pages")
    parser.add_argument("--chromium", default=DEFAULT_CHROMIUM,
                        help=f"Chromium binary for --browser local (default {DEFAULT_CHROMIUM})")
    parser.add_argument("--profile", default="", metavar="NAME",
                        help="keep the browser's cookies and storage (logins) across mounts in "
                        "the profile NAME, stored readable by you only (default: none)")
    parser.add_argument("--allow-private", action="store_true",
                        help="allow fetching loopback and private-network addresses")
    parser.add_argument("--allow-link-local", action="store_true",
                        help="allow fetching link-local and cloud-metadata addresses "
                        "(169.254.169.254 …); --allow-private does not")
    parser.add_argument("--fetch-timeout", type=_seconds, default=30.0, metavar="SECONDS",
                        help="how long one page fetch may take (default 30)")
    parser.add_argument("--ignore-robots", action="store_true",
                        help="retrieve and explore: fetch pages even where robots.txt "
                        "disallows them")
    parser.add_argument("--uploads", type=Path, default=None, metavar="DIR",
                        help="the directory `upload` may take files from (default: none, "
                        "uploads are refused)")
    parser.add_argument("--no-screenshots", dest="screenshots", action="store_false",
                        help="do not keep screenshot.png (the viewport) with each page captured "
                        "in a live tab")
    parser.add_argument("--debug", action="store_true", help="log at debug level")
    parser.add_argument("--deadline", type=_seconds, default=120.0, metavar="SECONDS",
                        help="how long a command may run (default 120)")


def _mcp_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webshellfs mcp",
        description="Serve the same engine to MCP clients: a tool per command (retrieve, open, "
        "execute, focus, lookup, resolve, close) plus read and grep, over stdio.",
    )
    _add_engine_options(parser)
    parser.add_argument("--http", type=int, default=None, metavar="PORT",
                        help="serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of "
                        "stdio (0: a free port, said on stderr)")
    parser.set_defaults(mountpoint=Path(), foreground=True, no_fuse=False)
    return parser


def run_mcp(argv: Sequence[str]) -> int:
    from webshellfs.mcp.serve import run

    parser = _mcp_parser()
    args = parser.parse_args(argv)
    _refuse_profile_without_browser(parser, args)
    return run(settings_from_args(args), http_port=args.http)


def _refuse_profile_without_browser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> None:
    if args.profile and args.browser == "http":
        parser.error("--profile keeps a browser's cookies: it needs a browser, not --browser http")


def _compile_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webshellfs compile",
        usage=COMPILE_USAGE,
        description="Compile saved HTML into the page tree the mount would show.",
    )
    parser.add_argument("page", nargs="?", help="an HTML file, or - for standard input")
    parser.add_argument("--url",
                        help="the page's URL, required with PAGE (resolves relative links)")
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--manifest", type=Path,
                        help="compile many pages: lines of 'path<TAB>url' → OUT/N0001/…")
    parser.add_argument("--stats", type=Path, help="write per-page compile ms and output bytes")
    return parser


def run_compile(argv: Sequence[str]) -> int:
    from webshellfs import treeout

    parser = _compile_parser()
    args = parser.parse_args(argv)
    if args.manifest and args.page:
        parser.error("give either PAGE or --manifest, not both")
    failures: list[str] = []
    if args.manifest:
        done = treeout.compile_manifest(treeout.read_manifest(args.manifest), args.out)
        stats, failures = done.stats, done.failures
    else:
        if not args.page or not args.url:
            parser.error("PAGE and --url are needed (or --manifest)")
        data = sys.stdin.buffer.read() if args.page == "-" else Path(args.page).read_bytes()
        stats = [treeout.compile_to_dir(data, args.url, args.out, source=args.page)]
    if args.stats:
        treeout.write_stats(stats, args.stats)
    for failure in failures:
        print(f"webshellfs: {failure}", file=sys.stderr)
    return 1 if failures else 0


def settings_from_args(args: argparse.Namespace) -> Settings:
    return Settings(
        mountpoint=args.mountpoint,
        cache=args.cache or default_cache_path(),
        search=args.search,
        browser=args.browser,
        chromium=args.chromium,
        allow_private=args.allow_private,
        allow_link_local=args.allow_link_local,
        ignore_robots=args.ignore_robots,
        fetch_timeout=args.fetch_timeout,
        foreground=args.foreground,
        debug=args.debug,
        command_deadline=args.deadline,
        profile=args.profile,
        no_fuse=args.no_fuse,
        uploads=args.uploads.resolve() if args.uploads is not None else None,
        screenshots=args.screenshots,
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "compile":
            return run_compile(argv[1:])
        if argv and argv[0] == "mcp":
            return run_mcp(argv[1:])
        from webshellfs import mount

        parser = _mount_parser()
        args = parser.parse_args(argv)
        _refuse_profile_without_browser(parser, args)
        return mount.run(settings_from_args(args))
    except (WebshellError, OSError) as exc:
        print(f"webshellfs: {exc}", file=sys.stderr)
        return 1
