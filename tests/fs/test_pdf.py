"""A PDF opened through a real mount, read the way an agent reads it: `open` of a PDF the
fixture site serves, then cat and grep over the page's files. The PDFs are the ones
tests/compiler/pdf_documents.py writes (fixtures/site/field-report.pdf and survey.pdf)."""

from __future__ import annotations

from tests.fs.conftest import Mount, sh
from tests.site import FixtureSite


def test_an_opened_pdf_reads_by_sections_pages_links_and_tables(
    mounted: Mount, site: FixtureSite
) -> None:
    report = mounted.ctl(f"open {site.url('/field-report.pdf')}")
    survey = mounted.ctl(f"open {site.url('/survey.pdf')}")
    assert report.returncode == 0, report
    assert survey.returncode == 0, survey
    assert report.stdout.splitlines()[1].startswith("N0001  Field report")

    at = f"cd {mounted.path} && "
    # Which section holds page 5, and what its pages say.
    found = sh(at + "grep -rn 'pages 4' N0001/content/").stdout.splitlines()
    assert found == ["N0001/content/04-results.md:2:pages 4–6"]
    assert sh(at + "grep -n '^\\[page' N0001/content/04-results.md").stdout.splitlines() == [
        "6:[page 5]", "10:[page 6]",
    ]
    assert sh(at + "head -2 N0001/content/03-sampling.md").stdout.splitlines() == [
        "# Methods > Sampling", "page 3",
    ]
    assert sh(at + "grep 'pdf:author' N0001/facts.kv").stdout == "pdf:author = B. Surveyor\n"

    # One grep answers "Count of Yarrow"; the link's words and URL are one line of links.tsv.
    assert sh(at + "grep Yarrow N0002/tables/T01.cells | grep Count").stdout == (
        "r3c2\t3\tYarrow\tCount\t17\t\n"
    )
    assert sh(at + "grep -rn 'survey site' N0002/content/").stdout == (
        "N0002/content/01-meadow-survey.md:3:"
        "The counts come from the survey site [L0001], updated weekly.\n"
    )
    assert sh(at + "cut -f1,3 N0002/links.tsv").stdout.splitlines() == [
        "id\ttext", "L0001\tsurvey site",
    ]
    assert "T01  4×3  in content/01-meadow-survey.md" in sh(at + "cat N0002/_map.md").stdout
