"""robots.txt answers and what they allow (RFC 9309), one origin per case. The fetcher here
hands back canned answers: these are error paths a live site rarely shows on demand."""

from __future__ import annotations

import pytest
import trio

from webshellfs.errors import FetchError, FetchTimeout
from webshellfs.fetch import Capture
from webshellfs.search.robots import RobotsRules

WALL = b"<html><head><title>Just a moment...</title></head></html>"
RULES = b"User-agent: *\nDisallow: /private/\n"
# A group naming us replaces the * group for us (RFC 9309 2.2.1).
OWN_GROUP = RULES + b"\nUser-agent: webshellfs\nDisallow: /no-tools/\n"


class CannedFetcher:
    """Answers `https://HOST/robots.txt` from a table keyed by HOST; counts the fetches."""

    def __init__(self, answers: dict[str, Capture | FetchError]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    async def fetch(self, url: str) -> Capture:
        self.asked.append(url)
        answer = self.answers[url.split("/")[2]]
        if isinstance(answer, FetchError):
            raise answer
        return answer

    async def aclose(self) -> None:
        pass


def robots_txt(status: int, body: bytes = b"") -> Capture:
    return Capture("https://x/robots.txt", "https://x/robots.txt", status, "text/plain", body)


ANSWERS: dict[str, Capture | FetchError] = {
    "rules.test": robots_txt(200, RULES),
    "own.test": robots_txt(200, OWN_GROUP),
    "none.test": robots_txt(404),
    "broken.test": robots_txt(503),
    "walled.test": Capture("https://x/", "https://x/", 503, "text/html", WALL),
    "failing.test": FetchError(
        "HTTP 500 Internal Server Error for https://failing.test/robots.txt"
    ),
    "gone.test": FetchError("HTTP 410 Gone for https://gone.test/robots.txt"),
    "slow.test": FetchTimeout("no complete answer within 30 s"),
    "refused.test": FetchError("cannot fetch: [Errno 111] Connection refused"),
}


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://rules.test/garden.html", True),
        ("https://rules.test/private/x.html", False),
        ("https://own.test/private/x.html", True),
        ("https://own.test/no-tools/x.html", False),
        ("https://none.test/private/x.html", True),
        ("https://broken.test/x.html", False),
        ("https://walled.test/x.html", True),
        ("https://failing.test/x.html", False),
        ("https://gone.test/x.html", True),
        ("https://slow.test/x.html", True),
        ("https://refused.test/x.html", True),
    ],
)
def test_what_each_answer_allows(url: str, allowed: bool) -> None:
    rules = RobotsRules(CannedFetcher(ANSWERS))
    assert trio.run(rules.allows, url) is allowed


def test_fetched_once_per_origin_even_when_asked_at_once() -> None:
    fetcher = CannedFetcher(ANSWERS)
    rules = RobotsRules(fetcher)
    urls = [f"https://rules.test/page-{n}" for n in range(5)] + ["https://RULES.test/private/a"]

    async def ask_all() -> list[bool]:
        answers: dict[str, bool] = {}

        async def ask(url: str) -> None:
            answers[url] = await rules.allows(url)

        async with trio.open_nursery() as nursery:
            for url in urls:
                nursery.start_soon(ask, url)
        return [answers[url] for url in urls]

    assert trio.run(ask_all) == [True] * 5 + [False]
    assert fetcher.asked == ["https://rules.test/robots.txt"]
