"""unveil.explain and the executable guard functions of a dump, on real torch (backend eager)."""
import bdb
import json
import os
import random
import re
import runpy
import sys

import pytest
import torch

import unveil
from unveil import cli
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from unveil.torch.explain import frame_locals
from unveil.torch.guard_runtime import GuardNotLive

HERE = os.path.abspath(__file__)


@pytest.fixture
def static_shapes():
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        yield


def seed_fn():
    @torch.compile(backend="eager")
    def f(a, b):
        return a + b
    return f


def code_of(f):
    return f._torchdynamo_orig_callable.__code__


def load_index(d):
    with open(os.path.join(d, "index.json")) as fh:
        return json.load(fh)


def entries_of(d, name="f"):
    fns = [f for f in load_index(d)["functions"] if f["name"] == name]
    assert len(fns) == 1
    return fns[0]["entries"]


def torch_reasons(code):
    """torch's own recompile reasons recorded for ``code`` ("0/1: b == 2"), oldest first."""
    from torch._dynamo.guards import guard_failures
    return list(guard_failures.get(code, []))


def strip_L(text):
    return re.sub(r"L\[\s*['\"](.*?)['\"]\s*\]", r"\1", text)


class Stops(bdb.Bdb):
    """Breakpoints on every line of ``files``; records the files a call stops in."""

    def __init__(self, files):
        super().__init__()
        self.files = {self.canonic(f) for f in files}
        for f in self.files:
            with open(f) as fh:
                for line in range(1, len(fh.read().splitlines()) + 1):
                    self.set_break(f, line)
        self.stopped = set()

    def user_line(self, frame):
        if self.canonic(frame.f_code.co_filename) in self.files:
            self.stopped.add(self.canonic(frame.f_code.co_filename))
        self.set_continue()

    def call(self, fn, *args):
        try:
            return self.runcall(fn, *args)
        finally:
            sys.settrace(None)
            self.clear_all_breaks()


def test_seed_explain_names_the_entry_of_b_2_and_its_file_is_where_the_breakpoint_stops(tmp_path, static_shapes):
    d = str(tmp_path / "dump")
    f = seed_fn()
    x = torch.tensor([1.0])
    with unveil.prepare_debug(d):
        f(x, 1), f(x, 2), f(x, 3)
    ex = unveil.explain(f, x, 2)
    assert ex.action == "run" and not ex.will_compile
    # torch checks the newest entry first: 0/2 (b == 3) fails, 0/1 accepts, 0/0 is not reached
    assert [e.compile_id for e in ex.entries] == ["0/2", "0/1", "0/0"]
    assert [e.accepted for e in ex.entries[:2]] == [False, True] and not ex.entries[2].reached
    assert ex.entries[0].failure.text == "L['b'] == 3"
    assert ex.chosen.compile_id == "0/1"
    by_cid = {e["compile_id"]: e for e in entries_of(d)}
    assert "L['b'] == 2" in by_cid["0/1"]["guard"]
    assert ex.transformed_file == os.path.join(d, by_cid["0/1"]["transformed_file"])
    text = str(ex)
    assert "runs entry 0/1" in text and by_cid["0/1"]["transformed_file"] in text
    dbg = Stops([os.path.join(d, e["transformed_file"]) for e in by_cid.values()])
    assert dbg.call(f, x, 2).item() == 3.0
    assert dbg.stopped == {dbg.canonic(ex.transformed_file)}


def test_seed_new_value_compiles_and_lists_each_failing_condition_with_its_line(static_shapes):
    f = seed_fn()
    x = torch.tensor([1.0])
    f(x, 1), f(x, 2), f(x, 3)
    ex = unveil.explain(f, x, 4)
    assert ex.will_compile and ex.chosen is None and ex.transformed_file is None
    assert [(cid, c.text) for cid, c in ex.failures] == [
        ("0/2", "L['b'] == 3"), ("0/1", "L['b'] == 2"), ("0/0", "L['b'] == 1")]
    line = seed_fn.__code__.co_firstlineno + 3  # "return a + b"
    for _, c in ex.failures:
        assert c.source_line == "return a + b"
        assert c.location == "%s:%d in f" % (HERE, line)
    assert "torch compiles a new entry" in str(ex)
    d = ex.to_dict()
    assert json.loads(json.dumps(d)) == d  # structured, JSON-able
    # nothing ran: the cache still has three entries
    assert len(_debug_get_cache_entry_list(code_of(f))) == 3


@pytest.mark.parametrize("change", ["shape", "dtype"])
def test_tensor_changes_give_torchs_own_reason(change, static_shapes):
    f = seed_fn()
    x = torch.tensor([1.0])
    f(x, 2)
    y = torch.ones(2) if change == "shape" else x.double()
    ex = unveil.explain(f, y, 2)
    assert ex.will_compile
    (cid, c), = ex.failures
    assert c.kind == "TENSOR_MATCH" and c.guard_line.startswith("check_tensor(L['a']")
    assert c.source_line == "return a + b"
    assert ("size mismatch at index 0. expected 1, actual 2" if change == "shape"
            else "dtype mismatch. expected Float, actual Double") in c.text
    if change == "shape":
        assert ex.dynamic and "automatic_dynamic_shapes is off" in ex.dynamic[0]
    f(y, 2)  # torch's reason for the recompile it then does is the same text
    assert torch_reasons(code_of(f)) == ["%s: %s" % (cid, strip_L(c.text))]


def test_automatic_dynamic_shapes_decision_is_reported_and_torch_takes_it():
    f = seed_fn()
    f(torch.ones(3), 1)
    ex = unveil.explain(f, torch.ones(5), 1)
    assert ex.will_compile
    assert ex.dynamic == ["automatic_dynamic_shapes: L['a'] size 0 changes (3 -> 5): that dimension becomes dynamic"]
    assert unveil.explain(f, torch.ones(3), 2).dynamic == [
        "automatic_dynamic_shapes: L['b'] changes (1 -> 2): it becomes a dynamic int (a SymInt) in the new entry"]
    f(torch.ones(5), 1)  # torch compiles the entry explain announced: dynamic in a's size
    assert unveil.explain(f, torch.ones(7), 1).action == "run"
    assert unveil.explain(f, torch.ones(7), 2).dynamic == [
        "automatic_dynamic_shapes: L['b'] changes (1 -> 2): it becomes a dynamic int (a SymInt) in the new entry"]


def test_recompile_limit_and_stances(static_shapes):
    f = seed_fn()
    x = torch.tensor([1.0])
    f(x, 1), f(x, 2)
    with torch._dynamo.config.patch(recompile_limit=2):
        ex = unveil.explain(f, x, 3)
        assert ex.action == "recompile_limit" and "recompile_limit (2)" in ex.reasons[0]
    with torch.compiler.set_stance("fail_on_recompile"):
        assert unveil.explain(f, x, 3).action == "error"
        assert unveil.explain(f, x, 1).action == "run"
    with torch.compiler.set_stance("eager_on_recompile"):
        assert unveil.explain(f, x, 3).action == "eager"


def test_exact_types_as_torch_checks_them(static_shapes):
    f = seed_fn()
    x = torch.tensor([1.0])
    f(x, 1)
    ex = unveil.explain(f, x, True)  # True == 1, but torch's guard wants an int
    assert ex.will_compile and ex.failures[0][1].text == "L['b'] == 1"
    assert unveil.explain(f, x, 1).action == "run"


def test_module_and_defaults_and_closure(static_shapes):
    scale = torch.tensor([2.0])

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(2, 2)

        def forward(self, x, n=1, *rest, **kw):
            return self.lin(x) * n * scale

    m = torch.compile(M(), backend="eager")
    x = torch.ones(1, 2)
    m(x)
    assert unveil.explain(m, x).action == "run"
    assert unveil.explain(m, x, n=1).action == "run"
    ex = unveil.explain(m, x, 3)
    assert ex.will_compile and "L['n'] == 1" in ex.failures[0][1].text
    seq = torch.compile(torch.nn.Sequential(torch.nn.Linear(2, 2)), backend="eager")
    seq(x)  # torch's own modules are compiled through a wrapper frame
    assert unveil.explain(seq, x).action == "run"
    assert unveil.explain(seq, torch.ones(1, 2, dtype=torch.float64)).will_compile


def test_graph_break_resume_functions_are_checked_later():
    @torch.compile(backend="eager")
    def g(x):
        y = x + 1
        torch._dynamo.graph_break()
        return y * 2

    g(torch.ones(2))
    ex = unveil.explain(g, torch.ones(2))
    assert ex.action == "run" and ex.chosen.resume_functions
    assert "at the graph break" in ex.resume_note and ex.chosen.resume_functions[0] in ex.resume_note
    assert "resume functions" in str(ex)


def test_not_yet_compiled():
    f = seed_fn()
    ex = unveil.explain(f, torch.ones(1), 1)
    assert ex.will_compile and ex.entries == [] and "first compilation" in ex.reasons[0]


def test_dump_records_why_each_recompile_happened_and_show_entry_prints_it(tmp_path, static_shapes, capsys):
    d = str(tmp_path / "dump")
    f = seed_fn()
    x = torch.tensor([1.0])
    with unveil.prepare_debug(d):
        f(x, 1), f(x, 2), f(torch.ones(2), 2)
    by_cid = {e["compile_id"]: e for e in entries_of(d)}
    assert by_cid["0/0"]["explanation"] is None
    first = by_cid["0/1"]["explanation"]
    assert [(e["compile_id"], e["failure"]["text"]) for e in first["entries"]] == [("0/0", "L['b'] == 1")]
    last = by_cid["0/2"]["explanation"]
    assert [(e["compile_id"], e["failure"]["kind"]) for e in last["entries"]] == [
        ("0/1", "TENSOR_MATCH"), ("0/0", "EQUALS_MATCH")]
    assert "size mismatch" in last["entries"][0]["failure"]["text"]
    with open(os.path.join(d, load_index(d)["functions"][0]["full_code"])) as fh:
        full = fh.read()
    assert "#   entry 0/0 failed: L['b'] == 1  (from: return a + b" in full
    assert cli.main(["show", d, "--entry", "0/2"]) == 0
    out = capsys.readouterr().out
    assert "entry 0/1 failed: tensor 'L['a']' size mismatch at index 0. expected 1, actual 2" in out
    assert "entry 0/0 failed: L['b'] == 1" in out
    assert "L['b'] == 2" in out  # its own guard
    assert cli.main(["show", d, "--entry", "f:0"]) == 0 and "first compilation" in capsys.readouterr().out
    assert cli.main(["show", d, "--entry", "9/9"]) == 2 and "no cache entry" in capsys.readouterr().err


def random_call(rng):
    shape = rng.choice([(1,), (2,), (2, 3), (3, 2)])
    dtype = rng.choice([torch.float32, torch.float64, torch.int64])
    t = torch.ones(shape, dtype=dtype)
    if dtype.is_floating_point and rng.random() < 0.3:
        t.requires_grad_(True)
    return t, rng.choice([1, 2, 3, 7, True, False, 2.0, 2.5])


def test_dumped_guard_functions_return_torchs_verdict(tmp_path, static_shapes):
    d = str(tmp_path / "dump")
    f = seed_fn()
    rng = random.Random(17)
    with unveil.prepare_debug(d):
        for _ in range(6):
            f(*random_call(rng))
        f(torch.ones(2, requires_grad=True), 2.5)
        f(torch.ones(1), True)
    live = _debug_get_cache_entry_list(code_of(f))
    assert len(live) >= 5
    fn_index = [fn for fn in load_index(d)["functions"] if fn["name"] == "f"][0]
    ns = runpy.run_path(os.path.join(d, fn_index["full_code"]))  # the whole file runs
    guards = {e["compile_id"]: ns["__guard_%d_for_f" % e["index"]] for e in fn_index["entries"]}
    G = code_of(f) and f._torchdynamo_orig_callable.__globals__
    agree = accepted = 0
    for _ in range(200):
        a, b = random_call(rng)
        L = {"a": a, "b": b}
        for entry in live:
            torch_says = bool(entry.guard_manager.check(L))
            assert guards[str(entry.compile_id)](L, G) is torch_says, (entry.compile_id, a, b)
            agree += 1
            accepted += torch_says
    assert agree == 200 * len(live) and 0 < accepted < agree
    with open(os.path.join(d, fn_index["full_code"])) as fh:
        full = fh.read()
    # Python where torch's text is its check; the rest through torch's guard manager, said beside it
    assert "(type(L['b']) is int and L['b'] == " in full
    assert re.search(r"___torch_guard\('0/0', L, G, \"check_tensor\(L\['a'\].*# checked only in C\+\+", full)
    torch._dynamo.reset()
    with pytest.raises(GuardNotLive, match="not live"):
        guards["0/0"]({"a": torch.ones(1), "b": 1}, G)



def test_another_backend_does_not_reuse_the_entry():
    def g(a):
        return a * 2

    eager = torch.compile(g, backend="eager")
    other = torch.compile(g, backend="aot_eager")
    eager(torch.ones(2))
    assert unveil.explain(eager, torch.ones(2)).action == "run"
    ex = unveil.explain(other, torch.ones(2))
    assert ex.will_compile and ex.failures[0][1].kind == "BACKEND_MATCH"


SCRIPT = """
import torch

@torch.compile(backend="eager")
def f(a, b):
    return a + b

x = torch.tensor([1.0])
for b in (1, 2, 3):
    f(x, b)
"""


def test_cli_explain_runs_the_script_then_explains_the_call(tmp_path, static_shapes, capsys):
    script = tmp_path / "prog.py"
    script.write_text(SCRIPT)
    d = str(tmp_path / "dump")
    assert cli.main(["explain", str(script), "--call", "f(x, 2)", "--dump", d]) == 0
    out = capsys.readouterr().out
    chosen = [line for line in out.splitlines() if line.startswith("=> runs entry")]
    assert len(chosen) == 1 and os.path.join(d, "__transformed_code_") in chosen[0]
    assert "failed: L['b'] == 3" in out
    assert cli.main(["explain", str(script), "--call", "f(x, 4)"]) == 0
    assert "torch compiles a new entry" in capsys.readouterr().out
    assert cli.main(["explain", str(script), "--call", "f(x,"]) == 2
    assert "not a Python expression" in capsys.readouterr().err


class Rich(torch.nn.Module):
    """Guards of many kinds: module attributes, None, bools, lists, dicts, floats, strings."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.mode = "a"

    def forward(self, x, opt=None, flag=True, xs=(), d=None, k=1, name="n"):
        y = self.lin(x)
        if opt is not None:
            y = y + opt
        if flag:
            y = y * 2
        for t in xs:
            y = y + t
        if d:
            y = y + d["w"]
        if self.mode == "a":
            y = y * k
        return y - 1 if name == "n" else y


def rich_call(rng):
    x = torch.randn(rng.choice([1, 2, 4]), 3)
    if rng.random() < 0.2:
        torch._dynamo.mark_dynamic(x, 0)
    return (x,), dict(opt=rng.choice([None, torch.ones(3), 1.5]), flag=rng.choice([True, False, 1, 0]),
                      xs=rng.choice([(), (torch.ones(3),), [torch.ones(3), torch.ones(3)]]),
                      d=rng.choice([None, {"w": torch.ones(3)}, {}]), k=rng.choice([1, 2, 2.0, True]),
                      name=rng.choice(["n", "m"]))


def test_dumped_guards_of_many_kinds_agree_with_torch(tmp_path):
    d = str(tmp_path / "dump")
    module = Rich()
    m = torch.compile(module, backend="eager")
    rng = random.Random(5)
    compiled = [rich_call(rng) for _ in range(10)]
    with torch._dynamo.config.patch(recompile_limit=64):
        with unveil.prepare_debug(d):
            for args, kwargs in compiled:
                m(*args, **kwargs)
    live = _debug_get_cache_entry_list(Rich.forward.__code__)
    fn = [f for f in load_index(d)["functions"] if f["name"] == "forward"][0]
    ns = runpy.run_path(os.path.join(d, fn["full_code"]))
    guards = {e["compile_id"]: ns["__guard_%d_for_forward" % e["index"]] for e in fn["entries"]}
    accepted = 0
    for args, kwargs in compiled + [rich_call(rng) for _ in range(100)]:
        L = frame_locals(Rich.forward, module, args, kwargs)
        for entry in live:
            torch_says = bool(entry.guard_manager.check(L))
            assert guards[str(entry.compile_id)](L, globals()) is torch_says, (entry.compile_id, args, kwargs)
            accepted += torch_says
    assert accepted
