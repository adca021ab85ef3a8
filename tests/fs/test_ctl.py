"""The command channel: a command blocks until it is done, fails with the errno that matches
the outcome, and each caller sees only its own response. The tests that take `place` run on a
mount (`echo … > .ctl; cat .ctl`) and on a served directory (`webshell`); the others are about
the `.ctl` file itself."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fs.conftest import Mount, Place, sh
from tests.site import FixtureSite


def test_unknown_command_fails_with_einval_and_the_grammar(place: Place) -> None:
    result = place.ctl("frobnicate x")
    place.assert_failed(result, errno.EINVAL)
    lines = result.stdout.splitlines()
    assert lines[:3] == ["R0001 invalid: frobnicate x", "unknown command 'frobnicate'",
                         "commands (write one line to .ctl, then cat .ctl):"]


def test_malformed_command_fails_with_einval_and_its_usage(place: Place) -> None:
    result = place.ctl("open")
    place.assert_failed(result, errno.EINVAL)
    assert result.stdout.splitlines() == ["R0001 invalid: open", "open: needs a URL",
                                          "usage: open <url>"]


def test_failed_fetch_fails_with_eio_and_the_status(place: Place, site: FixtureSite) -> None:
    url = site.url("/missing")
    result = place.ctl(f"open {url}")
    place.assert_failed(result, errno.EIO)
    assert result.stdout.splitlines() == [f"R0001 failed: open {url}",
                                          f"HTTP 404 Not Found for {url}"]
    assert "N0001" not in sh(f"ls {place.path}").stdout


def test_redirect_is_followed_and_the_final_url_kept(place: Place, site: FixtureSite) -> None:
    result = place.ctl(f"open {site.url('/redirect?to=/shop.html')}")
    assert result.returncode == 0, result.stdout
    assert f"url: {site.url('/shop.html')}" in result.stdout.splitlines()


def test_help_succeeds(place: Place) -> None:
    result = place.ctl("help")
    assert result.returncode == 0
    assert result.stdout.splitlines()[:2] == ["R0001 ok: help",
                                             "commands (write one line to .ctl, then cat .ctl):"]


def test_reading_before_any_command_gives_a_hint(mounted: Mount) -> None:
    text = sh(f"cat {mounted.path}/.ctl", session=True).stdout
    assert text.startswith("no response yet for this session")


def test_a_command_past_the_deadline_fails_with_etimedout(new_place, site: FixtureSite) -> None:
    mount = new_place().start("--deadline", "1")
    url = site.url("/slow?delay=3")
    result = mount.ctl(f"open {url}")
    mount.assert_failed(result, errno.ETIMEDOUT)
    assert result.stdout.splitlines()[0] == f"R0001 timeout: open {url}"


def test_two_sessions_each_read_their_own_response(place: Place, site: FixtureSite) -> None:
    delay = 2.0
    started = time.monotonic()
    shells = {
        tag: subprocess.Popen(
            ["setsid", "--wait", "bash", "-c",
             place.command_script(f"open {site.url(f'/slow?delay={delay}&tag={tag}')}")],
            stdout=subprocess.PIPE, text=True)
        for tag in ("alpha", "beta")
    }
    outputs = {tag: shell.communicate(timeout=60)[0] for tag, shell in shells.items()}
    elapsed = time.monotonic() - started
    assert all(shell.returncode == 0 for shell in shells.values())
    assert "Slow page alpha" in outputs["alpha"] and "beta" not in outputs["alpha"]
    assert "Slow page beta" in outputs["beta"] and "alpha" not in outputs["beta"]
    # The two commands ran side by side, not one after the other.
    assert elapsed < 2 * delay


def test_webshell_session_variable_overrides_the_unix_session(mounted: Mount) -> None:
    ctl = mounted.path / ".ctl"
    sh(f"WEBSHELL_SESSION=one bash -c 'echo help > {ctl}'; "
       f"WEBSHELL_SESSION=two bash -c 'echo open > {ctl}'")
    one = sh(f"WEBSHELL_SESSION=one cat {ctl}").stdout.splitlines()[0]
    two = sh(f"WEBSHELL_SESSION=two cat {ctl}").stdout.splitlines()[0]
    assert (one, two) == ("R0001 ok: help", "R0002 invalid: open")


def test_printf_without_newline_and_truncating_opens_work(mounted: Mount) -> None:
    result = sh(f"printf help > {mounted.path}/.ctl && : > {mounted.path}/.ctl "
                f"&& cat {mounted.path}/.ctl")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "R0001 ok: help"


def test_every_response_is_read_fresh_even_when_sizes_match(mounted: Mount) -> None:
    # The kernel keeps .ctl's pages between reads: responses of one length must still differ.
    ctl = mounted.path / ".ctl"
    result = sh("; ".join(f"echo bogus{n} > {ctl}; head -1 {ctl}" for n in range(1, 6)))
    assert result.stdout.splitlines() == [f"R000{n} invalid: bogus{n}" for n in range(1, 6)]


def test_listings_are_current_as_soon_as_a_command_returns(place: Place,
                                                           site: FixtureSite) -> None:
    root = place.path
    sh(f"ls {root} {root}/_log >/dev/null; cat {root}/_pages.tsv >/dev/null")  # warm the caches
    for n in range(1, 4):
        url = site.url(f"/slow?delay=0&tag=t{n}")
        result = sh(f"( {place.command_script('open ' + url)} ) >/dev/null && ls {root} "
                    f"&& ls {root}/_log && tail -1 {root}/_pages.tsv")
        lines = result.stdout.splitlines()
        assert f"N000{n}" in lines and f"R000{n}.md" in lines
        assert lines[-1].startswith(f"N000{n}\t")


def test_a_caller_killed_mid_command_loses_nothing(place: Place, site: FixtureSite) -> None:
    # The reply to the killed caller has nowhere to go; that is no error of the daemon's (the
    # fixture fails the test on any ERROR line), and the command still finishes and is logged.
    # The page takes 2 s, and the caller is killed after 1 s (webshell needs a moment to start).
    writer = subprocess.Popen(["bash", "-c",
                               place.command_script(f"open {site.url('/slow?delay=2')}")],
                              stdout=subprocess.DEVNULL)
    time.sleep(1.0)
    writer.kill()
    writer.wait(timeout=10)
    deadline = time.monotonic() + 30
    while not (place.path / "_log" / "R0001.md").exists():
        assert time.monotonic() < deadline, "the killed caller's command never finished"
        time.sleep(0.1)
    assert (place.path / "_log" / "R0001.md").read_text().count("R0001 ok: open ") == 1
    assert place.ctl("help").returncode == 0


OPERATIONS_MD = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
WEBSHELL = Path(sys.executable).parent / "webshell"


def session_recipe() -> str:
    """The WEBSHELL_SESSION recipe, as docs/operations.md prints it (its first code block that
    sets the variable, in the section on the session rule)."""
    section = OPERATIONS_MD.read_text().split("## The session rule", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, re.DOTALL)
    return next(block for block in blocks if "WEBSHELL_SESSION=" in block)


def test_the_session_recipe_works_exactly_as_the_docs_print_it(mounted: Mount) -> None:
    recipe = session_recipe().replace("/mnt/web", str(mounted.path))
    result = sh(recipe, session=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["R0001 ok: help",
                                             "commands (write one line to .ctl, then cat .ctl):"]
    # Another session still has its own (empty) channel.
    assert sh(f"cat {mounted.path}/.ctl", session=True).stdout.startswith("no response yet")


def test_an_export_in_a_running_shell_is_explained_and_webshell_pairs_up(mounted: Mount) -> None:
    ctl = f"{mounted.path}/.ctl"
    exported = sh(f"export WEBSHELL_SESSION=agent-2; echo help > {ctl}; cat {ctl}", session=True)
    assert exported.stdout.splitlines()[0] == (
        "no response yet for this session (session env:agent-2). Write a command first, e.g.")
    assert "WEBSHELL_SESSION=agent-2 is set here, but a shell's own `> .ctl`" in exported.stdout
    helper = sh(f"export WEBSHELL_SESSION=agent-2; {WEBSHELL} --mount {mounted.path} help; "
                f"cat {ctl}", session=True)
    lines = helper.stdout.splitlines()
    assert lines[0] == "R0002 ok: help"
    assert lines.count("R0002 ok: help") == 2  # webshell's own print, then agent-2's cat


def test_one_write_is_one_command_and_a_write_of_several_lines_is_refused(
    mounted: Mount,
) -> None:
    """As docs/operations.md says: a single write holding two lines runs neither; a program
    that writes line by line runs each line as a command of its own."""
    ctl = mounted.path / ".ctl"
    fd = os.open(ctl, os.O_WRONLY)
    try:
        with pytest.raises(OSError) as refused:
            os.write(fd, b"help\nhelp open\n")
        assert refused.value.errno == errno.EINVAL
    finally:
        os.close(fd)
    assert "one command per write" in ctl.read_text()
    assert sh(f"ls {mounted.path}/_log/").stdout.split() == ["R0001.md"]
    fd = os.open(ctl, os.O_WRONLY)
    try:
        os.write(fd, b"help\n")
        os.write(fd, b"help open\n")
    finally:
        os.close(fd)
    assert ctl.read_text().splitlines()[1] == "usage: open <url>"
    assert sh(f"ls {mounted.path}/_log/").stdout.split() == ["R0001.md", "R0002.md", "R0003.md"]
