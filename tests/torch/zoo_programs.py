"""The programs of the torch.compile zoo (issue 4).

Each program is a ``make()`` function that builds a fresh :class:`Case` -- the
function or module to compile, the calls to make, the tensors whose gradients
are compared -- from ``torch.manual_seed(0)`` (the harness seeds before calling
``make``), so two builds are identical. Every program graph-breaks or
recompiles somewhere, so that Dynamo writes transformed code *and* resume
functions for the decompiler to handle.

Programs print; the harness captures and compares what they print.
"""
import collections
import dataclasses
import functools
import logging
import math
import random
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclasses.dataclass
class Case:
    fn: Callable
    calls: List[Tuple[tuple, dict]]
    #: tensors (parameters, inputs) whose .grad is compared; non-empty -> backward is run
    grads: Sequence[torch.Tensor] = ()
    #: a snapshot of global state the program mutates, compared after the run
    state: Optional[Callable[[], Any]] = None


@dataclasses.dataclass
class Program:
    name: str
    make: Callable[[], Case]
    what: str
    backends: Tuple[str, ...] = ("eager", "aot_eager")
    config: Dict[str, Any] = dataclasses.field(default_factory=dict)
    #: (transformed code objects, resume functions) Dynamo writes in one run, asserted by the test
    counts: Optional[Tuple[int, int]] = None
    #: the functions whose resume functions' bodies (checked, never run from text) the validator
    #: refuses: Dynamo enters them in the middle of an expression (values already formatted for
    #: an f-string, a `with` re-entered) and the text's proof does not go through yet
    refused_resume: Tuple[str, ...] = ()


def call(*args, **kwargs):
    return (args, kwargs)


# --- graph breaks ---------------------------------------------------------

def print_break(x):
    y = torch.sin(x) * 2
    print("print_break: y has shape", tuple(y.shape))
    return torch.cos(y) + x


def make_print_break():
    return Case(print_break, [call(torch.randn(4, 5))])


def item_break(x, w):
    scale = (x * w).sum().item()
    if scale > 0:
        scale = scale / 2
    return x * scale + w


def make_item_break():
    return Case(item_break, [call(torch.randn(3, 4), torch.randn(3, 4))])


def data_branch(x):
    y = x * 3
    if y.sum() > 0:
        z = y.relu() + 1
    else:
        z = y.tanh() - 1
    return z * x


def make_data_branch():
    pos = torch.rand(5) + 0.5
    return Case(data_branch, [call(pos), call(-pos), call(pos * 2)])


def noisy_step(acc, x, i):
    acc = acc + x * (i + 1)
    print("loop_break: step", i)
    return acc.sin()


def loop_break(x, n):
    acc = torch.zeros_like(x) + x.mean()
    print("loop_break: start")
    for i in range(n):
        # A graph break in a loop makes Dynamo (2.13) skip this frame -- here, the resume function
        # that holds the loop; noisy_step is then compiled frame by frame, graph break and all.
        acc = noisy_step(acc, x, i)
    return acc


def make_loop_break():
    return Case(loop_break, [call(torch.randn(6), 3)])


def no_grad_break(x, w):
    y = x @ w
    with torch.no_grad():
        stats = y.abs().mean()
        print("no_grad_break: inside no_grad")
        stats = stats * 2
    return (y / (stats + 1)).sum(dim=0)


def make_no_grad_break():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    return Case(no_grad_break, [call(x, w)], grads=[x, w])


FINALLY_LOG: List[str] = []


def logged_scale(y, x):
    y = y * x
    print("try_finally_break: in try")
    return y + 1


def try_finally_break(x):
    y = x.exp()
    print("try_finally_break: before try")
    try:
        # a graph break inside try makes Dynamo skip the (resume) frame; logged_scale is compiled
        y = logged_scale(y, x)
    finally:
        FINALLY_LOG.append("finally ran")
    return y - 1


def make_try_finally_break():
    FINALLY_LOG.clear()
    return Case(try_finally_break, [call(torch.randn(2, 3))], state=lambda: list(FINALLY_LOG))


# --- modules, closures, super() -----------------------------------------

class ClosureOverSelf(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = 0.5

    def forward(self, x):
        def project(t):
            return self.lin(t) * self.scale

        h = project(x)
        print("closure_over_self: projected")
        return project(h.relu()) + h


class InnerInlined(nn.Module):
    """``self`` captured by an inner function Dynamo inlines: its code keeps ``self`` a cell."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        def inner(z):
            return self.lin(z)
        return inner(x).relu()


def make_inner_inlined():
    m = InnerInlined()
    return Case(m, [call(torch.randn(3, 4))])


def make_closure_over_self():
    m = ClosureOverSelf()
    x = torch.randn(3, 4, requires_grad=True)
    return Case(m, [call(x)], grads=[x, *m.parameters()])


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(5, 5)

    def forward(self, x):
        return self.lin(x).tanh()


class Derived(Base):
    def forward(self, x):
        y = super().forward(x)
        print("super_forward: after super().forward()")
        return y * 2 + x


def make_super_forward():
    m = Derived()
    x = torch.randn(2, 5, requires_grad=True)
    return Case(m, [call(x)], grads=[x, *m.parameters()])


SETATTR_LOG = []


class OwnSetattr(nn.Module):
    """A module with its own ``__setattr__`` (as HF transformers' models have, through
    their mixins) whose forward stores attributes: Dynamo replays the stores after the
    graph with ``object_setattr_ignore_descriptor``, calling the function it keeps in a
    temporary inside the call that stores it (issue 11 #10)."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.count = 0

    def __setattr__(self, name, value):
        SETATTR_LOG.append(name)
        super().__setattr__(name, value)

    def forward(self, x):
        self.count = self.count + 1
        self.last_rows = x.shape[0]
        h = self.lin(x).relu()
        print("own_setattr: call", self.count)
        self.steps = self.count * 2
        return h * self.count + x


def make_own_setattr():
    SETATTR_LOG.clear()
    m = OwnSetattr()
    x = torch.randn(3, 4, requires_grad=True)
    return Case(m, [call(x), call(x * 2)], grads=[x, *m.parameters()],
                state=lambda: (m.count, m.last_rows, m.steps, list(SETATTR_LOG)))


class OutputDict(collections.OrderedDict):
    """Like transformers' ModelOutput: an OrderedDict subclass a forward returns."""


class KVState:
    """Like transformers' DynamicCache: a plain object whose attributes the forward sets."""


def dict_output(x, state):
    out = OutputDict()
    out["logits"] = x * 2
    state.layers = [x + 1, x - 1]  # a list Dynamo's code builds before it refills the dict
    state.ready = True
    return out


def make_dict_output():
    state = KVState()
    x = torch.randn(3)
    return Case(dict_output, [call(x, state)], state=lambda: ([t.tolist() for t in state.layers], state.ready))


class LayerCache:
    """Like transformers' EncoderDecoderCache: made inside the forward, with a dict attribute."""

    def __init__(self, layers):
        self.layers = layers
        self.is_updated = {}

    def __eq__(self, other):  # (the harness compares what the calls return)
        return (type(other) is LayerCache and self.is_updated == other.is_updated
                and len(self.layers) == len(other.layers)
                and all(torch.equal(a, b) for a, b in zip(self.layers, other.layers)))


def made_cache_output(x):
    cache = LayerCache([x])
    cache.is_updated = {0: True, "cross": False}  # a dict display Dynamo leaves on the stack
    out = OutputDict(logits=x + 1, cache=cache)
    out.extra = None
    return out


def make_made_cache_output():
    x = torch.randn(3)
    return Case(made_cache_output, [call(x), call(x * 2)])


class PoolingState(nn.Module):
    """Like transformers' FunnelAttentionStructure: a submodule whose plain attributes the
    forward sets (Dynamo stores each module on the path to it in two temporaries at once)."""

    def __init__(self):
        super().__init__()
        self.seq_len = 0
        self.mult = 1

    def start(self, x):
        self.seq_len = x.shape[0]
        self.mult = 1
        return x

    def pool(self):
        self.mult = 2


class PoolingPart(nn.Module):
    def __init__(self):
        super().__init__()
        self.state = PoolingState()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        x = self.state.start(x)
        self.state.pool()
        return self.lin(x)


class PoolingTwin(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = PoolingPart()
        self.decoder = PoolingPart()

    def forward(self, x):
        return OutputDict(last=self.decoder(self.encoder(x)))


def make_submodule_state():
    m = PoolingTwin()
    return Case(m, [call(torch.randn(3, 4)), call(torch.randn(3, 4))],
                state=lambda: [(p.state.seq_len, p.state.mult) for p in (m.encoder, m.decoder)])


def returns_dict(func):
    """Like transformers' can_return_tuple: a decorator reading self.config, calling func."""
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        return_dict = self.config.return_dict if hasattr(self, "config") else True
        return_dict_passed = kwargs.pop("return_dict", return_dict)
        if return_dict_passed is not None:
            return_dict = return_dict_passed
        output = func(self, *args, **kwargs)
        if not return_dict and not isinstance(output, tuple):
            output = (output,)
        return output
    return wrapper


class DecoratedBreak(nn.Module):
    class Config:
        return_dict = True

    def __init__(self):
        super().__init__()
        self.config = self.Config()
        self.lin = nn.Linear(4, 4)

    @returns_dict
    def forward(self, x, labels=None):
        y = self.lin(x)
        print("decorated_break: loss next")
        return (y - labels).pow(2).sum()


def make_decorated_break():
    m = DecoratedBreak()
    x = torch.randn(2, 4)
    return Case(m, [call(x, labels=x)], grads=list(m.parameters()))


# --- arguments and data structures ----------------------------------------

def args_kwargs(*args, **kwargs):
    total = args[0]
    for a in args[1:]:
        total = total + a
    print("args_kwargs: got", len(args), "args and", sorted(kwargs))
    out = total * kwargs["scale"]
    if "bias" in kwargs:
        out = out + kwargs["bias"]
    return out, {"n": len(args), **kwargs}


def make_args_kwargs():
    a, b, c = torch.randn(3), torch.randn(3), torch.randn(3)
    return Case(args_kwargs, [call(a, b, c, scale=2.0, bias=torch.ones(3)),
                              call(a, b, scale=3.0)])


def nested_structures(batch):
    feats = batch["features"]
    summed = [f.sum(dim=-1) for f in feats]
    print("nested_structures:", len(feats), "features")
    pairs = {name: [t * 2, t + 1] for name, t in batch["named"].items()}
    return {"summed": summed, "pairs": pairs, "meta": (len(summed), {"total": sum(s.sum() for s in summed)})}


def make_nested_structures():
    batch = {"features": [torch.randn(2, 3), torch.randn(4, 3)],
             "named": {"a": torch.randn(2), "b": torch.randn(3)}}
    return Case(nested_structures, [call(batch)])


def generators_comprehensions(xs):
    squares = [x * x for x in xs]
    total = sum(s.sum() for s in squares)
    print("generators_comprehensions: total computed")
    by_index = {i: s.mean() for i, s in enumerate(squares) if i % 2 == 0}
    flat = tuple(v + total for v in by_index.values())
    return flat, [s for s in squares if s.shape[0] > 1]


def make_generators_comprehensions():
    return Case(generators_comprehensions, [call([torch.randn(3), torch.randn(1), torch.randn(2)])])


# --- syntax ---------------------------------------------------------------

def fstrings(x, tag):
    label = f"{tag}:{x.shape[0]}x{x.shape[1]}"
    print(f"fstrings: {label} dtype={x.dtype} first={x[0, 0].item():.3f}")
    return x * len(label), f"{label}!"


def make_fstrings():
    return Case(fstrings, [call(torch.randn(2, 3), "t")])


def asserts_isinstance(x, extra):
    assert x.dim() == 2, "expected a matrix"
    assert isinstance(x, torch.Tensor)
    if isinstance(extra, (list, tuple)):
        y = x + sum(extra)
    elif isinstance(extra, torch.Tensor):
        y = x * extra
    else:
        y = x
    print("asserts_isinstance: extra is", type(extra).__name__)
    assert y.shape == x.shape, f"shape changed: {y.shape}"
    return y.sum(dim=1)


def make_asserts_isinstance():
    x = torch.randn(3, 2)
    return Case(asserts_isinstance, [call(x, [torch.ones(2), torch.ones(2)]), call(x, torch.full((2,), 3.0)),
                                     call(x, None)])


def walrus_ternary(x):
    y = x * 2 if (n := x.shape[0]) > 3 else x * 3
    print("walrus_ternary: n =", n)
    if (m := y.max()) > 0:
        y = y - m
    return y if n % 2 else -y, (z := y.sum()) + z


def make_walrus_ternary():
    return Case(walrus_ternary, [call(torch.randn(4)), call(torch.randn(5))])


def halve(x):
    return x * 0.5


def while_true_break(x):
    x = x.abs() + 1
    print("while_true_break: start")
    steps = 0
    while True:
        x = halve(x)
        steps += 1
        if x.max() < 1 or steps >= 20:
            break
    return x, steps


def make_while_true_break():
    return Case(while_true_break, [call(torch.tensor([7.0, -3.0, 12.0]))])


def inner_print(y):
    z = y.cos()
    print("nested_graph_break: inside the callee")
    return z * 2


def nested_graph_break(x):
    y = x + 1
    z = inner_print(y)
    return z - y


def make_nested_graph_break():
    return Case(nested_graph_break, [call(torch.randn(3))])


# --- recompilation --------------------------------------------------------

def shapes(x):
    y = x.cumsum(0) * x.shape[0]
    print("shapes: length", x.shape[0])
    return y / (x.shape[0] + 1)


def make_shapes():
    return Case(shapes, [call(torch.arange(n, dtype=torch.float32) - 2) for n in (4, 6, 8, 5)])


# --- backward -------------------------------------------------------------

class BreakingMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        norm = h.norm().item()
        h = h / (norm + 1.0)
        return self.fc2(h)


def make_backward_mlp():
    m = BreakingMLP()
    x = torch.randn(4, 6, requires_grad=True)
    return Case(m, [call(x)], grads=[x, *m.parameters()])


# --- global state ---------------------------------------------------------

COUNTER = 0
SEEN: List[Tuple[int, ...]] = []


def global_state(x):
    global COUNTER
    COUNTER += 1
    SEEN.append(tuple(x.shape))
    y = x * COUNTER
    print("global_state: call", COUNTER)
    SEEN.append(len(SEEN))
    return y + len(SEEN)


def make_global_state():
    global COUNTER
    COUNTER = 0
    SEEN.clear()
    return Case(global_state, [call(torch.ones(2)), call(torch.ones(2)), call(torch.ones(3))],
                state=lambda: (COUNTER, list(SEEN)))


# --- transformers ---------------------------------------------------------

def make_transformer_encoder():
    layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
    enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).eval()
    x = torch.randn(2, 5, 16, requires_grad=True)
    return Case(enc, [call(x)], grads=[x, *enc.parameters()])


@dataclasses.dataclass
class GPTConfig:
    vocab: int = 50
    block: int = 16
    d_model: int = 16
    heads: int = 2
    layers: int = 2


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.register_buffer("mask", torch.tril(torch.ones(cfg.block, cfg.block)).bool())

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1])
        att = att.masked_fill(~self.mask[:t, :t], float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = CausalSelfAttention(cfg)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(),
                                 nn.Linear(4 * cfg.d_model, cfg.d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Embedding(cfg.block, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab, bias=False)

    def forward(self, idx, targets=None):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        for block in self.blocks:
            x = block(x)
        print(f"tiny_gpt: after {len(self.blocks)} blocks, mean activation {x.mean().item():.4f}")
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits
        return logits, F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def make_tiny_gpt():
    cfg = GPTConfig()
    m = TinyGPT(cfg)
    idx = torch.randint(0, cfg.vocab, (2, 8))
    targets = torch.randint(0, cfg.vocab, (2, 8))
    return Case(m, [call(idx, targets)], grads=list(m.parameters()))



# --- graph breaks met in real code (issue 30) -------------------------------
# Shapes of Dynamo's code the proof once refused: the empty ``**kwargs`` it passes on, a value it
# computes once and uses twice (COPY), a global stored between an attribute load and its call,
# a closure's cell handed on as a value (a compiled optimizer step).

def kwargs_inner(a):
    print("kwargs_inner: called")
    return a * 2


def kwargs_forwarder(*args, **kwargs):
    return kwargs_inner(*args, **kwargs)


def make_kwargs_forwarder():
    return Case(kwargs_forwarder, [call(torch.randn(3))])


class KwargsMethod(nn.Module):
    def inner(self, x, scale=1.0):
        print("KwargsMethod.inner: called")
        return x * scale

    def forward(self, x, **kwargs):
        return self.inner(x, scale=2.0, **kwargs)


def make_kwargs_method():
    return Case(KwargsMethod(), [call(torch.randn(3))])


def spread_target(a, b=1.0, alpha=1.0):
    print("spread_target: called")
    return a * b * alpha


class SpreadArgs(nn.Module):
    def forward(self, *args, **kwargs):
        return spread_target(args[0] * 2, *args[1:], **kwargs)


def make_spread_args():
    return Case(SpreadArgs(), [call(torch.randn(3), torch.randn(3)), call(torch.randn(3), alpha=2.0)])


ZOO_LOG = logging.getLogger("unveil.zoo")


def logger_in_closure(x):
    c = x.tolist()[0]
    ZOO_LOG.warning("c=%s", c)
    return x * c


def make_logger_in_closure():
    return Case(logger_in_closure, [call(torch.randn(3))])


def seeded_random(x):
    return x + random.Random(3).gauss(0.0, 1.0)


def make_seeded_random():
    return Case(seeded_random, [call(torch.randn(3))])


class Bag:
    pass


STORED = 0.0


def global_and_attribute(x, bag):
    global STORED
    bag.n = 1
    STORED = 2.0
    return x * 2


def make_global_and_attribute():
    global STORED
    STORED = 0.0
    bag = Bag()
    return Case(global_and_attribute, [call(torch.randn(3), bag)], state=lambda: (STORED, bag.n))


def keywords_target(x, **kw):
    print("keywords_target: %d keywords" % len(kw))
    return x * sum(kw.values())


def many_keywords(x):
    # 16 or more keyword arguments: a star call, its dict built one key at a time
    return keywords_target(x, a0=0, a1=1, a2=2, a3=3, a4=4, a5=5, a6=6, a7=7, a8=8, a9=9, a10=10,
                           a11=11, a12=12, a13=13, a14=14, a15=15, a16=16, a17=17)


def make_many_keywords():
    return Case(many_keywords, [call(torch.randn(3))])


def cond_result(x):
    return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))


def make_cond_result():
    # Dynamo unpacks the graph's one result and returns the item it left on the stack
    return Case(cond_result, [call(torch.ones(3)), call(-torch.ones(3))])


class ConfigLike:
    output_attentions = False
    output_hidden_states = False
    return_dict = True


class PrintingEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, mask, output_hidden_states=False, output_attentions=False, return_dict=True):
        print("PrintingEncoder: mask sum", float(mask.sum()))
        y = self.lin(x) * mask
        return {"last": y, "hidden": (x, y) if output_hidden_states else None}


class ConfigReads(nn.Module):
    """transformers' DeBERTa-v2 forward: settings read from the config, some passed as keywords to an
    encoder that breaks the graph, some used after it (Dynamo reads them into its own temporaries)."""

    def __init__(self):
        super().__init__()
        self.config = ConfigLike()
        self.encoder = PrintingEncoder()

    def forward(self, x, mask=None, output_attentions=None, output_hidden_states=None, return_dict=None):
        output_attentions = output_attentions if output_attentions is not None else self.config.output_attentions
        output_hidden_states = (output_hidden_states if output_hidden_states is not None
                                else self.config.output_hidden_states)
        return_dict = return_dict if return_dict is not None else self.config.return_dict
        out = self.encoder(x, mask, output_hidden_states=True, output_attentions=output_attentions,
                           return_dict=return_dict)
        hidden = out["hidden"]
        if not return_dict:
            return (out["last"],) + hidden[(1 if output_hidden_states else 0):]
        return {"last": out["last"], "hidden": hidden if output_hidden_states else None}


def make_config_reads():
    x = torch.randn(2, 4)
    return Case(ConfigReads(), [call(x, torch.ones(2, 4)), call(x, torch.ones(2, 4), return_dict=False)])


def _optimizer_step(cls, **options):
    def make():
        p = nn.Parameter(torch.randn(4))
        p.grad = torch.randn(4)
        opt = cls([p], **options)
        return Case(opt.step, [call(), call()], state=lambda: p.detach().tolist())
    return make


PROGRAMS = [
    Program("print_break", make_print_break, "graph break from print()",
            backends=("eager", "aot_eager", "inductor"),
            counts=(2, 1)),
    Program("item_break", make_item_break, "graph break from .item() and a branch on the Python float",
            counts=(2, 1)),
    Program("data_branch", make_data_branch, "data-dependent branch `if y.sum() > 0`, both ways",
            counts=(3, 2)),
    Program("loop_break", make_loop_break, "graph break inside a for loop (in a function the loop calls)",
            counts=(4, 2)),
    Program("no_grad_break", make_no_grad_break, "graph break inside `with torch.no_grad()`, backward",
            counts=(2, 1), refused_resume=("no_grad_break",)),
    Program("try_finally_break", make_try_finally_break, "graph break before and inside try/finally",
            counts=(3, 2)),
    Program("closure_over_self", make_closure_over_self, "nested function closing over self, backward",
            counts=(2, 1)),
    Program("inner_inlined", make_inner_inlined, "inner function closing over self, inlined, no graph break",
            counts=(1, 0)),
    Program("super_forward", make_super_forward, "super().forward() then a graph break, backward",
            counts=(2, 1)),
    Program("own_setattr", make_own_setattr,
            "module with its own __setattr__ storing attributes in forward, backward",
            counts=(4, 1)),
    Program("dict_output", make_dict_output,
            "OrderedDict subclass returned and a plain object's attributes set (transformers' ModelOutput, cache)",
            counts=(1, 0)),
    Program("made_cache_output", make_made_cache_output,
            "an OrderedDict subclass and an object holding a dict display made inside and returned "
            "(transformers' encoder-decoder output and cache)",
            counts=(1, 0)),
    Program("submodule_state", make_submodule_state,
            "plain attributes of nested submodules set in forward, an OrderedDict subclass out "
            "(transformers' Funnel)",
            counts=(1, 0)),
    Program("decorated_break", make_decorated_break,
            "forward under a decorator closing over it (transformers' can_return_tuple), graph break inside",
            counts=(3, 2)),
    Program("args_kwargs", make_args_kwargs, "*args/**kwargs in and a dict built with ** out",
            counts=(4, 1)),
    Program("nested_structures", make_nested_structures, "dict of lists of tensors in, nested dict/list/tuple out",
            counts=(2, 1)),
    Program("generators_comprehensions", make_generators_comprehensions,
            "list/dict/generator comprehensions around a graph break",
            counts=(2, 1)),
    Program("nested_graph_break", make_nested_graph_break,
            "graph break in a called function, nested_graph_breaks on (resume functions per frame)",
            config={"nested_graph_breaks": True},
            counts=(2, 2), refused_resume=("nested_graph_break",)),
    Program("fstrings", make_fstrings, "f-strings with format specs, .item() inside an f-string",
            counts=(3, 3), refused_resume=("fstrings",)),
    Program("asserts_isinstance", make_asserts_isinstance, "asserts and isinstance dispatch",
            counts=(5, 1)),
    Program("walrus_ternary", make_walrus_ternary, "walrus and conditional expressions, data-dependent if",
            counts=(6, 5)),
    Program("while_true_break", make_while_true_break, "`while True` with a data-dependent break",
            counts=(2, 1)),
    Program("shapes_dynamic", make_shapes, "four shapes, automatic_dynamic_shapes on",
            config={"automatic_dynamic_shapes": True},
            counts=(4, 1)),
    Program("shapes_static", make_shapes, "four shapes, automatic_dynamic_shapes off (a recompile per shape)",
            config={"automatic_dynamic_shapes": False},
            counts=(8, 1)),
    Program("backward_mlp", make_backward_mlp, "MLP with an .item() graph break, backward",
            backends=("eager", "aot_eager", "inductor"),
            counts=(2, 1)),
    Program("global_state", make_global_state, "global counter and list mutated inside the compiled function",
            counts=(6, 1)),
    Program("transformer_encoder", make_transformer_encoder, "nn.TransformerEncoder, d_model 16, 2 layers, eval, backward",
            counts=(1, 0)),
    Program("tiny_gpt", make_tiny_gpt,
            "decoder-only transformer from a config, print of .item() after the blocks, backward",
            backends=("eager", "aot_eager", "inductor"),
            counts=(3, 3), refused_resume=("forward",)),
    Program("kwargs_forwarder", make_kwargs_forwarder, "*args/**kwargs passed on to a function that prints",
            counts=(3, 1)),
    Program("kwargs_method", make_kwargs_method, "**kwargs passed on to a method that prints, a keyword beside",
            counts=(3, 1)),
    Program("spread_args", make_spread_args, "args[0], *args[1:] and **kwargs passed on to a function that prints",
            counts=(5, 1)),
    Program("logger_in_closure", make_logger_in_closure, "a logger called with a value from .tolist()",
            counts=(3, 3)),
    Program("seeded_random", make_seeded_random, "random.Random(3).gauss() (Dynamo replays the generator's state)",
            counts=(2, 1)),
    Program("global_and_attribute", make_global_and_attribute, "an attribute and a global stored, no graph break",
            counts=(1, 0)),
    Program("many_keywords", make_many_keywords, "18 keyword arguments passed to a function that prints",
            counts=(3, 1)),
    Program("cond_result", make_cond_result, "torch.cond's result returned as it is", counts=(1, 0)),
    Program("config_reads", make_config_reads,
            "config settings read before a graph-breaking encoder call, passed as keywords and used after",
            counts=(5, 4)),
    # (3.14: the resume function re-enters the step's ``with``; its body is refused as no_grad_break's is)
    Program("sgd_step", _optimizer_step(torch.optim.SGD, lr=0.1), "compiled SGD step", counts=(2, 1),
            refused_resume=("wrapper",)),
    Program("adam_step", _optimizer_step(torch.optim.Adam, lr=0.1), "compiled Adam step", counts=(2, 1),
            refused_resume=("wrapper",)),
]
