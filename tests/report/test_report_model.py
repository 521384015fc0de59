"""What the report derives from a dump, on small hand-made dumps (no torch, no browser)."""
import json
import os
import re

from unveil import cli
from unveil.report import load_dump, write_report
from unveil.report.model import block_of, group_guards

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli", "fixtures")

SOURCE = '''@torch.compile
def f(a, b):
    y = a + b
    print("hi")
    return y * 2
'''


def make_dump(tmp_path, with_compile_id=False):
    """A dump of f with two entries, written the way unveil writes one."""
    d = tmp_path / "dump"
    d.mkdir()
    entries = []
    for index, cid, b in ((1, "0/1", 2), (0, "0/0", 1)):
        name = "__transformed_code_%d_for_f.py" % index
        (d / name).write_text(
            "# %s: cache entry %d of f (compile id %s), written by unveil.\n\n"
            "def __transformed_code_%d_for_f(a, b):\n"
            "    graph_out_0 = __compiled_fn_%d_0a1b(a)\n"
            "    __temp_1 = graph_out_0[0]\n"
            "    y = __temp_1\n"
            "    __temp_2 = __builtins_dict___%d['print']('hi')\n"
            "    return __resume_at_40_3(y)\n" % (name, index, cid, index, index + 1, index))
        (d / ("__compiled_fn_%d.captured.py" % (index + 1))).write_text(
            "class GraphModule(torch.nn.Module):\n    def forward(self, L_a_):\n"
            "        # File: /src/prog.py:12 in f, code: y = a + b\n        y = L_a_ + %d\n        return (y,)\n" % b)
        e = {"index": index, "transformed_file": name,
             "guard": ["L['b'] == %d" % b, "check_tensor(L['a'], Tensor, size=[1])",
                       "___check_obj_id(G['__builtins_dict___%d']['print'], 1234)" % index],
             "reason": "entry 0 (compile id 0/0) failed guard: b == 1" if index else None,
             "compiled_fns": ["__compiled_fn_%d" % (index + 1)], "resume_functions": [], "error": None}
        if with_compile_id:
            e["compile_id"] = "7/%d" % index
        entries.append(e)
    (d / "full_code_for_f_0.py").write_text(
        "# full_code_for_f_0.py\n\n# " + "=" * 76 + "\n# Original source of f (/src/prog.py:10)\n# "
        + "=" * 76 + "\n" + SOURCE)
    index = {"format": 1, "torch": "2.13.0", "unveil": "0.1.0",
             "functions": [{"name": "f", "qualname": "f", "source_file": "/src/prog.py", "first_line": 10,
                            "full_code": "full_code_for_f_0.py", "entries": entries}],
             "graphs": [{"compiled_fn": "__compiled_fn_%d" % n, "stage": "captured",
                         "file": "__compiled_fn_%d.captured.py" % n} for n in (1, 2)],
             "graph_breaks": [{"function": "f", "reason": "print\n  Explanation: no print", "location": "/src/prog.py:13"}],
             "errors": []}
    (d / "index.json").write_text(json.dumps(index))
    return str(d)


def test_compile_ids_come_from_the_index_or_else_from_the_transformed_files(tmp_path):
    dump = load_dump(make_dump(tmp_path))
    assert [e.compile_id for e in dump.functions[0].entries] == ["0/1", "0/0"]
    other = tmp_path / "other"
    other.mkdir()
    dump = load_dump(make_dump(other, with_compile_id=True))
    assert [e.compile_id for e in dump.functions[0].entries] == ["7/1", "7/0"]


def test_guard_lines_that_set_an_entry_apart_ignore_dynamos_numbering(tmp_path):
    dump = load_dump(make_dump(tmp_path))
    first, second = dump.functions[0].entries
    differing, groups = group_guards(first, dump.functions[0].entries)
    assert differing == ["L['b'] == 2"]  # the print guard differs only in __builtins_dict___<n>
    subjects = [s for s, _ in groups]
    assert subjects[:2] == ["L['b']", "L['a']"]
    assert sum(len(lines) for _, lines in groups) == len(first.guard)


def test_original_source_and_line_links(tmp_path):
    from unveil.report.model import line_links
    dump = load_dump(make_dump(tmp_path))
    fn = dump.functions[0]
    assert fn.original == (10, SOURCE)
    links = line_links(dump, fn.entries[0])
    text = fn.entries[0].transformed_text.splitlines()
    by_text = {text[t - 1].strip(): o for t, o in links.items()}
    assert by_text["def __transformed_code_1_for_f(a, b):"] == [11]
    assert by_text["graph_out_0 = __compiled_fn_2_0a1b(a)"] == [12]  # the graph's "# File:" line
    assert by_text["__temp_1 = graph_out_0[0]"] == [12]  # reads the graph's output
    assert by_text["y = __temp_1"] == [12]  # assigns y, as line 12 does
    assert by_text["__temp_2 = __builtins_dict___1['print']('hi')"] == [13]
    assert by_text["return __resume_at_40_3(y)"] == [13]  # where the graph break is


def test_block_of_stops_at_the_end_of_the_def():
    lines = ["@deco\n", "def g(x):\n", "    if x:\n", "\n", "        return 1\n", "    return 2\n", "\n", "h = 3\n"]
    assert block_of(lines) == lines[:6]


def test_report_pages_exist_and_request_nothing(tmp_path):
    d = make_dump(tmp_path)
    index = write_report(d)
    assert index == os.path.join(d, "report", "index.html")
    pages = sorted(os.listdir(os.path.dirname(index)))
    assert pages == ["entry_0_0.html", "entry_0_1.html", "graph_0.html", "graph_1.html", "index.html"]
    for name in pages:
        with open(os.path.join(d, "report", name), encoding="utf-8") as fh:
            text = fh.read()
        # no stylesheet, script, image or font from elsewhere: everything is inline
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text, re.I), name
        assert "<link" not in text and "@import" not in text and "url(" not in text
    landing = open(index, encoding="utf-8").read()
    assert landing.index("[0/1]") < landing.index("[0/0]")  # torch's order
    assert "Explanation: no print" in landing


def test_cli_report_writes_to_out_and_refuses_what_is_not_a_dump(tmp_path, capsys):
    d = make_dump(tmp_path)
    out = tmp_path / "elsewhere"
    assert cli.main(["report", d, "-o", str(out)]) == 0
    assert (out / "index.html").is_file()
    # links to the dump's own files are relative, so the report opens from file://
    page = (out / "entry_0_1.html").read_text()
    assert 'href="../dump/__transformed_code_1_for_f.py"' in page
    assert cli.main(["report", os.path.join(FIXTURES, "not_a_dump")]) == 2
    err = capsys.readouterr().err
    assert "not an unveil dump" in err and "Traceback" not in err


def test_report_of_a_dump_whose_files_are_gone(tmp_path):
    """An index whose files are missing (a copied index.json) still gives a report."""
    out = write_report(os.path.join(FIXTURES, "dump_basic"), str(tmp_path / "r"))
    text = open(out, encoding="utf-8").read()
    assert "Model.forward" in text and "[?]" in text


def test_the_report_imports_no_torch():
    import subprocess
    import sys
    code = "import sys, unveil.report.pages, unveil.report.model; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_names_and_guards_from_the_program_are_text_not_markup(tmp_path):
    d = make_dump(tmp_path)
    with open(os.path.join(d, "index.json")) as fh:
        index = json.load(fh)
    evil = "</script><script>alert(1)</script><!--"
    index["functions"][0]["qualname"] = "f" + evil
    index["functions"][0]["entries"][0]["guard"].append("L['s'] == '%s'" % evil)
    with open(os.path.join(d, "index.json"), "w") as fh:
        json.dump(index, fh)
    report = os.path.dirname(write_report(d))
    for name in os.listdir(report):
        with open(os.path.join(report, name), encoding="utf-8") as fh:
            text = fh.read()
        assert "<script>alert" not in text and "<!--" not in text, name
        assert text.count("<script") == text.count("</script>"), name


def test_ranks_get_one_report_each_and_a_page_naming_where_they_diverge(tmp_path):
    """A directory of per-rank dumps (torch.distributed): a report per rank, and a first page
    with the diverge lines of ``unveil show``."""
    import shutil
    parent = tmp_path / "ranks"
    parent.mkdir()
    for r in (0, 1):
        (tmp_path / ("r%d" % r)).mkdir()
        d = make_dump(tmp_path / ("r%d" % r))
        if r == 0:  # rank 0 compiled f once, rank 1 twice
            index = json.loads(open(os.path.join(d, "index.json")).read())
            index["functions"][0]["entries"] = index["functions"][0]["entries"][1:]
            with open(os.path.join(d, "index.json"), "w") as fh:
                json.dump(index, fh)
        shutil.copytree(d, str(parent / ("rank_%d" % r)))
    page = write_report(str(parent))
    text = open(page, encoding="utf-8").read()
    assert 'href="rank_0/index.html"' in text and 'href="rank_1/index.html"' in text
    diverge = re.findall(r'<li class="diverge">(.*?)</li>', text)
    assert len(diverge) == 1 and "rank 0: 1 entry, rank 1: 2 entries" in diverge[0], diverge
    for r in (0, 1):
        assert os.path.isfile(os.path.join(os.path.dirname(page), "rank_%d" % r, "index.html"))
