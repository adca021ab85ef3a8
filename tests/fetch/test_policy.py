"""Which addresses a fetch may reach, and which URLs are refused before any connection."""

from __future__ import annotations

import pytest
import trio

from webshellfs.cli import _mount_parser, settings_from_args
from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import AddressRules, address_kind, check_url


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "cloud-metadata"),
        ("169.254.170.2", "cloud-metadata"),
        ("100.100.100.200", "cloud-metadata"),
        ("fd00:ec2::254", "cloud-metadata"),
        ("168.63.129.16", "cloud-metadata"),
        ("::ffff:169.254.169.254", "cloud-metadata"),
        ("169.254.1.1", "link-local"),
        ("fe80::1%eth0", "link-local"),
        ("100.64.0.1", "non-public"),
        ("10.1.2.3", "private"),
        ("192.168.0.10", "private"),
        ("172.16.5.4", "private"),
        ("fd00::1", "private"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "private"),
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
    ],
)
def test_address_kinds(address: str, kind: str | None) -> None:
    assert address_kind(address) == kind


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "only http and https URLs can be opened; file: is refused: file:///etc/passwd"),
        ("javascript:alert(1)", "only http and https URLs can be opened; javascript: is refused"),
        ("data:text/html,<p>x", "only http and https URLs can be opened; data: is refused"),
        ("ftp://x.org/f", "only http and https URLs can be opened; ftp: is refused"),
        ("http:///path", "the URL has no host: http:///path"),
        ("http://127.0.0.1:8000/x", (
            "http://127.0.0.1:8000/x resolves to 127.0.0.1, a loopback address; loopback and "
            "private addresses are refused unless the mount runs with --allow-private"
        )),
        ("https://[::1]/", "https://[::1]/ resolves to ::1, a loopback address;"),
        ("http://localhost/", "http://localhost/ resolves to"),
    ],
)
def test_refused_urls(url: str, message: str) -> None:
    with pytest.raises(AccessDenied) as refused:
        trio.run(check_url, url, AddressRules())
    assert str(refused.value).startswith(message)


def test_allow_private_lets_loopback_through_but_not_other_schemes() -> None:
    trio.run(check_url, "http://127.0.0.1:8000/x", AddressRules(allow_private=True))
    with pytest.raises(AccessDenied):
        trio.run(check_url, "file:///etc/passwd", AddressRules(allow_private=True))


LINK_LOCAL = ("link-local and cloud-metadata addresses are refused unless the mount runs with "
              "--allow-link-local")


@pytest.mark.parametrize("url", [
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
    "http://100.100.100.200/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://[::ffff:169.254.169.254]/",
])
def test_link_local_and_metadata_stay_refused_with_allow_private(url: str) -> None:
    with pytest.raises(AccessDenied) as refused:
        trio.run(check_url, url, AddressRules(allow_private=True))
    assert str(refused.value).endswith(LINK_LOCAL)
    trio.run(check_url, url, AddressRules(allow_private=True, allow_link_local=True))


@pytest.mark.parametrize(("rules", "address", "refused"), [
    (AddressRules(), "169.254.169.254", "cloud-metadata"),
    (AddressRules(allow_private=True), "169.254.169.254", "cloud-metadata"),
    (AddressRules(allow_private=True), "fe80::1", "link-local"),
    (AddressRules(allow_private=True), "10.0.0.1", None),
    (AddressRules(allow_link_local=True), "169.254.169.254", None),
    (AddressRules(allow_link_local=True), "10.0.0.1", "private"),
    (AddressRules(allow_link_local=True), "127.0.0.1", "loopback"),
    (AddressRules(allow_private=True, allow_link_local=True), "fe80::1", None),
    (AddressRules(), "93.184.216.34", None),
])
def test_the_two_permissions_are_independent(rules: AddressRules, address: str,
                                             refused: str | None) -> None:
    assert rules.refusal_kind(address) == refused


def test_the_command_line_sets_the_link_local_permission() -> None:
    plain = settings_from_args(_mount_parser().parse_args(["/mnt/web", "--allow-private"]))
    assert AddressRules.from_settings(plain) == AddressRules(allow_private=True)
    both = settings_from_args(_mount_parser().parse_args(
        ["/mnt/web", "--allow-private", "--allow-link-local"]))
    assert AddressRules.from_settings(both) == AddressRules(True, True)
