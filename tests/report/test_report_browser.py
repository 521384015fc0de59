"""The report of a real dump, opened in a real browser (Debian's chromium through Playwright).

The seed scenario: f(a, b) compiled for b = 1, 2, 3 (three entries), each split by a print()
into a graph and a resume function. The tests click from the landing page to an entry and
check what is shown; no page may request anything over the network.
"""
import os
import pathlib

import pytest

# screenshots go to test-artifacts/ at the top of the tree (ignored by git)
ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         "test-artifacts")


@pytest.fixture
def page(browser, seed_report):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.requests = []
    pg.on("request", lambda r: pg.requests.append(r.url))
    yield pg
    ctx.close()


def url_of(path):
    return pathlib.Path(path).resolve().as_uri()


def screenshot(pg, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, name)
    pg.screenshot(path=path, full_page=True)
    assert os.path.getsize(path) > 1000
    return path


def assert_offline(pg):
    remote = [u for u in pg.requests if u.startswith(("http:", "https:"))]
    assert remote == []
    assert pg.requests and all(u.startswith("file:") for u in pg.requests), pg.requests


def entry_rows(pg, fn_number):
    return pg.locator("[data-fn='%d'] > table > tbody > tr.entry" % fn_number)


def test_landing_page_to_entry_page(page, seed_report):
    dump, report = seed_report
    pg = page
    pg.goto(url_of(os.path.join(report, "index.html")))
    assert "unveil report" in pg.title()
    # f's entries in the order torch checks them: the newest first
    rows = entry_rows(pg, 0)
    assert rows.count() == 3
    assert [rows.nth(k).locator("a.entry-link").inner_text() for k in range(3)] == ["[0/2]", "[0/1]", "[0/0]"]
    assert rows.nth(0).locator("td").nth(0).inner_text() == "1st"
    assert "L['b'] == 3" in rows.nth(0).inner_text()
    # the resume function is shown under f, with its own entry
    resume = pg.locator("[data-fn='0'] > .fn.resume")
    assert "f (resumed at line" in resume.locator("h3").inner_text()
    assert "[1/0]" in resume.inner_text()
    # totals, timeline, graph break with torch's explanation, recompile reasons
    assert pg.locator("[data-total='entries'] b").inner_text() == "4"
    assert pg.locator("[data-total='graph breaks'] b").inner_text() == "1"
    assert pg.locator("#timeline ~ table tr").count() >= 5
    breaks = pg.locator(".break").first.inner_text()
    assert "seed_scenario.py:18" in breaks and "print" in breaks
    recompiles = pg.locator("#recompiles + table").inner_text()
    assert "[0/1]" in recompiles and "failed guard: b == 1" in recompiles
    screenshot(pg, "report-landing.png")

    rows.nth(1).locator("a.entry-link").click()
    pg.wait_for_load_state()
    assert pg.url.endswith(".html") and "index.html" not in pg.url
    assert "[0/1]" in pg.locator("h1").inner_text()
    assert "checked 2nd of 3" in pg.locator("header").inner_text()
    # why: entry 0's guard failed; the guard: what sets it apart first, then every condition
    assert "compile id 0/0" in pg.locator("#reasons").inner_text()
    assert "failed guard: b == 1" in pg.locator("#reasons").inner_text()
    assert pg.locator("#guard-differs li").all_inner_texts() == ["L['b'] == 2"]
    assert pg.locator("#guard-all").is_hidden()  # a long guard is folded: one click opens it
    pg.locator("#guard summary, details summary", has_text="Every condition").click()
    assert "check_tensor(L['a']" in pg.locator("#guard-all").inner_text()
    assert "L['b']" in pg.locator("#guard-all h4").all_inner_texts()
    # both sources side by side
    original = pg.locator("#original").inner_text()
    transformed = pg.locator("#transformed").inner_text()
    assert "def f(a, b):" in original and 'print("graph break here")' in original
    assert "def __transformed_code_1_for_f(a, b):" in transformed and "__compiled_fn_" in transformed
    box_o, box_t = pg.locator("#original").bounding_box(), pg.locator("#transformed").bounding_box()
    assert box_o["x"] + box_o["width"] <= box_t["x"] and abs(box_o["y"] - box_t["y"]) < 5
    # syntax highlighting: keywords are in Pygments' spans
    assert pg.locator("#original .src .k", has_text="def").count() >= 1
    # a line of the original highlights the transformed lines that came from it
    line = pg.locator("#original .ln", has_text="y = a + b")
    line.click()
    lit = pg.locator("#transformed .ln.hl")
    assert lit.count() >= 1
    assert any("__compiled_fn_" in t for t in lit.all_inner_texts())
    assert "hl" in line.get_attribute("class")
    screenshot(pg, "report-entry.png")

    # the resume function's entry is linked
    assert pg.locator("#resume + p + ul a.cid").inner_text() == "[1/0]"
    # a graph link opens the graph's page
    pg.locator("a.graph").first.click()
    pg.wait_for_load_state()
    assert "Dynamo's captured graph" in pg.locator("h1").inner_text()
    graph = pg.locator("#graph").inner_text()
    assert "class GraphModule" in graph and "y = a + b" in graph
    assert "[0/1]" in pg.locator("header").inner_text()
    assert_offline(pg)


def test_resume_entry_page_links_back_to_the_graph_break(page, seed_report):
    _, report = seed_report
    pg = page
    pg.goto(url_of(os.path.join(report, "index.html")))
    pg.locator("[data-fn='0'] > .fn.resume a.entry-link", has_text="[1/0]").click()
    pg.wait_for_load_state()
    assert "[1/0]" in pg.locator("h1").inner_text()
    why = pg.locator("main").inner_text()
    assert "jumped here after a graph break" in why and "seed_scenario.py:18" in why
    # the resume function continues f: f's source is shown, and its graph's line is linked
    assert "return y * 2" in pg.locator("#original").inner_text()
    pg.locator("#original .ln", has_text="return y * 2").click()
    assert any("__compiled_fn_" in t for t in pg.locator("#transformed .ln.hl").all_inner_texts())
    assert_offline(pg)


def test_search_filters_functions_entries_and_guards(page, seed_report):
    _, report = seed_report
    pg = page
    pg.goto(url_of(os.path.join(report, "index.html")))
    visible = pg.locator("tr.entry:not(.hidden)")
    assert visible.count() == 4
    pg.fill("#search", "L['b'] == 2")
    assert visible.count() == 1
    assert visible.first.locator("a.entry-link").inner_text() == "[0/1]"
    assert visible.first.locator(".hits").inner_text() == "L['b'] == 2"
    pg.fill("#search", "[1/0]")
    assert [t for t in visible.locator("a.entry-link").all_inner_texts()] == ["[1/0]"]
    pg.fill("#search", "no such thing anywhere")
    assert visible.count() == 0
    assert pg.locator("[data-fn='0']").is_hidden()
    pg.fill("#search", "")
    assert visible.count() == 4
    assert_offline(pg)
