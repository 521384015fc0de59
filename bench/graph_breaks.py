"""Graph-breaking programs of the kinds people debug, beyond the zoo (issue 30).

Each program is compiled and run under plain ``torch.compile`` and then inside
``unveil.prepare_debug`` (bench/dumpcheck.py): whether the results (tensors bit for bit, and
what the program printed) agree, the cache entries dumped, how many fell back to Dynamo's own
bytecode (with the reason, in the user's terms), errors in the index, and ``.py`` files of the
dump that do not compile. Exit status 1 when any row is not clean.

    .venv/bin/python bench/graph_breaks.py                        # every program, eager
    .venv/bin/python bench/graph_breaks.py --backend aot_eager --program dataclass_method
"""
import argparse
import contextlib
import dataclasses
import functools
import io
import logging
import os
import random
import sys
import warnings

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dumpcheck import HEADER, compare_dump, print_row  # noqa: E402

LOG = logging.getLogger("unveil.bench.graph_breaks")


def _seeded(k, *shape):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(k))


# --- the programs: each takes the backend, compiles, runs, returns its results ---------------

@dataclasses.dataclass
class Scaler:
    scale: float
    bias: float = 0.0

    def apply(self, x):
        y = x * self.scale
        print("Scaler.apply: max", round(float(y.max()), 4))
        return y + self.bias


def dataclass_method(backend):
    s = Scaler(2.0, 1.0)
    f = torch.compile(s.apply, backend=backend)
    return [f(_seeded(k, 4)) for k in range(2)]


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.lin(x))


def _net():
    torch.manual_seed(0)
    return nn.Sequential(Block(), Block())


def pre_hook_break(backend):
    net = _net()

    def pre(module, args):
        if args[0].sum().item() > 0:  # a Python bool from a tensor: the graph breaks
            return (args[0] * 2,)
        return None

    net[1].register_forward_pre_hook(pre)
    f = torch.compile(net, backend=backend)
    return [f(_seeded(k, 3, 4)) for k in range(3)]


def hook_with_kwargs(backend):
    net = _net()
    seen = []

    def hook(module, args, kwargs, out):
        seen.append(round(float(out.sum()), 4))
        return out * 0.5

    net[0].register_forward_hook(hook, with_kwargs=True)
    f = torch.compile(net, backend=backend)
    return [f(_seeded(k, 3, 4)) for k in range(2)] + [seen]


class DataParallelLike(nn.Module):
    """DDP and FSDP wrap a module and forward ``*inputs, **kwargs`` to it."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *inputs, **kwargs):
        print("DataParallelLike: %d inputs" % len(inputs))
        return self.module(*inputs, **kwargs)


class TakesMask(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, mask=None, scale=1.0):
        y = self.lin(x) * scale
        return y if mask is None else y.masked_fill(mask, 0.0)


def wrapper_forwarding(backend):
    torch.manual_seed(0)
    f = torch.compile(DataParallelLike(TakesMask()), backend=backend)
    x = _seeded(0, 2, 4)
    return [f(x), f(x, mask=x > 0), f(x, x > 0, scale=3.0)]


class Scale2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def custom_function_and_break(backend):
    w = nn.Parameter(_seeded(1, 4))

    def step(x):
        y = Scale2.apply(x * w)
        LOG.info("mean %s", float(y.mean()))
        return y.sum()

    f = torch.compile(step, backend=backend)
    loss = f(_seeded(2, 4))
    loss.backward()
    return [loss.detach(), w.grad.clone()]


def checkpointed(backend):
    torch.manual_seed(0)
    block = Block()

    def run(x):
        y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
        print("checkpointed: done")
        return y.sum()

    f = torch.compile(run, backend=backend)
    x = _seeded(3, 2, 4).requires_grad_()
    loss = f(x)
    loss.backward()
    return [loss.detach(), x.grad.clone()]


def train_step(backend):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=0.01)

    def step(x, y):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        print("train_step: loss", round(loss.item(), 4))
        return loss.detach()

    f = torch.compile(step, backend=backend)
    losses = [f(_seeded(k, 5, 4), _seeded(k + 10, 5, 1)) for k in range(3)]
    return losses + [p.detach().clone() for p in model.parameters()]


def generator_and_try(backend):
    def pieces(x):
        for k in range(3):
            yield x * k

    def f(x):
        total = sum(pieces(x))
        try:
            value = total.sum().item()
        except RuntimeError:
            value = 0.0
        return total + value

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(2)]


class Counter:
    def __init__(self):
        self.n = 0

    def __enter__(self):
        self.n += 1
        return self

    def __exit__(self, *exc):
        self.n += 10
        return False


def context_manager_break(backend):
    counter = Counter()

    def f(x):
        with counter:
            y = x.cos()
            print("context_manager_break: inside")
        return y + counter.n

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(2)] + [counter.n]


def nonlocal_counter(backend):
    calls = 0

    def f(x):
        nonlocal calls
        calls += 1
        if x.sum() > 0:  # data-dependent: the graph breaks
            return x * calls
        return x - calls

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(3)] + [calls]


def partial_and_numpy(backend):
    scale = functools.partial(torch.mul, other=3.0)

    def f(x):
        y = scale(x)
        host = y.numpy().sum()  # a NumPy call on the tensor's data
        return y + float(host)

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(2)]


def seeded_generator(backend):
    def f(x):
        rng = random.Random(7)
        return x + rng.random() + rng.gauss(0.0, 1.0)

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(2)]


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, **kwargs):
        return self.lin(x)


class Derived(Base):
    def forward(self, x, **kwargs):
        y = super().forward(x, **kwargs)
        print("Derived.forward: kwargs", sorted(kwargs))
        return y * 2


def super_with_kwargs(backend):
    torch.manual_seed(0)
    f = torch.compile(Derived(), backend=backend)
    x = _seeded(4, 2, 4)
    return [f(x), f(x, flag=True)]


def many_keywords(backend):
    def target(x, **kw):
        print("many_keywords: %d keywords" % len(kw))
        return x * sum(kw.values())

    def f(x):
        return target(x, a0=0, a1=1, a2=2, a3=3, a4=4, a5=5, a6=6, a7=7, a8=8, a9=9, a10=10, a11=11,
                      a12=12, a13=13, a14=14, a15=15, a16=16, a17=17)

    g = torch.compile(f, backend=backend)
    return [g(_seeded(5, 3))]


def input_mutation_and_global(backend):
    seen = []

    def f(x, buf):
        buf.add_(1)
        seen.append(tuple(x.shape))
        print("input_mutation_and_global: call")
        return x + buf

    g = torch.compile(f, backend=backend)
    buf = torch.zeros(3)
    return [g(_seeded(k, 3), buf) for k in range(2)] + [buf.clone(), seen]


def cond_branches(backend):
    def f(x):
        return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))

    g = torch.compile(f, backend=backend)
    return [g(_seeded(k, 3)) for k in range(3)]


def recursion_break(backend):
    def depth(x, n):
        if n == 0:
            print("recursion_break: bottom")
            return x
        return depth(x * 2, n - 1) + 1

    g = torch.compile(depth, backend=backend)
    return [g(_seeded(6, 3), 3)]


PROGRAMS = {f.__name__: f for f in [
    dataclass_method, pre_hook_break, hook_with_kwargs, wrapper_forwarding, custom_function_and_break,
    checkpointed, train_step, generator_and_try, context_manager_break, nonlocal_counter,
    partial_and_numpy, seeded_generator, super_with_kwargs, many_keywords, input_mutation_and_global,
    cond_branches, recursion_break]}


def with_output(program, backend):
    """``program``'s workload: its results and what it printed."""
    def workload():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            results = program(backend)
        return results + [out.getvalue()]
    return workload


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--program", action="append", choices=sorted(PROGRAMS))
    ap.add_argument("--backend", default="eager")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print("torch %s, Python %d.%d, backend %s" % (torch.__version__, sys.version_info[0], sys.version_info[1],
                                                   args.backend))
    print(HEADER % ("program", "mode", "same", "entries", "fallbacks", "errors", "bad .py"))
    clean = True
    for name in args.program or PROGRAMS:
        try:
            r = compare_dump(with_output(PROGRAMS[name], args.backend), name)
        except Exception as e:  # noqa: BLE001 - a program that does not run is a row too
            print("%-28s %-10s does not run: %s: %s" % (name, "run", type(e).__name__, str(e)[:200]))
            clean = False
            continue
        clean = print_row(name, "run", r) and clean
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
