"""PDF compile time against pypdf's plain text of every page (what a PDF page was before it had
sections, links and tables), measured in the same run, back to back, median of the rounds.

    .venv/bin/python tests/benchmarks/bench_pdf.py [--rounds 3] [FILE.pdf …]

The documents: the test PDFs of tests/compiler/pdf_documents.py, a 60-page report made the
same way (a heading, prose and a table on every page), and any PDF files named.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pypdf import PdfReader  # noqa: E402

from tests.compiler.pdf_documents import DOCUMENTS, Sheet, write_pdf  # noqa: E402
from webshellfs.compiler.nonhtml import compile_nonhtml  # noqa: E402
from webshellfs.contract.layout import render_page  # noqa: E402


def long_report(pages: int = 60) -> bytes:
    sheets = []
    for number in range(1, pages + 1):
        sheet = Sheet()
        sheet.line(f"Part {number}", size=14, bold=True)
        for line in range(30):
            sheet.line(f"Line {line} of part {number}: the survey counted plants and water "
                       "depth at each pond.", size=10)
        sheet.row(["Pond", "Depth", "Plants"], [72, 200, 320], bold=True)
        for row in range(5):
            sheet.row([f"P{row}", f"{row * 1.5:.1f}", str(row * 7)], [72, 200, 320])
        sheets.append(sheet)
    return write_pdf(sheets, {"/Title": "Long report"})


def plain_text(data: bytes) -> None:
    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text()


def ours(data: bytes) -> None:
    page = compile_nonhtml(data, "https://e.test/doc.pdf", "application/pdf")
    assert page is not None
    render_page(page, "N0001")


def median_seconds(run: Callable[[bytes], None], data: bytes, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    documents = {name: make() for name, make in DOCUMENTS.items()}
    documents["long-report (60 pages)"] = long_report()
    documents.update({path.name: path.read_bytes() for path in args.files})
    print("| document | pages | pypdf text ms | compile + render ms | ratio | sections "
          "| tables | links |")
    print("|---|---|---|---|---|---|---|---|")
    ratios = []
    for name, data in documents.items():
        base = median_seconds(plain_text, data, args.rounds)
        mine = median_seconds(ours, data, args.rounds)
        page = compile_nonhtml(data, "https://e.test/doc.pdf", "application/pdf")
        assert page is not None
        pages = next(f.value for f in page.facts if f.key == "pdf:pages")
        content = sum(1 for s in page.sections if s.kind == "content")
        ratios.append(mine / base)
        print(f"| {name} | {pages} | {base * 1000:.0f} | {mine * 1000:.0f} | {mine / base:.2f} "
              f"| {content} | {len(page.tables)} | {len(page.links)} |")
    print(f"\nmedian ratio {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
