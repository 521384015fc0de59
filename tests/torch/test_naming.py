"""One display name per function and per cache entry (issue 31, item 16): a resume function is
"normalize (resumed at line 6)" in ``unveil show``, README.md, index.json, the headers of the
dump's files and ``unveil.debug()``, with torch's names (``torch_dynamo_resume_in_normalize_at_6``,
``__resume_at_70_3``) beside it, never instead of it. Real torch.compile runs (backend eager)."""
import json
import os
import subprocess
import sys

import torch

import unveil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from graph_break_programs import branch, line_of, normalize  # noqa: E402

UNVEIL = os.path.join(os.path.dirname(sys.executable), "unveil")


def dump_normalize(tmp_path):
    d = str(tmp_path / "dump")
    f = torch.compile(normalize, backend="eager")
    with unveil.prepare_debug(d):
        f(torch.ones(4))
        f(torch.zeros(4))
    return d, f


def read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as fh:
        return fh.read()


def show(d):
    r = subprocess.run([UNVEIL, "show", d], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def resume_after(index, line):
    found = [fn for fn in index["functions"] if fn["qualname"] == "torch_dynamo_resume_in_normalize_at_%d" % line]
    assert len(found) == 1, [fn["qualname"] for fn in index["functions"]]
    return found[0]


def test_a_resume_function_has_one_name_everywhere_with_torchs_names_beside(tmp_path, monkeypatch, capsys):
    d, f = dump_normalize(tmp_path)
    line = line_of(normalize, "print(")
    index = json.loads(read(d, "index.json"))
    resume = resume_after(index, line)
    title = "normalize (resumed at line %d)" % line
    alias = resume["name"]
    assert alias.startswith("__resume_at_")
    code_name = "torch_dynamo_resume_in_normalize_at_%d" % line
    beside = "%s [torch: %s, %s]" % (title, code_name, alias)
    assert resume["title"] == title
    assert resume["aliases"] == [alias]

    out = show(d)
    lines = out.splitlines()
    assert "function %s  %s:%d" % (beside, normalize.__code__.co_filename, line) in lines
    assert "    resumes in %s [torch: %s]" % (title, alias) in lines  # under normalize's entry
    assert "resume of normalize" not in out and "normalize (resumed at line %d)" % line in out

    readme = read(d, "README.md")
    assert "### `%s` [torch: `%s`, `%s`]" % (title, code_name, alias) in readme
    assert "resumes in `%s` [torch: `%s`]" % (title, alias) in readme

    full = read(d, resume["full_code"])
    assert full.splitlines()[0].endswith("everything torch.compile made of %s" % title)
    entry = resume["entries"][0]
    header = read(d, entry["transformed_file"]).splitlines()[0]
    assert "cache entry 0 of %s [torch: %s] (compile id %s)" % (title, code_name, entry["compile_id"]) in header

    # unveil.debug() lists the same names, each entry as show lists it
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")  # (no stop in the debugger)
    capsys.readouterr()
    with unveil.debug():
        f(torch.ones(4))
    text = capsys.readouterr().out
    assert "  %s (%s:%d), entries" % (beside, normalize.__code__.co_filename, line) in text
    assert "    entry 0 [%s]: %s" % (entry["compile_id"], os.path.join(d, entry["transformed_file"])) in text
    assert code_name + " (" not in text  # torch's name is beside the display name, not instead of it


def test_every_entry_has_a_display_name_in_the_index(tmp_path):
    d, _ = dump_normalize(tmp_path)
    index = json.loads(read(d, "index.json"))
    item_line = line_of(normalize, "m.item()")
    resume = resume_after(index, item_line)
    titles = [e["title"] for e in resume["entries"]]
    assert titles == ["normalize (resumed at line %d), entry %d [%s]" % (item_line, e["index"], e["compile_id"])
                      for e in resume["entries"]]
    assert len(titles) == 2
    top = [fn for fn in index["functions"] if fn["qualname"] == "normalize"][0]
    assert [e["title"] for e in top["entries"]] == ["normalize, entry 0 [%s]" % top["entries"][0]["compile_id"]]
    # unveil show DIR --entry ID names the entry the same way, torch's names beside
    cid = resume["entries"][0]["compile_id"]
    r = subprocess.run([UNVEIL, "show", d, "--entry", cid], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "%s [torch: torch_dynamo_resume_in_normalize_at_%d, %s], checked 1st of 2" % (
        titles[0], item_line, resume["name"])
    # a graph break names the function it happened in by its display name too
    breaks = {b["location"]: b for b in index["graph_breaks"]}
    at = breaks["%s:%d" % (normalize.__code__.co_filename, item_line)]
    assert at["title"] == "normalize (resumed at line %d)" % line_of(normalize, "print(")


def test_the_resume_functions_of_each_way_of_a_branch_have_names_of_their_own(tmp_path):
    d = str(tmp_path / "dump")
    f = torch.compile(branch, backend="eager")
    with unveil.prepare_debug(d):
        f(torch.ones(3), torch.ones(3))
        f(-torch.ones(3), torch.ones(3))
    index = json.loads(read(d, "index.json"))
    line = line_of(branch, "if x > 0")
    resumes = [fn["title"] for fn in index["functions"] if fn["qualname"] == "torch_dynamo_resume_in_branch_at_%d" % line]
    assert sorted(resumes) == ["branch (resumed at line %d, continues at line %d)" % (line, line_of(branch, text))
                               for text in ("return a * b", "return a - b")]
    lines = show(d).splitlines()
    for title in resumes:
        assert any(l.startswith("function %s [torch: torch_dynamo_resume_in_branch_at_%d, __resume_at_" % (title, line))
                   for l in lines)


def test_a_nested_functions_name_is_not_repeated_as_torchs():
    # (``unveil show`` printed ``main.<locals>.h [torch: main.<locals>.h]``)
    from unveil.torch.naming import with_torch_names
    assert with_torch_names("main.<locals>.h", "h", "main.<locals>.h") == "main.<locals>.h"
    assert with_torch_names("main.<locals>.h (resumed at line 4)", "torch_dynamo_resume_in_h_at_4") == \
        "main.<locals>.h (resumed at line 4) [torch: torch_dynamo_resume_in_h_at_4]"
