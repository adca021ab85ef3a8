"""`@`: the page the caller's last command named, in commands and in paths, so an agent chains
`open URL` and a grep of that page in one shell command without knowing its address."""

from __future__ import annotations

import errno
import os


from tests.site import FixtureSite
from tests.fs.conftest import Mount, Place, sh


def test_at_leads_to_the_page_the_last_command_named(place: Place, site: FixtureSite) -> None:
    root = place.path
    first = place.ctl("lookup @ T01")
    place.assert_failed(first, errno.EINVAL)
    assert "this session has named none yet: open or retrieve a page first" in first.stdout

    article, shop = site.url("/article.html"), site.url("/shop.html")
    chained = sh(f"({place.command_script(f'open {article}')}) >/dev/null; "
                 f"grep -rln 'Lighthouse' {root}/@/content/")
    assert chained.returncode == 0, chained
    assert chained.stdout.startswith(f"{root}/@/content/")
    assert os.readlink(root / "@") == "N0001"

    place.ctl(f"open {shop}")
    assert os.readlink(root / "@") == "N0002"
    looked = place.ctl("lookup @ T01 row=Medium")
    assert looked.returncode == 0, looked
    assert "Medium" in looked.stdout
    # A command on a page names it: `@` stays with the page acted on.
    place.ctl("lookup N0001 T01")
    assert os.readlink(root / "@") == "N0001"


def test_each_session_has_its_own_at(mounted: Mount, site: FixtureSite) -> None:
    root = mounted.path
    for session, path in (("a", "/article.html"), ("b", "/shop.html")):
        result = sh(f"export WEBSHELL_SESSION={session}; bash -c "
                    f"\"{mounted.command_script(f'open {site.url(path)}')}\"")
        assert result.returncode == 0, result
    reads = {session: sh(f"WEBSHELL_SESSION={session} readlink {root}/@").stdout.strip()
             for session in ("a", "b")}
    assert reads == {"a": "N0001", "b": "N0002"}
    # Not listed: a listing is not told who asks, and `grep -r` of the root visits each page once.
    assert "@" not in os.listdir(root)
    stray = sh(f"WEBSHELL_SESSION=c ls {root}/@/")
    assert stray.returncode != 0 and "No such file or directory" in stray.stderr
