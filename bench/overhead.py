"""Cost of the dump under torch.compile: plain vs ``unveil.prepare_debug`` (and depyf when installed).

A small transformer block with a graph break, aot_eager backend. The modes alternate in
one run (round robin, ``--rounds`` times); each round resets Dynamo, times the first call
(compile time) and the median of ``--calls`` later calls (steady-state latency), and the
script prints medians and ratios against plain torch.compile.

    .venv/bin/python bench/overhead.py [--rounds 5] [--calls 200]
"""
import argparse
import contextlib
import statistics
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


def modes():
    out = {"plain": lambda d: contextlib.nullcontext(), "unveil": lambda d: unveil.prepare_debug(d)}
    try:
        import depyf
        out["depyf"] = lambda d: depyf.prepare_debug(d)
    except ImportError:
        pass
    return out


def one_round(model, x, ctx_factory, calls):
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="aot_eager")
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ctx_factory(d):
            t0 = time.perf_counter()
            compiled(x)
            compile_s = time.perf_counter() - t0
            times = []
            with torch.no_grad():
                pass
            for _ in range(calls):
                t0 = time.perf_counter()
                compiled(x)
                times.append(time.perf_counter() - t0)
    return compile_s, statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=200)
    args = ap.parse_args()
    torch.manual_seed(0)
    model = Block().eval()
    x = torch.randn(4, 16, 64)
    ms = modes()
    one_round(model, x, ms["plain"], 5)  # warm up imports and caches
    results = {m: ([], []) for m in ms}
    for _ in range(args.rounds):
        for name, factory in ms.items():
            c, s = one_round(model, x, factory, args.calls)
            results[name][0].append(c)
            results[name][1].append(s)
    base_c = statistics.median(results["plain"][0])
    base_s = statistics.median(results["plain"][1])
    print("torch %s, aot_eager, %d rounds x %d calls (medians)" % (torch.__version__, args.rounds, args.calls))
    print("%-8s %12s %8s %14s %8s" % ("mode", "compile [s]", "ratio", "call [us]", "ratio"))
    for name, (cs, ss) in results.items():
        c, s = statistics.median(cs), statistics.median(ss)
        print("%-8s %12.3f %8.3f %14.1f %8.3f" % (name, c, c / base_c, s * 1e6, s / base_s))


if __name__ == "__main__":
    main()
