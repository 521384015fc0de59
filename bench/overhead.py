"""Cost of the dump under torch.compile: plain vs ``unveil.prepare_debug`` (and depyf when installed).

Two workloads, aot_eager backend: ``block``, a small transformer block with a graph break,
and ``gpt2``, the forward of a tiny random-initialised HF transformers GPT2LMHeadModel
(transformers from the test extra; no download), run under ``torch.no_grad``. The modes alternate in
one run (round robin, ``--rounds`` times); each round resets Dynamo, times the first call
(compile time) and the median of ``--calls`` later calls (steady-state latency), and the
script prints medians, and each mode's ratio to plain torch.compile as the median over
rounds of the ratio within a round (rounds drift together; the pairs cancel the drift).

Each round starts with a full garbage collection: otherwise the cyclic garbage of earlier
rounds (every ``torch._dynamo.reset()`` leaves a compiled model behind) is collected in
whichever round crosses the collector's threshold -- a 0.2-0.3 s pause that lands in one
mode's timings by the phase of the rotation, not by what that mode costs.

    .venv/bin/python bench/overhead.py [--workload block|gpt2|all] [--rounds 9] [--calls 200]
"""
import argparse
import contextlib
import gc
import os
import statistics
import sys
import tempfile
import time
import warnings

import torch

import unveil


class Block(torch.nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.attn = torch.nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1 = torch.nn.LayerNorm(d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        torch._dynamo.graph_break()
        return x + self.mlp(self.ln2(x))


def block_workload():
    torch.manual_seed(0)
    return Block().eval(), torch.randn(4, 16, 64), True


def gpt2_workload():
    # the tiny GPT-2 of the real-model tests (tests/torch/tiny_models.py)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "torch"))
    import tiny_models
    return tiny_models.tiny_gpt2().eval(), tiny_models.ids(), False  # inference: under no_grad


WORKLOADS = {"block": block_workload, "gpt2": gpt2_workload}


def modes():
    out = {"plain": lambda d: contextlib.nullcontext(), "unveil": lambda d: unveil.prepare_debug(d)}
    try:
        import depyf
        out["depyf"] = lambda d: depyf.prepare_debug(d)
    except ImportError:
        pass
    return out


def one_round(model, x, ctx_factory, calls, grad=True):
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="aot_eager")
    torch.set_grad_enabled(grad)
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ctx_factory(d):
            gc.collect()
            t0, cpu0 = time.perf_counter(), time.thread_time()
            compiled(x)
            compile_s, compile_cpu = time.perf_counter() - t0, time.thread_time() - cpu0
            times = []
            for _ in range(calls):
                t0 = time.perf_counter()
                compiled(x)
                times.append(time.perf_counter() - t0)
    return compile_s, compile_cpu, statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--workload", choices=sorted(WORKLOADS) + ["all"], default="all")
    args = ap.parse_args()
    for name in sorted(WORKLOADS) if args.workload == "all" else [args.workload]:
        model, x, grad = WORKLOADS[name]()
        print("== workload %s" % name)
        measure(model, x, grad, args)
    torch.set_grad_enabled(True)


def measure(model, x, grad, args):
    ms = modes()
    for factory in ms.values():  # warm up imports and caches
        one_round(model, x, factory, 5, grad)
    results = {m: ([], [], []) for m in ms}
    for _ in range(args.rounds):
        for name, factory in ms.items():
            for column, value in zip(results[name], one_round(model, x, factory, args.calls, grad)):
                column.append(value)
    print("torch %s, aot_eager, %d rounds x %d calls; medians, and ratios as the median over rounds of"
          " (mode / plain in the same round); CPU = this thread's CPU time"
          % (torch.__version__, args.rounds, args.calls))
    print("%-8s %12s %7s %16s %7s %11s %7s" % ("mode", "compile [s]", "ratio", "compile CPU [s]", "ratio",
                                             "call [us]", "ratio"))
    for name, columns in results.items():
        row = []
        for column, base in zip(columns, results["plain"]):
            row.append(statistics.median(column))
            row.append(statistics.median(v / b for v, b in zip(column, base)))
        print("%-8s %12.3f %7.3f %16.3f %7.3f %11.1f %7.3f" % (
            name, row[0], row[1], row[2], row[3], row[4] * 1e6, row[5]))


if __name__ == "__main__":
    main()
