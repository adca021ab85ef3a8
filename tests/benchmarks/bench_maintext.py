"""Main-text precision and recall of content/ on trafilatura's annotated evaluation pages,
beside trafilatura's own `extract`, in the same run.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_maintext.py              # figures, dev and held-out
    .venv/bin/python tests/benchmarks/bench_maintext.py --misses 20  # plus dev pages' misses
    .venv/bin/python tests/benchmarks/bench_maintext.py --dev-only   # while tuning rules
    .venv/bin/python tests/benchmarks/bench_maintext.py --gap        # what the leaks are made of

The corpus (`trafilatura-eval-dev`: 482 pages, `evaldata.json`) gives, per page, snippets that
must appear in the main text ("with") and snippets that must not ("without": navigation,
comments, teasers of other articles). Scored as upstream scores it: whitespace collapsed, each
snippet a substring test; a "with" snippet found is a true positive, missed a false negative; a
"without" snippet found is a false positive; precision, recall and F1 are summed over the
corpus. "Ours" is the text of content/ (sections and the tables that sit in them), with our
inline references (`[L0012]`, `[T01 …]`, `[hidden until …]`) and line markers (`- `, `> `,
`1. `) taken out; a control's reference keeps its label. The same is measured on boilerplate/: the
"with" snippets found only there are main text that left content/.

The pages are split in two halves by a hash of the file name: rules are tuned on dev only,
held-out is reported beside it.

`--gap` tells apart, per half, the "without" snippets content/ holds: those trafilatura's
output holds too, and ours alone by what holds them on the page (an image's caption, which the
contract keeps in content/; the page's title; other text), inside or outside the main text
container. Counts only: no held-out snippet is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html
import trafilatura

from webshellfs.compiler import compile_page
from webshellfs.compiler.boilerplate import TextWeights, find_main_container
from webshellfs.compiler.parse import parse
from webshellfs.contract.records import CompiledPage

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
DEFAULT_CORPUS = CORPORA / "trafilatura-eval-dev"
PAGE_URL = "https://example.test/{name}"
HALVES = ("dev", "held-out")

_LABELLED_REF = re.compile(r'\[A\d{4,}[^\]"]*"([^"\]]*)"[^\]]*\]')
_REF = re.compile(r"\[(?:[ALIT]\d{2,}|hidden until )[^\]]*\]")
_LINE_MARK = re.compile(r"^(?:[-*>] |#+ |\d+\. )+", re.MULTILINE)
_SPACE = re.compile(r"\s+")


def half_of(file_name: str) -> str:
    """dev or held-out, by the first byte of the name's SHA-1: stable across runs and machines."""
    return HALVES[hashlib.sha1(file_name.encode()).digest()[0] % 2]


def plain(text: str) -> str:
    """Our lines as the plain text the snippets were taken from: references and line markers
    out, whitespace collapsed."""
    text = _REF.sub("", _LABELLED_REF.sub(r"\1", text))
    return _SPACE.sub(" ", _LINE_MARK.sub("", text)).strip()


def page_lines(page: CompiledPage) -> dict[str, list[tuple[str, str]]]:
    """content/ and boilerplate/ lines of a compiled page as (section name, line), tables'
    rows in the section they sit in; content sections' names count as their text."""
    parts: dict[str, list[tuple[str, str]]] = {"content": [], "boilerplate": []}
    for section in page.sections:
        if section.kind == "content":
            parts["content"].append((section.name, section.name))
        parts[section.kind].extend((section.name, line) for line in section.lines)
    for table in page.tables:
        inside = 0 <= table.section < len(page.sections)
        kind = page.sections[table.section].kind if inside else "content"
        name = page.sections[table.section].name if inside else table.id
        parts[kind].append((name, table.caption))
        parts[kind].extend((name, " ".join(row)) for row in table.grid)
    return parts


def split_page(page: CompiledPage) -> tuple[str, str]:
    """(content text, boilerplate text) of a compiled page, tables' text where they sit."""
    parts = page_lines(page)
    content, boilerplate = (plain("\n".join(line for _, line in parts[kind]))
                            for kind in ("content", "boilerplate"))
    return content, boilerplate


@dataclass
class Tally:
    true_positives: int = 0
    false_negatives: int = 0
    false_positives: int = 0
    true_negatives: int = 0
    only_in_boilerplate: int = 0
    milliseconds: list[float] = field(default_factory=list)

    def count(self, text: str, wanted: list[str], unwanted: list[str],
              elsewhere: str = "") -> tuple[list[str], list[str]]:
        """Score one page; returns (missed wanted snippets, found unwanted ones)."""
        missed = [s for s in wanted if _SPACE.sub(" ", s).strip() not in text]
        found = [s for s in unwanted if _SPACE.sub(" ", s).strip() in text]
        self.true_positives += len(wanted) - len(missed)
        self.false_negatives += len(missed)
        self.false_positives += len(found)
        self.true_negatives += len(unwanted) - len(found)
        self.only_in_boilerplate += sum(_SPACE.sub(" ", s).strip() in elsewhere for s in missed)
        return missed, found

    @property
    def precision(self) -> float:
        return self.true_positives / max(1, self.true_positives + self.false_positives)

    @property
    def recall(self) -> float:
        return self.true_positives / max(1, self.true_positives + self.false_negatives)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class PageMisses:
    name: str
    missed: list[str]
    leaked: list[str]


def run(corpus: Path, misses: int,
        halves: tuple[str, ...] = HALVES) -> dict[str, dict[str, Tally]]:
    evaluation = json.loads((corpus / "evaldata.json").read_text(encoding="utf-8"))
    tallies = {half: {"ours": Tally(), "trafilatura": Tally()} for half in HALVES}
    pages = {half: 0 for half in HALVES}
    dev_misses: list[PageMisses] = []
    for key in sorted(evaluation):
        entry = evaluation[key]
        name = entry["file"]
        data = (corpus / "pages" / name).read_bytes()
        url = PAGE_URL.format(name=name)
        half = half_of(name)
        if half not in halves:
            continue
        pages[half] += 1
        started = time.perf_counter()
        content, boilerplate = split_page(compile_page(data, url))
        ours = tallies[half]["ours"]
        ours.milliseconds.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        extracted = _SPACE.sub(" ", _LINE_MARK.sub("", trafilatura.extract(data, url=url) or ""))
        theirs = tallies[half]["trafilatura"]
        theirs.milliseconds.append((time.perf_counter() - started) * 1000)
        missed, leaked = ours.count(content, entry["with"], entry["without"], boilerplate)
        theirs.count(extracted, entry["with"], entry["without"])
        if half == "dev" and (missed or leaked):
            dev_misses.append(PageMisses(name, missed, leaked))

    print("## Main text on trafilatura's evaluation pages (snippets, summed over pages)\n")
    print("| half | pages | extractor | precision | recall | F1 "
          "| \"with\" only in boilerplate/ | median ms |")
    print("|---|---|---|---|---|---|---|---|")
    for half in halves:
        for label, tally in (("webshellfs content/", tallies[half]["ours"]),
                             ("trafilatura extract", tallies[half]["trafilatura"])):
            only = str(tally.only_in_boilerplate) if label.startswith("webshellfs") else "—"
            print(f"| {half} | {pages[half]} | {label} | {tally.precision:.4f} "
                  f"| {tally.recall:.4f} | {tally.f1:.4f} | {only} "
                  f"| {statistics.median(tally.milliseconds):.1f} |")
    if misses:
        print(f"\n## dev pages with a miss ({len(dev_misses)}), first {misses}\n")
        for page in dev_misses[:misses]:
            print(f"### {page.name}")
            for snippet in page.missed:
                print(f"  missed: {snippet[:120]}")
            for snippet in page.leaked:
                print(f"  leaked: {snippet[:120]}")
    return tallies


# What names an image's caption or its credit, on the element or the few around it.
_CAPTION_NAMES = re.compile(r"caption|credit|legend|bildunterschrift", re.IGNORECASE)
_CAPTION_TAGS = frozenset({"figure", "figcaption"})
_UNREAD_TAGS = frozenset({"script", "style", "html", "body", "head"})


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _holder(elements: list[lxml.html.HtmlElement], snippet: str) -> lxml.html.HtmlElement | None:
    """The last (deepest, in document order) element whose text holds the snippet."""
    holder = None
    for element in elements:
        if snippet in _squash(element.text_content()):
            holder = element
    return holder


def _leak_kind(holder: lxml.html.HtmlElement | None) -> str:
    if holder is None:
        return "not found in one element"
    chain = [holder, *holder.iterancestors()]
    names = " ".join(f"{e.get('class') or ''} {e.get('id') or ''}" for e in chain[:4])
    if any(e.tag in _CAPTION_TAGS for e in chain) or _CAPTION_NAMES.search(names):
        return "an image's caption or credit"
    if any(e.tag == "h1" for e in chain):
        return "a title (h1)"
    return "other text"


def gap(corpus: Path) -> None:
    """Counts of the "without" snippets content/ holds, by who else holds them and where."""
    evaluation = json.loads((corpus / "evaldata.json").read_text(encoding="utf-8"))
    counts: dict[str, dict[str, int]] = {half: {} for half in HALVES}

    def add(half: str, key: str) -> None:
        counts[half][key] = counts[half].get(key, 0) + 1

    for key in sorted(evaluation):
        entry = evaluation[key]
        name = entry["file"]
        half = half_of(name)
        data = (corpus / "pages" / name).read_bytes()
        url = PAGE_URL.format(name=name)
        content, _ = split_page(compile_page(data, url))
        theirs = _squash(_LINE_MARK.sub("", trafilatura.extract(data, url=url) or ""))
        tree = parse(data).root
        body = tree.find("body") if tree.find("body") is not None else tree
        main = find_main_container(body, TextWeights(body).prose)
        main_text = _squash(main.text_content()) if main is not None else ""
        elements = [e for e in tree.iter() if isinstance(e.tag, str) and e.tag not in _UNREAD_TAGS]
        for snippet in map(_squash, entry["without"]):
            if snippet not in content:
                if snippet in theirs:
                    add(half, "trafilatura's alone")
                continue
            if snippet in theirs:
                add(half, "both")
                continue
            where = "inside" if snippet in main_text else "outside"
            add(half, f"ours alone: {_leak_kind(_holder(elements, snippet))}, {where} the main text")
    print("## \"without\" snippets found, by extractor and place (counts)\n")
    print("| kind | " + " | ".join(HALVES) + " |")
    print("|---|" + "---|" * len(HALVES))
    for kind in sorted({k for half in HALVES for k in counts[half]}):
        print(f"| {kind} | " + " | ".join(str(counts[half].get(kind, 0)) for half in HALVES) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--misses", type=int, default=0, help="list this many dev pages' misses")
    parser.add_argument("--dev-only", action="store_true",
                        help="score the dev half only (while tuning: held-out is measured rarely)")
    parser.add_argument("--gap", action="store_true",
                        help="count the leaks by who else leaks them and where (both halves)")
    arguments = parser.parse_args()
    if arguments.gap:
        gap(arguments.corpus)
        return
    halves = HALVES[:1] if arguments.dev_only else HALVES
    tallies = run(arguments.corpus, arguments.misses, halves)
    ours, theirs = tallies["dev"]["ours"], tallies["dev"]["trafilatura"]
    sys.exit(0 if ours.precision >= theirs.precision else 1)


if __name__ == "__main__":
    main()
