"""Where the garbage collector's time goes in bench/models.py's compiles (issue 13's spread).

For each round and side (plain ``torch.compile`` / ``prepare_debug``) of a bench/models.py row,
a ``gc.callbacks`` hook records the collections of each generation during the timed compile:
how many, their total and longest duration. After the compile (the entries still cached) a
full collection, then the number of objects alive (``len(gc.get_objects())``) against the
count before it: what each side keeps alive. ``--tracemalloc`` adds, for one unveil run, the
memory still allocated after the compile by unveil's own source lines (top lines). "own" is
the CPU time of this thread inside unveil's callbacks during the compile (the bytecode hook, the
trace handler, the graph runner), without a profiler.

    .venv/bin/python bench/gc_probe.py [--rows gpt2-eager,gpt2-aot_eager] [--rounds 4]
        [--freeze] [--tracemalloc]

``--freeze``: the method bench/models.py uses (a full collection and ``gc.freeze()`` before
each side's compile, ``gc.unfreeze()`` after), to see what it leaves to the collector.
"""
import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
import warnings

import torch

import unveil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


class GcLog:
    """Collections per generation while ``on``: [count, total s, longest s, collected]."""

    def __init__(self):
        self.on = False
        self.t0 = None
        self.stats = {g: [0, 0.0, 0.0, 0] for g in range(3)}
        gc.callbacks.append(self)

    def __call__(self, phase, info):
        if not self.on:
            return
        if phase == "start":
            self.t0 = time.perf_counter()
        elif self.t0 is not None:
            dt = time.perf_counter() - self.t0
            s = self.stats[info["generation"]]
            s[0] += 1
            s[1] += dt
            s[2] = max(s[2], dt)
            s[3] += info["collected"]
            self.t0 = None

    def reset(self):
        self.stats = {g: [0, 0.0, 0.0, 0] for g in range(3)}


LOG = None


def compile_once(workload, backend, side, d, freeze):
    torch._dynamo.reset()
    gc.collect()
    before = len(gc.get_objects())
    if freeze:
        gc.freeze()
    LOG.reset()
    models.OWN.total = 0.0
    ctx = unveil.prepare_debug(d) if side == "unveil" else None
    if ctx is not None:
        ctx.__enter__()
    LOG.on = True
    t0 = time.perf_counter()
    workload(backend)
    wall = time.perf_counter() - t0
    own = models.OWN.total
    LOG.on = False
    if ctx is not None:
        ctx.__exit__(None, None, None)
    if freeze:
        gc.unfreeze()
    gc.collect()
    kept = len(gc.get_objects()) - before  # entries still cached: what this side keeps alive
    return wall, own, dict(LOG.stats), kept


def fmt(stats):
    return " ".join("g%d %d/%.3fs(max %.3f)" % (g, s[0], s[1], s[2]) for g, s in stats.items())


def unveil_retained(workload, backend, d, top):
    """Memory still allocated by unveil's source after a compile under prepare_debug."""
    torch._dynamo.reset()
    gc.collect()
    tracemalloc.start(1)
    with unveil.prepare_debug(d):
        workload(backend)
    gc.collect()
    snap = tracemalloc.take_snapshot()
    tracemalloc.stop()
    src = os.path.dirname(os.path.abspath(unveil.__file__))
    mine = snap.filter_traces([tracemalloc.Filter(True, os.path.join(src, "*"))])
    total_all = sum(s.size for s in snap.statistics("filename"))
    stats = mine.statistics("lineno")
    print("  tracemalloc: %.1f KiB retained by unveil's lines (%d blocks), %.1f KiB by all lines" % (
        sum(s.size for s in stats) / 1024, sum(s.count for s in stats), total_all / 1024))
    for s in stats[:top]:
        f = s.traceback[0]
        print("    %7.1f KiB %6d blocks  %s:%d" % (s.size / 1024, s.count, os.path.relpath(f.filename, src), f.lineno))


def main():
    global LOG
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="gpt2-eager,gpt2-aot_eager")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--freeze", action="store_true")
    ap.add_argument("--tracemalloc", action="store_true")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    torch._inductor.config.fx_graph_cache = False
    torch._functorch.config.enable_autograd_cache = False
    LOG = GcLog()
    models.install_own_timers()
    print("gc thresholds %s, freeze=%s" % (gc.get_threshold(), args.freeze))
    for key in args.rows.split(","):
        name, backend, workload = models.ROWS[key]
        print("== %s" % key, flush=True)
        for r in range(args.rounds + 1):
            sides = ("plain", "unveil") if r % 2 == 0 else ("unveil", "plain")
            for side in sides:
                with tempfile.TemporaryDirectory() as d:
                    wall, own, stats, kept = compile_once(workload, backend, side, d, args.freeze)
                print("  round %d %-6s %.3f s (own %.3f)  %s  kept %+d objects" % (
                    r, side, wall, own, fmt(stats), kept), flush=True)
        if args.tracemalloc:
            with tempfile.TemporaryDirectory() as d:
                unveil_retained(workload, backend, d, 15)


if __name__ == "__main__":
    main()
