"""Where the main text of real pages lands: content/ or boilerplate/, beside trafilatura.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_boilerplate.py            # figures table
    .venv/bin/python tests/benchmarks/bench_boilerplate.py --pages    # plus one row per page

The corpus is Mozilla's readability test pages: for each page, the text of expected.html is
its main text. Texts are compared as multisets of word trigrams taken within lines (lower-cased words; of
our `[L0012]`-style references only a control's label is kept), so a sentence counts where it
landed, whatever the markup around it. The main text is expected.html compiled by us, all of
it, so both sides are cut into lines the same way:

- recall in content/: the share of main-text trigrams found in content/ (the text of content
  sections, their headings and the data tables that sit in them);
- main text in boilerplate/: the share of main-text trigrams found in boilerplate/ and not in
  content/ (main text that left content/);
- not main text: the share of content/ trigrams that are not main text (lower is better).

trafilatura's `extract` output is scored the same way, as its "content".
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import trafilatura

from webshellfs.compiler import compile_page
from webshellfs.contract.records import CompiledPage

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
DEFAULT_CORPUS = CORPORA / "readability-test-pages/test-pages"
PAGE_URL = "http://fakehost/{name}/"
# Object references in our lines: a control keeps its quoted label (it is page text); links,
# images and tables leave nothing.
_LABELLED_REF = re.compile(r'\[A\d{4,}[^\]"]*"([^"\]]*)"[^\]]*\]')
_REF = re.compile(r"\[[ALIT]\d{2,}[^\]]*\]")
# Words; a CJK character is a word of its own (those scripts do not separate words by spaces).
_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af"
_WORD = re.compile(f"[{_CJK}]|[^\\W{_CJK}]+")
# Targets from issue #2.
RECALL_TARGET = 0.99
LEAK_TARGET = 0.01


@dataclass
class Score:
    recall: float
    leaked: float
    noise: float
    main_trigrams: int


def trigrams(text: str) -> Counter[tuple[str, ...]]:
    """Word trigrams of each line (never across lines: a line is one paragraph or cell)."""
    grams: Counter[tuple[str, ...]] = Counter()
    for line in text.splitlines():
        words = _WORD.findall(_REF.sub(" ", _LABELLED_REF.sub(r" \1 ", line)).lower())
        grams.update(zip(words, words[1:], words[2:]))
    return grams


def shared(a: Counter[tuple[str, ...]], b: Counter[tuple[str, ...]]) -> int:
    return sum((a & b).values())


def split_page(page: CompiledPage) -> tuple[str, str]:
    """(content text, boilerplate text) of a compiled page, tables included where they sit."""
    parts: dict[str, list[str]] = {"content": [], "boilerplate": []}
    for section in page.sections:
        parts[section.kind].append(section.name if section.kind == "content" else "")
        parts[section.kind].extend(section.lines)
    for table in page.tables:
        kind = page.sections[table.section].kind if 0 <= table.section < len(page.sections) else "content"
        parts[kind].append(table.caption)
        parts[kind].extend(" ".join(row) for row in table.grid)
    return "\n".join(parts["content"]), "\n".join(parts["boilerplate"])


def score(main: Counter[tuple[str, ...]], content: str, boilerplate: str = "") -> Score:
    content_grams = trigrams(content)
    total = sum(main.values()) or 1
    found = shared(main, content_grams)
    missing = main - content_grams
    leaked = shared(missing, trigrams(boilerplate)) if boilerplate else 0
    content_total = sum(content_grams.values()) or 1
    noise = 1 - shared(content_grams, main) / content_total
    return Score(found / total, leaked / total, noise, total)


def main_text(expected: Path) -> str:
    """expected.html's text, one line per paragraph: its whole compiled text, chrome included
    (it is the main text by definition)."""
    page = compile_page(expected.read_text(encoding="utf-8"), "http://fakehost/expected/")
    return "\n".join("\n".join(split_page(page)).splitlines())


def weighted(scores: list[Score], attribute: str) -> float:
    """Trigram-weighted mean over pages (a page counts by the size of its main text)."""
    total = sum(s.main_trigrams for s in scores)
    return sum(getattr(s, attribute) * s.main_trigrams for s in scores) / total


def run(corpus: Path, per_page: bool) -> bool:
    ours: list[Score] = []
    theirs: list[Score] = []
    our_ms: list[float] = []
    their_ms: list[float] = []
    rows = []
    for directory in sorted(p for p in corpus.iterdir() if (p / "source.html").exists()):
        data = (directory / "source.html").read_bytes()
        url = PAGE_URL.format(name=directory.name)
        main = trigrams(main_text(directory / "expected.html"))
        if not main:
            continue
        started = time.perf_counter()
        page = compile_page(data, url)
        our_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        extracted = trafilatura.extract(data, url=url) or ""
        their_ms.append((time.perf_counter() - started) * 1000)
        content, boilerplate = split_page(page)
        ours.append(score(main, content, boilerplate))
        theirs.append(score(main, extracted))
        rows.append((directory.name, ours[-1], theirs[-1]))

    print(f"## Main text placement over {len(ours)} readability test pages (word trigrams)\n")
    print("| figure | ours | trafilatura extract | target |")
    print("|---|---|---|---|")
    for label, attribute, target in (
        ("main-text recall in content/ (weighted)", "recall", f"≥ {RECALL_TARGET}"),
        ("main text in boilerplate/ only (weighted)", "leaked", f"≤ {LEAK_TARGET}"),
        ("content/ that is not main text (weighted)", "noise", "lower is better"),
    ):
        print(f"| {label} | {weighted(ours, attribute):.4f} | {weighted(theirs, attribute):.4f} | {target} |")
    for label, attribute in (("recall", "recall"), ("not main text", "noise")):
        print(f"| {label}, median page | {statistics.median(getattr(s, attribute) for s in ours):.4f} "
              f"| {statistics.median(getattr(s, attribute) for s in theirs):.4f} | |")
    print(f"| pages with recall < {RECALL_TARGET} | {sum(s.recall < RECALL_TARGET for s in ours)} "
          f"| {sum(s.recall < RECALL_TARGET for s in theirs)} | |")
    print(f"| compile / extract ms, median | {statistics.median(our_ms):.1f} "
          f"| {statistics.median(their_ms):.1f} | |")
    if per_page:
        print("\n| page | recall | in boilerplate | not main | trafilatura recall | trafilatura not main |")
        print("|---|---|---|---|---|---|")
        for name, mine, other in rows:
            print(f"| {name} | {mine.recall:.3f} | {mine.leaked:.3f} | {mine.noise:.3f} "
                  f"| {other.recall:.3f} | {other.noise:.3f} |")
    return weighted(ours, "recall") >= RECALL_TARGET and weighted(ours, "leaked") <= LEAK_TARGET


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pages", action="store_true", help="one row per page")
    arguments = parser.parse_args()
    met = run(arguments.corpus, arguments.pages)
    print("\ntargets met" if met else "\ntargets NOT met")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
