"""What an answer tells of an action's effect: the lines it added and removed, messages first,
the controls that came or went, bounded; and the outline of a page it stored."""

from __future__ import annotations

from webshellfs.contract.layout import FileDiff, map_outline, map_summary
from webshellfs.engine.effect import ANSWER_LINES, bounded, effect_lines

ACTIONS = "id\tkind\tlabel\tcontext\tinputs\tsection\n"



def test_added_messages_come_first_then_the_change_as_a_diff_reads() -> None:
    before = {
        "content/01-cart.md": b"# Cart\nBlue mug\nTotal: 12 EUR\n",
        "actions.tsv": (ACTIONS + "A0001\tclick\tAdd\t\t\tcontent/01-cart.md\n").encode(),
    }
    after = {
        "content/01-cart.md": b"# Cart\nBlue mug\nRed cup\nTotal: 18 EUR\nItem added to your cart\n",
        "actions.tsv": (ACTIONS + "A0002\tclick\tCheckout\t\t\tcontent/01-cart.md\n").encode(),
        "links.tsv": b"id\turl\n",
    }
    diff = FileDiff(changed=("actions.tsv", "content/01-cart.md", "links.tsv"))
    assert effect_lines(diff, before.get, after.get) == [
        "+ content/01-cart.md:5: Item added to your cart",
        "- content/01-cart.md:3: Total: 12 EUR",
        "+ content/01-cart.md:3: Red cup",
        "+ content/01-cart.md:4: Total: 18 EUR",
        '+ control A0002 click "Checkout"',
        '- control A0001 click "Add"',
    ]


def test_a_control_a_changed_line_shows_is_not_told_twice() -> None:
    before = {"content/01-todo.md": b"# todo\n", "actions.tsv": ACTIONS.encode()}
    after = {
        "content/01-todo.md": b'# todo\n- [A0004 checkbox "milk"] milk\n',
        "actions.tsv": (ACTIONS + "A0004\tcheck\tmilk\t\t\tcontent/01-todo.md\n").encode(),
    }
    diff = FileDiff(changed=("actions.tsv", "content/01-todo.md"))
    assert effect_lines(diff, before.get, after.get) == [
        '+ content/01-todo.md:2: - [A0004 checkbox "milk"] milk',
    ]


def test_a_control_whose_state_changed_out_of_sight_is_told_with_its_state() -> None:
    # Sort buttons in a table's header: the table's rows moved, and the buttons' states (no
    # line of text shows them) say which way it is sorted now.
    row = "A000{}\tclick\t{}\t{}\t\ttables/T01.tsv\n"
    before = {"actions.tsv": (ACTIONS + row.format(1, "Name", "sorted ascending")
                              + row.format(2, "Score", "")).encode()}
    after = {"actions.tsv": (ACTIONS + row.format(1, "Name", "")
                             + row.format(2, "Score", "sorted descending")).encode()}
    diff = FileDiff(changed=("actions.tsv",))
    assert effect_lines(diff, before.get, after.get) == [
        '~ control A0001 click "Name": no state (was: sorted ascending)',
        '~ control A0002 click "Score": sorted descending (was: no state)',
    ]


def test_many_controls_that_came_in_one_file_are_told_on_one_line() -> None:
    # A calendar's days: cells of a table, so no changed line mentions them.
    day = "A00{:02d}\tclick\t{}\ton: press\t\tboilerplate/popup.md\n"
    after = {"actions.tsv": (ACTIONS + "".join(day.format(n + 10, n) for n in range(1, 32))
                             + "A0050\tclick\tOK\t\t\tcontent/01-date.md\n").encode()}
    diff = FileDiff(changed=("actions.tsv",))
    assert effect_lines(diff, {"actions.tsv": ACTIONS.encode()}.get, after.get) == [
        '+ 31 controls in boilerplate/popup.md, A0011…A0041: "1", "2", "3", "4", "5", "6", '
        '… "31" (each in actions.tsv)',
        '+ control A0050 click "OK"',
    ]


def test_new_files_and_table_rows_are_told_and_hidden_text_is_not() -> None:
    after = {
        "boilerplate/popup.md": b"# popup\nSaved!\n",
        "boilerplate/hidden.md": b"# (hidden)\nsecret\n",
        "tables/T01.tsv": b"name\tqty\nmug\t2\n",
    }
    diff = FileDiff(added=("boilerplate/hidden.md", "boilerplate/popup.md", "tables/T01.tsv"))
    assert effect_lines(diff, {}.get, after.get) == [
        "+ boilerplate/popup.md:2: Saved!",
        "+ boilerplate/popup.md:1: # popup",
        "+ tables/T01.tsv:1: name qty",
        "+ tables/T01.tsv:2: mug 2",
    ]


def test_the_answer_shows_the_first_lines_and_says_where_the_rest_is() -> None:
    lines = [f"+ content/01-x.md:{n}: row {n}" for n in range(1, 41)]
    shown = bounded(lines, "cat N0002/_state.md")
    assert len(shown) == ANSWER_LINES + 1
    assert shown[0] == "  + content/01-x.md:1: row 1"
    assert shown[-1] == f"  … {40 - ANSWER_LINES} more: cat N0002/_state.md"
    assert bounded(["+ a:1: x" * 200] * 5, "cat N0002/_state.md")[-1].startswith("  … ")
    assert bounded([], "anything") == []


def test_a_page_outline_is_its_sections_and_tables_from_its_map() -> None:
    map_md = (
        "# Shop\nurl: https://e.test/\npage: N0001\n\n## content/ (2 sections)\n"
        "01-shop.md  1 line\n  02-sizes.md  2 lines  [T01]\n\n## tables/ (1)\n"
        "T01  4×3  in content/02-sizes.md\n\n## records\nlinks.tsv 0\n"
    ).encode()
    assert map_outline(map_md) == [
        "content/ (2 sections)", "  01-shop.md  1 line", "    02-sizes.md  2 lines  [T01]",
        "tables/ (1)", "  T01  4×3  in content/02-sizes.md",
    ]
    long = b"## content/ (30 sections)\n" + b"".join(b"%02d-x.md  1 line\n" % n for n in range(30))
    outline = map_outline(long, limit=12)
    assert len(outline) == 12 and outline[-1] == "  … 20 more lines in _map.md"
    # A long article with many tables: both parts keep an even share, each cut with its rest.
    tables = b"## tables/ (13)\n" + b"".join(b"T%02d  3\xc3\x972\n" % n for n in range(1, 14))
    outline = map_outline(long + tables, limit=12)
    assert outline[:2] == ["content/ (30 sections)", "  00-x.md  1 line"]
    assert outline[5:] == ["  … 26 more lines in _map.md", "tables/ (13)", "  T01  3×2",
                           "  T02  3×2", "  T03  3×2", "  T04  3×2", "  … 9 more lines in _map.md"]


def test_a_retrieve_result_shows_its_sections_on_one_bounded_line() -> None:
    map_md = (b"## content/ (4 sections)\n01-keepers.md  2 lines\n  02-the-lamp.md  2 lines\n"
              b"  03-by-decade.md  2 lines  [T01 \xc2\xb7 L0002]\n  04-automation.md  1 line\n")
    assert map_summary(map_md) == (
        "content/: 01-keepers · 02-the-lamp · 03-by-decade [T01] · 04-automation")
    assert map_summary(map_md, width=40) == "content/: 01-keepers · 02-the-lamp · … 2 more"
    assert map_summary(b"## content/ (0 sections)\n") == "content/: (empty)"


def test_a_short_page_is_shown_whole_with_its_few_actions_and_their_inputs() -> None:
    from webshellfs.compiler import compile_page
    from webshellfs.contract.layout import render_page
    from webshellfs.engine.effect import page_outline

    html = (b"<h1>Search</h1><p>3 articles from 2009.</p><form action=/s><input name=q>"
            b"<select name=year><option>2009<option>2019</select><button>Go</button></form>")
    page = compile_page(html, "https://e.test/")
    outline = page_outline("N0002", page, render_page(page, "N0002")["_map.md"])
    assert outline[:2] == ["content/01-search.md:", "  3 articles from 2009."]
    assert "actions:" in outline
    assert any(line.startswith('  A0001 form "Go" q(text) year(select: 2009|2019')
               for line in outline), outline
    assert outline[-1] == "all of N0002/content/ is above"


def test_a_page_outline_names_the_links_its_navigation_shows() -> None:
    from webshellfs.compiler import compile_page
    from webshellfs.contract.layout import render_page
    from webshellfs.engine.effect import page_outline

    # The way on to the rest of the site: the nav's links, those of a closed menu and those
    # into the page itself left out.
    html = (b"<nav><a href=/>Home</a> <a href=/products.html>Products</a> <a href=#top>Top</a>"
            b"<button aria-expanded=false aria-controls=more>More</button>"
            b"<ul id=more hidden><li><a href=/press.html>Press</a></ul></nav>"
            b"<main><h1>Trail Shop</h1><p>Shoes and jackets for the trail.</p></main>")
    page = compile_page(html, "https://e.test/shop.html")
    outline = page_outline("N0001", page, render_page(page, "N0001")["_map.md"], navigation=True)
    assert "nav: Home [L0001] · Products [L0002] (boilerplate/nav.md)" in outline, outline
