"""Web components as a live capture inlines them (open shadow roots, slotted children, ids
made unique per shadow root): each control is one action, a select-only combobox lists the
options its list holds before it is opened."""

from __future__ import annotations

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import format_inputs

URL = "https://print.example.test/order"

# What browser/scripts.py SNAPSHOT writes for two instances of a select component, a tab whose
# shadow root draws it with a pointer box, and the page's own listeners (data-wsfs-op).
CAPTURE = """<html><body><main><h1>Print order</h1>
<x-select id="size" data-wsfs-id="w1" data-wsfs-op="click">
  <label id="label~s1" data-wsfs-id="w2" data-wsfs-op="click">Paper size</label>
  <div role="combobox" aria-labelledby="label~s1" aria-expanded="false"
    aria-controls="listbox~s1" tabindex="0" data-wsfs-id="w3"
    data-wsfs-op="click focusable pointer"><span>A3 landscape</span></div>
  <div id="listbox~s1" role="listbox" aria-labelledby="label~s1" data-wsfs-id="w4" hidden="">
    <x-option value="a4" role="option" aria-selected="false"
      data-wsfs-id="w5"><div>A4 portrait</div></x-option>
    <x-option value="a3" role="option" aria-selected="true"
      data-wsfs-id="w6"><div>A3 landscape</div></x-option>
    <x-option value="poster" role="option" aria-selected="false"
      data-wsfs-id="w7"><div>Poster</div></x-option>
  </div></x-select>
<x-select id="finish" data-wsfs-id="w8" data-wsfs-op="click">
  <label id="label~s2" data-wsfs-id="w9" data-wsfs-op="click">Finish</label>
  <input role="combobox" readonly aria-labelledby="label~s2" aria-expanded="true"
    aria-controls="listbox~s2" data-wsfs-id="w10" value="Matte">
  <div id="listbox~s2" role="listbox" aria-labelledby="label~s2" data-wsfs-id="w11">
    <x-option value="matte" role="option" aria-selected="true"
      data-wsfs-id="w12"><div>Matte</div></x-option>
    <x-option value="gloss" role="option" aria-selected="false"
      data-wsfs-id="w13"><div>Gloss</div></x-option>
  </div></x-select>
<fieldset role="radiogroup" aria-labelledby="label~s3">
  <label id="label~s3" data-wsfs-id="w20" data-wsfs-op="click">Delivery</label>
  <x-radio role="radio" aria-checked="true" data-wsfs-id="w21"
    data-wsfs-op="click">Post</x-radio>
</fieldset>
<x-tab-group><div class="frame" data-wsfs-id="w30" data-wsfs-op="click press">
  <div role="tablist" data-wsfs-id="w14">
  <x-tab role="tab" aria-selected="true" data-wsfs-id="w15" data-wsfs-op="item"><div
    class="tab" data-wsfs-id="w16" data-wsfs-op="pointer">Paper</div></x-tab>
  <x-tab role="tab" aria-selected="false" data-wsfs-id="w17" data-wsfs-op="item"><div
    class="tab" data-wsfs-id="w18" data-wsfs-op="pointer">Delivery</div></x-tab>
  </div>
  <div role="tabpanel">Matte paper, 200 g.</div>
</div></x-tab-group>
<p>A card <span data-wsfs-id="w19" data-wsfs-op="pointer">Share</span> with its own button.</p>
</main></body></html>"""


def test_each_component_control_is_one_action() -> None:
    """Not also: a label that names a control or group by aria-labelledby, the box a tab's
    shadow root draws with a pointer, a tab group's frame, an open select's own list."""
    page = compile_page(CAPTURE.encode(), URL)
    assert [(a.kind, a.control, a.label, a.locator) for a in page.actions] == [
        ("fill", "combobox", "Paper size", "w3"),
        ("fill", "combobox", "Finish", "w10"),
        ("check", "radio", "Post", "w21"),
        ("click", "tab", "Paper", "w15"),
        ("click", "tab", "Delivery", "w17"),
        ("click", "clickable", "Share", "w19"),
    ]


def test_a_select_only_combobox_lists_its_options_before_it_is_opened() -> None:
    size, finish = compile_page(CAPTURE.encode(), URL).actions[:2]
    assert format_inputs(size) == (
        "value(combobox: A4 portrait|A3 landscape|Poster; current=A3 landscape)")
    # A select drawn as a read-only field, open: its list is its choices, not a second control.
    assert format_inputs(finish) == "value(combobox: Matte|Gloss; current=Matte)"


def test_a_combobox_one_types_into_offers_no_choices() -> None:
    html = ('<html><body><input role="combobox" aria-controls="s" aria-label="City">'
            '<ul id="s" role="listbox"><li role="option">Paris</li></ul></body></html>')
    city = compile_page(html.encode(), URL).actions[0]
    assert city.fields[0].choices == ()
