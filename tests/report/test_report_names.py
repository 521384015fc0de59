"""The report names each function as everything else does (issue 31, items 16 and 17): the display
name with torch's names beside it, Dynamo's stack values said in the user's terms, the lines where
the graph broke marked in the source panel, "1 function" (not "1 functions"). On a real dump of the
seed scenario (``seed_report``) and on hand-made dumps; no browser."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_report_model import make_dump  # noqa: E402
from unveil.report import write_report  # noqa: E402


def page(report, name):
    with open(os.path.join(report, name), encoding="utf-8") as fh:
        return fh.read()


def break_line():
    """The line of seed_scenario.py where f's graph breaks (its print)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed_scenario.py")) as fh:
        return next(k for k, line in enumerate(fh, start=1) if 'print("graph break here")' in line)


def resume_of_f(dump_dir):
    with open(os.path.join(dump_dir, "index.json")) as fh:
        found = [fn for fn in json.load(fh)["functions"] if fn["qualname"].startswith("torch_dynamo_resume_in_f")]
    assert len(found) == 1
    return found[0]


def test_functions_go_by_their_display_name_with_torchs_names_beside(seed_report):
    d, report = seed_report
    landing = page(report, "index.html")
    line = break_line()
    resume = resume_of_f(d)
    alias = resume["name"]
    title = "f (resumed at line %d)" % line
    # the function table: the display name, torch's names beside it
    assert re.search(r"<h3>%s <small>torch: <code>torch_dynamo_resume_in_f_at_%d</code>, <code>%s</code>"
                     % (re.escape(title), line, alias), landing)
    # each entry of f resumes in it, named the same way
    assert landing.count("%s <span class=\"muted\">(torch: <code>%s</code>)</span>: " % (title, alias)) == 3
    # an entry page of the resume function: its heading, and what it is of
    entry = page(report, "entry_1_0.html")
    assert "<h1>%s <span class=\"cid\">" % title in entry
    assert "f (resumed at line %d)" % line in entry and "resume of f" not in landing + entry


def test_the_source_panel_marks_the_line_where_the_graph_broke(seed_report):
    _, report = seed_report
    line = break_line()
    for name in ("entry_0_0.html", "entry_1_0.html"):  # f's entry, and its resume function's
        text = page(report, name)
        marked = re.findall(r'<div class="ln[^"]*\bgb\b[^"]*" id="o(\d+)" [^>]*title="graph break: ([^"]*)"', text)
        assert [int(n) for n, _ in marked] == [line], name
        assert "print" in marked[0][1]
        row = text[text.index('id="o%d"' % line):]
        assert row[:row.index("</div>")].endswith('<span class="gbm">graph break</span>')
    # no other line is marked
    assert page(report, "entry_0_0.html").count(" gb\"") == 1


def test_totals_of_one_are_singular(seed_report):
    _, report = seed_report
    landing = page(report, "index.html")
    assert '<div class="total" data-total="functions"><b>1</b>function</div>' in landing
    assert '<div class="total" data-total="resume functions"><b>1</b>resume function</div>' in landing
    assert '<div class="total" data-total="entries"><b>4</b>entries</div>' in landing


def test_guards_on_stack_values_say_what_the_value_is(tmp_path):
    d = make_dump(tmp_path)
    with open(os.path.join(d, "index.json")) as fh:
        index = json.load(fh)
    fn = index["functions"][0]
    fn["stack_values"] = {"___stack0": {"expression": "m.item()", "line": 12}}
    fn["entries"][0]["guard"].append("L['___stack0'] == 1.0")
    fn["entries"][0]["reason"] = "entry 0 (compile id 0/0) failed guard: ___stack0 == 2.0"
    with open(os.path.join(d, "index.json"), "w") as fh:
        json.dump(index, fh)
    report = os.path.dirname(write_report(d))
    said = "[___stack0: the value of m.item() at line 12]"
    entry = page(report, "entry_0_1.html")
    assert "<li class=\"d\">L[&#x27;___stack0&#x27;] == 1.0   %s</li>" % said in entry
    assert "failed guard: ___stack0 == 2.0   %s" % said in entry
    assert "L[&#x27;___stack0&#x27;] == 1.0   %s" % said in page(report, "index.html")
