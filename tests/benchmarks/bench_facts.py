"""Does facts.kv hold what extruct's own test samples expect? One figure per syntax.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_facts.py               # the figures
    .venv/bin/python tests/benchmarks/bench_facts.py --misses 20   # plus values not found

The samples are extruct's `tests/samples/` (BSD-3-Clause, copied unmodified into
tests/corpora/extruct-samples/): an HTML page and, beside it, what extruct is expected to
extract from it (`X.json`, `X.jsonld`, or `X.expanded.json` for RDFa, each with the page's
stem; the flattened and node-id variants of an expectation say the same values again and are
left out). Every leaf value of an expectation — a string or number under a property, an RDF
`@value`, an `@id` that is the object of a property — is asked for; names of types and
vocabularies (`rdfa:usesVocabulary`) and blank-node or item ids are not (of a Dublin Core element, its content or href; of an
OpenGraph property, its content). A value is found when its text (whitespace collapsed) occurs in a value
of the page's facts.kv or long-values/. Each page is compiled as our compiler sees any page.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SAMPLES = ROOT / "tests/corpora/extruct-samples/samples"
PAGE_URL = "http://www.example.com/{name}"
TARGET = 0.95
EXPECTATION_SUFFIXES = (".expanded.json", ".jsonld", ".json")
# Keys whose values name or link a node rather than state a value; the vocabulary an RDFa
# page declares is the first half of its type and property names, which are not asked either.
NODE_KEYS = frozenset({
    "@context", "@type", "@language", "@base", "@vocab",
    "http://www.w3.org/ns/rdfa#usesVocabulary",
})
# Dublin Core expectations describe each <meta>/<link>: only its content or href is a value.
DUBLIN_CORE_GROUPS = ("elements", "terms")
DUBLIN_CORE_VALUES = ("content", "href")


def squash(text: str) -> str:
    return " ".join(text.split())


def expected_values(value: Any, key: str = "") -> Iterator[str]:
    """The leaf values an expectation asks for (see the module docstring)."""
    if isinstance(value, dict) and any(group in value for group in DUBLIN_CORE_GROUPS):
        for group in DUBLIN_CORE_GROUPS:
            for element in value.get(group, []):
                for name in DUBLIN_CORE_VALUES:
                    yield from expected_values(element.get(name))
    elif isinstance(value, dict) and "namespace" in value and "properties" in value:
        for pair in value["properties"]:  # OpenGraph: [property, content] pairs
            yield from expected_values(pair[1:])
    elif isinstance(value, dict):
        for name, inner in value.items():
            is_item = "type" in value and ("properties" in value or "value" in value)
            if name in NODE_KEYS or (name in ("type", "id") and is_item):
                continue
            if name == "@id" and len(value) > 1:
                continue  # a node's own id, not a value it states
            yield from expected_values(inner, name)
    elif isinstance(value, list):
        for inner in value:
            yield from expected_values(inner, key)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float, str)):
        text = squash(str(value))
        if text and not text.startswith("_:"):
            yield text


def expectation_pairs(samples: Path) -> Iterator[tuple[Path, Path]]:
    """(page, expectation) for every expectation whose stem names a page."""
    for expected in sorted(samples.rglob("*")):
        suffix = next((s for s in EXPECTATION_SUFFIXES if expected.name.endswith(s)), None)
        if suffix is None:
            continue
        page = expected.with_name(expected.name[: -len(suffix)] + ".html")
        if page.exists():
            yield page, expected


def facts_text(page: Path) -> list[str]:
    files = render_page(compile_page(page.read_bytes(), PAGE_URL.format(name=page.name)))
    values = [
        squash(line.partition(" = ")[2])
        for line in files["facts.kv"].decode("utf-8", "replace").splitlines()
    ]
    values += [
        squash(data.decode("utf-8", "replace"))
        for path, data in files.items()
        if path.startswith("long-values/")
    ]
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=Path, default=DEFAULT_SAMPLES)
    parser.add_argument("--misses", type=int, default=0, help="print this many values not found")
    args = parser.parse_args()
    asked: Counter[str] = Counter()
    found: Counter[str] = Counter()
    misses: list[str] = []
    for page, expected in expectation_pairs(args.samples):
        group = expected.parent.name
        values = facts_text(page)
        for wanted in expected_values(json.loads(expected.read_text(encoding="utf-8"))):
            asked[group] += 1
            if any(wanted in value for value in values):
                found[group] += 1
            else:
                misses.append(f"{expected.relative_to(args.samples)}: {wanted[:100]!r}")
    print("| samples | values expected | found in facts.kv | share |")
    print("|---|---|---|---|")
    for group in sorted(asked):
        print(f"| {group} | {asked[group]} | {found[group]} | {found[group] / asked[group]:.3f} |")
    total, hits = sum(asked.values()), sum(found.values())
    print(f"| **all** | {total} | {hits} | **{hits / total:.4f}** |")
    print(f"target ≥ {TARGET}")
    for miss in misses[: args.misses]:
        print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
