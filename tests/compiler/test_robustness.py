"""The compiler against bad input: it never raises, never hangs, never loses text silently,
gives byte-identical output run after run, and only ever names safe relative paths.

Three sources of bad input:
- hypothesis: random bytes, HTML-ish token soup, real pages truncated or garbled, deep nesting,
  and non-HTML documents (PDF, JSON, CSV, markdown, text, images) cut short or made of garbage;
- the html5lib tree-construction tests and Readability's real pages: a sample kept in
  tests/corpora/ (always run, so a clone passes alone) and every case of the shared corpora
  (--corpora, default ../shared/corpora; see the shared_corpora fixture);
- huge/hostile documents generated here (20 MB text node, 10,000-deep nesting, a 1M-cell table,
  100 MB of paragraphs), each compiled in a child process with a timeout, so the suite cannot
  hang and peak memory can be measured.
"""

from __future__ import annotations

import faulthandler
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import HIDDEN_FILE, PAGE_DIRS, PAGE_FILES, render_page

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_CORPORA = ROOT / "tests" / "corpora"
HTML5LIB_CASES = Path("html5lib-tests") / "tree-construction-cases"
READABILITY_PAGES = Path("readability-test-pages") / "test-pages"
URL = "https://example.test/dir/page.html"

# A path component the contract allows: ASCII letters, digits, `_ . -`, not starting with
# `-` or `.`, at most 255 bytes (NAME_MAX counts bytes).
SAFE_COMPONENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}")
TOP_LEVEL = set(PAGE_FILES) | set(PAGE_DIRS) | {"_state.md"}


# In-process tests get a watchdog: a compile stuck (even inside libxml2) dumps every thread's
# stack and ends the run, instead of hanging CI. Child-process tests have their own, shorter
# timeouts (the longest is 400 s), which fail just the one test.
IN_PROCESS_TEST_SECONDS = 600


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(IN_PROCESS_TEST_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def compile_files(data: bytes | str, content_type: str = "", url: str = URL) -> dict[str, bytes]:
    return render_page(compile_page(data, url, content_type=content_type), page_id="N0001")


def unsafe_paths(files: dict[str, bytes]) -> list[str]:
    """Every produced path that is absolute, climbs, uses an unsafe name, or sits outside the layout."""
    bad = []
    for path in files:
        parts = path.split("/")
        if (
            path.startswith("/")
            or any(p in ("", ".", "..") or not SAFE_COMPONENT.fullmatch(p) for p in parts)
            or parts[0] not in TOP_LEVEL
            or (parts[0] in PAGE_DIRS) != (len(parts) == 2)
        ):
            bad.append(path)
    return bad


def assert_robust(data: bytes | str, content_type: str = "", url: str = URL) -> dict[str, bytes]:
    first = compile_files(data, content_type, url)
    assert compile_files(data, content_type, url) == first, "second compile differs"
    assert unsafe_paths(first) == []
    assert "_map.md" in first
    return first


# --- hypothesis -------------------------------------------------------------------------------

TAGS = [
    "div",
    "span",
    "p",
    "b",
    "i",
    "a",
    "table",
    "tr",
    "td",
    "th",
    "ul",
    "li",
    "h1",
    "h3",
    "form",
    "select",
    "option",
    "input",
    "button",
    "label",
    "script",
    "style",
    "template",
    "svg",
    "math",
    "textarea",
    "pre",
    "iframe",
    "nav",
    "header",
    "footer",
    "details",
]
ATTRIBUTES = [
    'href="../../etc/passwd"',
    'href="javascript:alert(1)"',
    "hidden",
    'role="heading"',
    'aria-level="99999999999"',
    'colspan="1000000"',
    'rowspan="-3"',
    'id="x"',
    'style="display:none"',
    'aria-hidden="true"',
    'type="radio" name="r"',
    'srcset="a.png 1x, b.png 99999w"',
    'aria-labelledby="x x x"',
    'href="#x"',
]
CONTENT_TYPES = [
    "",
    "text/html",
    "text/html; charset=utf-8",
    "text/html; charset=shift_jis",
    "text/html; charset=no-such-charset",
    "application/xhtml+xml",
    "text/plain",
    "application/json",
    "application/octet-stream",
]
TEXTS = [
    "..",
    "/",
    "\x00",
    "\u202e",
    "\u200b",
    "-rf",
    "\t\n",
    "Größe",
    "💥",
    "&amp;",
    "&#0;",
    "]]>",
    "<!--",
    "\ud800",
    "a" * 300,
    "CON",
    "ö" * 200,
]


def _token_soup() -> st.SearchStrategy[str]:
    open_tag = st.builds(
        lambda tag, attrs: f"<{tag} {' '.join(attrs)}>",
        st.sampled_from(TAGS),
        st.lists(st.sampled_from(ATTRIBUTES), max_size=3),
    )
    close_tag = st.sampled_from(TAGS).map(lambda tag: f"</{tag}>")
    token = st.one_of(open_tag, close_tag, st.sampled_from(TEXTS), st.text(max_size=20))
    return st.lists(token, max_size=80).map("".join)


def _readability_sources() -> list[Path]:
    pages = (SAMPLE_CORPORA / READABILITY_PAGES).glob("*/source.html")
    return sorted(pages, key=lambda p: p.stat().st_size)[:40]


@st.composite
def _damaged_real_page(draw: st.DrawFn) -> bytes:
    """A real page cut short or with bytes flipped."""
    data = bytearray(draw(st.sampled_from(_readability_sources())).read_bytes())
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    for _ in range(draw(st.integers(0, 20))):
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data)


@st.composite
def _deep_nesting(draw: st.DrawFn) -> str:
    tags = draw(st.lists(st.sampled_from(TAGS), min_size=1, max_size=4))
    depth = draw(st.integers(1, 3000))
    opened = "".join(f"<{tags[i % len(tags)]}>" for i in range(depth))
    closed = "".join(f"</{tags[i % len(tags)]}>" for i in reversed(range(depth)))
    return opened + "deep" + (closed if draw(st.booleans()) else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.one_of(
        st.binary(max_size=2000),
        _token_soup(),
        _token_soup().map(lambda s: s.encode("utf-8", "surrogatepass")),
    ),
    content_type=st.sampled_from(CONTENT_TYPES),
)
def test_random_and_soup_input_compiles_deterministically(
    data: bytes | str, content_type: str
) -> None:
    assert_robust(data, content_type)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_damaged_real_page())
def test_truncated_or_garbled_real_pages_compile_deterministically(data: bytes) -> None:
    assert_robust(data)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_deep_nesting())
def test_deep_nesting_compiles_deterministically(data: str) -> None:
    assert_robust(data)


# Non-HTML documents go another way (nonhtml.py): PDF, JSON, CSV, markdown, text, images.
NON_HTML_KINDS = [
    ("application/pdf", "doc.pdf", b"%PDF-1.4\n"),
    ("application/json", "data.json", b""),
    ("text/csv", "table.csv", b""),
    ("text/markdown", "notes.md", b""),
    ("text/plain", "notes.txt", b""),
    ("image/png", "pic.png", b"\x89PNG\r\n\x1a\n"),
    ("", "data.json", b""),
    ("", "file.pdf", b"%PDF-"),
]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=40,
)
_CSV = st.lists(
    st.lists(st.sampled_from(TEXTS + ['"', ",", "a,b", '"x""y"', "\r\n"]), max_size=6), max_size=12
).map(lambda rows: "\n".join(",".join(row) for row in rows))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(NON_HTML_KINDS),
    body=st.one_of(
        st.binary(max_size=2000),
        _JSON.map(lambda v: json.dumps(v).encode()),
        _CSV.map(lambda text: text.encode("utf-8", "surrogatepass")),
    ),
    cut=st.integers(0, 100),
)
def test_non_html_documents_compile_deterministically(
    kind: tuple[str, str, bytes],
    body: bytes,
    cut: int,
) -> None:
    content_type, name, magic = kind
    data = magic + body
    data = data[: max(len(magic), len(data) * cut // 100)] if cut < 100 else data
    assert_robust(data, content_type, f"https://example.test/files/{name}")


NON_HTML_TRAPS: dict[str, tuple[bytes, str, str]] = {
    "json nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, "application/json", "a.json"),
    "json objects nested 100,000 deep": (
        b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "application/json",
        "a.json",
    ),
    "json 200,000 records": (
        json.dumps([{"a": i} for i in range(200_000)]).encode(),
        "application/json",
        "a.json",
    ),
    "csv field over the csv module's limit": (
        b'a,b\n"' + b"x" * 1_000_000 + b'",2\n',
        "text/csv",
        "a.csv",
    ),
    "csv with nul and ragged rows": (b'a,b\n\x00,2\n1,2,3,4\n"unclosed\n', "text/csv", "a.csv"),
    "pdf header only": (b"%PDF-1.7\n", "application/pdf", "a.pdf"),
    "pdf garbage": (b"%PDF-1.4\n" + bytes(range(256)) * 100, "application/pdf", "a.pdf"),
    "markdown quoted 100,000 deep": (b">" * 100_000 + b" x", "text/markdown", "a.md"),
    "png header only": (b"\x89PNG\r\n\x1a\n", "image/png", "a.png"),
}


@pytest.mark.parametrize("name", list(NON_HTML_TRAPS))
def test_non_html_traps(name: str) -> None:
    data, content_type, file_name = NON_HTML_TRAPS[name]
    assert_robust(data, content_type, f"https://example.test/files/{file_name}")


def test_unsafe_paths_catches_what_it_must() -> None:
    """The checker itself: it must reject each kind of bad path."""
    bad = [
        "/etc/passwd",
        "content/../../x",
        "content/-rf.md",
        "content/.hidden",
        "content/a b.md",
        "content/é.md",
        "tables/a/b.cells",
        "elsewhere.txt",
        "content",
        "content/" + "a" * 256,
    ]
    good = [
        "_map.md",
        "links.tsv",
        "content/00-intro.md",
        "tables/T01.cells",
        "long-values/V0001.txt",
    ]
    assert unsafe_paths(dict.fromkeys(bad + good, b"")) == bad


# Known traps of lxml/libxml2, each with text that must come through (None: nothing in particular).
TRAPS: dict[str, tuple[bytes | str, str | None]] = {
    "empty bytes": (b"", None),
    "empty str": ("", None),
    "whitespace only": (" \n\t ", None),
    "comment only": ("<!-- c -->", None),  # lxml: "Document is empty"
    "doctype only": ("<!doctype html>", None),
    "bom only": (b"\xef\xbb\xbf", None),
    "str with xml declaration": (
        '<?xml version="1.0" encoding="utf-8"?><html><body>kept</body></html>',
        "kept",
    ),  # lxml raises ValueError on this str
    "utf-16 with bom": ("<p>kept ünïcode</p>".encode("utf-16"), "kept ünïcode"),
    "meta says utf-16, bytes are ascii": (b'<meta charset="utf-16"><p>kept</p>', "kept"),
    "meta says bogus charset": (b'<meta charset="no-such"><p>kept</p>', "kept"),
    "latin-1 bytes, no declaration": ("<p>kept café</p>".encode("latin-1"), "kept caf"),
    "nul bytes everywhere": (b"<p>ke\x00pt</p>\x00\x00<h1>\x00</h1>", "ke"),
    "lone surrogate in str": ("<h1>a\ud800b</h1><p>kept</p>", "kept"),
    "heading of dots and slashes": ("<h1>../..</h1><h2>/</h2><h2>.</h2><p>kept</p>", "kept"),
    "thousand equal headings": ("<h2>Same</h2><p>x</p>" * 1000, None),
    "unclosed everything": ("<table><tr><td><select><option>kept<div><h1><a href=x>", "kept"),
}


@pytest.mark.parametrize("name", list(TRAPS))
def test_known_parser_traps(name: str) -> None:
    data, kept = TRAPS[name]
    files = assert_robust(data)
    text = b"\n".join(files.values()).decode("utf-8", "replace")
    if kept is not None:
        assert kept in text
    assert "\u00ef\u00bb\u00bf" not in text  # a BOM read as latin-1 text


def test_every_section_gets_its_own_file() -> None:
    """Two sections rendered to one path would overwrite each other silently."""
    data = "".join(
        f"<h{1 + i % 6}>{name}</h{1 + i % 6}><p>text {i}</p>"
        for i, name in enumerate(["Same", "same", "SAME!", "Säme", "", "-", "Same"] * 20)
    )
    page = compile_page(data, URL)
    files = render_page(page)
    # The hidden region is written even when, as here, nothing is hidden.
    section_paths = [p for p in files
                     if p.startswith(("content/", "boilerplate/")) and p != HIDDEN_FILE]
    assert len(section_paths) == len(page.sections)
    assert all(f"text {i}" in b"".join(files.values()).decode() for i in range(140))


# --- html5lib tree-construction cases -------------------------------------------------------


@dataclass(frozen=True)
class ExpectedText:
    text: str
    category: str


# Text under these elements is not rendered as page text (or is raw text a page never shows).
UNRENDERED = {
    "script",
    "style",
    "template",
    "noscript",
    "noembed",
    "noframes",
    "iframe",
    "frameset",
}
_NODE_LINE = re.compile(r"^\| ( *)(.*)$", re.DOTALL)
_ELEMENT = re.compile(r"^<(?!!)(?:(?:svg|math) )?([^ >]+)>$")
_ATTRIBUTE = re.compile(r'^(?:[a-z]+ )?([^ ="]+)="(.*)"$', re.DOTALL)


def squash(text: str) -> str:
    return " ".join(text.split())


def expected_texts(tree_dump: str) -> list[ExpectedText]:
    """Text nodes of an html5lib tree dump, each with why it should (or need not) be in the output.

    Dump lines are `| ` + two spaces per depth + a node; a node that spans lines (text with
    newlines) continues on lines without the `| ` prefix."""
    nodes: list[tuple[int, str]] = []
    for line in tree_dump.split("\n"):
        match = _NODE_LINE.match(line)
        if match:
            nodes.append((len(match.group(1)) // 2, match.group(2)))
        elif nodes:
            depth, body = nodes[-1]
            nodes[-1] = (depth, body + "\n" + line)
    stack: list[tuple[int, str, dict[str, str]]] = []
    found: list[ExpectedText] = []
    for depth, body in nodes:
        while stack and stack[-1][0] >= depth:
            stack.pop()
        element = _ELEMENT.match(body)
        if element or body == "content":
            stack.append((depth, element.group(1) if element else "template", {}))
            continue
        if body.startswith('"') and body.endswith('"') and len(body) >= 2:
            text = squash(body[1:-1])
            if text:
                found.append(ExpectedText(text, _category(stack)))
            continue
        attribute = _ATTRIBUTE.match(body)
        if attribute and stack:
            stack[-1][2][attribute.group(1)] = attribute.group(2)
    return found


def _is_hidden(tag: str, attrs: dict[str, str]) -> bool:
    return (
        "hidden" in attrs
        or attrs.get("aria-hidden", "").lower() == "true"
        or bool(re.search(r"display\s*:\s*none", attrs.get("style", ""), re.IGNORECASE))
        or (tag == "dialog" and "open" not in attrs)  # a closed <dialog> is not displayed
    )


def _category(stack: list[tuple[int, str, dict[str, str]]]) -> str:
    tags = [tag for _, tag, _ in stack]
    unrendered = next((tag for tag in tags if tag in UNRENDERED), None)
    if unrendered:
        return f"unrendered ({unrendered})"
    if {"desc", "metadata"} & set(tags) or ("svg" in tags and "title" in tags):
        return "unrendered (svg desc/title)"
    if any(_is_hidden(tag, attrs) for _, tag, attrs in stack):
        return "hidden"
    if "datalist" in tags:
        return "unrendered (datalist)"
    if "select" in tags and not {"option", "optgroup"} & set(tags[tags.index("select") :]):
        return "unrendered (select, outside an option)"
    if "title" in tags:
        return "visible (title)"
    if {"option", "optgroup", "textarea"} & set(tags):
        return "visible (form control)"
    if {"svg", "math"} & set(tags):
        return "visible (svg/math)"
    return "visible"


def sweep(paths: list[str]) -> None:
    """Child-process side of the corpus sweep: compile each file twice, print one JSON line each
    (on the real stdout; anything the compiler itself prints goes to stderr)."""
    records, sys.stdout = sys.stdout, sys.stderr
    for path in paths:
        data = Path(path).read_bytes()
        record: dict[str, object] = {"case": path}
        try:
            files = compile_files(data)
            again = compile_files(data)
        except BaseException:  # noqa: BLE001 - anything at all is a finding, with its traceback
            record["error"] = traceback.format_exc(limit=6)
        else:
            record["digest"] = _digest(files)
            record["stable_in_process"] = again == files
            record["unsafe"] = unsafe_paths(files)
            record["text"] = squash(b"\n".join(files.values()).decode("utf-8", "replace"))
        print(json.dumps(record), file=records, flush=True)


def _digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for path, data in sorted(files.items()):
        digest.update(path.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return digest.hexdigest()


def _run_sweep(cases: list[Path], hash_seed: str, out: IO[bytes]) -> subprocess.Popen[bytes]:
    code = "import sys; from tests.compiler.test_robustness import sweep; sweep(sys.argv[1:])"
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, cases)],
        cwd=ROOT,
        stdout=out,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
    )


def sweep_corpus(cases: list[Path], timeout: float) -> dict[str, list[dict[str, object]]]:
    """Every case compiled twice in each of two child processes with different hash seeds (so
    set or dict-order accidents show up as differences), in parallel, under one deadline.
    Records are keyed by the case's path. The children write to files, not pipes, so neither
    waits on a full pipe while the other is being read."""
    deadline = time.monotonic() + timeout
    results: dict[str, list[dict[str, object]]] = {}
    with tempfile.TemporaryFile() as first, tempfile.TemporaryFile() as second:
        outputs = (first, second)
        children = [_run_sweep(cases, seed, out) for seed, out in zip(("1", "2"), outputs)]
        try:
            for child in children:
                child.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            for child in children:
                child.kill()
        for child, out in zip(children, outputs):
            out.seek(0)
            done = [json.loads(line) for line in out.read().decode().splitlines()]
            for record in done:
                results.setdefault(str(record["case"]), []).append(record)
            assert child.returncode == 0, (
                f"sweep child died (exit {child.returncode}) on {cases[len(done)]}"
            )
    assert all(len(runs) == 2 for runs in results.values()) and len(results) == len(cases)
    return results


def sweep_findings(results: dict[str, list[dict[str, object]]]) -> dict[str, list[str]]:
    """Cases that raised, that differ between runs or processes, or that named unsafe paths."""
    return {
        "raised": [
            f"{case}:\n{runs[0]['error']}" for case, runs in results.items() if "error" in runs[0]
        ],
        "unstable": [
            case
            for case, runs in results.items()
            if not all(run.get("stable_in_process", False) for run in runs)
            or len({run.get("digest") for run in runs}) != 1
        ],
        "unsafe paths": [
            f"{case}: {runs[0]['unsafe']}"
            for case, runs in results.items()
            if runs[0].get("unsafe")
        ],
    }


@dataclass(frozen=True)
class Corpus:
    """Where a corpus sweep reads from and how many cases it must find there: the in-project
    sample always, the shared corpora when the run has them (see tests/corpora/README.md)."""

    name: str
    html5lib_cases: int
    readability_pages: int

    def folder(self, request: pytest.FixtureRequest) -> Path:
        if self.name == "sample":
            return SAMPLE_CORPORA
        return request.getfixturevalue("shared_corpora")


CORPORA = [Corpus("sample", html5lib_cases=250, readability_pages=40),
           Corpus("shared", html5lib_cases=1700, readability_pages=100)]


@pytest.fixture(scope="module", params=CORPORA, ids=[c.name for c in CORPORA])
def html5lib_results(request: pytest.FixtureRequest) -> dict[str, list[dict[str, object]]]:
    corpus: Corpus = request.param
    folder = corpus.folder(request) / HTML5LIB_CASES
    cases = sorted(folder.glob("*.html"))
    assert len(cases) >= corpus.html5lib_cases, f"html5lib corpus missing or short at {folder}"
    return sweep_corpus(cases, timeout=240)


def test_html5lib_cases_never_raise(html5lib_results: dict[str, list[dict[str, object]]]) -> None:
    raised = sweep_findings(html5lib_results)["raised"]
    assert raised == [], f"{len(raised)} cases raised; first: " + "\n".join(raised[:3])


def test_html5lib_cases_are_byte_identical_across_runs_and_processes(
    html5lib_results: dict[str, list[dict[str, object]]],
) -> None:
    assert sweep_findings(html5lib_results)["unstable"] == []


def test_html5lib_cases_only_produce_safe_paths(
    html5lib_results: dict[str, list[dict[str, object]]],
) -> None:
    assert sweep_findings(html5lib_results)["unsafe paths"] == []


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPORA, ids=[c.name for c in CORPORA])
def test_real_pages_are_robust_and_byte_identical_across_processes(
    corpus: Corpus, request: pytest.FixtureRequest
) -> None:
    """The readability corpus: real pages exercise facts, tables and forms, where dict and
    set order could leak into the output."""
    folder = corpus.folder(request) / READABILITY_PAGES
    cases = sorted(folder.glob("*/source.html"))
    assert len(cases) >= corpus.readability_pages, f"readability corpus missing or short: {folder}"
    findings = sweep_findings(sweep_corpus(cases, timeout=400))
    assert findings == {"raised": [], "unstable": [], "unsafe paths": []}


# Text is compared whitespace-free and with NUL/U+FFFD removed, because the HTML5 algorithm
# merges adjacent text nodes that libxml2 keeps apart and drops NULs that libxml2 turns into
# U+FFFD. Not counted (see _category): text browsers do not render (script, style, template,
# noscript, iframe, noembed, noframes, frameset, datalist, svg desc/title, text directly in a
# <select> outside any option) and hidden text (hidden, aria-hidden, display:none, a closed
# <dialog>). What is still missing after that are the legitimate differences between libxml2's
# parser and the HTML5 tree-construction algorithm: text foster-parented out of a table ("AC"
# for `<table>A<td>B</td>C`, which libxml2 keeps in order as A, B, C), text after a stray
# </html> or inside a <colgroup>, CDATA sections in <svg>, a comment opened inside <noscript>,
# the fallback content of <object>. The test prints each miss.
# Measured (visible text nodes found, loose / exact): placeholder walker 0.972 / 0.963 of 573;
# first full walker (80e80c7) 0.969 / 0.954 of 541. The floor sits a little under, so a
# rewrite cannot quietly start losing text.
VISIBLE_TEXT_FLOOR = 0.95
_IGNORED_IN_MATCH = re.compile(r"[\s\x00\ufffd]+")


def loose(text: str) -> str:
    return _IGNORED_IN_MATCH.sub("", text)


@dataclass
class Coverage:
    total: Counter[str]
    exact: Counter[str]
    loose: Counter[str]
    misses: list[str]

    def share(self, found: Counter[str]) -> float:
        visible = [c for c in self.total if c.startswith("visible")]
        return sum(found[c] for c in visible) / max(1, sum(self.total[c] for c in visible))


def text_coverage(results: dict[str, list[dict[str, object]]]) -> Coverage:
    coverage = Coverage(Counter(), Counter(), Counter(), [])
    for case, runs in sorted(results.items()):
        if "text" not in runs[0]:
            continue
        output = str(runs[0]["text"])
        output_loose = loose(output)
        name = Path(case).stem
        tree = Path(case).with_suffix(".tree.txt").read_text(encoding="utf-8", errors="replace")
        for expected in expected_texts(tree):
            coverage.total[expected.category] += 1
            if expected.text in output:
                coverage.exact[expected.category] += 1
            if loose(expected.text) in output_loose:
                coverage.loose[expected.category] += 1
            elif expected.category.startswith("visible"):
                coverage.misses.append(f"{name} [{expected.category}] {expected.text[:60]!r}")
    return coverage


def test_html5lib_visible_text_survives(
    html5lib_results: dict[str, list[dict[str, object]]],
) -> None:
    coverage = text_coverage(html5lib_results)
    for category in sorted(coverage.total):
        print(
            f"{category}: exact {coverage.exact[category]}, loose {coverage.loose[category]}"
            f" of {coverage.total[category]}"
        )
    print(
        f"visible share: exact {coverage.share(coverage.exact):.3f},"
        f" loose {coverage.share(coverage.loose):.3f}"
    )
    print("\n".join(coverage.misses))
    share = coverage.share(coverage.loose)
    assert share >= VISIBLE_TEXT_FLOOR, (
        f"visible text found {share:.3f}; misses: {coverage.misses[:20]}"
    )


def test_expected_texts_reads_the_dump_format() -> None:
    dump = "\n".join(
        [
            "| <html>",
            "|   <head>",
            "|     <title>",
            '|       "T"',
            "|   <body>",
            "|     <div>",
            '|       hidden=""',
            '|       "secret"',
            "|     <p>",
            '|       "two',
            'lines"',
            "|     <template>",
            "|       content",
            '|         "inert"',
            "|     <svg svg>",
            '|       "drawn"',
            "|     <select>",
            '|       "stray"',
            "|       <option>",
            '|         "chosen"',
        ]
    )
    assert expected_texts(dump) == [
        ExpectedText("T", "visible (title)"),
        ExpectedText("secret", "hidden"),
        ExpectedText("two lines", "visible"),
        ExpectedText("inert", "unrendered (template)"),
        ExpectedText("drawn", "visible (svg/math)"),
        ExpectedText("stray", "unrendered (select, outside an option)"),
        ExpectedText("chosen", "visible (form control)"),
    ]


# --- huge and hostile documents, each in a child process ------------------------------------


def _hostile_document(kind: str) -> tuple[bytes, list[str]]:
    """The document for a kind, and marker strings that must survive somewhere in the output."""
    if kind == "text-20mb":
        text = "lorem " * (20_000_000 // 6)
        return f"<html><body><p>start {text}finis</p><p>after</p></body></html>".encode(), [
            "start lorem lorem",
            "lorem finis",
            "after",
        ]
    if kind == "nesting-10000":
        return ("<div>" * 10_000 + "deepest" + "</div>" * 10_000 + "<p>after</p>").encode(), [
            "deepest",
            "after",
        ]
    if kind == "table-1m-cells":
        rows = "".join(
            "<tr>" + "".join(f"<td>r{r}c{c}</td>" for c in range(100)) + "</tr>"
            for r in range(10_000)
        )
        return f"<html><body><table>{rows}</table><p>after</p></body></html>".encode(), [
            "r0c0",
            "r5000c50",
            "r9999c99",
            "after",
        ]
    if kind == "input-100mb":
        paragraphs = "".join(
            f"<p>paragraph {i} with some ordinary words in it to fill a line.</p>"
            for i in range(1_400_000)
        )
        return f"<html><body>{paragraphs}<p>after</p></body></html>".encode(), [
            "paragraph 0 ",
            "paragraph 700000 ",
            "paragraph 1399999 ",
            "after",
        ]
    raise ValueError(kind)


def hostile_child(kind: str) -> None:
    """Child-process side: build the document, compile it, print one JSON line of findings."""
    data, markers = _hostile_document(kind)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    files = render_page(compile_page(data, URL), page_id="N0001")
    seconds = time.perf_counter() - started
    rss_growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    blob = b"\n".join(files.values()).decode("utf-8", "replace")
    map_text = files["_map.md"].decode("utf-8", "replace")
    notes = map_text.split("\n## notes\n", 1)[1].strip() if "\n## notes\n" in map_text else ""
    print(
        json.dumps(
            {
                "input_mb": len(data) / 1e6,
                "seconds": seconds,
                "rss_growth_mb": rss_growth_mb,
                "output_mb": sum(map(len, files.values())) / 1e6,
                "unsafe": unsafe_paths(files),
                "missing": [m for m in markers if m not in blob],
                "notes": notes,
            }
        )
    )


def run_hostile(kind: str, timeout: float) -> dict[str, object]:
    code = "import sys; from tests.compiler.test_robustness import hostile_child; hostile_child(sys.argv[1])"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, kind],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{kind}: compile did not finish within {timeout} s")
    assert done.returncode == 0, f"{kind}: child failed\n{done.stderr[-3000:]}"
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    print(kind, result)
    return result


def assert_nothing_lost_silently(kind: str, result: dict[str, object]) -> None:
    """Every marker is in the output, or _map.md's notes say that something was cut."""
    assert result["unsafe"] == []
    if result["missing"]:
        assert result["notes"], f"{kind}: {result['missing']} lost and _map.md has no notes"


def test_20mb_text_node_survives_or_is_noted() -> None:
    """lxml's default parser silently drops a text node over 10 MB; the compiler must not."""
    result = run_hostile("text-20mb", timeout=60)
    assert_nothing_lost_silently("text-20mb", result)


def test_10000_level_nesting_does_not_crash_and_truncation_is_noted() -> None:
    """libxml2 stops nesting at 256 (2048 with huge_tree); a recursive walk could hit
    Python's recursion limit. Either the deepest text survives or the cut is noted."""
    result = run_hostile("nesting-10000", timeout=60)
    assert_nothing_lost_silently("nesting-10000", result)


# Bounds, on this 2-core shared machine: the research target (RSS < 1 GB on a 1M-cell table;
# lxml alone needs about 0.45 GB to parse it) and a time an interactive `open` can afford.
TABLE_SECONDS = 60
TABLE_RSS_GROWTH_MB = 1024
# 100 MB of input: libxml2 alone needs about 20 bytes per input byte; allow twice that.
HUGE_SECONDS = 180
HUGE_RSS_GROWTH_MB = 4096


@pytest.mark.slow
def test_million_cell_table_is_bounded_in_time_and_memory() -> None:
    result = run_hostile("table-1m-cells", timeout=TABLE_SECONDS * 2)
    assert_nothing_lost_silently("table-1m-cells", result)
    assert float(result["seconds"]) <= TABLE_SECONDS  # type: ignore[arg-type]
    assert float(result["rss_growth_mb"]) <= TABLE_RSS_GROWTH_MB  # type: ignore[arg-type]


@pytest.mark.slow
def test_100mb_input_is_bounded_in_time_and_memory() -> None:
    result = run_hostile("input-100mb", timeout=HUGE_SECONDS * 2)
    assert_nothing_lost_silently("input-100mb", result)
    assert float(result["seconds"]) <= HUGE_SECONDS  # type: ignore[arg-type]
    assert float(result["rss_growth_mb"]) <= HUGE_RSS_GROWTH_MB  # type: ignore[arg-type]
