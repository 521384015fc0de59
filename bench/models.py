"""Real models under ``prepare_debug``: one table row per model and backend (issue 13).

Tiny random-initialised HF transformers models (no download): GPT-2 forward under eager,
aot_eager and inductor, a GPT-2 training step under aot_eager, LLaMA ``generate`` under eager.
For each row: whether the results are bit for bit those of plain ``torch.compile``, the cache
entries dumped, how many fell back to Dynamo's bytecode, the guard lines unveil wrote against
torch's own guard set (whole set, epilogue included; "=" when the sets are equal), and the
compile cost: the workload's first run (which compiles every entry) under ``prepare_debug``
against plain ``torch.compile``; the ratio is the median over rounds of the ratio within a
round, for wall time and for this thread's CPU time (which other processes on a busy machine
disturb less), with the least and greatest round in brackets. Work done on the context's exit
(the guards, ``full_code_*.py``, the index) is after the compile and not counted.

The last column is unveil's own work inside the compile, measured without a profiler: this
thread's CPU time inside unveil's callbacks (the bytecode hook: decompile, compile, prove, write;
the trace handler, and torch's ``trace_structured`` for the records unveil keeps, torch's text
of them included; the graph runner), median over rounds, and in brackets as a share of plain's
compile CPU time: what the ratio would be with nothing else changing. Not in it: the collector's
work on unveil's objects (the table below the rows shows it) and torch's cost of any handler
listening; the ratios have them.

Below the rows: the garbage collections during the timed compiles, per side (``gc.callbacks``).

Both sides do the same work in every round:

* torch's compile caches that persist between compiles are off (inductor's FX graph cache, AOT
  autograd's cache): with them, round 0 filled the cache on disk and every later round of the
  inductor row loaded the compiled graph (about 0.8 s) instead of lowering it (about 2 s), so
  that row timed a cache hit, and unveil's extra 0.1 s was within the noise of a shared machine
  (its 0.924 of 2026-12-02: a cProfile of both sides shows unveil's side doing torch's work call
  for call plus its own, nothing less). The kernels' C++ build stays cached (keyed by their
  source, the same for both sides): the figure is Dynamo, AOT autograd and inductor's lowering.
* plain runs first in even rounds, unveil first in odd ones, so neither side always runs on
  what the other left behind (freed memory, warmed in-process caches, garbage of the round).
* round 0 (imports, transformers' lazy initialisation, the kernels' first build) is not counted.
* before each side's compile a full collection, then ``gc.freeze()`` (``gc.unfreeze()`` after):
  the objects alive then (torch's heap, what earlier rounds and rows left) are out of the
  collector's sight during the compile on both sides, so a full collection of that heap (0.6-1.8 s
  with the GPT-2 rows' heap) is not charged to one side by the phase of the collector's counters.
  Everything either compile allocates is collected as without the freeze (unveil's objects
  included; the collections are listed per side). ``--no-freeze``: the full collection only, as
  before 2026-12-02 noon. (bench/gc_probe.py found no full collection in a counted compile of
  any row, with or without the freeze -- after a full collection CPython waits until the objects
  promoted since number a quarter of those it kept -- and one more generation-1 collection on
  unveil's side: the round-to-round spread of the ratio is the machine's, not the collector's.)

    .venv/bin/python bench/models.py [--rounds 5] [--only gpt2-aot_eager,...] [--no-freeze]
"""
import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import warnings

import torch
import transformers

import unveil
from unveil.torch import cache

# the models and workloads of the real-model tests (tests/torch/test_transformers.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "torch"))
import tiny_models  # noqa: E402


def results_only(workload):
    return lambda backend: workload(backend)[0]


ROWS = {"gpt2-eager": ("gpt2 forward", "eager", results_only(tiny_models.gpt2_forward)),
        "gpt2-aot_eager": ("gpt2 forward", "aot_eager", results_only(tiny_models.gpt2_forward)),
        "gpt2-inductor": ("gpt2 forward", "inductor", results_only(tiny_models.gpt2_forward)),
        "gpt2train-aot_eager": ("gpt2 train step", "aot_eager", results_only(tiny_models.gpt2_train_step)),
        "llama-eager": ("llama generate", "eager", results_only(tiny_models.llama_generate))}


class GcLog:
    """``gc.callbacks`` hook: the collections of each generation while a compile is timed,
    per side, as [count, seconds] (summed over the counted rounds)."""

    def __init__(self):
        self.side = None  # the side being timed, None between timed compiles
        self.t0 = None
        self.stats = {}  # (row, side) -> {generation: [count, seconds]}
        self.row = None
        gc.callbacks.append(self)

    def __call__(self, phase, info):
        if self.side is None or self.row is None:  # not timing, or round 0
            return
        if phase == "start":
            self.t0 = time.perf_counter()
        elif self.t0 is not None:
            gens = self.stats.setdefault((self.row, self.side), {g: [0, 0.0] for g in range(3)})
            gens[info["generation"]][0] += 1
            gens[info["generation"]][1] += time.perf_counter() - self.t0
            self.t0 = None


GC = GcLog()


class OwnTime:
    """This thread's CPU time inside unveil's callbacks (outermost calls only)."""

    def __init__(self):
        self.depth = 0
        self.total = 0.0

    def wrap(self, owner, name):
        original = getattr(owner, name)

        def timed(*a, **k):
            if self.depth:
                return original(*a, **k)
            self.depth += 1
            t0 = time.thread_time()
            try:
                return original(*a, **k)
            finally:
                self.total += time.thread_time() - t0
                self.depth -= 1
        setattr(owner, name, timed)


OWN = OwnTime()


def install_own_timers():
    from unveil.torch import capture, graph_runner, hook
    OWN.wrap(hook.BytecodeHook, "_hook")
    OWN.wrap(capture.TraceCapture, "take")
    OWN.wrap(graph_runner.GraphRunner, "add")
    OWN.wrap(graph_runner.GraphRunner, "retarget")
    # the records unveil keeps from torch's trace_structured, torch's text of them included
    # (torch builds an artifact's text only when a handler listens)
    filtering = capture._filtering

    def timed_filtering(original, trace_log):
        holder = type("Holder", (), {"fn": staticmethod(filtering(original, trace_log))})
        OWN.wrap(holder, "fn")
        holder.fn.unveil_original = original
        return holder.fn
    capture._filtering = timed_filtering


FREEZE = True  # --no-freeze: the method before 2026-12-02 noon (a full collection only)


def timed(fn, side):
    gc.collect()
    if FREEZE:
        gc.freeze()  # what is alive now is out of the collector's sight during the compile (docstring)
    GC.side = side
    t0, cpu0 = time.perf_counter(), time.thread_time()
    try:
        out = fn()
        return out, time.perf_counter() - t0, time.thread_time() - cpu0
    finally:
        GC.side = None
        if FREEZE:
            gc.unfreeze()


def plain_run(workload, backend):
    torch._dynamo.reset()
    return timed(lambda: workload(backend), "plain")


def unveil_run(workload, backend, d):
    """(results, wall, cpu, unveil's own CPU time in its callbacks, guard line counts (unveil's,
    torch's, all sets equal))."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    torch._dynamo.reset()
    with unveil.prepare_debug(d):
        OWN.total = 0.0
        out, wall, cpu = timed(lambda: workload(backend), "unveil")
        own = OWN.total
        mine = theirs = 0
        same = True
        for code in cache.compiled_originals():
            for info, raw in zip(cache.entries(code), _debug_get_cache_entry_list(code)):
                a = {p.splitlines()[0].rstrip() for p in info.guard_lines}
                b = tiny_models.torch_guard_set(raw.guard_manager)
                mine, theirs, same = mine + len(a), theirs + len(b), same and a == b
    return out, wall, cpu, own, (mine, theirs, same)


def row(name, backend, workload, rounds):
    ratios_wall, ratios_cpu, plain_wall, own_shares = [], [], [], []

    def run_unveil():
        with tempfile.TemporaryDirectory() as d:
            got, uw, uc, own, guards = unveil_run(workload, backend, d)
            with open(os.path.join(d, "index.json")) as fh:
                return got, uw, uc, own, guards, json.load(fh)

    for r in range(rounds + 1):  # round 0 warms imports and caches up
        GC.row = (name, backend) if r else None
        if r % 2 == 0:
            plain, pw, pc = plain_run(workload, backend)
            got, uw, uc, own, guards, index = run_unveil()
        else:
            got, uw, uc, own, guards, index = run_unveil()
            plain, pw, pc = plain_run(workload, backend)
        if r:
            ratios_wall.append(uw / pw)
            ratios_cpu.append(uc / pc)
            plain_wall.append(pw)
            own_shares.append((own, own / pc))
    entries = [e for f in index["functions"] for e in f["entries"]]
    same = len(plain) == len(got) and all(torch.equal(a, b) for a, b in zip(plain, got))
    return (name, backend, "yes" if same else "NO", len(entries), sum(1 for e in entries if e["error"]),
            "%d/%d%s" % (guards[0], guards[1], " =" if guards[2] else " DIFFER"),
            statistics.median(plain_wall), statistics.median(ratios_wall), min(ratios_wall), max(ratios_wall),
            statistics.median(ratios_cpu), min(ratios_cpu), max(ratios_cpu),
            statistics.median(o for o, _ in own_shares), statistics.median(r for _, r in own_shares))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", metavar="ROW,ROW", help="rows among " + ", ".join(ROWS))
    ap.add_argument("--no-freeze", action="store_true",
                    help="no gc.freeze() before each compile (the method before 2026-12-02 noon)")
    args = ap.parse_args()
    global FREEZE
    FREEZE = not args.no_freeze
    warnings.simplefilter("ignore")
    only = [w for w in args.only.split(",") if w] or list(ROWS)
    unknown = set(only) - set(ROWS)
    if unknown:
        ap.error("unknown rows: %s" % ", ".join(sorted(unknown)))
    torch._inductor.config.fx_graph_cache = False  # both sides compile, neither loads (docstring)
    torch._functorch.config.enable_autograd_cache = False
    print("torch %s, transformers %s, %d rounds%s" % (torch.__version__, transformers.__version__, args.rounds,
                                                   "" if FREEZE else ", no gc.freeze()"))
    print("| model | backend | same results | entries | fallbacks | guard lines unveil/torch "
          "| plain compile [s] | ratio (wall) | ratio (CPU) | unveil's own work [s CPU] |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|---:|")
    install_own_timers()
    for key in only:
        name, backend, workload = ROWS[key]
        print("| %s | %s | %s | %d | %d | %s | %.3f | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.3f (1 + %.3f) |"
              % row(name, backend, workload, args.rounds), flush=True)
    print("\ngarbage collections during the counted compiles (count / seconds, all rounds):")
    print("| model | backend | side | gen 0 | gen 1 | gen 2 |")
    print("|---|---|---|---:|---:|---:|")
    for key in only:
        name, backend = ROWS[key][:2]
        for side in ("plain", "unveil"):
            gens = GC.stats.get(((name, backend), side), {g: [0, 0.0] for g in range(3)})
            print("| %s | %s | %s | %s |" % (name, backend, side, " | ".join(
                "%d / %.3f" % tuple(gens[g]) for g in range(3))))
    torch.set_grad_enabled(True)


if __name__ == "__main__":
    main()
