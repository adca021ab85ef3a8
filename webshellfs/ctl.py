"""The `.ctl` command grammar: one table of verbs, a pure parser, and help text made from the table.

`parse(line)` turns one command line into a frozen Command record, or raises CommandSyntaxError
whose message says what is wrong and shows the usage line. Quoting follows the shell (shlex).
No I/O here: whether a page exists is the engine's business.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webshellfs.contract.addresses import PageId, is_object_id, parse_page_id
from webshellfs.errors import CommandSyntaxError

__all__ = [
    "COMMANDS",
    "MAX_COMMAND_BYTES",
    "Close",
    "Command",
    "Execute",
    "Choose",
    "Explore",
    "Focus",
    "Help",
    "Lookup",
    "Open",
    "Resolve",
    "Retrieve",
    "Search",
    "Spec",
    "help_text",
    "parse",
]

MAX_COMMAND_BYTES = 64 * 1024
DEFAULT_RESULTS = 5
MAX_RESULTS = 20
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:(?!\d)")


@dataclass(frozen=True)
class Retrieve:
    """`refresh`: fetch every result again, even those already stored."""

    query: str
    k: int = DEFAULT_RESULTS
    refresh: bool = False


@dataclass(frozen=True)
class Open:
    url: str


@dataclass(frozen=True)
class Execute:
    """Act on the live page. `gesture` is "" for the action's own operation (click a button,
    fill a field, submit a form …), else one of GESTURES; object_id is "" for a gesture on the
    whole page (press a key, scroll, back, forward).

    keys: pressed in order (after the operation for `execute … --press KEY`); target: the
    object dropped onto (drag); files: names under the uploads directory (upload); scroll:
    up | down | top | bottom, or "" to bring the element into view; dialog: how to answer a
    dialog the action raises (accept | dismiss; "" accepts, as without the option); answer:
    the text typed into a prompt (accepts it); submit: False for `fill` (set a form's fields
    and leave it unsubmitted); text: the words a pointer gesture or highlight acts on, where the
    page shows them (object_id is then ""); by: a drag's distance, pixels right and down,
    instead of a target. label: the words of a control's label, when the command names the
    control so (`execute @ "Add person"`): object_id is "" until the engine finds it."""

    page: PageId
    object_id: str
    inputs: tuple[tuple[str, str], ...] = ()
    gesture: str = ""
    keys: tuple[str, ...] = ()
    target: str = ""
    files: tuple[str, ...] = ()
    scroll: str = ""
    dialog: str = ""
    answer: str | None = None
    submit: bool = True
    text: str = ""
    by: tuple[int, int] | None = None
    label: str = ""


@dataclass(frozen=True)
class Focus:
    page: PageId


@dataclass(frozen=True)
class Lookup:
    page: PageId
    table: str
    row: str | None = None
    col: str | None = None


@dataclass(frozen=True)
class Resolve:
    page: PageId
    ref: str


@dataclass(frozen=True)
class Close:
    page: PageId


@dataclass(frozen=True)
class Help:
    verb: str | None = None


@dataclass(frozen=True)
class Explore:
    """Walk a site from url and keep its map (webshellfs/explore). url is None only with
    `resume` (the latest unfinished exploration, or, given a deeper depth, the latest that left
    links past its old one); a bound left None keeps the default (or,
    resumed, the one it had)."""

    url: str | None
    pages: int | None = None
    depth: int | None = None
    seconds: float | None = None
    resume: bool = False
    refresh: bool = False


@dataclass(frozen=True)
class Search:
    """Use a site's search box: on a page (`page`), else on the site of `url` (its map's search
    page, or the URL opened first)."""

    words: str
    page: PageId | None = None
    url: str = ""


@dataclass(frozen=True)
class Choose:
    """Open a menu, dropdown or list by its label and pick an item by its words."""

    page: PageId
    menu: str
    item: str


Command = (Retrieve | Open | Execute | Focus | Lookup | Resolve | Close | Help | Explore | Search
           | Choose)


class _Usage(Exception):
    """Raised by a verb parser; `parse` adds the verb's usage line."""


def _page(text: str) -> PageId:
    page = parse_page_id(text)
    if page is None:
        raise _Usage(f"{text!r} is not a page address (like N0001, or @ for your last page)")
    return page


def _split_address(args: list[str]) -> list[str]:
    """`N0001/A0003 …` read as `N0001 A0003 …`."""
    if args and "/" in args[0]:
        first, _, second = args[0].partition("/")
        return [first, second, *args[1:]]
    return args


def _page_and_object(args: list[str], prefixes: str, what: str) -> tuple[PageId, str, list[str]]:
    """`N0001 A0003 …` or `N0001/A0003 …` → page, object id, the remaining arguments."""
    args = _split_address(args)
    if len(args) < 2:
        raise _Usage(f"needs a page and {what}")
    page = _page(args[0])
    object_id = args[1]
    if not (is_object_id(object_id) and object_id[0] in prefixes):
        raise _Usage(f"{object_id!r} is not {what}")
    return page, object_id, args[2:]


def _page_and_target(args: list[str], prefixes: str, what: str) -> tuple[PageId, str, str, list[str]]:
    """`N0001 A0003 …`, `N0001/A0003 …` or `N0001 "Add person" …` → page, object id ("" when
    named by its label), label, the remaining arguments."""
    args = _split_address(args)
    if len(args) < 2:
        raise _Usage(f"needs a page and {what}, or a control's label in quotes")
    page, word = _page(args[0]), args[1]
    if is_object_id(word):
        if word[0] not in prefixes:
            raise _Usage(f"{word!r} is not {what}")
        return page, word, "", args[2:]
    label = " ".join(word.split())
    if not label or "=" in word or word.startswith("--"):
        raise _Usage(f"{word!r} is not {what}, nor a control's label in quotes")
    return page, "", label, args[2:]


def _assignments(args: list[str], allowed: tuple[str, ...] | None = None) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep or not name:
            raise _Usage(f"{arg!r} is not name=value")
        if allowed is not None and name not in allowed:
            raise _Usage(f"unknown filter {name!r}; use {' or '.join(a + '=…' for a in allowed)}")
        pairs.append((name, value))
    return tuple(pairs)


def _parse_retrieve(args: list[str]) -> Retrieve:
    """Options come first, in any order; `--` ends them (for a query that starts with "-")."""
    k, refresh = DEFAULT_RESULTS, False
    while args and args[0] in ("-k", "--refresh", "--"):
        option, args = args[0], args[1:]
        if option == "--":
            break
        if option == "--refresh":
            refresh = True
            continue
        if not args or not args[0].isdigit() or not 1 <= int(args[0]) <= MAX_RESULTS:
            raise _Usage(f"-k takes a number from 1 to {MAX_RESULTS}")
        k, args = int(args[0]), args[1:]
    if not args:
        raise _Usage("needs a query")
    return Retrieve(" ".join(args), k, refresh)


def _parse_open(args: list[str]) -> Open:
    if len(args) != 1:
        raise _Usage("takes exactly one URL" if args else "needs a URL")
    url = args[0]
    # A bare host ("example.com/x", "localhost:8000") means the web, as in an address bar.
    if not _SCHEME.match(url):
        url = "https://" + url
    return Open(url)


ACTIONS = "AL"
ACTION_WHAT = "an action or link id (A0001, L0001)"
SCROLL_WHERE = ("up", "down", "top", "bottom")
DIALOG_WORDS = ("accept", "dismiss")
# Keys a press may name besides single characters; chords join them with "+" (Control+a).
KEY_NAMES = frozenset(
    [
        "Enter", "Escape", "Tab", "Backspace", "Delete", "Insert", "Space",
        "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown",
        "Shift", "Control", "Alt", "Meta", "ControlOrMeta", "ContextMenu",
        *(f"F{n}" for n in range(1, 13)),
    ]
)
_KEYS_SHOWN = "Enter Escape Tab Backspace Delete Space ArrowUp/Down/Left/Right Home End PageUp PageDown F1…F12"


def _key(word: str) -> str:
    """A key or chord as Playwright names it (`Control+a`); _Usage listing the names if not."""
    parts = word.split("+") if word != "+" else ["+"]
    named = {name.lower(): name for name in KEY_NAMES}
    keys = []
    for part in parts:
        if len(part) == 1 and part.isprintable():
            keys.append(part)
        elif part.lower() in named:
            keys.append(named[part.lower()])
        else:
            raise _Usage(
                f"{part!r} is not a key; keys are single characters or {_KEYS_SHOWN}, "
                "joined with + for a chord (Control+a)"
            )
    return "+".join(keys)


@dataclass(frozen=True)
class _Dialog:
    """How to answer a dialog: Execute's `dialog` and `answer`."""

    dialog: str = ""
    answer: str | None = None


def _dialog_options(args: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Take --accept, --dismiss and --answer TEXT (how to answer a dialog) out of args; the
    rest, and Execute's dialog fields."""
    rest: list[str] = []
    found = _Dialog()
    words = iter(args)
    for word in words:
        if word in ("--accept", "--dismiss"):
            found = _Dialog(word[2:], found.answer if word == "--accept" else None)
        elif word == "--answer":
            text = next(words, None)
            if text is None:
                raise _Usage("--answer takes the text to type into the prompt")
            found = _Dialog("accept", text)
        elif word.startswith("--") and word != "--press":
            raise _Usage(f"unknown option {word!r}; options: --accept, --dismiss, --answer TEXT")
        else:
            rest.append(word)
    return rest, {"dialog": found.dialog, "answer": found.answer}


def _parse_execute(args: list[str]) -> Execute:
    args, options = _dialog_options(args)
    keys: list[str] = []
    if "--press" in args:
        at = args.index("--press")
        if at + 1 >= len(args):
            raise _Usage("--press takes a key, e.g. --press Enter")
        keys = [_key(args[at + 1])]
        args = args[:at] + args[at + 2 :]
    page, object_id, label, rest = _page_and_target(args, ACTIONS, ACTION_WHAT)
    return Execute(page, object_id, _assignments(rest), keys=tuple(keys), label=label, **options)


def _parse_fill(args: list[str]) -> Execute:
    """`fill N0001 A0004 q=shoes size=m`: a form's fields set, the form left unsubmitted."""
    args, options = _dialog_options(args)
    page, object_id, label, rest = _page_and_target(
        args, "A", "a form's or a field's action id (A0004)")
    if not rest:
        raise _Usage("needs name=value inputs, e.g. fill N0001 A0004 q=shoes")
    return Execute(page, object_id, _assignments(rest), submit=False, label=label, **options)


def _pointer_gesture(gesture: str) -> Callable[[list[str]], Command]:
    """`dblclick N0001 A0003` or `dblclick N0001 "buy milk"`: a pointer gesture on an element,
    or on the words the page shows (unquoted words are joined, as the shell split them)."""

    def parse_gesture(args: list[str]) -> Command:
        args, options = _dialog_options(args)
        args = _split_address(args)
        if len(args) < 2:
            raise _Usage(f'needs a page and an id or the words to act on, e.g. {gesture} N0001 '
                         '"buy milk"')
        page, rest = _page(args[0]), args[1:]
        if not is_object_id(rest[0]):
            words = " ".join(" ".join(rest).split())
            if not words:
                raise _Usage("the words to act on are empty")
            return Execute(page, "", gesture=gesture, text=words, **options)
        if rest[0][0] not in ACTIONS:
            raise _Usage(f"{rest[0]!r} is not {ACTION_WHAT}")
        if len(rest) > 1:
            raise _Usage(f"takes a page and one id, not {' '.join(rest[1:])!r}")
        return Execute(page, rest[0], gesture=gesture, **options)

    return parse_gesture


def _page_or_element(args: list[str]) -> tuple[PageId, str, list[str]]:
    """`N0001 [A0003] …`: the page, the element's id ("" for the page), the rest."""
    if not args:
        raise _Usage("needs a page address")
    args = _split_address(args)
    page = _page(args[0])
    if len(args) > 1 and is_object_id(args[1]):
        if args[1][0] not in ACTIONS:
            raise _Usage(f"{args[1]!r} is not {ACTION_WHAT}")
        return page, args[1], args[2:]
    return page, "", args[1:]


def _parse_press(args: list[str]) -> Execute:
    args, options = _dialog_options(args)
    page, object_id, rest = _page_or_element(args)
    if not rest:
        raise _Usage("needs a key to press, e.g. Enter, Escape, ArrowDown, Control+a")
    return Execute(page, object_id, gesture="press", keys=tuple(_key(k) for k in rest), **options)


_DISTANCE = re.compile(r"(-?\d{1,5}),(-?\d{1,5})")


def _distance(args: list[str]) -> tuple[list[str], tuple[int, int] | None]:
    """Take `--by DX,DY` (pixels right, down; negative for left, up) out of args."""
    if "--by" not in args:
        return args, None
    at = args.index("--by")
    found = _DISTANCE.fullmatch(args[at + 1]) if at + 1 < len(args) else None
    if found is None:
        raise _Usage("--by takes pixels right,down as two whole numbers, e.g. --by 120,0 "
                     "or --by -40,25")
    return args[:at] + args[at + 2 :], (int(found.group(1)), int(found.group(2)))


def _parse_drag(args: list[str]) -> Execute:
    args, by = _distance(args)
    args, options = _dialog_options(args)
    page, object_id, rest = _page_and_object(args, ACTIONS, ACTION_WHAT)
    if by is not None:
        if rest:
            raise _Usage(f"drags onto an element or --by a distance, not both: {' '.join(rest)!r}")
        return Execute(page, object_id, gesture="drag", by=by, **options)
    if len(rest) != 1 or not is_object_id(rest[0]) or rest[0][0] not in ACTIONS:
        raise _Usage("needs the id of the element to drop onto, e.g. drag N0001 A0003 A0007, "
                     "or a distance, e.g. drag N0001 A0003 --by 120,0")
    return Execute(page, object_id, gesture="drag", target=rest[0], **options)


def _parse_scroll(args: list[str]) -> Execute:
    page, object_id, rest = _page_or_element(args)
    if len(rest) > 1 or (rest and rest[0].lower() not in SCROLL_WHERE):
        raise _Usage(f"scrolls {' | '.join(SCROLL_WHERE)}, not {' '.join(rest)!r}")
    where = rest[0].lower() if rest else ("" if object_id else "down")
    return Execute(page, object_id, gesture="scroll", scroll=where)


def _parse_upload(args: list[str]) -> Execute:
    page, object_id, rest = _page_and_object(args, "A", "a file field's action id (A0001)")
    if not rest:
        raise _Usage("needs the name of a file in the uploads directory")
    return Execute(page, object_id, gesture="upload", files=tuple(rest))


def _page_gesture(gesture: str) -> Callable[[list[str]], Command]:
    """`back N0004`: a gesture on the page's tab as a whole."""

    def parse_gesture(args: list[str]) -> Command:
        args, options = _dialog_options(args)
        if len(args) != 1:
            raise _Usage("takes exactly one page address" if args else "needs a page address")
        return Execute(_page(args[0]), "", gesture=gesture, **options)

    return parse_gesture


def _parse_focus(args: list[str]) -> Command:
    """`focus N0001` captures the tab; `focus N0001 A0003` puts keyboard focus on an element."""
    page, object_id, rest = _page_or_element(args)
    if rest:
        raise _Usage("takes a page address and at most one id")
    return Execute(page, object_id, gesture="focus") if object_id else Focus(page)


def _parse_single_page(make: Callable[[PageId], Command]) -> Callable[[list[str]], Command]:
    def parse_page_only(args: list[str]) -> Command:
        if len(args) != 1:
            raise _Usage("takes exactly one page address" if args else "needs a page address")
        return make(_page(args[0]))

    return parse_page_only


def _parse_lookup(args: list[str]) -> Lookup:
    page, table, rest = _page_and_object(args, "T", "a table id (T01)")
    filters = dict(_assignments(rest, allowed=("row", "col")))
    return Lookup(page, table, filters.get("row"), filters.get("col"))


def _parse_resolve(args: list[str]) -> Resolve:
    if len(args) != 2:
        raise _Usage("needs a page and one reference")
    return Resolve(_page(args[0]), args[1])


# explore's bounds: option → (field, lowest, highest).
EXPLORE_BOUNDS = {"--pages": ("pages", 1, 5000), "--depth": ("depth", 0, 50),
                  "--time": ("seconds", 1, 3600)}


def _parse_explore(args: list[str]) -> Explore:
    """Options and the URL in any order."""
    found: dict[str, Any] = {}
    urls: list[str] = []
    words = iter(args)
    for word in words:
        if word in ("--resume", "--refresh"):
            found[word[2:]] = True
        elif word in EXPLORE_BOUNDS:
            name, low, high = EXPLORE_BOUNDS[word]
            value = next(words, "")
            if not value.isdigit() or not low <= int(value) <= high:
                raise _Usage(f"{word} takes a whole number from {low} to {high}")
            found[name] = int(value)
        elif word.startswith("--"):
            raise _Usage(f"unknown option {word!r}; options: --pages N, --depth D, --time S, "
                         "--resume, --refresh")
        else:
            urls.append(word)
    if len(urls) > 1:
        raise _Usage("takes one URL")
    if not urls and not found.get("resume"):
        raise _Usage("needs a URL (or --resume, to go on with the last unfinished one)")
    if found.get("resume") and found.get("refresh"):
        raise _Usage("--resume goes on, --refresh starts again: not both")
    url = _parse_open(urls).url if urls else None
    return Explore(url, **found)


def _parse_search(args: list[str]) -> Search:
    if len(args) < 2:
        raise _Usage("needs a page or a site, then the words to search for")
    words = " ".join(args[1:])
    page = parse_page_id(args[0])
    if page is not None:
        return Search(words, page=page)
    return Search(words, url=_parse_open(args[:1]).url)


def _parse_choose(args: list[str]) -> Choose:
    if len(args) != 3:
        raise _Usage('needs a page, the menu\'s label and the item\'s words, each quoted: '
                     'choose N0001 "Sort by" "Price: low to high"')
    return Choose(_page(args[0]), args[1], args[2])


def _parse_help(args: list[str]) -> Help:
    if len(args) > 1:
        raise _Usage("takes at most one command or topic name")
    return Help(args[0] if args else None)


@dataclass(frozen=True)
class Spec:
    """One verb: how to parse its arguments, its usage line, and what it does."""

    parse: Callable[[list[str]], Command]
    usage: str
    summary: str


COMMANDS: dict[str, Spec] = {
    "retrieve": Spec(
        _parse_retrieve, "retrieve [-k N] [--refresh] <query…>",
        f"web search, then fetch and compile the top N results (default {DEFAULT_RESULTS})",
    ),
    "open": Spec(_parse_open, "open <url>", "fetch and compile one URL into a new page N…"),
    "execute": Spec(
        _parse_execute, "execute <page> <id> [name=value …] [--press KEY]",
        "run action A… (click, fill, select, check, submit), or click link L…, on the live page; "
        'the id may be the control\'s label in quotes (execute @ "Add person")',
    ),
    "fill": Spec(
        _parse_fill, "fill <page> <id> <input…>",
        "set a form's fields (name=value …) without submitting it, as a person fills them",
    ),
    "click": Spec(
        _pointer_gesture("click"), "click <page> <id-or-words>",
        "click an element, or words the page shows (quoted), where they are drawn",
    ),
    "dblclick": Spec(
        _pointer_gesture("dblclick"), "dblclick <page> <id-or-words>",
        "double-click an element, or words the page shows (quoted)",
    ),
    "rightclick": Spec(
        _pointer_gesture("rightclick"), "rightclick <page> <id-or-words>",
        "right-click an element or words (opens the page's context menu)",
    ),
    "hover": Spec(
        _pointer_gesture("hover"), "hover <page> <id-or-words>",
        "move the mouse over an element or words",
    ),
    "highlight": Spec(
        _pointer_gesture("highlight"), "highlight <page> <id-or-words>",
        "select an element's text, or the quoted words, by a mouse drag over them",
    ),
    "press": Spec(
        _parse_press, "press <page> [<id>] <key…>",
        "press keys on an element or the page: Enter, Escape, Tab, ArrowDown, Control+a …",
    ),
    "drag": Spec(
        _parse_drag, "drag <page> <id> <onto-id> | --by DX,DY",
        "drag an element onto another, or by pixels right,down (a resizable box by its corner)",
    ),
    "scroll": Spec(
        _parse_scroll, "scroll <page> [<id>] [up|down|top|bottom]",
        "scroll the page or an element; with an id alone, bring it into view",
    ),
    "upload": Spec(
        _parse_upload, "upload <page> <id> <file…>",
        "put files from the uploads directory into a file field",
    ),
    "back": Spec(_page_gesture("back"), "back <page>", "go back in the tab's history"),
    "forward": Spec(_page_gesture("forward"), "forward <page>", "go forward in the tab's history"),
    "focus": Spec(
        _parse_focus, "focus <page> [<id>]",
        "make that page's tab the active one and capture it; with an id, focus that element",
    ),
    "lookup": Spec(
        _parse_lookup, "lookup <page> <T..> [row=…] [col=…]",
        "matching table cells, each with its whole row and its actions",
    ),
    "resolve": Spec(
        _parse_resolve, "resolve <page> <ref>",
        "an in-page reference (#anchor, relative URL, L…) → an address",
    ),
    "close": Spec(
        _parse_single_page(Close), "close <page>", "close the live tab; the stored page stays"
    ),
    "explore": Spec(
        _parse_explore, "explore <url> [--pages N] [--depth D] [--time S] [--resume|--refresh]",
        "walk a site breadth first (safely: no form sent, nothing deleted) and keep its map "
        "in _sites/<site>/map.md",
    ),
    "search": Spec(
        _parse_search, "search <page-or-site> <term…>",
        "type the words into the page's (or the site's) search box and submit: the results page",
    ),
    "choose": Spec(
        _parse_choose, "choose <page> <menu> <item>",
        "open a menu, dropdown or list by its label and pick the item by its words",
    ),
    "help": Spec(
        _parse_help, "help [<topic>]",
        "every command and the topics; or one command's usage, or a topic (help forms)",
    ),
}


# Most usages fit in this column; the few longer ones push their summary along rather than
# padding every line to the longest (the list is read by agents, whose cost is bytes).
HELP_USAGE_WIDTH = 42


def help_text(verb: str | None = None) -> str:
    """The grammar, one verb per line, made from COMMANDS; or one verb's usage."""
    if verb is not None and verb in COMMANDS:
        spec = COMMANDS[verb]
        return f"usage: {spec.usage}\n  {spec.summary}\n"
    lines = [f"  {spec.usage:<{HELP_USAGE_WIDTH}}  {spec.summary}" for spec in COMMANDS.values()]
    return (
        "commands (write one line to .ctl, then cat .ctl):\n"
        + "\n".join(lines)
        + "\nquoting follows the shell: execute N0003 A0002 q=\"red shoes\"\n"
        + "every acting command takes --accept, --dismiss or --answer TEXT for a dialog it raises\n"
    )


def _text_of(line: str | bytes) -> str:
    if isinstance(line, bytes):
        if len(line) > MAX_COMMAND_BYTES:
            raise CommandSyntaxError(f"a command is at most {MAX_COMMAND_BYTES} bytes; got {len(line)}")
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandSyntaxError("a command must be UTF-8 text") from None
    if len(line.encode("utf-8", "surrogatepass")) > MAX_COMMAND_BYTES:
        raise CommandSyntaxError(f"a command is at most {MAX_COMMAND_BYTES} bytes")
    return line.strip()


def parse(line: str | bytes) -> Command:
    """One command line → a Command. Tolerates a trailing newline, CRLF and surrounding space."""
    text = _text_of(line)
    if not text:
        raise CommandSyntaxError("empty command\n" + help_text())
    if "\n" in text or "\r" in text:
        raise CommandSyntaxError("one command per write: the text holds several lines")
    if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in text):
        raise CommandSyntaxError("the command holds control characters (binary data?)")
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise CommandSyntaxError(f"cannot split the command as the shell would: {error}") from None
    if not words:
        raise CommandSyntaxError("empty command\n" + help_text())
    verb = words[0].lower()
    spec = COMMANDS.get(verb)
    if spec is None:
        raise CommandSyntaxError(f"unknown command {words[0]!r}\n" + help_text())
    try:
        return spec.parse(words[1:])
    except _Usage as problem:
        raise CommandSyntaxError(f"{verb}: {problem}\nusage: {spec.usage}") from None
