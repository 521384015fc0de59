"""unveil show DIR on hand-written index.json fixtures."""
import json
import os
import shutil

from unveil import cli

from cli_helpers import FIXTURES, assert_bad_input, run_unveil

BASIC = os.path.join(FIXTURES, "dump_basic")


def test_show_summarizes_functions_entries_guards_and_files():
    r = run_unveil("show", BASIC)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    lines = out.splitlines()
    assert lines[0] == "unveil dump %s (torch 2.13.0, unveil 0.1.0)" % BASIC
    assert lines[1] == "2 functions, 3 entries, 2 graph breaks, 1 recompile, 1 error"
    assert "function Model.forward  /home/me/model.py:12" in lines
    assert "  full code: full_code_for_forward_0.py" in lines
    assert "  2 entries, in the order torch checks them" in lines
    assert "  entry 0: __transformed_code_0_for_forward.py" in lines
    # each guard on one line of its own, in order, under its entry
    g0 = lines.index("    guard (2):")
    assert lines[g0 + 1].strip().startswith("check_tensor(L['x'], Tensor,")
    assert lines[g0 + 2].strip() == "hasattr(L['x'], '_dynamo_dynamic_indices') == False"
    # the recompile reason sits on the entry it created
    e1 = lines.index("  entry 1: __transformed_code_1_for_forward.py")
    assert lines[e1 + 1] == ("    recompiled because: tensor 'x' size mismatch at index 0. "
                             "expected 8, actual 16")
    # graphs and kernels per compiled function, under the entry that calls it
    assert "    graph __compiled_fn_1 [forward]: __compiled_fn_1.forward.0.py" in lines
    assert "    graph __compiled_fn_1 [kernel_0]: __compiled_fn_1.kernel_0.py" in lines
    assert "    graph __compiled_fn_5 [captured_graph]: __compiled_fn_5.captured_graph.0.py" in lines
    assert "    resumes in __resume_at_30_2" in lines
    # graph break attached to its function; the one without a function listed after
    assert ("  graph break at /home/me/model.py:14: builtin: print "
            "[<class 'torch._dynamo.variables.constant.ConstantVariable'>] False") in lines
    assert "  helper: data dependent operator: aten._local_scalar_dense.default" in lines
    assert "  __compiled_fn_9 [captured_graph]: __compiled_fn_9.captured_graph.0.py" in lines
    # entry without transformed code and its error; multi-line messages stay on one line
    assert "  entry 0: (no transformed code)" in lines
    assert any(l.startswith("    error: DecompilationError: JUMP_BACKWARD") for l in lines)
    assert "second line" not in out


def test_summary_counts():
    with open(os.path.join(BASIC, "index.json")) as f:
        index = json.load(f)
    assert cli.summary_counts(index) == {"functions": 2, "entries": 3, "graph_breaks": 2,
                                         "recompiles": 1, "errors": 1}


def test_empty_dump(tmp_path):
    (tmp_path / "index.json").write_text(json.dumps(
        {"format": 1, "torch": "2.13.0", "unveil": "0.1.0", "functions": [], "graphs": [],
         "graph_breaks": [], "errors": []}))
    r = run_unveil("show", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1] == "0 functions, 0 entries, 0 graph breaks, 0 recompiles"


def test_show_missing_dir(tmp_path):
    assert_bad_input(run_unveil("show", tmp_path / "nowhere"), "no such directory")


def test_show_dir_that_is_not_a_dump():
    assert_bad_input(run_unveil("show", os.path.join(FIXTURES, "not_a_dump")),
                     "is not an unveil dump", "index.json")


def test_show_file_instead_of_dir():
    assert_bad_input(run_unveil("show", os.path.join(BASIC, "index.json")), "not a directory")


def test_show_future_format():
    assert_bad_input(run_unveil("show", os.path.join(FIXTURES, "dump_future")),
                     "format 2", "reads format 1")


def test_show_invalid_json(tmp_path):
    (tmp_path / "index.json").write_text("{not json")
    assert_bad_input(run_unveil("show", tmp_path), "not a readable unveil index")


def test_show_json_without_format(tmp_path):
    (tmp_path / "index.json").write_text("[1, 2, 3]")
    assert_bad_input(run_unveil("show", tmp_path), "no \"format\" field")


def test_show_malformed_fields(tmp_path):
    shutil.copy(os.path.join(BASIC, "index.json"), tmp_path / "index.json")
    index = json.loads((tmp_path / "index.json").read_text())
    index["functions"][0]["entries"] = 5
    (tmp_path / "index.json").write_text(json.dumps(index))
    assert_bad_input(run_unveil("show", tmp_path), "malformed")


def test_graph_break_goes_to_the_function_in_its_file(tmp_path):
    def fn(qualname, src):
        return {"name": "forward", "qualname": qualname, "source_file": src, "first_line": 1,
                "full_code": "full_code_for_%s_0.py" % qualname, "entries": []}
    index = {"format": 1, "torch": "2.13.0", "unveil": "0.1.0",
             "functions": [fn("A.forward", "/x/a.py"), fn("B.forward", "/x/b.py")],
             "graphs": [], "errors": [],
             "graph_breaks": [{"function": "forward", "reason": "print", "location": "/x/b.py:7"}]}
    (tmp_path / "index.json").write_text(json.dumps(index))
    r = run_unveil("show", tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    b = lines.index("function B.forward  /x/b.py:1")
    assert lines.index("  graph break at /x/b.py:7: print") > b


def test_brief_counts_guards():
    r = run_unveil("show", "--brief", BASIC)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines.count("    guard: 2 conditions") == 2
    assert "    guard: (none)" in lines
    assert not any("check_tensor" in l for l in lines)
    assert "    recompiled because: tensor 'x' size mismatch at index 0. expected 8, actual 16" in lines
