"""The command channel: a write blocks until the command is done, fails with the errno that
matches the outcome, and each shell session reads back only its own response."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from tests.fs.conftest import Mount, sh
from tests.site import FixtureSite


def test_unknown_command_fails_with_einval_and_the_grammar(mounted: Mount) -> None:
    result = mounted.ctl("frobnicate x")
    assert result.returncode == 1
    assert "write error: Invalid argument" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["R0001 invalid: frobnicate x", "unknown command 'frobnicate'",
                         "commands (write one line to .ctl, then cat .ctl):"]


def test_malformed_command_fails_with_einval_and_its_usage(mounted: Mount) -> None:
    result = mounted.ctl("open")
    assert "write error: Invalid argument" in result.stderr
    assert result.stdout.splitlines() == ["R0001 invalid: open", "open: needs a URL",
                                          "usage: open <url>"]


def test_failed_fetch_fails_with_eio_and_the_status(mounted: Mount, site: FixtureSite) -> None:
    url = site.url("/missing")
    result = mounted.ctl(f"open {url}")
    assert result.returncode == 1
    assert "write error: Input/output error" in result.stderr
    assert result.stdout.splitlines() == [f"R0001 failed: open {url}",
                                          f"HTTP 404 Not Found for {url}"]
    assert "N0001" not in sh(f"ls {mounted.path}").stdout


def test_redirect_is_followed_and_the_final_url_kept(mounted: Mount, site: FixtureSite) -> None:
    result = mounted.ctl(f"open {site.url('/redirect?to=/shop.html')}")
    assert result.returncode == 0, result.stdout
    assert f"url: {site.url('/shop.html')}" in result.stdout.splitlines()


def test_help_succeeds(mounted: Mount) -> None:
    result = mounted.ctl("help")
    assert result.returncode == 0
    assert result.stdout.splitlines()[:2] == ["R0001 ok: help",
                                             "commands (write one line to .ctl, then cat .ctl):"]


def test_reading_before_any_command_gives_a_hint(mounted: Mount) -> None:
    text = sh(f"cat {mounted.path}/.ctl", session=True).stdout
    assert text.startswith("no response yet for this session")


def test_a_command_past_the_deadline_fails_with_etimedout(new_mount, site: FixtureSite) -> None:
    mount = new_mount().start("--deadline", "1")
    url = site.url("/slow?delay=3")
    result = mount.ctl(f"open {url}")
    assert "write error: Connection timed out" in result.stderr
    assert result.stdout.splitlines()[0] == f"R0001 timeout: open {url}"


def test_two_sessions_each_read_their_own_response(mounted: Mount, site: FixtureSite) -> None:
    delay = 2.0
    started = time.monotonic()
    shells = {
        tag: subprocess.Popen(
            ["setsid", "--wait", "bash", "-c",
             (f"echo 'open {site.url(f'/slow?delay={delay}&tag={tag}')}' > {mounted.path}/.ctl"
              f" && cat {mounted.path}/.ctl")],
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


def test_listings_are_current_as_soon_as_a_command_returns(mounted: Mount,
                                                           site: FixtureSite) -> None:
    root = mounted.path
    sh(f"ls {root} {root}/_log >/dev/null; cat {root}/_pages.tsv >/dev/null")  # warm the caches
    for n in range(1, 4):
        url = site.url(f"/slow?delay=0&tag=t{n}")
        result = sh(f"echo 'open {url}' > {root}/.ctl && ls {root} && ls {root}/_log "
                    f"&& tail -1 {root}/_pages.tsv")
        lines = result.stdout.splitlines()
        assert f"N000{n}" in lines and f"R000{n}.md" in lines
        assert lines[-1].startswith(f"N000{n}\t")


def test_a_caller_killed_mid_command_loses_nothing(mounted: Mount, site: FixtureSite) -> None:
    # The reply to the killed writer has nowhere to go; that is no error of the daemon's (the
    # fixture fails the test on any ERROR line), and the command still finishes and is logged.
    writer = subprocess.Popen(["bash", "-c", f"echo 'open {site.url('/slow?delay=1')}' "
                               f"> {mounted.path}/.ctl"])
    time.sleep(0.5)
    writer.kill()
    writer.wait(timeout=10)
    deadline = time.monotonic() + 30
    while not (mounted.path / "_log" / "R0001.md").exists():
        assert time.monotonic() < deadline, "the killed caller's command never finished"
        time.sleep(0.1)
    assert (mounted.path / "_log" / "R0001.md").read_text().count("R0001 ok: open ") == 1
    assert mounted.ctl("help").returncode == 0


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
