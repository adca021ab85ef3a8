"""The .ctl grammar: what parses to which Command, and what is refused with which message."""

from __future__ import annotations

import pytest

from webshellfs import ctl
from webshellfs.ctl import Close, Execute, Focus, Help, Lookup, Open, Resolve, Retrieve, parse
from webshellfs.errors import CommandSyntaxError


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("open https://example.org/a?b=1", Open("https://example.org/a?b=1")),
        ("open example.org/shop\n", Open("https://example.org/shop")),
        ("open localhost:8000/x", Open("https://localhost:8000/x")),
        ("open file:///etc/passwd", Open("file:///etc/passwd")),
        ("  OPEN http://x.org/  \r\n", Open("http://x.org/")),
        ('execute N0003 A0002 q="red shoes"', Execute("N0003", "A0002", (("q", "red shoes"),))),
        ("execute N0003/L0012", Execute("N0003", "L0012", ())),
        ("execute N0001 A0001 a=1 b= c=x=y", Execute("N0001", "A0001", (("a", "1"), ("b", ""), ("c", "x=y")))),
        ("retrieve red shoes size 42", Retrieve("red shoes size 42", 5)),
        ("retrieve -k 3 'red shoes'", Retrieve("red shoes", 3)),
        ("retrieve --refresh -k 2 shoes", Retrieve("shoes", 2, refresh=True)),
        ("retrieve -k 2 --refresh shoes", Retrieve("shoes", 2, refresh=True)),
        ("retrieve -- -k is a flag", Retrieve("-k is a flag", 5)),
        ("retrieve shoes --refresh", Retrieve("shoes --refresh", 5)),
        ("focus N0002", Focus("N0002")),
        ("close N0002", Close("N0002")),
        ("lookup N0001 T01", Lookup("N0001", "T01")),
        ("lookup N0001 T01 row=Medium col='Mug price'", Lookup("N0001", "T01", "Medium", "Mug price")),
        ("lookup N0001/T02 col=2", Lookup("N0001", "T02", None, "2")),
        ("resolve N0001 #specs", Resolve("N0001", "#specs")),
        ("resolve N0001 ../other.html", Resolve("N0001", "../other.html")),
        ("resolve N0001 L0004", Resolve("N0001", "L0004")),
        ("help", Help()),
        ("help open\n", Help("open")),
        ('execute N0001 A0002 value="buy milk" --press Enter',
         Execute("N0001", "A0002", (("value", "buy milk"),), keys=("Enter",))),
        ("execute N0001 A0003 --dismiss", Execute("N0001", "A0003", dialog="dismiss")),
        ('execute @ "Add  person" "First name"=Ada',
         Execute("@", "", (("First name", "Ada"),), label="Add person")),
        ("fill N0002 Search q=x", Execute("N0002", "", (("q", "x"),), submit=False, label="Search")),
        ("execute N0001 A0003 --answer 'Ada L'",
         Execute("N0001", "A0003", dialog="accept", answer="Ada L")),
        ("dblclick N0001 A0004", Execute("N0001", "A0004", gesture="dblclick")),
        ("rightclick N0001/A0004", Execute("N0001", "A0004", gesture="rightclick")),
        ("hover N0001 L0002", Execute("N0001", "L0002", gesture="hover")),
        ("press N0001 Escape", Execute("N0001", "", gesture="press", keys=("Escape",))),
        ("press N0001 A0002 control+a delete",
         Execute("N0001", "A0002", gesture="press", keys=("Control+a", "Delete"))),
        ("drag N0001 A0002 A0005", Execute("N0001", "A0002", gesture="drag", target="A0005")),
        ("scroll N0001", Execute("N0001", "", gesture="scroll", scroll="down")),
        ("scroll N0001 bottom", Execute("N0001", "", gesture="scroll", scroll="bottom")),
        ("scroll N0001 A0007", Execute("N0001", "A0007", gesture="scroll")),
        ("scroll N0001 A0007 up", Execute("N0001", "A0007", gesture="scroll", scroll="up")),
        ("upload N0001 A0003 a.pdf b.png",
         Execute("N0001", "A0003", gesture="upload", files=("a.pdf", "b.png"))),
        ("back N0004", Execute("N0004", "", gesture="back")),
        ("forward N0004", Execute("N0004", "", gesture="forward")),
        ("focus N0002 A0003", Execute("N0002", "A0003", gesture="focus")),
        (b"open http://x.org/\n", Open("http://x.org/")),
    ],
)
def test_parses(line: str | bytes, command: ctl.Command) -> None:
    assert parse(line) == command


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("frobnicate N0001", "unknown command 'frobnicate'\ncommands (write one line"),
        ("", "empty command"),
        ("   \n", "empty command"),
        ("open", "open: needs a URL\nusage: open <url>"),
        ("open a b", "open: takes exactly one URL\nusage: open <url>"),
        ("execute N0001", (
            "execute: needs a page and an action or link id (A0001, L0001), or a control's "
            "label in quotes\nusage: execute <page> <id> [name=value …] [--press KEY]"
        )),
        ("press N0001 Hyper+q", "press: 'Hyper' is not a key; keys are single characters or"),
        ("press N0001", "press: needs a key to press"),
        ("drag N0001 A0002", "drag: needs the id of the element to drop onto"),
        ("scroll N0001 sideways", "scroll: scrolls up | down | top | bottom, not 'sideways'"),
        ("upload N0001 A0002", "upload: needs the name of a file in the uploads directory"),
        ("execute N0001 A0002 --press", "execute: --press takes a key"),
        ("execute N0001 q=shoes", "execute: 'q=shoes' is not an action or link id (A0001, "
                                  "L0001), nor a control's label in quotes"),
        ("fill N0001 T01 q=shoes", "fill: 'T01' is not a form's or a field's action id"),
        ("execute N0001 A0002 --maybe", "execute: unknown option '--maybe'; options: --accept"),
        ("back N0001 A0002", "back: takes exactly one page address"),
        ("dblclick N0001 A0002 x=1", "dblclick: takes a page and one id, not 'x=1'"),
        ("execute X1 A0001", "execute: 'X1' is not a page address (like N0001, or @ for your last page)\n"),
        ("execute N0001 T01", "execute: 'T01' is not an action or link id (A0001, L0001)\n"),
        ("execute N0001 A0001 color", "execute: 'color' is not name=value\n"),
        ("execute N0001 A0001 =x", "execute: '=x' is not name=value\n"),
        ("lookup N0001 A0001", "lookup: 'A0001' is not a table id (T01)\n"),
        ("lookup N0001 T01 size=m", "lookup: unknown filter 'size'; use row=… or col=…\n"),
        ("resolve N0001", "resolve: needs a page and one reference\nusage: resolve <page> <ref>"),
        ("focus", "focus: needs a page address\nusage: focus <page>"),
        ("close N1 N2", "close: takes exactly one page address\nusage: close <page>"),
        ("retrieve -k 0 shoes", "retrieve: -k takes a number from 1 to 20\n"),
        ("retrieve -k 3", "retrieve: needs a query\nusage: retrieve [-k N] [--refresh] <query…>"),
        ("retrieve --refresh", "retrieve: needs a query\n"),
        ("retrieve -k", "retrieve: -k takes a number from 1 to 20\n"),
        ("retrieve -k 21 shoes", "retrieve: -k takes a number from 1 to 20\n"),
        ("help me please", "help: takes at most one command or topic name\n"),
        ("open 'http://x.org", "cannot split the command as the shell would: No closing quotation"),
        ("open http://a.org/\nopen http://b.org/", "one command per write: the text holds several lines"),
        ("open http://a\x00.org/", "the command holds control characters (binary data?)"),
        (b"open \xff\xfe", "a command must be UTF-8 text"),
        ("open " + "x" * 70000, "a command is at most 65536 bytes"),
    ],
)
def test_refuses_with_reason_and_usage(line: str | bytes, message: str) -> None:
    with pytest.raises(CommandSyntaxError) as refused:
        parse(line)
    assert str(refused.value).startswith(message)


def test_help_is_made_from_the_table() -> None:
    text = ctl.help_text()
    for spec in ctl.COMMANDS.values():
        assert f"  {spec.usage}" in text and spec.summary in text
    assert text.splitlines()[0] == "commands (write one line to .ctl, then cat .ctl):"
    assert ctl.help_text("lookup") == (
        "usage: lookup <page> <T..> [row=…] [col=…]\n"
        "  matching table cells, each with its whole row and its actions\n"
    )


def test_every_verb_of_the_contract_is_in_the_table() -> None:
    assert list(ctl.COMMANDS) == [
        "retrieve", "open", "execute", "fill", "click", "dblclick", "rightclick", "hover",
        "highlight", "press", "drag", "scroll", "upload", "back", "forward", "focus", "lookup",
        "resolve", "close", "explore", "search", "choose", "help",
    ]
