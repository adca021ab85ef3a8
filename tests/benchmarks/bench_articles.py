"""Main-text precision and recall of content/ on ScrapingHub's article-extraction-benchmark,
beside trafilatura's own `extract`, in the same run.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_articles.py --aeb DIR              # figures
    .venv/bin/python tests/benchmarks/bench_articles.py --aeb DIR --misses 10  # plus dev misses

DIR is the benchmark's working tree (else `$WEBSHELL_AEB`): 181 English news and blog pages
(`html/<id>.html.gz`), the article body of each (`ground-truth.json`, `articleBody`) and
upstream's scoring (`evaluate.py`). Scored with upstream's own code, loaded from DIR's
evaluate.py: per page, precision and recall of word 4-shingles (`\\w+` tokens) between the
extracted text and the article body, then the mean over pages (F1 from the two means), exactly
as `evaluate.py` prints them. "Ours" is the text of content/ (sections, their names and the
tables that sit in them), with references and line markers taken out as bench_maintext does;
trafilatura is called as upstream's extractors/run_trafilatura.py calls it (the page decoded
as UTF-8, `include_comments=False`). "content/ + boilerplate/" is the recall of everything we
compiled: the gap to content/'s is main text that went to boilerplate/.

The pages are split in two halves by a hash of the name (bench_maintext.half_of): rules are
tuned on dev only; `--misses` lists dev pages only, where our precision is lowest, with the
lines of content/ that are not in the article body and the elements they came from.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import lxml.html
import trafilatura

from bench_maintext import HALVES, half_of, page_lines, plain
from webshellfs.compiler import compile_page

EXTRA_LINE_MIN_SHARE = 0.5  # a line is extra when most of its shingles are not in the body
SHINGLE = 4
ANCESTORS_SHOWN = 5


def load_upstream_scoring(aeb: Path) -> ModuleType:
    """Upstream's evaluate.py, imported as it is: its tokeniser, shingles and means."""
    spec = importlib.util.spec_from_file_location("aeb_evaluate", aeb / "evaluate.py")
    if spec is None or spec.loader is None:
        sys.exit(f"no evaluate.py in {aeb}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Page:
    key: str
    url: str
    html: bytes
    gold: str


def pages_of(aeb: Path) -> list[Page]:
    truth = json.loads((aeb / "ground-truth.json").read_text(encoding="utf-8"))
    return [Page(key, entry.get("url") or f"https://example.test/{key}",
                 gzip.decompress((aeb / "html" / f"{key}.html.gz").read_bytes()),
                 entry.get("articleBody", ""))
            for key, entry in sorted(truth.items())]


def element_paths(html: bytes) -> list[tuple[str, str]]:
    """(squashed text, ancestor path) of every element of the page, in document order: where a
    line of ours came from is the last (deepest) element whose text holds it."""
    root = lxml.html.document_fromstring(html)
    found = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in ("script", "style"):
            continue
        text = " ".join(element.text_content().split())
        if text:
            found.append((text, describe(element)))
    return found


def describe(element: lxml.html.HtmlElement) -> str:
    """`div.article-body > aside#promo > p`: the element and its nearest named ancestors."""
    chain = []
    for node in (element, *element.iterancestors()):
        classes = ".".join((node.get("class") or "").split()[:3])
        name = node.tag + (f".{classes}" if classes else "")
        name += f"#{node.get('id')}" if node.get("id") else ""
        if node is element or name != node.tag:
            chain.append(name)
        if len(chain) == ANCESTORS_SHOWN or node.tag == "body":
            break
    return " > ".join(reversed(chain))


def extra_lines(lines: list[tuple[str, str]], gold: str,
                scoring: ModuleType) -> list[tuple[str, str]]:
    """Lines of content/ whose shingles are mostly not in the article body."""
    gold_shingles = set(scoring._all_shingles(gold, SHINGLE))
    gold_tokens = set(scoring._tokenize(gold))
    extra = []
    for section, line in lines:
        text = plain(line)
        tokens = scoring._tokenize(text)
        if not tokens:
            continue
        if len(tokens) < SHINGLE:
            missing = sum(t not in gold_tokens for t in tokens) / len(tokens)
        else:
            shingles = scoring._ngrams(text, SHINGLE)
            missing = sum(s not in gold_shingles for s in shingles) / len(shingles)
        if missing > EXTRA_LINE_MIN_SHARE:
            extra.append((section, text))
    return extra


def print_misses(worst: list[tuple[float, Page, list[tuple[str, str]]]],
                 scoring: ModuleType) -> None:
    for precision, page, lines in worst:
        print(f"\n### {page.key[:12]} precision {precision:.3f} {page.url}")
        paths = element_paths(page.html)
        runs: list[list] = []  # consecutive extra lines from the same place: one entry
        for section, text in extra_lines(lines, page.gold, scoring):
            probe = text[:60]
            where = next((path for found, path in reversed(paths) if probe in found), "?")
            if runs and runs[-1][:2] == [section, where]:
                runs[-1][3] += 1
            else:
                runs.append([section, where, text, 1])
        for section, where, text, count in runs:
            more = f" (+{count - 1} lines)" if count > 1 else ""
            print(f"  [{section[:30]}] {text[:100]}{more}\n      from {where}")


def run(aeb: Path, misses: int, halves: tuple[str, ...]) -> dict[str, dict[str, dict]]:
    scoring = load_upstream_scoring(aeb)
    counts: dict[str, dict[str, list]] = {
        half: {"ours": [], "ours_all": [], "trafilatura": []} for half in HALVES}
    dev_pages: list[tuple[float, Page, list[tuple[str, str]]]] = []
    for page in pages_of(aeb):
        half = half_of(page.key)
        if half not in halves:
            continue
        parts = page_lines(compile_page(page.html, page.url))
        content = plain("\n".join(line for _, line in parts["content"]))
        everything = content + "\n" + plain("\n".join(line for _, line in parts["boilerplate"]))
        theirs = trafilatura.extract(page.html.decode("utf-8"), include_comments=False) or ""
        ours = scoring.string_shingle_matching(true=page.gold, pred=content)
        counts[half]["ours"].append(ours)
        counts[half]["ours_all"].append(
            scoring.string_shingle_matching(true=page.gold, pred=everything))
        counts[half]["trafilatura"].append(
            scoring.string_shingle_matching(true=page.gold, pred=theirs))
        if half == "dev":
            dev_pages.append((scoring.precision_score(*ours), page, parts["content"]))

    figures = {half: {label: scoring.metrics_from_tp_fp_fns(counted)
                      for label, counted in counts[half].items()} for half in halves}
    print("## Main text on ScrapingHub's article-extraction-benchmark "
          "(word 4-shingles, mean over pages)\n")
    print("| half | pages | extractor | precision | recall | F1 |")
    print("|---|---|---|---|---|---|")
    labels = (("ours", "webshellfs content/"), ("trafilatura", "trafilatura extract"),
              ("ours_all", "webshellfs content/ + boilerplate/"))
    for half in halves:
        for label, title in labels:
            metrics = figures[half][label]
            precision = "—" if label == "ours_all" else f"{metrics['precision']:.4f}"
            f1 = "—" if label == "ours_all" else f"{metrics['f1']:.4f}"
            print(f"| {half} | {len(counts[half]['ours'])} | {title} | {precision} "
                  f"| {metrics['recall']:.4f} | {f1} |")
    if misses:
        print(f"\n## dev pages where our precision is lowest, first {misses}")
        print_misses(sorted(dev_pages, key=lambda p: p[0])[:misses], scoring)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aeb", type=Path, default=os.environ.get("WEBSHELL_AEB"),
                        help="the benchmark's working tree (default: $WEBSHELL_AEB)")
    parser.add_argument("--misses", type=int, default=0, help="list this many dev pages")
    parser.add_argument("--dev-only", action="store_true",
                        help="score the dev half only (while tuning: held-out is measured rarely)")
    arguments = parser.parse_args()
    if arguments.aeb is None:
        parser.error("--aeb DIR or $WEBSHELL_AEB is needed")
    halves = HALVES[:1] if arguments.dev_only else HALVES
    figures = run(Path(arguments.aeb), arguments.misses, halves)
    ours, theirs = figures["dev"]["ours"], figures["dev"]["trafilatura"]
    sys.exit(0 if ours["precision"] >= theirs["precision"] else 1)


if __name__ == "__main__":
    main()
