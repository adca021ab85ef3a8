"""Through a real mount: an article page's related list, comment thread and newsletter box are
files of their own in boilerplate/, listed in _map.md and greppable, and not in content/."""

from __future__ import annotations

from tests.fs.conftest import Mount, sh
from tests.site import FixtureSite


def test_related_comments_and_promo_have_their_files_and_content_keeps_the_story(
        mounted: Mount, site: FixtureSite) -> None:
    assert mounted.ctl(f"open {site.url('/keepers-log.html')}").returncode == 0
    page = mounted.path / "N0001"
    listing = sh(f"ls {page}/boilerplate").stdout.split()
    assert {"related.md", "comments.md", "promo.md"} <= set(listing)
    page_map = sh(f"cat {page}/_map.md").stdout
    for name in ("related.md", "comments.md", "promo.md"):
        assert name in page_map
    found = sh(f"cd {page} && grep -rln 'great-grandfather' .").stdout.split()
    assert found == ["./boilerplate/comments.md"]
    assert sh(f"grep -c 'inbox every Sunday' {page}/boilerplate/promo.md").stdout.strip() == "1"
    assert "Souvenirs from Skerry Light" in sh(f"cat {page}/boilerplate/related.md").stdout
    story = sh(f"cat {page}/content/*.md").stdout
    for words in ("forty pages of the log", "scraped it by hand", "ate bread that night"):
        assert words in story
    for words in ("Subscribe", "great-grandfather", "Souvenirs"):
        assert words not in story
