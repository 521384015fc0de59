"""Guards in the user's terms (issue 31, item 17): a guard on one of Dynamo's stack values
(``L['___stack0'] == 1.0``) says which expression and line the value came from ("the value of
m.item() at line 7"); every entry of a function lists its guard lines in the same order; the
dump's README has no empty "Graph breaks" heading. Real torch.compile runs (backend eager)."""
import json
import os
import re
import subprocess
import sys

import torch

import unveil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from graph_break_programs import add, add_scaled, line_of, normalize  # noqa: E402

UNVEIL = os.path.join(os.path.dirname(sys.executable), "unveil")


def dump(tmp_path, fn, calls):
    d = str(tmp_path / "dump")
    f = torch.compile(fn, backend="eager")
    with unveil.prepare_debug(d):
        for args in calls:
            f(*args)
    return d


def read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as fh:
        return fh.read()


def function(d, qualname):
    found = [fn for fn in json.loads(read(d, "index.json"))["functions"] if fn["qualname"] == qualname]
    assert len(found) == 1, qualname
    return found[0]


def test_a_guard_on_a_stack_value_names_the_expression_and_line_it_came_from(tmp_path):
    d = dump(tmp_path, normalize, [(torch.ones(4),), (torch.zeros(4),)])
    line = line_of(normalize, "m.item()")
    resume = function(d, "torch_dynamo_resume_in_normalize_at_%d" % line)
    assert resume["stack_values"] == {"___stack0": {"expression": "m.item()", "line": line}}
    said = "[___stack0: the value of m.item() at line %d]" % line
    first = [e for e in resume["entries"] if "L['___stack0'] == 1.0" in e["guard"]]
    assert len(first) == 1 and len(resume["entries"]) == 2

    r = subprocess.run([UNVEIL, "show", d], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "      L['___stack0'] == 1.0   %s" % said in lines
    assert any(l.startswith("    recompiled because: ") and "___stack0 == 1.0" in l and l.endswith(said)
               for l in lines)

    assert "   - guard: `L['___stack0'] == 1.0`   %s" % said in read(d, "README.md")
    full = read(d, resume["full_code"])
    assert "    # L['___stack0'] is the value of m.item() at line %d, on Dynamo's stack at the graph break" % line in full


def test_each_value_on_the_stack_at_a_break_midway_through_a_call(tmp_path):
    # torch.add(s * 2, max(y.item(), 3)) breaks at y.item(): torch.add, s * 2 and max are on the stack
    d = dump(tmp_path, add_scaled, [(torch.ones(2), torch.tensor(2))])
    line = line_of(add_scaled, "y.item()")
    values = function(d, "torch_dynamo_resume_in_add_scaled_at_%d" % line)["stack_values"]
    by_expression = {v["expression"]: name for name, v in values.items()}
    assert {"s * 2", "y.item()"} <= set(by_expression)
    assert {v["line"] for v in values.values()} == {line}
    # bottom of the stack first: s * 2 was computed before y.item()
    assert int(by_expression["s * 2"][len("___stack"):]) < int(by_expression["y.item()"][len("___stack"):])


def variables(guard_lines):
    """The variables guard lines test (the first each line names), in the order they first appear."""
    out = []
    for line in guard_lines:
        m = re.search(r"\b([LG])\['(\w+)'\]", line)
        if m and m.groups() not in out:
            out.append(m.groups())
    return out


def test_every_entry_lists_its_guard_lines_in_the_same_order(tmp_path):
    x = torch.tensor([1.0])
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        d = dump(tmp_path, add, [(x, 1), (x, 2), (x, 3)])
    fn = function(d, "add")
    assert len(fn["entries"]) == 3
    orders = [variables(e["guard"]) for e in fn["entries"]]
    assert orders == [[("L", "a"), ("L", "b")]] * 3, orders  # the arguments' order, in every entry
    full = read(d, fn["full_code"])
    checks = [[l for l in g.splitlines() if l.startswith("    __guard_hit = __guard_hit and")]
              for g in full.split("def __guard_")[1:]]  # the guard functions' statements, in order
    assert len(checks) == 3
    assert [variables(c) for c in checks] == [[("L", "a"), ("L", "b")]] * 3


def test_the_readme_has_a_graph_breaks_heading_only_over_graph_breaks(tmp_path):
    d = dump(tmp_path, add, [(torch.tensor([1.0]), 1)])
    readme = read(d, "README.md")
    assert "## Functions" in readme and "## Graph breaks" not in readme
    d = dump(tmp_path / "b", normalize, [(torch.ones(4),)])
    assert "\n## Graph breaks\n\n- `normalize` at " in read(d, "README.md")
