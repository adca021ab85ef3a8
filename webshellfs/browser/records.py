"""What the browser hands back: a capture of one tab plus what happened while it was taken."""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass

from webshellfs.errors import WebshellError
from webshellfs.fetch import Capture


@dataclass(frozen=True)
class CapturedResponse:
    """A response kept as a resource of the page (resources.tsv): a same-origin JSON or text
    response the page received, or a download it started (filename: the name it suggested)."""

    url: str
    content_type: str
    body: bytes
    filename: str = ""


@dataclass(frozen=True)
class DialogRecord:
    """An alert/confirm/prompt/beforeunload the page raised, and what we answered."""

    kind: str
    message: str
    answer: str


@dataclass(frozen=True)
class DownloadRecord:
    """A download the page started: its bytes when captured, or why it was refused."""

    url: str
    filename: str
    body: bytes
    refused: str = ""

    def as_response(self) -> CapturedResponse:
        """The download as a resource; its type is guessed from its name (a download's own
        headers are not given to us)."""
        guessed, _ = mimetypes.guess_type(self.filename, strict=False)
        return CapturedResponse(self.url, guessed or "application/octet-stream", self.body,
                                self.filename)


@dataclass(frozen=True)
class Gesture:
    """How to act on an element (or the whole page) beyond the action's own operation.

    Attributes:
        name: "" for the operation itself (click, fill, select …), else one of
            gestures.GESTURES: click, dblclick, rightclick, hover, highlight, focus, press,
            drag, scroll, upload, back, forward.
        keys: pressed in order: the press gesture's keys, or keys pressed after the operation.
        target: drag: the locator of the element to drop onto.
        text: a pointer gesture's or highlight's words: it acts on the innermost shown element
            of the tab whose own text holds them, at the words' own box. "" acts on the
            element itself (a highlight selects its whole text).
        by: drag: the distance (right, down) in CSS pixels to move the element by, instead of
            a target to drop onto.
        files: upload: absolute paths of the files to put into the field.
        scroll: up | down | top | bottom, or "" to bring the element into view.
        dialog: "accept" or "dismiss" for a dialog the gesture raises ("": accept).
        answer: the text typed into a prompt before accepting it.
    """

    name: str = ""
    keys: tuple[str, ...] = ()
    target: str = ""
    files: tuple[str, ...] = ()
    scroll: str = ""
    dialog: str = ""
    answer: str | None = None
    text: str = ""
    by: tuple[float, float] | None = None


@dataclass(frozen=True)
class WordsShownBy:
    """An element of the tab showing a text target's words: its shown text (cut short) and
    the locator of it or of the nearest operable element around it ("" if none)."""

    text: str
    locator: str


class WordsNotShown(WebshellError):
    """A text target that no shown element holds, or that several hold equally well: nothing
    was done. `candidates` are the elements that came closest (at most a few)."""

    def __init__(self, message: str, candidates: tuple[WordsShownBy, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


@dataclass(frozen=True)
class TabCapture:
    """The rendered state of one live tab after open / execute / navigate / focus.

    Attributes:
        tab_id: the live tab ("t3"); "" when no tab stays open (a non-HTML response).
        capture: the document; for HTML the serialized rendered DOM (text/html; charset=utf-8),
            otherwise the raw response body with its own content type.
        navigated: the URL (without fragment) differs from the tab's URL before the call.
        resources: same-origin JSON/text responses seen during this call.
        dialogs: dialogs the page raised during this call.
        downloads: downloads the page started during this call.
        new_tabs: tabs the page opened during this call (popups, target=_blank).
        closed_tabs: tabs the pool closed to stay under its cap (their pages become stored).
        notes: anything the caller should tell the user (a relaunch and what it lost, caps hit).
        unmet: each control the call set that does not show what was asked, read back once the
            page settled (`size: asked Poster; the field shows A3 landscape`); for a form,
            any at all means it was not submitted.
        screenshot_number: the tab's number for the screenshot of the viewport this capture
            started right after the snapshot (screenshots.py); it is taken while the caller
            compiles, and `Browser.screenshot` returns it. 0: none (screenshots off, not asked
            for, a non-HTML response).
    """

    tab_id: str
    capture: Capture
    navigated: bool = False
    resources: tuple[CapturedResponse, ...] = ()
    dialogs: tuple[DialogRecord, ...] = ()
    downloads: tuple[DownloadRecord, ...] = ()
    new_tabs: tuple[str, ...] = ()
    closed_tabs: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    screenshot_number: int = 0
    unmet: tuple[str, ...] = ()

    @property
    def kept(self) -> tuple[CapturedResponse, ...]:
        """What the page's resources are made of: the responses, then the downloads stored
        (a refused one is only reported)."""
        return self.resources + tuple(d.as_response() for d in self.downloads if not d.refused)
