"""How long the HTML report takes to write, and its pages to load, on a large dump.

Dumps a few training steps of a GPT-2-shaped model (12 blocks, tied embeddings, a graph
break in forward, AdamW) compiled with Inductor -- captured, AOT joint/forward/backward,
post-grad graphs and Inductor's output code -- or reuses a dump given with --dump. Then
writes the report (best of --repeat) and opens every page in chromium, timing each load
(navigation start to the load event).

    python bench/report.py                                  # dump to /tmp/unveil_gpt2_dump, then measure
    python bench/report.py --dump DIR --no-run              # measure an existing dump
    python bench/report.py --backend aot_eager --layers 4   # a quicker dump
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

TRAIN = r'''
import math, sys
import torch, torch.nn as nn, torch.nn.functional as F
import unveil

LAYERS, BACKEND, STEPS = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])

class Attention(nn.Module):
    def __init__(self, d, heads, block):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer("mask", torch.tril(torch.ones(block, block)).bool())

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1])
        att = att.masked_fill(~self.mask[:t, :t], float("-inf")).softmax(dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, t, c))

class Block(nn.Module):
    def __init__(self, d, heads, block):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = Attention(d, heads, block)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))

class GPT2(nn.Module):
    def __init__(self, vocab=256, block=32, d=64, heads=4, layers=12):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(block, d)
        self.blocks = nn.ModuleList(Block(d, heads, block) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx, targets):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for blk in self.blocks:
            x = blk(x)
        print("step: mean activation %.4f" % x.mean().item())  # a graph break
        logits = self.head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

torch.manual_seed(0)
model = GPT2(layers=LAYERS)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
step = torch.compile(model, backend=BACKEND)
with unveil.prepare_debug(sys.argv[1]):
    for k in range(STEPS):
        idx = torch.randint(0, 256, (2, 32 if k < STEPS - 1 else 16))  # the last step recompiles
        loss = step(idx, torch.randint(0, 256, idx.shape))
        loss.backward()
        opt.step()
        opt.zero_grad()
'''


def make_dump(path, layers, backend, steps):
    shutil.rmtree(path, ignore_errors=True)
    script = os.path.join(os.path.dirname(path) or ".", "unveil_bench_gpt2.py")
    with open(script, "w") as fh:
        fh.write(TRAIN)
    t = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "src"))
    subprocess.run([sys.executable, script, path, str(layers), backend, str(steps)], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def dump_size(path):
    files = [f for f in os.listdir(path) if f.endswith(".py")]
    return len(files), sum(os.path.getsize(os.path.join(path, f)) for f in files)


def time_write(path, repeat):
    sys.path.insert(0, os.path.join(HERE, "..", "src"))
    from unveil.report import write_report
    best = best_cpu = None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        index = write_report(path)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        best = dt if best is None else min(best, dt)
        best_cpu = dc if best_cpu is None else min(best_cpu, dc)
    return best, best_cpu, index


def chromium():
    for c in (os.environ.get("UNVEIL_CHROMIUM"), shutil.which("chromium"), "/usr/lib/chromium/chromium"):
        if c and os.path.isfile(c):
            return c
    return None


def pages_to_load(report_dir, most):
    """index.html and the ``most`` largest pages (every page when there are fewer)."""
    pages = sorted((f for f in os.listdir(report_dir) if f.endswith(".html")),
                   key=lambda f: -os.path.getsize(os.path.join(report_dir, f)))
    return ["index.html"] + [p for p in pages if p != "index.html"][:most]


def time_loads(report_dir, most):
    """{page: seconds from navigation start to the load event} for the pages of pages_to_load()."""
    from playwright.sync_api import sync_playwright
    times = {}
    remote = []
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
        pg = b.new_page(viewport={"width": 1400, "height": 1000})
        pg.on("request", lambda r: remote.append(r.url) if r.url.startswith(("http:", "https:")) else None)
        for name in pages_to_load(report_dir, most):
            pg.goto(pathlib.Path(report_dir, name).resolve().as_uri(), wait_until="load")
            ms = pg.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                             " return n.loadEventEnd - n.startTime; }")
            times[name] = ms / 1000.0
        b.close()
    return times, remote


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", default="/tmp/unveil_gpt2_dump")
    ap.add_argument("--no-run", action="store_true", help="measure the existing dump in --dump")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pages", type=int, default=40, help="load index.html and the N largest pages")
    args = ap.parse_args()
    if not args.no_run:
        dt = make_dump(args.dump, args.layers, args.backend, args.steps)
        print("dump: %d layers, %d steps, backend %s: %.1f s" % (args.layers, args.steps, args.backend, dt))
    n, size = dump_size(args.dump)
    print("dump %s: %d .py files, %.1f MB" % (args.dump, n, size / 1e6))
    best, best_cpu, index = time_write(args.dump, args.repeat)
    report = os.path.dirname(index)
    pages = [f for f in os.listdir(report) if f.endswith(".html")]
    print("report: %d pages, %.1f MB, written in %.3f s (%.3f s of CPU; best of %d)"
          % (len(pages), sum(os.path.getsize(os.path.join(report, f)) for f in pages) / 1e6, best, best_cpu,
             args.repeat))
    if chromium() is None:
        print("page loads: no chromium")
        return
    times, remote = time_loads(report, args.pages)
    worst = max(times, key=times.get)
    print("page loads in chromium (%d pages: index.html and the largest): median %.3f s, max %.3f s (%s, %.1f MB), "
          "index.html %.3f s; http(s) requests: %d"
          % (len(times), statistics.median(times.values()), times[worst], worst,
             os.path.getsize(os.path.join(report, worst)) / 1e6, times["index.html"], len(remote)))


if __name__ == "__main__":
    main()
