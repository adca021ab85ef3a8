"""Tasks on the live fixture site through a real mount with the real Chromium, using only shell
commands on files and `.ctl`: log in, choose a size, search an archive, load more, a wrong input,
a closed page reopened. One mount (so one browser) for the module; at unmount no Chromium
process of the daemon is left."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.live_site import EXPORT_CSV, LiveSite
from tests.conftest import chromium_path, fuse_available, require
from tests.fs.conftest import Mount, browser_mount, sh
from webshellfs.browser.options import CHROMIUM_ARGS

# The machine is shared and slow: a command may wait on Chromium for a while.
CTL_TIMEOUT = 180


@pytest.fixture(scope="module")
def mount(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mount]:
    with browser_mount(tmp_path_factory.mktemp("live")) as mounted:
        yield mounted


def ctl(mount: Mount, command: str) -> list[str]:
    """Run a command that must succeed; its response lines after the first."""
    result = mount.ctl(command, timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()[1:]


def opened(mount: Mount, url: str) -> str:
    """`open url`, returning the new page's address."""
    return ctl(mount, f"open {url}")[0].split()[0]


def result_page(lines: list[str]) -> str:
    """The address an execute led to (`→ N0005 …`)."""
    for line in lines:
        found = re.match(r"→ (N\d{4})", line)
        if found:
            return found.group(1)
    raise AssertionError(f"no resulting page in {lines}")


def status_of(mount: Mount, page: str) -> str:
    return sh(f"awk -F'\\t' '$1==\"{page}\"{{print $4}}' {mount.path}/_pages.tsv").stdout.strip()


def test_log_in_and_read_the_account_page(mount: Mount, live: LiveSite) -> None:
    login = opened(mount, live.url("/login.html"))
    form = sh(f"awk -F'\\t' '$2==\"submit\"{{print $1}}' {mount.path}/{login}/actions.tsv")
    assert form.stdout == "A0001\n"
    lines = ctl(mount, f"execute {login} A0001 user=alice password={'secret'}")
    account = result_page(lines)
    assert lines[1] == f"→ {account} new page: Your account"
    found = sh(f"grep -rh 'Signed in' {mount.path}/{account}/content/")
    assert found.stdout == "Signed in as alice.\n"
    assert status_of(mount, account) == "active"
    assert status_of(mount, login) == "stored"


def test_open_then_act_by_labels_on_at_in_one_shell_line(mount: Mount, live: LiveSite) -> None:
    """An agent that knows the task's words, not the page's ids, chains the open and the save:
    the form by its button's label, a field by its label, the answer showing what it did."""
    url = live.url("/scripted/settings.html")
    first = mount.command_script(f"open {url}")
    save = mount.command_script('execute @ "Save profile" Nickname=Ziggy size=Large')
    result = sh(f"({first}) >/dev/null && {save}", timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result
    lines = result.stdout.splitlines()
    assert lines[1].startswith('executed A0001 form "Save profile" with field2=Ziggy size=Large')
    assert lines[3].endswith(": Saved: Large, Ziggy")  # the page's message comes first
    none = mount.ctl('execute @ "Archive everything"', timeout=CTL_TIMEOUT)
    mount.assert_failed(none, errno.EINVAL)
    assert "no control on " in none.stdout and "is labelled 'Archive everything'" in none.stdout


def test_choose_size_m_and_read_the_new_price(mount: Mount, live: LiveSite) -> None:
    product = opened(mount, live.url("/product.html"))
    lines = ctl(mount, f"execute {product} A0001 size=m")
    state = result_page(lines)
    assert lines[1] == (
        f"→ {state} new state of {product}: 2 changed, 0 added, 0 removed (see {state}/_state.md)"
    )
    assert sh(f"grep -h '^Price' {mount.path}/{state}/content/*.md").stdout == "Price: 45 EUR\n"
    assert sh(f"grep -h '^Price' {mount.path}/{product}/content/*.md").stdout == "Price: 40 EUR\n"
    assert (mount.path / state / "_state.md").read_text().splitlines() == [
        "# state",
        f"previous: {product}",
        'action: A0001 select "Size"',
        "inputs: size=m",
        "",
        "## what changed (4 lines)",
        '- content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Small"]',
        "- content/01-trail-shoe.md:3: Price: 40 EUR",
        '+ content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Medium"]',
        "+ content/01-trail-shoe.md:3: Price: 45 EUR",
        "",
        "## changed (2)",
        "actions.tsv",
        "content/01-trail-shoe.md",
        "",
        "## added (0)",
        "",
        "## removed (0)",
    ]
    row = sh(f"awk -F'\\t' '$1==\"{state}\"{{print $2, $3, $4}}' {mount.path}/_pages.tsv")
    assert row.stdout == f"{product} A0001 active\n"


def test_a_size_the_page_did_not_take_fails_the_write_and_says_what_it_shows(
    mount: Mount, live: LiveSite
) -> None:
    # The agent's check is the shell's: the write fails (EIO), and .ctl says what the page
    # shows instead; ticking rows and unticking with off leave the page as the answers say.
    shop = opened(mount, live.url("/print.html"))
    refused = mount.ctl(f"execute {shop} A0001 value=Poster", timeout=CTL_TIMEOUT)
    mount.assert_failed(refused, errno.EIO)
    assert refused.stdout.splitlines()[2] == (
        "not as asked: asked Poster; the field shows A3 landscape")
    orders = opened(mount, live.url("/orders.html"))
    ticked = result_page(ctl(mount, f"execute {orders} A0001 ids=101|102|103 action=hold"))
    assert sh(f"grep -rh 'selected$' {mount.path}/{ticked}/content/").stdout == "3 of 4 selected\n"
    cleared = result_page(ctl(mount, f"fill {ticked} A0001 ids=off"))
    assert sh(f"grep -rh 'selected$' {mount.path}/{cleared}/content/").stdout == "0 of 4 selected\n"


def test_search_the_archive_for_an_old_article(mount: Mount, live: LiveSite) -> None:
    search = opened(mount, live.url("/search.html"))
    lines = ctl(mount, f'execute {search} A0001 q="lighthouse keepers" year=2009')
    results = result_page(lines)
    assert sh(f"grep -rh 'articles from' {mount.path}/{results}/content/").stdout == (
        "3 articles from 2009.\n"
    )
    assert (
        sh(f"grep -c 'Lighthouse Keepers, part' {mount.path}/{results}/links.tsv").stdout == "3\n"
    )


def test_load_more_until_item_40_appears(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/more.html"))
    # The agent's loop: run "Load more" on the newest state until item 40 is in its content.
    script = (
        f"cd {mount.path}; p={page}; n=0\n"
        "while ! grep -q '^- Item 40$' $p/content/*.md && [ $n -lt 6 ]; do\n"
        '  echo "execute $p A0001" > .ctl || exit 1\n'
        "  p=$(sed -n 's/^→ \\(N[0-9]*\\).*/\\1/p' .ctl); n=$((n+1))\n"
        "done\n"
        "echo $p $n; grep -c '^- Item' $p/content/*.md"
    )
    result = sh(script, timeout=4 * CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    last, clicks = result.stdout.split()[:2]
    assert clicks == "3"
    assert result.stdout.splitlines()[1] == "40"
    assert status_of(mount, last) == "active"


def test_json_the_page_fetched_is_a_resource_and_its_records_a_table(
    mount: Mount, live: LiveSite
) -> None:
    page = opened(mount, live.url("/more.html"))
    first = live.url("/api/items?offset=0&limit=10")
    resources = (mount.path / page / "resources.tsv").read_text().splitlines()
    size = (mount.path / page / "resources" / "R0001.json").stat().st_size
    assert resources == [
        "id\turl\tcontent-type\tbytes\tfile",
        f"R0001\t{first}\tapplication/json\t{size}\tresources/R0001.json",
    ]
    assert (mount.path / page / "tables" / "T01.tsv").read_text().splitlines() == [
        "name", *(f"Item {n}" for n in range(1, 11))]
    assert sh(f"grep -h '^T01' {mount.path}/{page}/_map.md").stdout == (
        'T01  11×1 "items"  from resources/R0001.json\n')
    state = result_page(ctl(mount, f"execute {page} A0001"))
    assert sh(f"grep -h 'Item 1[12]' {mount.path}/{state}/tables/T01.cells").stdout == (
        "r2c1\t2\tItem 11\tname\tItem 11\t\nr3c1\t3\tItem 12\tname\tItem 12\t\n")


def test_a_download_is_stored_as_a_resource_of_the_state(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/downloads.html"))
    assert sh(f"cut -f1-3 {mount.path}/{page}/actions.tsv").stdout == (
        "id\tkind\tlabel\nA0001\tclick\tExport orders\n")
    lines = ctl(mount, f"execute {page} A0001")
    state = result_page(lines)
    table = [f"  + tables/T01.tsv:{n}: {row.replace(',', ' ')}"
             for n, row in enumerate(EXPORT_CSV.decode().splitlines(), 1)]
    assert lines[1:] == [
        f"→ {state} new state of {page}: 1 changed, 3 added, 0 removed (see {state}/_state.md)",
        *table,  # the download's rows, as its table shows them
        (f"download: orders.csv ({len(EXPORT_CSV)} bytes) stored as {state}/R0001 "
        "(resources/R0001.csv)"),
    ]
    assert (mount.path / state / "resources" / "R0001.csv").read_bytes() == EXPORT_CSV
    assert (mount.path / state / "resources.tsv").read_text().splitlines()[1] == (
        f"R0001\t{live.url('/export')}\ttext/csv\t{len(EXPORT_CSV)}\tresources/R0001.csv")
    assert sh(f"grep -h 'Rain jacket' {mount.path}/{state}/tables/T01.tsv").stdout == (
        "1002\tRain jacket\t80 EUR\n")
    # The same download again on that state: nothing new to store.
    assert ctl(mount, f"execute {state} A0001")[1:] == [
        (f"→ unchanged: {state} still shows the same content; nothing new was stored (the action "
        "ran)"),
        (f"download: orders.csv ({len(EXPORT_CSV)} bytes) stored as {state}/R0001 "
        "(resources/R0001.csv)"),
    ]


def actions(mount: Mount, page: str) -> list[str]:
    """actions.tsv without its header: id, kind, label and inputs of each action."""
    return sh(f"tail -n +2 {mount.path}/{page}/actions.tsv | cut -f1-3,5").stdout.splitlines()


def test_a_list_box_opened_by_execute_offers_its_options(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/combobox.html"))
    before = actions(mount, page)
    assert before[0] == "A0001\tclick\tColour: choose\t"
    assert not [line for line in before if "Red" in line]
    opened_state = result_page(ctl(mount, f"execute {page} A0001"))
    # The list box is a new control: a number no state of the page used; the others keep theirs.
    assert actions(mount, opened_state)[1] == (
        "A0004\tselect\tRed Blue\tvalue(listbox: red=Red|blue=Blue)")
    assert [line.split("\t")[0] for line in actions(mount, opened_state)] == [
        "A0001", "A0004", "A0002", "A0003"]
    chosen = result_page(ctl(mount, f"execute {opened_state} A0004 value=Blue"))
    assert sh(f"grep -rh '^Colour:' {mount.path}/{chosen}/content/").stdout == "Colour: Blue\n"
    assert not [line for line in actions(mount, chosen) if "Red" in line]


def test_a_menu_opened_by_execute_offers_its_items(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/menu.html"))
    assert actions(mount, page) == ["A0001\tclick\tFile\t"]
    lines = ctl(mount, f"execute {page} A0001")
    menu = result_page(lines)
    assert actions(mount, menu) == [
        "A0001\tclick\tFile\t",
        "A0002\tclick\tRename\t",
        "A0003\tclick\tMake a copy\t",
        "A0004\tclick\tMove to trash\t",
    ]
    done = result_page(ctl(mount, f"execute {menu} A0003"))
    assert sh(f"grep -rh '^Last command' {mount.path}/{done}/content/").stdout == (
        "Last command: Make a copy\n")
    assert actions(mount, done) == ["A0001\tclick\tFile\t"]


def test_a_wrong_input_name_fails_with_einval_and_the_valid_ones(
    mount: Mount, live: LiveSite
) -> None:
    product = opened(mount, live.url("/product.html"))
    result = mount.ctl(f"execute {product} A0001 colour=m", timeout=CTL_TIMEOUT)
    assert result.returncode == 1
    assert "write error: Invalid argument" in result.stderr
    assert result.stdout.splitlines()[1:] == [
        (
            "unknown input 'colour' for A0001 select \"Size\"; valid inputs: "
            "size(select: s=Small|m=Medium|l=Large; current=s)"
        )
    ]
    assert status_of(mount, product) == "active"


def test_execute_on_a_closed_page_reopens_it_and_acts(mount: Mount, live: LiveSite) -> None:
    product = opened(mount, live.url("/product.html"))
    assert ctl(mount, f"close {product}")[0].endswith(f"{product} stays readable, status stored")
    assert status_of(mount, product) == "stored"
    lines = ctl(mount, f"execute {product} A0001 size=l")
    assert lines[1] == f"reopened: {product} had no open tab; the tab shows {product}"
    state = result_page(lines)
    assert sh(f"grep -h '^Price' {mount.path}/{state}/content/*.md").stdout == "Price: 50 EUR\n"


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rpartition(")")[2].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _is_chromium(pid: int) -> bool:
    """A running Chromium process (a zombie has exited: reaping it is init's job, not ours)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(errors="replace")
    except OSError:
        return False
    name, _, rest = stat.partition("(")[2].rpartition(")")
    return "chrom" in name.lower() and rest.split()[0] != "Z"


def test_unmount_leaves_no_chromium_of_the_daemon(mount: Mount, live: LiveSite) -> None:
    opened(mount, live.url("/index.html"))
    assert mount.process is not None
    ours = {pid for pid in _descendants(mount.process.pid) if _is_chromium(pid)}
    assert ours, "the daemon runs no Chromium"
    mount.unmount()
    assert {pid for pid in ours if _is_chromium(pid)} == set()


def test_without_chromium_the_mount_works_over_plain_http(
    new_mount: Callable[[], Mount], live: LiveSite, tmp_path: Path
) -> None:
    missing = tmp_path / "no-chromium"
    mount = new_mount().start("--browser", "local", "--chromium", str(missing))
    url = live.url("/product.html")
    assert ctl(mount, f"open {url}")[-1] == (
        f"note: no Chromium at {missing} (give --chromium PATH); fetched over plain HTTP"
    )
    assert sh(f"grep -h '^Price' {mount.path}/N0001/content/*.md").stdout == "Price: 40 EUR\n"
    result = mount.ctl("execute N0001 A0001 size=m", timeout=CTL_TIMEOUT)
    assert result.returncode == 1
    assert result.stdout.splitlines()[1] == (
        f"execute needs the live browser: no Chromium at {missing} (give --chromium PATH). "
        "Stored pages stay readable, and `open <url>` fetches a page over plain HTTP."
    )
    assert f"no live browser: no Chromium at {missing}" in mount.log.read_text()


def test_a_bad_browser_spec_is_refused_before_mounting(tmp_path: Path) -> None:
    require(fuse_available(), "FUSE")
    mountpoint = tmp_path / "mnt"
    mountpoint.mkdir()
    result = sh(
        f"{sys.executable} -m webshellfs {mountpoint} --cache {tmp_path / 'cache.sqlite'} "
        "--browser firefox"
    )
    assert result.returncode == 2  # a usage error, as argparse reports every bad option
    assert result.stderr.splitlines()[-1] == (
        "webshellfs: error: argument --browser: --browser takes local, cdp=URL, ws=URL or "
        "http, not 'firefox'"
    )
    assert not os.path.ismount(mountpoint)


@pytest.fixture
def remote_chromium(tmp_path: Path) -> Iterator[str]:
    """A separate headless Chromium with a remote-debugging port on 127.0.0.1: its endpoint."""
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    process = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", *CHROMIUM_ARGS,
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
         f"--user-data-dir={tmp_path / 'profile'}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        for raw in process.stderr:
            found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", raw.decode())
            if found:
                yield f"http://127.0.0.1:{found.group(1)}"
                break
        else:
            pytest.fail("Chromium never printed its DevTools endpoint")
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_a_mount_drives_a_remote_chromium_over_cdp(
    new_mount: Callable[[], Mount], live: LiveSite, remote_chromium: str
) -> None:
    mount = new_mount().start("--browser", f"cdp={remote_chromium}")
    product = opened(mount, live.url("/product.html"))
    state = result_page(ctl(mount, f"execute {product} A0001 size=m"))
    assert sh(f"grep -h '^Price' {mount.path}/{state}/content/*.md").stdout == "Price: 45 EUR\n"
    assert status_of(mount, state) == "active"
