"""The task apps of fixtures/apps/ (the agent-economy benchmark's, and tests' to use) over
plain HTTP: each page a task needs, the records a task changes, and the tasks' end conditions."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar

import pytest

from fixtures.apps.admin import PASSWORD, USERNAME
from fixtures.apps.server import AppsServer
from fixtures.apps.tasks import TASKS


@pytest.fixture(scope="module")
def apps() -> Iterator[AppsServer]:
    server = AppsServer().start()
    yield server
    server.stop()


class Browser:
    """A cookie-keeping client that follows redirects, as a browser does."""

    def __init__(self, apps: AppsServer) -> None:
        self.apps = apps
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.apps.url(path)) as response:
            return response.read().decode()

    def post(self, path: str, fields: list[tuple[str, str]]) -> str:
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.apps.url(path), data) as response:
            return response.read().decode()

    def sign_in(self) -> str:
        return self.post("/admin/login", [("username", USERNAME), ("password", PASSWORD)])


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_admin_asks_for_a_sign_in_first(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    assert "Sign in to Staff admin" in browser.get("/admin/people")
    assert "Wrong username or password." in browser.post(
        "/admin/login", [("username", USERNAME), ("password", "nope")])
    assert "Showing 24 of 24 people." in _text(browser.sign_in())


def test_the_list_filters_by_department_status_and_words(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    browser.sign_in()
    page = _text(browser.get("/admin/people?department=Support&status=inactive&q="))
    assert "Showing 2 of 24 people." in page
    assert "Greta Lind" in page and "Rosa Jimenez" in page and "Erin Walsh" not in page
    assert "Showing 1 of 24" in _text(browser.get("/admin/people?q=walsh"))


def test_a_refused_form_says_why_and_keeps_what_was_typed(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    browser.sign_in()
    page = browser.post("/admin/people/new", [("name", "Linus Berg"),
                                              ("email", "linus@example.org"),
                                              ("department", "Support"), ("role", "")])
    assert "The email linus@example.org is already used by Linus Olsen." in page
    assert "Choose a role." in page
    assert 'value="Linus Berg"' in page
    assert apps.admin.person("Linus Berg") is None


def test_a_checkbox_group_and_a_single_checkbox_are_saved(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    browser.sign_in()
    page = browser.post("/admin/people/new", [
        ("name", "Ada Lovelace"), ("email", "ada@example.org"), ("department", "Engineering"),
        ("role", "Lead"), ("tags", "remote"), ("tags", "mentor")])
    assert "Added Ada Lovelace." in page
    ada = apps.admin.person("Ada Lovelace")
    assert ada is not None and ada.tags == {"remote", "mentor"} and not ada.active


def test_a_bulk_delete_asks_first_then_deletes_the_ticked_rows(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    browser.sign_in()
    carl, dana = apps.admin.person("Carl Moss"), apps.admin.person("Dana Park")
    assert carl and dana
    ticked = [("ids", str(carl.id)), ("ids", str(dana.id)), ("action", "delete")]
    confirm = _text(browser.post("/admin/people/bulk", ticked))
    assert "Delete 2 people? This cannot be undone." in confirm
    assert apps.admin.person("Carl Moss") is not None
    done = _text(browser.post("/admin/people/bulk", [*ticked, ("confirm", "yes")]))
    assert "2 people deleted." in done and "Showing 22 of 22 people." in done
    assert "Select at least one person" in _text(
        browser.post("/admin/people/bulk", [("action", "deactivate")]))


def test_the_docs_search_finds_pages_holding_every_word(apps: AppsServer) -> None:
    browser = Browser(apps)
    page = _text(browser.get("/docs/search?q=segment+retention"))
    assert "1 page matches" in page and "Storage and retention" in page
    assert "Harbor stores messages in segment files" in page
    settings = browser.get("/docs/configuration.html")
    assert "<code>queue_depth_limit</code> (<code>integer</code>)" in settings
    with pytest.raises(urllib.error.HTTPError):
        browser.get("/docs/nowhere.html")


def test_the_tasks_are_not_done_before_anyone_acts(apps: AppsServer) -> None:
    """Every task's end condition fails on the seed records (and on no answer), so a run that
    did nothing is never counted a success."""
    apps.reset()
    for task in TASKS:
        assert task.failure(apps.admin, ""), task.name


def test_the_check_route_tells_a_trial_whether_a_task_is_done(apps: AppsServer) -> None:
    apps.reset()
    browser = Browser(apps)
    assert browser.get("/_check?task=docs:+retention&answer=14") == "done\n"
    assert browser.get("/_check?task=admin:+bulk+delete,+confirmed").startswith("not done: ")
    assert browser.get("/_check?task=nothing").startswith("no such task")
