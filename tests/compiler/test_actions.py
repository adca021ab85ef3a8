"""actions.py: controls, forms and widgets become actions with labels, inputs and context."""

from __future__ import annotations

from pathlib import Path

import lxml.etree
import lxml.html
import pytest

from webshellfs.compiler import compile_page
from webshellfs.compiler.actions import MAX_CHOICES, match_action
from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.contract.layout import format_inputs, render_page
from webshellfs.contract.records import Action

PAGES = Path(__file__).resolve().parents[2] / "fixtures" / "pages"
SHOP = "https://shop.example.test/p/oxford"


def shop_files() -> dict[str, bytes]:
    return render_page(compile_page((PAGES / "forms-shop.html").read_bytes(), SHOP))


def lines(files: dict[str, bytes], path: str) -> list[str]:
    return files[path].decode().splitlines()


def offered(html: str) -> tuple[list[str], list[Action]]:
    """Every element offered to match_action in document order: (mentions, actions)."""
    root = lxml.html.document_fromstring(html)
    builder = PageBuilder(SHOP)
    mentions = [e.inline for el in root.iter() if (e := match_action(el, builder)) is not None]
    return mentions, builder.actions


def test_actions_tsv_of_the_shop_page() -> None:
    assert lines(shop_files(), "actions.tsv") == [
        "id\tkind\tlabel\tcontext\tinputs\tsection",
        (
            "A0001\tsubmit\tSearch\tGET https://shop.example.test/search\t"
            'q(search "Search terms",required) dept(select "Department": ""=All departments|men=Men|women=Women)\t'
            "boilerplate/search.md"
        ),
        (
            "A0002\tsubmit\tSign in\tPOST https://accounts.example.test/login\t"
            "email(email,required) password(password,required) remember(checkbox: yes=Keep me signed in; current=yes)\t"
            "content/01-sign-in.md"
        ),
        'A0003\tclick\tShow password\tform A0002 "Sign in"; collapsed\t\tcontent/01-sign-in.md',
        (
            "A0004\tselect\tClothing size\t\tsize(select: s=Small|m=Medium|lt=Large Tall; current=m)\t"
            "content/02-oxford-shirt.md"
        ),
        "A0005\tselect\tColour\t\tcolour(radio: white=White|blue=Blue; current=white)\tcontent/02-oxford-shirt.md",
        "A0006\tfill\tQuantity\t\tqty(number,min=1,current=1)\tcontent/02-oxford-shirt.md",
        "A0007\tclick\tAdd to cart\t\t\tcontent/02-oxford-shirt.md",
        "A0008\tclick\tShow more reviews\t\t\tcontent/02-oxford-shirt.md",
        "A0009\tclick\tDescription\tselected\t\tcontent/02-oxford-shirt.md",
        "A0010\tclick\tDelivery\t\t\tcontent/02-oxford-shirt.md",
        "A0011\ttoggle\tCare instructions\tclosed\t\tcontent/02-oxford-shirt.md",
        "A0012\tedit\tYour review\t\ttext(text)\tcontent/02-oxford-shirt.md",
    ]


def test_a_form_is_one_action_and_its_controls_point_at_it() -> None:
    assert lines(shop_files(), "boilerplate/search.md") == [
        "# (search)",
        '[A0001 form "Search" q(search) dept(select) → GET /search]',
        (
            'Search terms [A0001 q: search "Search terms" placeholder "Shirts, shoes…"] '
            '[A0001 dept: select "Department" = "All departments"] [A0001 submit "Search"]'
        ),
    ]


def test_radio_choices_say_the_value_to_pass() -> None:
    assert (
        '[A0005 colour=white: radio "White"] White [A0005 colour=blue: radio "Blue"] Blue'
        in lines(shop_files(), "content/02-oxford-shirt.md")
    )


def test_javascript_link_is_an_action_not_a_link() -> None:
    files = shop_files()
    assert lines(files, "links.tsv") == [
        "id\turl\ttext\tsection",
        "L0001\thttps://shop.example.test/reviews\tread all reviews\tcontent/02-oxford-shirt.md",
    ]
    assert (
        'More colours are coming. [A0008 link "Show more reviews"] or read all reviews [L0001].'
        in lines(files, "content/02-oxford-shirt.md")
    )


def test_get_form_records_its_target_and_post_form_does_not() -> None:
    _, actions = offered((PAGES / "forms-shop.html").read_text(encoding="utf-8"))
    assert (actions[0].target, actions[1].target) == ("https://shop.example.test/search", "")


def test_locator_finds_the_control_again() -> None:
    root = lxml.html.document_fromstring((PAGES / "forms-shop.html").read_text(encoding="utf-8"))
    builder = PageBuilder(SHOP)
    for element in root.iter():
        match_action(element, builder)
    tree = root.getroottree()
    assert [tree.xpath(a.locator)[0].get("name") for a in builder.actions[3:6]] == [
        "size",
        "colour",
        "qty",
    ]


@pytest.mark.parametrize(
    "html",
    [
        "<p>text</p>",
        "<div class='x'>text</div>",
        "<a href='/next'>next</a>",
        "<a href='#top'>top</a>",
        "<input type='hidden' name='csrf' value='1'>",
        "<div role='navigation'>menu</div>",
        "<div contenteditable='false'>text</div>",
        "<form action='/x'><p>No controls here</p></form>",
    ],
)
def test_non_controls_are_not_actions(html: str) -> None:
    assert offered(html) == ([], [])


@pytest.mark.parametrize(
    ("html", "mention"),
    [
        ("<label>Name <input name=n></label>", '[A0001 n: text "Name"]'),
        ("<input name=n placeholder='Your name'>", '[A0001 n: text "Your name"]'),
        ("<input name=n title='Full name'>", '[A0001 n: text "Full name"]'),
        ("<input name=n aria-label='Name' placeholder='e.g. Ada'>", '[A0001 n: text "Name" placeholder "e.g. Ada"]'),
        ("<input type=image src=go.png alt='Go'>", '[A0001 button "Go"]'),
        ("<button><img src=cart.png alt='Cart'></button>", '[A0001 button "Cart"]'),
        ("<input type=button value='Print'>", '[A0001 button "Print"]'),
        (
            "<textarea name=msg aria-label='Message'>hi</textarea>",
            '[A0001 msg: textarea "Message" = "hi"]',
        ),
        ("<span role=switch aria-checked=true>Dark mode</span>", '[A0001 switch "Dark mode" checked]'),
        ("<a onclick='x()'>More</a>", '[A0001 link "More"]'),
        ("<a href='#' role='button'>Open menu</a>", '[A0001 button "Open menu"]'),
        ("<span onclick='x()'>Close</span>", '[A0001 clickable "Close"]'),
        # A layout's label cell before or after the field's own: the words beside the field.
        (
            "<div><div class=label>Director Name</div><div class=input><input name=d></div></div>",
            '[A0001 d: text "Director Name"]',
        ),
        ("<div><input name=g><div class=ui-label>Genre</div></div>", '[A0001 g: text "Genre"]'),
        # An icon with nothing but an id is named by it, marked as a hint.
        ("<span id=send-reply onclick='x()'></span>", '[A0001 clickable "(id: send-reply)"]'),
        (
            "<button><svg><title>Close dialog</title></svg></button>",
            '[A0001 button "Close dialog"]',
        ),
        (
            "<button class='icon icon--share'><i class='fb'></i></button>",
            '[A0001 button "(class: icon icon--share)"]',
        ),
        (
            "<label><input type=checkbox> Dark mode</label>",
            '[A0001 value=on: checkbox "Dark mode"]',
        ),
    ],
)
def test_labels_come_from_the_first_source_that_has_one(html: str, mention: str) -> None:
    assert offered(html)[0] == [mention]


def test_select_without_selection_shows_its_first_option() -> None:
    _, actions = offered(
        "<select name=s><option value=a>A</option><option value=b>B</option></select>"
    )
    assert format_inputs(actions[0]) == "s(select: a=A|b=B; current=a)"
    _, actions = offered(
        "<select name=s multiple><option value=a>A</option><option value=b selected>B</option></select>"
    )
    assert format_inputs(actions[0]) == "s(select-multiple: a=A|b=B; current=b)"


def test_optgroups_are_kept_on_the_choices() -> None:
    _, actions = offered((PAGES / "forms-shop.html").read_text(encoding="utf-8"))
    assert [(c.value, c.group) for c in actions[3].fields[0].choices] == [
        ("s", "Regular"),
        ("m", "Regular"),
        ("lt", "Tall"),
    ]


def test_control_outside_a_form_joins_it_by_form_id() -> None:
    mentions, actions = offered(
        "<input name=early form=f aria-label='Early'>"
        "<form id=f action='/go'><input name=a aria-label='A'><button>Go</button></form>"
        "<input name=late form=f aria-label='Late'>"
    )
    assert mentions == [
        '[A0001 early: text "Early"]',
        '[A0001 form "Go" a(text) early(text) late(text) → GET /go]',
        '[A0001 a: text "A"]',
        '[A0001 submit "Go"]',
        '[A0001 late: text "Late"]',
    ]
    assert len(actions) == 1


def test_disabled_and_hidden_controls_are_not_form_inputs() -> None:
    mentions, actions = offered(
        "<form action='/s'><input name=q aria-label='Query'><input name=old disabled aria-label='Old'>"
        "<div style='display:none'><input name=trap></div><input type=submit></form>"
    )
    assert format_inputs(actions[0]) == 'q(text "Query")'
    assert '[A0001 old: text "Old" disabled]' in mentions


def test_every_submit_button_of_a_form_points_at_the_form() -> None:
    mentions, actions = offered(
        "<form method=post action='/cart'><input name=qty value=1 aria-label='Qty'>"
        "<button name=op value=save>Save</button><button name=op value=delete>Delete</button></form>"
    )
    assert mentions[-2:] == ['[A0001 submit "Save"]', '[A0001 submit "Delete"]']
    assert actions[0].context == "POST https://shop.example.test/cart"


def test_radio_group_outside_a_form_is_one_action_at_its_first_radio() -> None:
    mentions, actions = offered(
        "<div role=radiogroup aria-label='Ship by'><label><input type=radio name=ship value=std>Standard</label>"
        "<button>Help</button><label><input type=radio name=ship value=exp checked>Express</label></div>"
    )
    assert mentions == [
        '[A0001 ship=std: radio "Standard"]',
        '[A0002 button "Help"]',
        '[A0001 ship=exp: radio "Express"]',
    ]
    assert (
        format_inputs(actions[0]) == 'ship(radio "Ship by": std=Standard|exp=Express; current=exp)'
    )


def test_clickable_container_is_still_walked() -> None:
    root = lxml.html.document_fromstring("<div onclick='open()'><h3>Trip</h3><p>3 days</p></div>")
    emitted = match_action(root.find(".//div"), PageBuilder(SHOP))
    assert emitted == Emitted('[A0001 clickable "Trip"]', block=True, descend=True, action_id="A0001")


def test_listbox_lists_its_options() -> None:
    _, actions = offered(
        "<ul role=listbox aria-label='Sort'><li role=option aria-selected=true>Price</li>"
        "<li role=option data-value=new>Newest</li></ul>"
    )
    assert format_inputs(actions[0]) == "value(listbox: Price|new=Newest; current=Price)"


def test_same_name_checkboxes_are_one_field_with_choices() -> None:
    mentions, actions = offered(
        "<form action='/pizza'><fieldset><legend>Toppings</legend>"
        "<label><input type=checkbox name=top value=cheese checked> Cheese</label>"
        "<label><input type=checkbox name=top value=ham> Ham</label></fieldset>"
        "<button>Order</button></form>"
    )
    assert (
        format_inputs(actions[0])
        == 'top(checkbox "Toppings": cheese=Cheese|ham=Ham; current=cheese)'
    )
    assert mentions[1:3] == [
        '[A0001 top=cheese: checkbox "Cheese" checked]',
        '[A0001 top=ham: checkbox "Ham"]',
    ]


def test_deeply_nested_label_is_read_without_recursion() -> None:
    root = lxml.html.document_fromstring("<label for=x></label><input id=x name=x>")
    inner = root.find(".//label")
    for _ in range(5000):  # deeper than any parser builds, and than Python's recursion limit
        inner = lxml.etree.SubElement(inner, "span")
    inner.text = "Deep"
    emitted = match_action(root.find(".//input"), PageBuilder(SHOP))
    assert emitted is not None and emitted.inline == '[A0001 x: text "Deep"]'


def test_a_huge_select_keeps_its_first_options_with_a_note() -> None:
    options = "".join(f"<option value={i}>Item {i}</option>" for i in range(MAX_CHOICES + 50))
    root = lxml.html.document_fromstring(f"<select name=item>{options}</select>")
    builder = PageBuilder(SHOP)
    match_action(root.find(".//select"), builder)
    assert len(builder.actions[0].fields[0].choices) == MAX_CHOICES
    assert builder.notes == [f"a select (item): kept its first {MAX_CHOICES} options"]


def test_a_widget_wrapping_a_link_or_control_leaves_the_action_to_it() -> None:
    mentions, actions = offered(
        "<ul role=menu><li role=menuitem><a href='/shoes'>Shoes</a></li></ul>"
        "<div role=combobox aria-label='City'><input name=city></div>"
        "<div onclick='go()'><a href='/trip'>Trip</a></div>"
    )
    assert mentions == ['[A0001 city: text "City"]']
    assert [a.kind for a in actions] == ["fill"]


def test_typed_fields_show_their_limits_and_forms() -> None:
    page = compile_page(
        b"<p><input type=range name=volume min=0 max=10 step=1 value=3 aria-label=Volume>"
        b"<input type=date name=due aria-label=Due></p>",
        "https://example.org/",
    )
    shown = [format_inputs(action) for action in page.actions]
    assert shown == [
        "volume(range,min=0,max=10,step=1,current=3)",
        "due(date,format=YYYY-MM-DD|MM/DD/YYYY|DD.MM.YYYY)",
    ]


def content_of(html: str) -> str:
    files = render_page(compile_page(html.encode(), SHOP))
    return "".join(data.decode() for path, data in files.items() if path.startswith("content/"))


@pytest.mark.parametrize(
    ("html", "shown"),
    [
        ("<span id=l>CPU usage</span><div role=meter aria-labelledby=l aria-valuenow=45 "
         "aria-valuemin=0 aria-valuemax=100 aria-valuetext='45%'></div>",
         "CPU usage: 45% (meter, 0 to 100)"),
        ("<progress value=70 max=100>70 %</progress>", "70 (progressbar, 0 to 100)"),
        ("<meter value=0.6></meter>", "0.6 (meter, 0 to 1)"),
        ("<div role=progressbar aria-label=Loading aria-valuenow=3></div>",
         "Loading: 3 (progressbar)"),
    ],
)
def test_a_gauge_is_written_as_the_value_it_shows(html: str, shown: str) -> None:
    assert shown in content_of(f"<h1>Status</h1><p>{html}</p>")


def test_a_nameless_arrow_is_named_and_stated_by_the_item_it_sits_in() -> None:
    mentions, actions = offered(
        "<a role=treeitem href='#about' aria-expanded=false>"
        "<span class=icon data-wsfs-op=click></span>About</a>"
    )
    assert mentions[0] == '[A0001 clickable "About" collapsed]'
    assert actions[0].context == "collapsed"


def test_an_image_made_a_link_is_named_by_its_alt() -> None:
    assert offered("<img role=link alt='W3C Website' src=w.png>")[0] == [
        '[A0001 link "W3C Website"]'
    ]


def test_a_subtree_named_by_aria_owns_is_revealed_by_the_arrow_of_its_item() -> None:
    text = content_of(
        "<h1>Site</h1><ul role=tree><li role=none><a role=treeitem href='#about' "
        "aria-expanded=false aria-owns=sub><span class=icon data-wsfs-op=click></span>About</a>"
        "<ul id=sub role=group hidden><li><a role=treeitem href='#facts'>Facts</a></li></ul>"
        "</li></ul>"
    )
    assert '[hidden until A0001 clickable "About"] - Facts' in text


def test_a_submenu_right_after_its_menu_item_is_revealed_by_it() -> None:
    text = content_of(
        "<h1>Editor</h1><ul role=menubar><li><span role=menuitem aria-haspopup=true "
        "aria-expanded=false>Font</span><ul role=menu hidden><li role=menuitemradio "
        "aria-checked=false>Serif</li></ul></li></ul>"
    )
    assert '[hidden until A0001 menu item "Font"] - Serif' in text


def test_a_native_buttons_states_stand_in_its_mention() -> None:
    """A <button> toggle (Bootstrap's dropdowns, a navbar toggler, a bold button) says in the
    text what actions.tsv says: an agent that greps content/ sees it open or pressed."""
    text, actions = offered(
        '<p><button aria-expanded="false" aria-controls="m">Dropend</button> '
        '<button aria-pressed="true">Bold</button> <button disabled>Gone</button></p>'
        '<ul id="m" hidden><li>Item</li></ul>'
    )
    mentions = " ".join(text)
    assert '[A0001 button "Dropend" collapsed]' in mentions
    assert '[A0002 button "Bold" pressed]' in mentions
    assert '[A0003 button "Gone" disabled]' in mentions
    assert [a.context for a in actions] == ["collapsed", "pressed", "disabled"]


def test_a_sort_button_in_a_column_header_says_which_way_the_column_is_sorted() -> None:
    # aria-sort sits on the header cell; the button a person presses is inside it.
    _, actions = offered(
        '<table><thead><tr><th aria-sort="descending"><button>Score<span></span></button></th>'
        '<th aria-sort="none"><button>Name</button></th><th><button>Age</button></th></tr>'
        '</thead><tbody><tr><td>9</td><td>Ada</td><td>36</td></tr></tbody></table>'
    )
    assert [(a.label, a.context) for a in actions] == [
        ("Score", "sorted descending"), ("Name", ""), ("Age", "")]


def test_a_link_that_opens_a_panel_in_the_page_is_an_action_with_its_state() -> None:
    """An accordion's header (Bootstrap's `<a href="#collapseTwo" aria-expanded>`) says whether
    its panel is open; an ordinary link into the page stays a link."""
    text = content_of(
        "<h1>FAQ</h1>"
        "<h4><a href='#c1' aria-expanded='true' aria-controls='c1'>Item one</a></h4>"
        "<div id='c1'><p>First panel.</p></div>"
        "<h4><a href='#c2' aria-expanded='false' aria-controls='c2'>Item two</a></h4>"
        "<div id='c2' hidden><p>Second panel.</p></div>"
        "<p>See <a href='#c1'>the first answer</a>.</p>"
    )
    assert '[A0001 link "Item one" expanded]' in text
    assert '[A0002 link "Item two" collapsed]' in text
    assert '[hidden until A0002 link "Item two"] Second panel.' in text
    assert "See the first answer [L0001]." in text


def test_a_shown_tooltip_is_told_in_its_controls_mention() -> None:
    """Only a shown element of role tooltip: help text a field is described by stays where it
    is, told once."""
    text = content_of(
        "<h1>Form</h1><p><button aria-describedby='t1'>Save</button> "
        "<input aria-describedby='help' placeholder='Name'> "
        "<button aria-describedby='t2'>Undo</button></p><p id='help'>We never share it.</p>"
        "<div role='tooltip' id='t1'>Saves a copy</div><div role='tooltip' id='t2' hidden>Undo "
        "the last change</div>"
    )
    assert '[A0001 button "Save" tooltip "Saves a copy"]' in text
    assert '[A0002 value: text "Name"]' in text
    assert '[A0003 button "Undo"]' in text


def test_a_form_with_hundreds_of_options_keeps_every_field_in_its_row() -> None:
    # An admin's edit form: two long pickers among plain fields. Only the long option lists
    # move to long-values/, one choice a line; every field stays in the form's row.
    countries = "".join(f"<option value=c{n}>Country {n}</option>" for n in range(250))
    users = "".join(f"<option value={n}{' selected' if n == 7 else ''}>User {n}</option>"
                    for n in range(300))
    html = (f"<form method=post action=/save><input name=title value=Draft>"
            f"<select name=country required>{countries}</select>"
            f"<select name=owner required>{users}</select>"
            f"<select name=state><option value=o>Open</option><option value=c>Closed</option>"
            f"</select><textarea name=body></textarea><button>Save</button></form>")
    files = render_page(compile_page(html.encode(), SHOP))
    row = lines(files, "actions.tsv")[1].split("\t")
    assert row[4] == (
        "title(text,current=Draft) "
        "country(select,required: → long-values/V0001.txt (250 choices); current=c0) "
        "owner(select,required: → long-values/V0002.txt (300 choices); current=7) "
        "state(select: o=Open|c=Closed; current=o) body(textarea)"
    )
    assert lines(files, "long-values/V0002.txt")[:2] == ["0=User 0", "1=User 1"]
    assert len(lines(files, "long-values/V0002.txt")) == 300
    assert lines(files, "long-values/V0001.txt")[249] == "c249=Country 249"
    # A form whose lists fit is written as before, all in its row.
    small = render_page(compile_page(html.replace(countries, "").replace(users, "").encode(),
                                     SHOP))
    assert "long-values/V0001.txt" not in small


def test_a_menu_item_that_opens_on_hover_is_a_hover_target_around_its_link() -> None:
    """A capture's list items that answer to hover (a `:hover` rule or a mouseenter listener
    opens their dropdown) are hover targets though they hold a link: named by their words
    before their controls, else by the link's, never by what the dropdown shows (a mega
    menu's column heading), their mention starting the item's line."""
    text = content_of(
        "<h1>Shop</h1><ul>"
        "<li data-wsfs-op=hover><a href='/guides'>Guides</a><ul hidden>"
        "<li><a href='/maps'>Maps</a></li></ul></li>"
        "<li data-wsfs-op=hover><a href='/products'>Products</a><div>"
        "<h3>Footwear</h3><ul><li><a href='/boots'>Boots</a></li></ul></div></li>"
        "<li data-wsfs-op=hover><span>Company</span><ul>"
        "<li data-wsfs-op=hover><a href='/about'>About us</a></li>"
        "<li><button>Log out</button></li></ul></li>"
        "</ul>"
    )
    assert '- [A0001 hover target "Guides"] Guides [L0001]' in text, text
    # Its closed dropdown is told, as a click menu's is: what pointing at it shows.
    assert '  [hidden until A0001 hover target "Guides"] - Maps [L0002]' in text, text
    assert '- [A0002 hover target "Products"] Products [L0003]' in text, text
    # Open, its submenu's item inside is a hover target of its own.
    assert '- [A0003 hover target "Company"] Company' in text, text
    assert '  - [A0004 hover target "About us"] About us [L0005]' in text, text
