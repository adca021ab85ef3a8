"""Controls of a real web-component library, Shoelace (its own elements, open shadow roots),
listed and operated through the real Chromium as the engine does it.

A script, not a test (pytest does not collect it), because the library is not in the
repository and the suite must not need the network. Get the package with npm, outside the
project, then run from the project root:

    (mkdir -p /tmp/wc && cd /tmp/wc && npm install @shoelace-style/shoelace)
    .venv/bin/python tests/benchmarks/bench_web_components.py \
        --shoelace /tmp/wc/node_modules/@shoelace-style/shoelace

(DIR else `$WEBSHELL_SHOELACE`.) The package's `cdn/` folder, whose ES modules carry their
own dependencies, is copied into a temporary directory with PAGE below (an order form of an
input, a select, a radio group, a checkbox, a switch, tabs, a dropdown menu and a dialog) and served on 127.0.0.1. The
script checks what the issue asks of such controls: each is listed once, under the kind and
label a person reads (EXPECTED); the select's options are its choices before it is opened;
and each task (TASKS: choose "Poster" by its label, tick a radio, a checkbox and a switch, type
a name, open a tab) is done by executing the compiled action, then read back from the page's
own summary line; a menu and a dialog are opened by their trigger and an item or button
chosen in them. It prints one line per check and the number passed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import chromium_path  # noqa: E402
from webshellfs.browser import Browser, BrowserOptions, TabCapture  # noqa: E402
from webshellfs.compiler import compile_page  # noqa: E402
from webshellfs.contract.layout import format_inputs, render_page  # noqa: E402
from webshellfs.contract.records import Action  # noqa: E402

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Print order</title>
<link rel="stylesheet" href="/shoelace/themes/light.css">
<script type="module" src="/shoelace/shoelace.js"></script></head>
<body><main><h1>Print order</h1>
<sl-input id="name" label="Name on the order"></sl-input>
<sl-select id="size" label="Paper size" value="a3">
  <sl-option value="a4">A4 portrait</sl-option>
  <sl-option value="a3">A3 landscape</sl-option>
  <sl-option value="poster">Poster</sl-option>
</sl-select>
<sl-radio-group id="finish" label="Finish" value="matte">
  <sl-radio value="matte">Matte</sl-radio>
  <sl-radio value="gloss">Gloss</sl-radio>
</sl-radio-group>
<sl-checkbox id="proof">Send a proof</sl-checkbox>
<sl-switch id="gift">Gift wrap</sl-switch>
<sl-tab-group>
  <sl-tab slot="nav" panel="paper">Paper</sl-tab>
  <sl-tab slot="nav" panel="delivery">Delivery</sl-tab>
  <sl-tab-panel name="paper">Matte paper, 200 g.</sl-tab-panel>
  <sl-tab-panel name="delivery">Ships in two days.</sl-tab-panel>
</sl-tab-group>
<sl-dropdown>
  <sl-button slot="trigger" caret>Export</sl-button>
  <sl-menu id="menu">
    <sl-menu-item value="pdf">As PDF</sl-menu-item>
    <sl-menu-item value="png">As PNG</sl-menu-item>
  </sl-menu>
</sl-dropdown>
<sl-dialog label="Confirm order" id="dialog"><p>Place the order now?</p>
  <sl-button slot="footer" variant="primary" id="place">Place order</sl-button></sl-dialog>
<sl-button id="review">Review order</sl-button>
<p id="order">Order: a3, matte, no proof, no gift wrap, name -.</p>
<script type="module">
  const get = (id) => document.getElementById(id);
  const say = () => {
    get('order').textContent = `Order: ${get('size').value}, ${get('finish').value}, `
      + `${get('proof').checked ? 'proof' : 'no proof'}, `
      + `${get('gift').checked ? 'gift wrap' : 'no gift wrap'}, name ${get('name').value || '-'}.`;
  };
  document.addEventListener('sl-change', say);
  document.addEventListener('sl-input', say);
  get('menu').addEventListener('sl-select', (event) => {
    get('order').textContent = `Exported as ${event.detail.item.value}.`;
  });
  get('review').addEventListener('click', () => get('dialog').show());
  get('place').addEventListener('click', () => {
    get('dialog').hide();
    get('order').textContent = 'Order placed.';
  });
</script>
</main></body></html>
"""

# Every control of PAGE, once each, in document order: (control, label).
EXPECTED = [
    ("text", "Name on the order"), ("combobox", "Paper size"), ("radio", "Matte"),
    ("radio", "Gloss"), ("checkbox", "Send a proof"), ("checkbox", "Gift wrap"),
    ("tab", "Paper"), ("tab", "Delivery"), ("button", "Export"), ("button", "Review order"),
]
SELECT_INPUTS = "value(combobox: A4 portrait|A3 landscape|Poster; current=A3 landscape)"
# (label of the action, its inputs, a line the page shows afterwards), done in this order.
TASKS = [
    ("Paper size", {"value": "Poster"}, "Order: poster, matte, no proof, no gift wrap, name -."),
    ("Gloss", {}, "Order: poster, gloss, no proof, no gift wrap, name -."),
    ("Send a proof", {"value": "on"}, "Order: poster, gloss, proof, no gift wrap, name -."),
    ("Gift wrap", {"value": "on"}, "Order: poster, gloss, proof, gift wrap, name -."),
    ("Name on the order", {"value": "Ada"}, "Order: poster, gloss, proof, gift wrap, name Ada."),
    ("Delivery", {}, "Ships in two days."),
    ("Export", {}, "As PNG"),  # opens the menu
    ("As PNG", {}, "Exported as png."),
    ("Review order", {}, "Place the order now?"),  # opens the dialog
    ("Place order", {}, "Order placed."),
]


def compiled_text(result: TabCapture) -> tuple[str, list[Action]]:
    page = compile_page(result.capture.body, result.capture.url)
    files = render_page(page)
    text = "\n".join(body.decode() for name, body in sorted(files.items())
                     if name.startswith(("content/", "boilerplate/popup")))
    return text, list(page.actions)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def serve(directory: Path) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_checks(browser: Browser, url: str) -> list[tuple[str, bool, str]]:
    checks: list[tuple[str, bool, str]] = []
    result = trio.run(lambda: browser.open(url))
    text, actions = compiled_text(result)
    listed = [(a.control, a.label) for a in actions]
    checks.append(("each control listed once", listed == EXPECTED, repr(listed)))
    select = next((a for a in actions if a.label == "Paper size"), None)
    shown = format_inputs(select) if select is not None else "no select"
    checks.append(("the select's options before it opens", shown == SELECT_INPUTS, shown))
    for label, values, wanted in TASKS:
        chosen = next((a for a in actions if a.label == label), None)
        if chosen is None:
            checks.append((f"{label} {values}", False, "no such action"))
            continue
        try:
            result = trio.run(lambda: browser.execute(result.tab_id, chosen.locator, chosen.kind,
                                                      values))
        except Exception as error:  # noqa: BLE001 - a failed task is a figure, not a crash
            checks.append((f"{label} {values}", False, f"{type(error).__name__}: {error}"))
            continue
        text, actions = compiled_text(result)
        line = next((line for line in text.splitlines() if wanted in line), "")
        checks.append((f"{label} {values}", wanted in text, line))
    return checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoelace", type=Path, default=os.environ.get("WEBSHELL_SHOELACE"),
                        help="the installed @shoelace-style/shoelace package (holding cdn/)")
    args = parser.parse_args()
    if args.shoelace is None or not (Path(args.shoelace) / "cdn" / "shoelace.js").is_file():
        parser.error("--shoelace DIR (or $WEBSHELL_SHOELACE): the package with cdn/shoelace.js")
    chromium = chromium_path()
    if chromium is None:
        parser.error("no Chromium found")
    with tempfile.TemporaryDirectory() as temporary:
        site = Path(temporary)
        shutil.copytree(Path(args.shoelace) / "cdn", site / "shoelace")
        (site / "index.html").write_text(PAGE, encoding="utf-8")
        server = serve(site)
        browser = Browser(BrowserOptions(chromium=chromium, allow_private=True,
                                         load_timeout=20.0, action_timeout=10.0))
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
            checks = run_checks(browser, url)
        finally:
            browser.close_blocking()
            server.shutdown()
    for name, passed, detail in checks:
        print(f"{'ok  ' if passed else 'FAIL'}  {name}: {detail}")
    print(f"{sum(passed for _, passed, _ in checks)} of {len(checks)} checks passed")


if __name__ == "__main__":
    main()
