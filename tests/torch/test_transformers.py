"""Real models (issue 13): tiny, randomly initialised HF transformers models (no download)
compiled inside ``prepare_debug``. For each: the results equal plain ``torch.compile``'s,
every cache entry runs from its dumped file, every ``.py`` of the dump compiles, each
entry's guard lines are torch's whole guard set (epilogue guards included), and a
breakpoint in the transformed code of the model's forward is hit.

transformers is pinned in pyproject.toml's ``test`` extra. The inductor forward and the
training step are the slowest (marked ``slow``; ``make test`` runs them)."""
import bdb
import json
import os
import re
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import unveil  # noqa: E402
from unveil.torch import cache  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiny_models import (bart_forward, gpt2_forward, gpt2_train_step, ids, llama_generate,  # noqa: E402
                         tiny_gpt2, torch_guard_set)


def run(workload, backend, d):
    """(plain results, unveil's results, index, {compile id: (unveil's, torch's guard lines)})."""
    torch._dynamo.reset()
    plain, _ = workload(backend)
    torch._dynamo.reset()
    guards = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # unveil warns when an entry falls back
        with unveil.prepare_debug(d):
            got, compiled = workload(backend)
            from torch._dynamo.eval_frame import _debug_get_cache_entry_list
            for code in cache.compiled_originals():
                for info, raw in zip(cache.entries(code), _debug_get_cache_entry_list(code)):
                    mine = {p.splitlines()[0].rstrip() for p in info.guard_lines}
                    guards[info.compile_id] = (mine, torch_guard_set(raw.guard_manager))
    with open(os.path.join(d, "index.json")) as fh:
        index = json.load(fh)
    return plain, got, index, guards


def assert_dump(plain, got, index, guards, d, entries):
    assert len(plain) == len(got)
    for a, b in zip(plain, got):  # bit for bit
        assert torch.equal(a, b)
    all_entries = [e for f in index["functions"] for e in f["entries"]]
    assert len(all_entries) == entries, [(f["qualname"], len(f["entries"])) for f in index["functions"]]
    assert [e for e in all_entries if e["error"]] == []
    assert index["errors"] == []
    for name in os.listdir(d):
        if name.endswith(".py"):
            with open(os.path.join(d, name), encoding="utf-8") as fh:
                compile(fh.read(), name, "exec")
    assert {e["compile_id"] for e in all_entries} == set(guards)
    for cid, (mine, theirs) in guards.items():
        assert mine == theirs, (cid, sorted(mine ^ theirs)[:5])


class Stops(bdb.Bdb):
    """Breakpoints on every line of ``paths``; records the files a call stops in."""

    def __init__(self, paths):
        super().__init__()
        self.paths = {self.canonic(p) for p in paths}
        for path in self.paths:
            with open(path) as fh:
                for line in range(1, len(fh.read().splitlines()) + 1):
                    self.set_break(path, line)
        self.hit = set()

    def user_line(self, frame):
        if self.canonic(frame.f_code.co_filename) in self.paths:
            self.hit.add(os.path.basename(frame.f_code.co_filename))
        self.set_continue()


@pytest.mark.parametrize("backend", ["eager", "aot_eager",
                                     pytest.param("inductor", marks=pytest.mark.slow)])
def test_gpt2_forward(tmp_path, backend):
    d = str(tmp_path / "dump")
    plain, got, index, guards = run(gpt2_forward, backend, d)
    assert_dump(plain, got, index, guards, d, entries=1)


def test_bart_forward(tmp_path):
    """An encoder-decoder (the sweep of model families found it falling back): its transformed
    forward rebuilds the output and the cache, whose ``is_updated`` dict display Dynamo leaves
    on the stack under other calls. The entry runs from its file."""
    d = str(tmp_path / "dump")
    plain, got, index, guards = run(bart_forward, "eager", d)
    assert_dump(plain, got, index, guards, d, entries=1)


def test_gpt2_forward_breakpoints(tmp_path):
    """aot_eager, no input requiring grad: breakpoints in the transformed forward and in the
    AOT forward graph it calls are both hit."""
    d = str(tmp_path / "dump")
    torch._dynamo.reset()
    model = tiny_gpt2().eval()
    with unveil.prepare_debug(d):
        compiled = torch.compile(model, backend="aot_eager")
        with torch.no_grad():
            compiled(ids())
    with open(os.path.join(d, "index.json")) as fh:
        index = json.load(fh)
    fn = next(f for f in index["functions"] if f["qualname"].endswith("can_return_tuple.<locals>.wrapper"))
    assert fn["title"] == "GPT2LMHeadModel.forward, via can_return_tuple.wrapper"
    assert_located_at_the_users_forward(d, fn)
    transformed = fn["entries"][0]["transformed_file"]
    graph = next(g["file"] for g in index["graphs"] if g["stage"] == "aot_forward")
    stops = Stops([os.path.join(d, transformed), os.path.join(d, graph)])
    try:
        with torch.no_grad():
            stops.runcall(compiled, ids())
    finally:
        stops.clear_all_breaks()
    assert stops.hit == {transformed, graph}


def assert_located_at_the_users_forward(d, fn):
    """The function's location is the model's forward, not transformers' decorator: in
    index.json, the README heading, ``unveil show`` and the full_code file (which also names the
    decorator's code object and where it is)."""
    import inspect
    from unveil import cli
    forward = inspect.unwrap(transformers.GPT2LMHeadModel.forward)
    where = "%s:%d" % (forward.__code__.co_filename, forward.__code__.co_firstlineno)
    assert (fn["source_file"], fn["first_line"]) == (forward.__code__.co_filename, forward.__code__.co_firstlineno)
    with open(os.path.join(d, "README.md")) as fh:
        assert "### `%s` (%s)" % (fn["title"], where) in fh.read()
    with open(os.path.join(d, fn["full_code"])) as fh:
        full = fh.read()
    assert "# source: %s\n" % where in full
    wrapper = re.search(r"# \(code object .*can_return_tuple\.<locals>\.wrapper, (.*):(\d+)\)\n", full)
    assert wrapper and os.path.basename(wrapper.group(1)) != os.path.basename(where.rpartition(":")[0])
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli.main(["show", d])
    assert "function %s  %s" % (fn["title"], where) in out.getvalue().splitlines()


@pytest.mark.slow
def test_gpt2_training_step(tmp_path):
    d = str(tmp_path / "dump")
    plain, got, index, guards = run(gpt2_train_step, "aot_eager", d)
    assert_dump(plain, got, index, guards, d, entries=6)
    # the resume function of the can_return_tuple closure is named as such, not as torch's factory
    assert not any("_make_fn" in f["qualname"] for f in index["functions"])


def test_llama_generate(tmp_path):
    d = str(tmp_path / "dump")
    plain, got, index, guards = run(llama_generate, "eager", d)
    assert_dump(plain, got, index, guards, d, entries=3)
    # the dynamic entry's shape relations (epilogue guards) are written
    assert any(any(re.match(r"\d+ <= L\[", g) for g in mine) for mine, _ in guards.values())
