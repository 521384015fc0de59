"""Issue 31, "The first hour": the command line tells the truth (items 7-14).

A run that fails never destroys the previous dump nor reports it as its own; warnings point at
the user's code; --break says when it cannot stop; explain names what it cannot find; make demo
says what it is doing. Real subprocesses of the console script, real torch, real files."""
import json
import os
import shutil
import subprocess
import sys

from cli_helpers import FIXTURES, UNVEIL, assert_bad_input, needs_dump, run_unveil
from test_break import TOY

from unveil import cli

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCALE = '''import torch


def scale(x, factor):
    y = x * factor
    return y + 1


compiled = torch.compile(scale, backend="eager")
compiled(torch.ones(4), 2)
compiled(torch.ones(4), 3)
print("done")
'''

# a graph break at line 6 (Tensor.item()), the compiled call at line 12
GRAPH_BREAK = '''import torch


def normalize(x):
    m = x.mean()
    if m.item() > 0.5:
        x = x - m
    return x * 2


compiled = torch.compile(normalize, backend="eager")
compiled(torch.ones(4))
'''


def snapshot(directory):
    """{path relative to ``directory``: bytes} of every file under it (unveil's .unveil too)."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                found[os.path.relpath(path, directory)] = fh.read()
    return found


def dumped_scale(tmp_path):
    """A finished dump of SCALE in tmp_path/unveil_dump; returns its snapshot."""
    (tmp_path / "scale.py").write_text(SCALE)
    r = run_unveil("run", "scale.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = snapshot(str(tmp_path / "unveil_dump"))
    assert "full_code_for_scale_0.py" in before
    return before


# -- 8: failing runs leave the previous dump whole ---------------------------------------------

@needs_dump
def test_a_script_that_does_not_compile_is_bad_input_and_the_previous_dump_stays(tmp_path):
    before = dumped_scale(tmp_path)
    (tmp_path / "syn.py").write_text("import torch\nx = (\n")
    r = run_unveil("run", "syn.py", cwd=tmp_path)
    assert_bad_input(r, "syn.py", "does not compile", "line 2")
    assert snapshot(str(tmp_path / "unveil_dump")) == before


@needs_dump
def test_a_script_that_fails_before_torch_compiles_leaves_the_previous_dump(tmp_path):
    before = dumped_scale(tmp_path)
    (tmp_path / "fails.py").write_text("import torch\n\n\ndef setup():\n    raise ValueError('no data')\n\n\nsetup()\n")
    r = run_unveil("run", "fails.py", cwd=tmp_path)
    assert r.returncode == 1
    assert snapshot(str(tmp_path / "unveil_dump")) == before
    # the script's traceback as python prints it: its own frames only
    assert "ValueError: no data" in r.stderr
    assert 'File "fails.py", line 8, in <module>' in r.stderr
    for launcher in ("cli.py", "runpy", "run_path"):
        assert launcher not in r.stderr, r.stderr
    # nothing reported as this run's: the summary of the earlier dump is not printed
    assert "function" not in r.stderr and "dump in" not in r.stderr, r.stderr
    assert "no dump of this run was written" in r.stderr
    assert "unveil_dump holds an earlier run's dump, left as it was" in r.stderr


@needs_dump
def test_a_script_that_fails_after_torch_compiled_replaces_the_dump_with_its_own(tmp_path):
    dumped_scale(tmp_path)
    (tmp_path / "late.py").write_text(
        "import torch\n\n\ndef late(x):\n    return x - 1\n\n\n"
        "torch.compile(late, backend='eager')(torch.ones(2))\nraise SystemExit(3)\n")
    r = run_unveil("run", "late.py", cwd=tmp_path)
    assert r.returncode == 3
    index = cli.load_index(str(tmp_path / "unveil_dump"))
    assert [f["name"] for f in index["functions"]] == ["late"]  # this run's dump, for its failure
    assert "unveil: " + cli.summary_line(index) in r.stderr
    assert not [n for n in os.listdir(str(tmp_path / "unveil_dump")) if "scale" in n]


# -- 9, 14: a directory that cannot be written ---------------------------------------------------

def unwritable_old_dump(tmp_path):
    """A directory holding an earlier dump (the dump_basic fixture) where no dump can be
    written, root included: its ``.unveil`` is a regular file, not a directory."""
    old = tmp_path / "old"
    shutil.copytree(os.path.join(FIXTURES, "dump_basic"), str(old))
    shutil.rmtree(str(old / ".unveil"), ignore_errors=True)
    (old / ".unveil").write_text("not a directory\n")
    return old


def test_a_dump_that_cannot_be_written_reports_no_other_runs_summary(tmp_path):
    old = unwritable_old_dump(tmp_path)
    before = snapshot(str(old))
    old_summary = cli.summary_line(cli.load_index(str(old)))
    (tmp_path / "script.py").write_text("print('ran')\n")
    r = run_unveil("run", "--dump", "old", "script.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ran\n"
    assert old_summary not in r.stderr and "functions" not in r.stderr, r.stderr
    assert "cannot dump to %s" % old in r.stderr
    assert "no dump of this run was written (the directory cannot be written); old holds an " \
           "earlier run's dump" in r.stderr
    # 14: the warning is a plain line of unveil's, not a line of unveil's source
    assert "cli.py" not in r.stderr and "__enter__" not in r.stderr, r.stderr
    assert snapshot(str(old)) == before


def warning_of(tmp_path, script, text, words):
    """Run ``script`` (its ``text``) with python; the one warning whose line holds ``words``,
    as (its first line, the source line python shows under it). The script prints "ran ..."."""
    (tmp_path / script).write_text(text)
    r = subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=str(tmp_path),
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ran")
    lines = r.stderr.splitlines()
    at = [k for k, line in enumerate(lines) if words in line]
    assert len(at) == 1, r.stderr
    return lines[at[0]], lines[at[0] + 1].strip()


def test_the_cannot_dump_warning_points_at_the_users_with_line(tmp_path):
    unwritable_old_dump(tmp_path)
    first, shown = warning_of(tmp_path, "lib.py", (
        "import torch\nimport unveil\n\n\ndef f(x):\n    return x + 1\n\n\n"
        "with unveil.prepare_debug('old'):\n    torch.compile(f, backend='eager')(torch.ones(2))\n"
        "print('ran')\n"), "RuntimeWarning: unveil: cannot dump")
    assert first.startswith("%s:9: RuntimeWarning" % (tmp_path / "lib.py")), first
    assert shown == "with unveil.prepare_debug('old'):"


FAILING_ENTRY = """import torch
import unveil
import unveil.torch.hook


def broken(code, def_name, declare_slots=False):
    raise unveil.DecompilationError("injected failure", code.co_name, 0, "LOAD_FAST")


unveil.torch.hook.decompile_as = broken


@torch.compile(backend="eager")
def g(x):
    return x * 2


with unveil.prepare_debug("dump"):
    y = g(torch.ones(2))
print("ran", y.tolist())
"""


def test_a_warning_while_torch_compiles_points_at_the_users_call(tmp_path):
    first, shown = warning_of(tmp_path, "entry.py", FAILING_ENTRY, "RuntimeWarning: unveil: could not make")
    assert first.startswith("%s:19: RuntimeWarning" % (tmp_path / "entry.py")), first
    assert shown == "y = g(torch.ones(2))"


# -- 10: --break where it cannot stop ------------------------------------------------------------

def break_run(tmp_path, *options):
    (tmp_path / "toy.py").write_text(TOY)
    return subprocess.run([UNVEIL, "run"] + list(options) + ["toy.py"], input="p a.shape\nc\nc\nc\n",
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=300)


def warnings_about(result, spec):
    return [line for line in result.stderr.splitlines() if line.startswith("unveil: --break %s:" % spec)]


@needs_dump
def test_break_at_a_line_without_code_says_so_with_the_nearest_lines(tmp_path):
    r = break_run(tmp_path, "--break", "toy.py:999", "--break", "toy.py:7")
    assert r.returncode == 0, r.stderr
    assert "(Pdb)" not in r.stdout and "done" in r.stdout
    assert warnings_about(r, "toy.py:999") == [
        "unveil: --break toy.py:999: line 999 of toy.py has no code (nearest lines with code: 11); "
        "no breakpoint set there"]
    assert warnings_about(r, "toy.py:7") == [
        "unveil: --break toy.py:7: line 7 of toy.py has no code (nearest lines with code: 6, 9); "
        "no breakpoint set there"]


@needs_dump
def test_break_at_a_line_torch_never_compiled_says_so_at_the_end(tmp_path):
    r = break_run(tmp_path, "--break", "toy.py:10")  # the module-level call: not compiled code
    assert r.returncode == 0, r.stderr
    assert "(Pdb)" not in r.stdout and "done" in r.stdout
    assert warnings_about(r, "toy.py:10") == [
        "unveil: --break toy.py:10: torch compiled no function containing line 10 of toy.py, so the "
        "run never stopped there"]


@needs_dump
def test_break_at_a_source_line_stops_on_the_graph_call_not_on_dynamos_bookkeeping(tmp_path):
    r = break_run(tmp_path, "--break", "toy.py:5")
    assert r.returncode == 0, r.stderr
    first = next(line for line in r.stdout.replace("(Pdb) ", "").splitlines() if line.startswith("-> "))
    assert "record_pregraph" not in first and "__compiled_fn_" in first, r.stdout
    assert first.startswith("-> graph_out_0 = ")
    assert "torch.Size([3])" in r.stdout  # stopped in the entry, with the call's arguments
    assert not [line for line in r.stderr.splitlines() if line.startswith("unveil: --break")]


# -- 11: a graph break's stack is the user's ------------------------------------------------------

@needs_dump
def test_a_graph_breaks_stack_holds_only_the_users_frames(tmp_path):
    (tmp_path / "gb.py").write_text(GRAPH_BREAK)
    r = run_unveil("run", "gb.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with open(str(tmp_path / "unveil_dump" / "index.json")) as fh:
        breaks = json.load(fh)["graph_breaks"]
    assert len(breaks) == 1
    assert [os.path.basename(frame) for frame in breaks[0]["stack"]] == [
        "gb.py:12 in <module>", "gb.py:6 in normalize"]
    shown = run_unveil("show", "unveil_dump", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    stack = shown.stdout.split("stack, outermost first:\n")[1].split("torch's reason:")[0]
    assert [line.strip() for line in stack.splitlines() if line.strip()] == [
        "gb.py:12 in <module>", "gb.py:6 in normalize"]


# -- 12: explain ----------------------------------------------------------------------------------

def test_explain_a_call_of_an_undefined_name_is_bad_input_before_the_script_runs(tmp_path):
    (tmp_path / "s.py").write_text("import torch\nprint('the script ran')\n\n\ndef f(x):\n    return x\n")
    r = run_unveil("explain", "s.py", "--call", "nosuch(1)", cwd=tmp_path)
    assert_bad_input(r, "nosuch", "not defined", "s.py", "not run")  # stdout empty: it did not run
    r = run_unveil("explain", "s.py", "--call", "f(torch.ones(2), y)", cwd=tmp_path)
    assert_bad_input(r, "'y'", "not defined")


def test_explain_a_name_the_script_binds_only_on_some_paths_is_bad_input_after_it_ran(tmp_path):
    (tmp_path / "s.py").write_text("import torch\nif False:\n    g = 1\n")
    r = run_unveil("explain", "s.py", "--call", "g(1)", cwd=tmp_path)
    assert_bad_input(r, "'g'", "not defined")


def test_explain_of_a_function_torch_compile_does_not_compile_says_so(tmp_path):
    (tmp_path / "s.py").write_text(
        "import torch\n\n\ndef g(x):\n    return x + 1\n\n\ncompiled = torch.compile(g, backend='eager')\n")
    r = run_unveil("explain", "s.py", "--call", "g(torch.ones(2))", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "=> not compiled by torch.compile" in r.stdout
    assert "g is not compiled by torch.compile" in r.stdout
    assert "torch compiles a new entry" not in r.stdout
    r = run_unveil("explain", "s.py", "--call", "compiled(torch.ones(2))", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "=> torch compiles a new entry" in r.stdout  # the compiled one is still explained


# -- 13: recompile's own name in its errors -------------------------------------------------------

def test_recompile_of_a_non_function_names_recompile():
    r = subprocess.run([sys.executable, "-c", "import unveil; unveil.recompile(42)"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1] == (
        "TypeError: unveil.recompile expects a function, method or code object, not int")


# -- 7: make demo says what it is doing -----------------------------------------------------------

def test_make_demo_prints_one_line_per_step(tmp_path):
    """``make demo`` with a stand-in interpreter and venv (each records its arguments): one
    line per step, no echoed command, pip kept quiet."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "calls.log"
    for tool in ("pip", "python"):
        path = venv / "bin" / tool
        path.write_text('#!/bin/sh\necho "%s $*" >> "%s"\n' % (tool, log))
        path.chmod(0o755)
    r = subprocess.run(["make", "--no-print-directory", "demo", "PYTHON311=true", "VENV=%s" % venv],
                       capture_output=True, text=True, cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "creating %s (Python 3.11: true)" % venv,
        "installing torch 2.13.0 (CPU) and numpy: a few minutes the first time",
        "installing unveil (editable, with its test tools and debugpy)",
        "running examples/seed.py: dumping what torch.compile does into demo_dump/",
    ]
    calls = log.read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["pip", "pip", "python"]
    assert all(" -q " in c for c in calls[:2])
    assert calls[2] == "python examples/seed.py demo_dump"
