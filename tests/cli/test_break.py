"""unveil run --break / --pdb: a real pdb, driven through stdin, stops in the compiled code
without any edit of the script (issue 14); --version and the exit codes in --help."""
import os
import subprocess
import sys

from cli_helpers import UNVEIL, assert_bad_input, needs_dump, run_unveil

TOY = '''import torch


def toy(a, b):
    x = a / (torch.abs(a) + 1)
    return x * b


compiled = torch.compile(toy, backend="eager")
compiled(torch.ones(3), torch.ones(3))
print("done")
'''


def debug_run(tmp_path, *options, commands=("c",) * 6):
    """``unveil run OPTIONS toy.py`` with pdb's commands on stdin."""
    (tmp_path / "toy.py").write_text(TOY)
    return subprocess.run([UNVEIL, "run"] + list(options) + ["toy.py"], input="\n".join(commands) + "\n",
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=300)


def stops(result):
    """The (file, line) of every place pdb stopped at ("> FILE(LINE)function()")."""
    found = []
    for line in result.stdout.splitlines():
        line = line.replace("(Pdb) ", "")
        if line.startswith("> ") and "(" in line:
            file, _, rest = line[2:].partition("(")
            found.append((os.path.basename(file), int(rest.split(")")[0])))
    return found


def line_of(path, text):
    with open(path) as fh:
        return next(k for k, line in enumerate(fh, 1) if line.strip().startswith(text))


@needs_dump
def test_break_at_a_source_line_then_at_a_line_of_the_dumped_file(tmp_path):
    # a line of the user's source: stops in the code torch runs for it -- the entry torch runs
    # for toy(), then the statement of the captured graph for line 5
    result = debug_run(tmp_path, "--break", "toy.py:5", commands=["p a.shape", "c", "c"])
    assert result.returncode == 0, result.stderr
    where = stops(result)
    assert [f for f, _ in where] == ["__transformed_code_0_for_toy.py", "__compiled_fn_1.captured.py"], where
    graph = tmp_path / "unveil_dump" / "__compiled_fn_1.captured.py"
    assert "torch.abs" in open(str(graph)).read().splitlines()[where[1][1] - 1]
    assert "torch.Size([3])" in result.stdout
    assert "done" in result.stdout
    # a line of a dumped file (written by the run above; a new run writes the same names)
    target = tmp_path / "unveil_dump" / "__transformed_code_0_for_toy.py"
    line = line_of(target, "graph_out_0 = ")
    result = debug_run(tmp_path, "--break", "%s:%d" % (target.name, line),
                       commands=["p a.shape", "p b.sum().item()", "c"])
    assert result.returncode == 0, result.stderr
    assert stops(result) == [(target.name, line)]
    assert "torch.Size([3])" in result.stdout and "3.0" in result.stdout
    assert "done" in result.stdout


@needs_dump
def test_pdb_stops_once_at_the_first_line_torch_runs_from_the_dump(tmp_path):
    result = debug_run(tmp_path, "--pdb", commands=["where", "c"])
    assert result.returncode == 0, result.stderr
    where = stops(result)
    assert where[0][0] == "__transformed_code_0_for_toy.py" and len(set(where)) == 1, where
    assert "toy.py(10)<module>()" in result.stdout  # `where` shows the user's call
    assert "done" in result.stdout


@needs_dump
def test_quit_in_the_debugger_ends_the_run(tmp_path):
    result = debug_run(tmp_path, "--pdb", commands=["q"])
    assert result.returncode == 1
    assert "quit in the debugger" in result.stderr and "Traceback" not in result.stderr
    assert "done" not in result.stdout


def test_a_bad_break_is_bad_input(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    assert_bad_input(run_unveil("run", "--break", "toy.py", "toy.py", cwd=str(tmp_path)), "FILE:LINE")
    assert_bad_input(run_unveil("run", "--break", "nosuch.py:3", "toy.py", cwd=str(tmp_path)), "no such file")


def test_version_and_exit_codes_in_help():
    out = subprocess.run([sys.executable, "-m", "unveil", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("unveil ")
    import unveil
    assert unveil.__version__ in out.stdout
    helped = subprocess.run([sys.executable, "-m", "unveil", "--help"], capture_output=True, text=True).stdout
    assert "exit codes:" in helped
    for code in ("0", "1", "2"):
        assert "\n  %s  " % code in helped
    run_help = subprocess.run([sys.executable, "-m", "unveil", "run", "--help"], capture_output=True, text=True).stdout
    assert "--break FILE:LINE" in run_help and "--pdb" in run_help
