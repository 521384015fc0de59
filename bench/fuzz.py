"""Differential fuzzer for unveil's decompiler (issue 11).

Generates random, always-terminating Python functions rich in control flow,
runs each on several inputs (return value or exception, a log of effects,
yielded / awaited values, values sent and thrown in), decompiles it, compiles
the text, rebuilds the function and runs it again. Outcome of a case:

    same       behaves identically on every input
    mismatch   compiles but behaves differently
    nocompile  the text does not compile or does not hold the function
    refused    unveil.DecompilationError
    crash      any other exception from unveil
    hang       decompiling or running the decompiled function took > 3 s of CPU
    badgen     the generated program itself is invalid (a bug of this fuzzer)

Every case is reproducible from (seed, index) on a given interpreter (which
constructs are generated depends on the interpreter: match on 3.10+, except*
on 3.11+):

    python bench/fuzz.py --seed 1 --count 3000 --jobs 2
    python bench/fuzz.py --show 1:17          # source, decompiled text, outcome
    python bench/fuzz.py --shrink 1:17        # a few-line reproducer
    python bench/fuzz.py --seed big1 --count 500   # larger, deeper functions

tests/decompiler/test_fuzz.py imports this module (one copy of the generator).
"""
import argparse
import ast
import collections
import copy
import os
import random
import re
import signal
import sys
import time
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

V = sys.version_info[:2]

# ---------------------------------------------------------------------------
# Helpers every generated function may use: they live in the module globals.

PRELUDE = '''
G = 0

class CM:
    def __init__(self, log, tag, suppress=False):
        self.log, self.tag, self.suppress = log, tag, suppress
    def __enter__(self):
        self.log.append(('enter', self.tag))
        return self.tag
    def __exit__(self, t, v, tb):
        self.log.append(('exit', self.tag, t.__name__ if t else None))
        return self.suppress

class ACM(CM):
    async def __aenter__(self):
        self.log.append(('aenter', self.tag))
        await Aw(self.tag)
        return self.tag
    async def __aexit__(self, t, v, tb):
        self.log.append(('aexit', self.tag, t.__name__ if t else None))
        await Aw(-1)
        return self.suppress

class Aw:
    def __init__(self, v):
        self.v = v
    def __await__(self):
        got = yield ('aw', self.v)
        return self.v if got is None else got

class AIter:
    def __init__(self, n):
        self.i, self.n = 0, n
    def __aiter__(self):
        return self
    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        await Aw(self.i)
        return self.i

class Obj:
    """An object whose attribute stores and deletes are logged."""
    def __init__(self, log, x):
        object.__setattr__(self, 'log', log)
        object.__setattr__(self, 'x', x)
        object.__setattr__(self, 'y', x + 1)
    def __setattr__(self, k, v):
        self.log.append(('set', k, v))
        object.__setattr__(self, k, v)
    def __delattr__(self, k):
        self.log.append(('del', k))
        object.__delattr__(self, k)
    def __hash__(self):
        # one hash for every Obj: a set's order then depends on what went in, in which
        # order, and not on where the object lies in memory (``sorted({*s0, o})`` compared
        # them in another order in the decompiled run: a mismatch no text caused)
        return 7919

class D(dict):
    """A dict whose item stores and deletes are logged."""
    def __init__(self, log, **kw):
        dict.__init__(self, **kw)
        self.log = log
    def __setitem__(self, k, v):
        self.log.append(('setitem', k, v))
        dict.__setitem__(self, k, v)
    def __delitem__(self, k):
        self.log.append(('delitem', k))
        dict.__delitem__(self, k)

def deco(log):
    def wrap(fn):
        log.append(('deco', fn.__name__))
        return fn
    return wrap

def kcall(log, *args, **kw):
    log.append(('call', args, sorted(kw.items())))
    return len(args) + 2 * len(kw)

def sub(n, log):
    for k in range(n % 3):
        got = yield ('sub', k)
        log.append(('sub-got', got))
    return n * 2
'''

INPUTS = [(0, 1, 2), (1, 1, 0), (2, 0, -1), (3, 5, 3), (-1, 2, 2), (4, 3, 1)]
MAX_STEPS = 300          # yields / awaits driven per call before the object is closed
TIME_LIMIT = 3           # CPU seconds per case (a generated function runs in milliseconds)


# ---------------------------------------------------------------------------
# The generator: text of one random function, built from a seeded Random.

class Ctx:
    """What the statement being generated may use (copied when entering a block)."""

    def __init__(self, kind):
        self.kind = kind          # 'func', 'gen', 'coro', 'agen'
        self.depth = 0
        self.loop = False         # break / continue allowed
        self.ret = True           # return allowed (not inside except*)
        self.ints = ['a', 'b', 'c', 'v0', 'v1', 'v2']   # int-valued names to read
        self.targets = ['v0', 'v1', 'v2']               # int names to assign
        self.lists = ['s0']
        self.excvar = None        # name bound by the enclosing handler
        self.in_handler = False   # a bare raise re-raises
        self.inner = None         # name of a nested function that can be called
        self.uses_global = False
        self.compr = False        # inside a comprehension / lambda: no yield, await, walrus
        self.objs = False         # o (an Obj) and d (a D) are bound: attribute / item targets
        self.atargets = []        # attribute / subscript targets (objs)

    def child(self, **kw):
        c = copy.copy(self)
        c.ints = list(self.ints)
        c.depth = self.depth + 1
        for k, v in kw.items():
            setattr(c, k, v)
        return c


class Generator:
    def __init__(self, rng, version=V, without=(), big=False):
        self.rng = rng
        # a seed named big... makes larger, deeper functions: the shapes that
        # the default sizes seldom reach (long statement lists between
        # nested handlers and loops)
        self.budget_range = (10, 40) if big else (1, 10)
        self.max_depth = 6 if big else 4
        self.version = version
        self.without = set(without)   # constructs not to generate (see FEATURES)
        self.names = collections.Counter()
        self.tags = 0
        self.budget = 0

    # -- helpers
    def fresh(self, prefix):
        self.names[prefix] += 1
        return "%s%d" % (prefix, self.names[prefix])

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def tag(self):
        self.tags += 1
        return self.tags

    def on(self, feature):
        """Whether a construct of FEATURES may be generated (not named by --without)."""
        return feature not in self.without

    # -- expressions
    def atom(self, ctx):
        r = self.rng.random()
        if r < 0.6:
            return self.pick(ctx.ints + (['G'] if ctx.uses_global else []))
        return str(self.rng.randint(-1, 5))

    def int_expr(self, ctx, d=0):
        """An expression that is an int (or bool) when nothing raises."""
        if d >= 3 or self.chance(0.35):
            return self.atom(ctx)
        r = self.rng.random()
        sub = lambda: self.int_expr(ctx, d + 1)  # noqa: E731
        if r < 0.16:
            op = self.pick(['+', '-', '&', '|', '^', '+', '-'])
            return "(%s %s %s)" % (sub(), op, sub())
        if r < 0.22:
            return "(%s %s %d)" % (sub(), self.pick(['*', '//', '%']), self.rng.randint(1, 4))
        if r < 0.30:
            return "(%s if %s else %s)" % (sub(), self.test(ctx, d + 1), sub())
        if r < 0.38:
            return "(%s %s %s)" % (sub(), self.pick(['and', 'or']), sub())
        if r < 0.46:
            return self.compare(ctx, d)
        if r < 0.50:
            return "(not %s)" % sub()
        if r < 0.53 and ctx.inner:
            return "%s(%s)" % (ctx.inner, sub())
        if r < 0.57:
            return self.lambda_call(ctx, d)
        if r < 0.63:
            return self.comprehension(ctx, d)
        if r < 0.67 and not ctx.compr:
            return "(%s := %s)" % (self.pick(ctx.targets), sub())
        if r < 0.72 and not ctx.compr and ctx.kind in ('gen', 'agen'):
            if ctx.kind == 'gen' and self.chance(0.3):
                return "(yield from sub(%s, log))" % sub()
            return "(yield %s)" % sub()
        if r < 0.77 and not ctx.compr and ctx.kind in ('coro', 'agen'):
            return "(await Aw(%s))" % sub()
        if r < 0.81:
            return "len(%s)" % self.pick(ctx.lists)
        if r < 0.84:
            return "%s[%s]" % (self.pick(ctx.lists), self.pick(['0', '-1', '1', 'a % 2']))
        if r < 0.87:
            return "(-%s)" % sub()
        if r < 0.95:
            extra = self.extra_exprs(ctx, d)
            if extra:
                return self.pick(extra)()
        return self.atom(ctx)

    def extra_exprs(self, ctx, d):
        """Makers of the int expressions of the optional features that apply here."""
        sub = lambda: self.int_expr(ctx, d + 1)  # noqa: E731
        out = []
        if self.on("slice"):
            out.append(lambda: "len(%s[%s:%s])" % (self.pick(ctx.lists), sub(), self.pick(['', sub(), '-1'])))
            out.append(lambda: "sum(%s[%s::%s])" % (self.pick(ctx.lists), self.pick(['', sub()]),
                                                    self.pick(['2', '-1', '-2'])))
        if self.on("kwcall"):
            out.append(lambda: self.kw_call(ctx, d))
        if self.on("anyall"):
            out.append(lambda: self.any_all(ctx, d))
        if self.on("asynccomp") and not ctx.compr and ctx.kind in ('coro', 'agen'):
            out.append(lambda: self.async_comprehension(ctx, d))
        if self.on("closure") and not ctx.compr:
            # a lambda with a default and a free variable, called where it is made
            out.append(lambda: "(lambda p=%s: p - %s)()" % (sub(), self.pick(ctx.ints)))
        return out

    def kw_call(self, ctx, d):
        """A call with keyword arguments, *args and **kwargs (kcall logs what it gets)."""
        c = ctx.child(compr=True) if self.chance(0.5) else ctx
        c.depth = ctx.depth
        sub = lambda: self.int_expr(c, d + 1)  # noqa: E731
        args = []
        for _ in range(self.rng.randint(0, 2)):
            args.append(self.pick([sub(), "*%s" % self.pick(ctx.lists), "*[%s, %s]" % (sub(), sub())]))
        kws = []
        for name in self.rng.sample(['k', 'm', 'z'], self.rng.randint(0, 2)):
            kws.append(self.pick(["%s=%s" % (name, sub()), '**{"%s": %s}' % (name, sub())]))
        if ctx.objs and self.chance(0.2) and not kws:
            kws.append("**d")
        return "kcall(%s)" % ", ".join(["log"] + args + kws)

    def any_all(self, ctx, d):
        c = ctx.child(compr=True)
        c.depth = ctx.depth
        c.ints = ctx.ints + ['p']
        source = self.pick(["%s" % self.pick(ctx.lists), "range(%s %% 4)" % self.int_expr(c, d + 1)])
        return "%s(%s for p in %s)" % (self.pick(['any', 'all']), self.test(c, d + 1), source)

    def async_comprehension(self, ctx, d):
        c = ctx.child(compr=True)
        c.depth = ctx.depth
        c.ints = ctx.ints + ['p']
        cond = (" if %s" % self.test(c, d + 1)) if self.chance(0.4) else ""
        r = self.rng.randint(0, 2)
        if r == 0:
            return "sum([%s async for p in AIter(%d)%s])" % (self.int_expr(c, d + 1), self.rng.randint(0, 3), cond)
        if r == 1:
            return "sum([await Aw(p) for p in %s[:2]%s])" % (self.pick(ctx.lists), cond)
        return "len({p: await Aw(p) async for p in AIter(%d)%s})" % (self.rng.randint(0, 3), cond)

    def compare(self, ctx, d):
        ops = ['<', '<=', '>', '>=', '==', '!=']
        sub = lambda: self.int_expr(ctx, d + 1)  # noqa: E731
        n = 1 if "chain" in self.without else self.pick([1, 1, 2, 2, 3])
        parts = [sub()]
        for k in range(n):
            operand = sub()
            if k < n - 1 and self.chance(0.35):   # a middle operand with an effect
                operand = "(log.append(%d) or %s)" % (self.tag(), operand)
            op = self.pick(ops)
            if k == n - 1 and self.on("isin") and self.chance(0.25):
                # membership and identity (last in a chain: their right side is no int)
                op = self.pick(['in', 'not in', 'is', 'is not'])
                if op in ('in', 'not in'):
                    operand = self.pick([self.pick(ctx.lists), "[%s, %s]" % (sub(), sub()),
                                         "range(%s)" % sub()])
                else:
                    operand = 'None'
                    # a name on the left: a constant (folded) would warn
                    parts[-1] = self.pick([n for n in ctx.ints if n[0].isalpha()])
            parts.append(op)
            parts.append(operand)
        if self.chance(0.1):
            return "(%s in %s)" % (sub(), self.pick(ctx.lists))
        return "(%s)" % " ".join(parts)

    def test(self, ctx, d=0):
        r = self.rng.random()
        if r < 0.45:
            return self.compare(ctx, d)
        if r < 0.65:
            return "(%s %s %s)" % (self.test(ctx, d + 1) if d < 2 else self.atom(ctx),
                                   self.pick(['and', 'or']),
                                   self.test(ctx, d + 1) if d < 2 else self.atom(ctx))
        if r < 0.72:
            return "(not %s)" % (self.test(ctx, d + 1) if d < 2 else self.atom(ctx))
        return self.int_expr(ctx, d + 1)

    def lambda_call(self, ctx, d):
        c = ctx.child(compr=True)
        c.depth = ctx.depth
        c.ints = ctx.ints + ['p']
        body = self.int_expr(c, d + 1)
        if self.chance(0.5):
            return "(lambda p, q=%d: %s + q)(%s)" % (self.rng.randint(0, 3), body, self.int_expr(ctx, d + 1))
        return "(lambda p: %s)(%s)" % (body, self.int_expr(ctx, d + 1))

    def comprehension(self, ctx, d):
        c = ctx.child(compr=True)
        c.depth = ctx.depth
        var = self.pick(['p', 'q'])
        # the outermost iterable may not hold a walrus: generate it in the comprehension's context
        source = self.pick(["range(%s %% 4)" % self.int_expr(c, d + 1), "%s[:3]" % self.pick(ctx.lists),
                            "[%s, %s]" % (self.int_expr(c, d + 1), self.int_expr(c, d + 1))])
        c.ints = ctx.ints + [var]
        cond = (" if %s" % self.test(c, d + 1)) if self.chance(0.4) else ""
        elem = self.int_expr(c, d + 1)
        if self.on("comprwalrus") and not ctx.compr and self.chance(0.25):
            # a walrus in a comprehension binds in the function (not in a class body / lambda)
            walrus = "(%s := %s)" % (self.pick(ctx.targets), self.pick([var, elem]))
            if cond and self.chance(0.5):
                cond = " if %s and %s" % (walrus, cond[4:])
            else:
                elem = walrus
        kind = self.rng.randint(0, 3)
        if kind == 0:
            return "sum([%s for %s in %s%s])" % (elem, var, source, cond)
        if kind == 1:
            return "sum(%s for %s in %s%s)" % (elem, var, source, cond)
        if kind == 2:
            return "len({%s: %s for %s in %s%s})" % (var, elem, var, source, cond)
        return "len({%s %% 3 for %s in %s%s})" % (elem, var, source, cond)

    def value(self, ctx):
        """Any value worth logging or returning."""
        r = self.rng.random()
        if r < 0.55:
            return self.int_expr(ctx)
        if r < 0.7:
            spec = self.pick(['', '!r', ':>3', ':x', ''])
            return "f'{%s%s}-{%s}'" % (self.int_expr(ctx), spec, self.atom(ctx))
        if r < 0.8:
            return "(%s, %s)" % (self.int_expr(ctx), self.int_expr(ctx))
        if r < 0.88:
            return "[%s, *%s]" % (self.int_expr(ctx), self.pick(ctx.lists))
        if r < 0.94:
            extra = self.extra_values(ctx)
            if extra:
                return self.pick(extra)()
        return repr(self.pick(['x', 'done', 'y']))

    def extra_values(self, ctx):
        """Makers of the values of the optional features that apply here."""
        e = lambda: self.int_expr(ctx, 1)  # noqa: E731
        out = []
        if self.on("fstring"):
            out.append(lambda: "f'{%s:%s{%s %% 4 + 1}}'" % (e(), self.pick(['>', '<', '^', '0']), e()))
            out.append(lambda: "f'{%s!r:>{%s %% 3 + 2}}|{%s:{\"x\" if %s else \"d\"}}'"
                       % (e(), e(), self.atom(ctx), self.test(ctx, 2)))
            out.append(lambda: "'%%d:%%s' %% (%s, %s)" % (e(), e()))
            out.append(lambda: "'{}-{!r}'.format(%s, %s)" % (e(), e()))
        if self.on("tstring") and self.version >= (3, 14):
            # a template's parts (its interpolations keep their expressions' text: atoms, so that
            # the text the source wrote is the one the decompiler writes)
            out.append(lambda: "(lambda t: (t.strings, [(i.value, i.expression, i.conversion, i.format_spec) "
                       "for i in t.interpolations]))(t'<{%s!r:>{%s %% 3 + 2}}|{%s}{%s=}>')"
                       % (self.atom(ctx), e(), self.atom(ctx), self.atom(ctx)))
        if self.on("displays"):
            out.append(lambda: "{**{'k': %s}, 'z': %s, **%s}" % (e(), e(), "d" if ctx.objs else "{}"))
            out.append(lambda: "sorted({*%s, %s})" % (self.pick(ctx.lists), e()))
            out.append(lambda: "(*%s, %s, *range(%s %% 3))" % (self.pick(ctx.lists), e(), e()))
            out.append(lambda: "dict(%s, w=%s)" % ("d" if ctx.objs else "{'k': 1}", e()))
        out.append(lambda: "(%s if %s else %s)" % (self.value(ctx), self.test(ctx, 1), self.value(ctx)))
        return out

    # -- statements
    def block(self, ctx, n=None):
        n = n or self.rng.randint(1, 3)
        out = []
        for _ in range(n):
            out.extend(self.stmt(ctx))
        return out or ["pass"]

    def stmt(self, ctx):
        self.budget -= 1
        compound = (ctx.depth < self.max_depth and self.budget > 0
                    and self.chance(max(0.55 - 0.1 * ctx.depth, 0.2)))
        if compound:
            makers = [self.s_if, self.s_if, self.s_for, self.s_while, self.s_try, self.s_try,
                      self.s_with]
            if ctx.kind in ('coro', 'agen'):
                makers += [self.s_async_with, self.s_async_for]
            if self.version >= (3, 10) and "match" not in self.without:
                makers.append(self.s_match)
            if self.version >= (3, 11) and "exceptstar" not in self.without:
                makers.append(self.s_try_star)
            if "with" in self.without:
                makers = [m for m in makers if m not in (self.s_with, self.s_async_with)]
            if self.on("whiletrue"):
                makers.append(self.s_while_true)
            if self.on("whilewalrus") and not ctx.compr:
                makers.append(self.s_while_walrus)
            return self.pick(makers)(ctx)
        makers = [self.s_assign, self.s_assign, self.s_log, self.s_log, self.s_aug, self.s_assert,
                  self.s_unpack, self.s_list_op, self.s_del, self.s_raise]
        if ctx.loop:
            makers += [self.s_break, self.s_continue]
        if ctx.ret:
            makers.append(self.s_return)
        if ctx.kind in ('gen', 'agen'):
            makers += [self.s_yield, self.s_yield]
        if ctx.kind in ('coro', 'agen'):
            makers.append(self.s_await)
        if ctx.uses_global:
            makers.append(self.s_global)
        if ctx.inner:
            makers.append(self.s_call_inner)
        if ctx.in_handler:
            makers.append(self.s_reraise)
        makers += [m for f, m in ((ctx.objs, self.s_attr), (self.on("slice"), self.s_slice),
                                  (self.on("kwcall"), self.s_kwcall),
                                  (self.on("chainassign"), self.s_chain_assign),
                                  (self.on("exprstmt"), self.s_expr_stmt),
                                  (self.on("targets"), self.s_targets),
                                  (self.on("closure"), self.s_closure),
                                  (self.on("classdef"), self.s_class),
                                  (self.on("import"), self.s_import)) if f]
        return self.pick(makers)(ctx)

    def indent(self, lines):
        return ["    " + line for line in lines]

    def s_assign(self, ctx):
        return ["%s = %s" % (self.pick(ctx.targets), self.int_expr(ctx))]

    def s_aug(self, ctx):
        return ["%s %s= %s" % (self.pick(ctx.targets), self.pick(['+', '-', '^', '|']), self.int_expr(ctx))]

    def s_log(self, ctx):
        if ctx.excvar and self.chance(0.5):
            return ["log.append((type(%s).__name__, %s.args))" % (ctx.excvar, ctx.excvar)]
        return ["log.append(%s)" % self.value(ctx)]

    def s_assert(self, ctx):
        msg = (", %s" % self.value(ctx)) if self.chance(0.5) else ""
        return ["assert %s%s" % (self.test(ctx), msg)]

    def s_unpack(self, ctx):
        t1, t2 = self.pick(ctx.targets), self.pick(ctx.targets)
        items = ", ".join(self.int_expr(ctx) for _ in range(self.rng.randint(1, 4)))
        form = self.rng.randint(0, 3)
        if form == 0:
            return ["%s, *s0 = [%s]" % (t1, items)]
        if form == 1:
            return ["*s0, %s = (%s,)" % (t1, items)]
        if form == 2:
            return ["%s, %s = %s, %s" % (t1, t2, self.int_expr(ctx), self.int_expr(ctx))]
        return ["s0 = [*s0[:2], %s]" % items]

    def s_list_op(self, ctx):
        r = self.rng.randint(0, 2)
        if r == 0:
            return ["s0.append(%s)" % self.int_expr(ctx)]
        if r == 1:
            return ["del s0[%s]" % self.pick(['0', '-1'])]
        return ["s0[%s] = %s" % (self.pick(['0', '-1']), self.int_expr(ctx))]

    def s_del(self, ctx):
        return ["del %s" % self.pick(ctx.targets)]

    def s_raise(self, ctx):
        exc = self.pick(['ValueError', 'KeyError', 'TypeError', 'ValueError'])
        if ctx.excvar and self.chance(0.3):
            return ["raise %s(%s) from %s" % (exc, self.int_expr(ctx), ctx.excvar)]
        if self.chance(0.5):
            return ["if %s:" % self.test(ctx), "    raise %s(%s)" % (exc, self.int_expr(ctx))]
        return ["raise %s(%s)" % (exc, self.int_expr(ctx))]

    def s_reraise(self, ctx):
        return ["if %s:" % self.test(ctx), "    raise"] if self.chance(0.6) else ["raise"]

    def s_break(self, ctx):
        return ["if %s:" % self.test(ctx), "    break"] if self.chance(0.6) else ["break"]

    def s_continue(self, ctx):
        return ["if %s:" % self.test(ctx), "    continue"] if self.chance(0.6) else ["continue"]

    def s_return(self, ctx):
        value = "" if ctx.kind == 'agen' or self.chance(0.15) else " " + self.value(ctx)
        if self.chance(0.6):
            return ["if %s:" % self.test(ctx), "    return" + value]
        return ["return" + value]

    def s_yield(self, ctx):
        r = self.rng.random()
        if r < 0.4:
            return ["yield %s" % self.value(ctx)]
        if r < 0.7:
            return ["%s = yield %s" % (self.pick(ctx.targets), self.int_expr(ctx))]
        if ctx.kind == 'gen':
            return ["%s = yield from sub(%s, log)" % (self.pick(ctx.targets), self.int_expr(ctx))]
        return ["log.append((yield))"]

    def s_await(self, ctx):
        return ["%s = await Aw(%s)" % (self.pick(ctx.targets), self.int_expr(ctx))]

    def s_global(self, ctx):
        return ["G = %s" % self.int_expr(ctx)] if self.chance(0.4) else ["G += %s" % self.int_expr(ctx)]

    def s_call_inner(self, ctx):
        return ["log.append(%s(%s))" % (ctx.inner, self.int_expr(ctx))]

    def s_attr(self, ctx):
        """Attribute and item stores, augmented stores and deletes on o (an Obj) and d (a D)."""
        t = self.pick(ctx.atargets)
        r = self.rng.randint(0, 6)
        if r == 0:
            return ["%s = %s" % (t, self.int_expr(ctx))]
        if r in (1, 2):
            return ["%s %s= %s" % (t, self.pick(['+', '-', '*', '//', '|']),
                                   self.int_expr(ctx) if self.chance(0.7) else str(self.rng.randint(1, 3)))]
        if r == 3:
            return ["del %s" % self.pick(['o.y', "d['j']", 'o.x', 's0[0]', "o.y, %s" % self.pick(ctx.targets),
                                          "(s0[-1], d['k'])"])]
        if r == 4:
            return ["log.append((vars(o).get('x'), sorted(d.items())))"]
        if r == 5:
            return ["%s, %s = %s, %s" % (t, self.pick(ctx.atargets), self.int_expr(ctx), self.int_expr(ctx))]
        return ["%s[%s] %s= %s" % (self.pick(['s0', 'd']), self.pick(['0', '"k"', '-1', 'a % 2',
                                                                  '(%s) %% 2' % self.int_expr(ctx, 1)]),
                                   self.pick(['+', '-']), self.int_expr(ctx))]

    def s_slice(self, ctx):
        e = lambda: self.int_expr(ctx, 1)  # noqa: E731
        r = self.rng.randint(0, 4)
        if r == 0:
            return ["s0[%s:%s] = [%s, %s]" % (self.pick(['', '1', e()]), self.pick(['', e()]), e(), e())]
        if r == 1:
            return ["del s0[%s:%s:%s]" % (self.pick(['', e()]), self.pick(['', e()]), self.pick(['', '2', '-1']))]
        if r == 2:
            return ["s0[:] = s0[::-1]"]
        if r == 3:
            return ["log.append(s0[%s:%s])" % (e(), self.pick(['', e()]))]
        return ["s0[%s:] += [%s]" % (self.pick(['1', e()]), e())]

    def s_kwcall(self, ctx):
        if self.chance(0.5):
            return ["%s = %s" % (self.pick(ctx.targets), self.kw_call(ctx, 0))]
        return [self.kw_call(ctx, 0)]

    def s_expr_stmt(self, ctx):
        """An expression statement whose value is dropped: and/or, if-else, a comparison."""
        e = lambda: self.int_expr(ctx, 1)  # noqa: E731
        r = self.rng.randint(0, 3)
        if r == 0:
            return ["%s %s log.append(%s)" % (self.test(ctx, 1), self.pick(['and', 'or']), e())]
        if r == 1:
            return ["log.append(%s) if %s else log.append(%s)" % (e(), self.test(ctx, 1), e())]
        if r == 2:
            return ["%s and (%s or log.append(%s))" % (self.test(ctx, 2), self.test(ctx, 2), e())]
        return ["%s" % self.compare(ctx, 1)]

    def s_chain_assign(self, ctx):
        ts = [self.pick(ctx.targets) for _ in range(self.rng.randint(2, 3))]
        if ctx.objs and self.chance(0.4):
            ts[self.rng.randrange(len(ts))] = self.pick(ctx.atargets)
        if self.chance(0.2):
            ts[-1] = "s0[%s]" % self.pick(['0', '-1'])
        return [" = ".join(ts + [self.int_expr(ctx)])]

    def s_targets(self, ctx):
        """Starred and nested unpacking targets, swaps."""
        t = lambda: self.pick(ctx.targets)  # noqa: E731
        e = lambda: self.int_expr(ctx, 1)  # noqa: E731
        r = self.rng.randint(0, 4)
        if r == 0:
            return ["(%s, (%s, %s)) = %s, (%s, %s)" % (t(), t(), t(), e(), e(), e())]
        if r == 1:
            return ["%s, *s0, %s = [%s, %s, %s]" % (t(), t(), e(), e(), e())]
        if r == 2:
            return ["[%s, [%s, *s0]] = [%s, (%s, %s)]" % (t(), t(), e(), e(), e())]
        if r == 3 and len(ctx.targets) >= 3:
            a, b, c = self.rng.sample(ctx.targets, 3)
            return [self.pick(["%s, %s = %s, %s" % (a, b, b, a), "%s, %s, %s = %s, %s, %s" % (a, b, c, c, a, b)])]
        if r == 4 and self.chance(0.5):   # unpacking a generator expression
            c = ctx.child(compr=True)
            source = "[%s, %s]" % (self.int_expr(c, 2), self.int_expr(c, 2))   # no walrus in it
            c.ints = ctx.ints + ['p']
            return ["%s, %s = (%s for p in %s)" % (t(), t(), self.int_expr(c, 2), source)]
        return ["(%s, *s0), %s = [%s, %s], %s" % (t(), t(), e(), e(), e())]

    def s_closure(self, ctx):
        """A nested def with defaults and free variables (loop variables too), called;
        or one that rebinds a local of f (nonlocal)."""
        name = self.fresh('g')
        c = ctx.child(compr=True, loop=False)
        c.depth = ctx.depth
        c.ints = ctx.ints + ['p', 'q']
        if self.chance(0.3):
            t = self.pick(ctx.targets)
            return ["def %s(p):" % name, "    nonlocal %s" % t,
                    "    %s %s= p" % (t, self.pick(['+', '-', '^'])), "    return %s" % self.int_expr(c, 1),
                    "log.append(%s(%s))" % (name, self.int_expr(ctx, 1))]
        if self.chance(0.2):   # a generator, consumed
            return ["def %s(p):" % name, "    yield p", "    yield from range(%s %% 3)" % self.int_expr(c, 1),
                    "    return %s" % self.int_expr(c, 1), "log.append(list(%s(%s)))" % (name, self.int_expr(ctx, 1))]
        if self.on("annotations") and self.chance(0.25):
            # annotations read from f's locals (3.14: computed when asked for, by __annotate__,
            # where no await or yield may stand)
            a = ctx.child(compr=True, loop=False)
            return ["def %s(p: %s, q: 'text' = %s) -> %s:" % (name, self.int_expr(a, 1), self.int_expr(ctx, 1),
                                                           self.atom(a)),
                    "    return %s" % self.int_expr(c, 1),
                    "log.append((%s(%s), sorted(%s.__annotations__.items())))" % (name, self.int_expr(ctx, 1), name)]
        head = self.pick(["def %s(p, q=%s):", "def %s(p, *, q=%s, **kw):", "def %s(p=0, /, q=%s, *r):"
                          if self.version >= (3, 8) else "def %s(p, q=%s):"]) % (name, self.int_expr(ctx, 1))
        deco = ["@deco(log)"] if self.chance(0.25) else []
        return deco + [head, "    return %s" % self.int_expr(c, 1),
                       "log.append(%s(%s))" % (name, self.int_expr(ctx, 1))]

    def s_class(self, ctx):
        """A class statement: class attributes from f's locals, a method with a closure."""
        name = self.fresh('K')
        c = ctx.child(compr=True, loop=False)
        c.depth = ctx.depth
        body = ["    z = %s" % self.int_expr(c, 2)]
        annotated = ["    u: %s" % self.int_expr(c, 1), "    y: 'text' = %s" % self.atom(c)]
        c.ints = ctx.ints + ['p', 'self.z']
        body += ["    def m(self, p=%d):" % self.rng.randint(0, 3), "        return %s" % self.int_expr(c, 2)]
        if self.chance(0.3):
            body.insert(1, "    w = z + %s" % self.atom(ctx))
        if self.on("annotations") and self.chance(0.3):
            # annotated class attributes, one without a value (3.14: the class body's __annotate__)
            body[1:1] = annotated
            return ["class %s:" % name] + body + ["log.append((%s().m(%s), %s.z, sorted(%s.__annotations__.items())))"
                                                  % (name, self.int_expr(ctx, 1), name, name)]
        return ["class %s:" % name] + body + ["log.append((%s().m(%s), %s.z))" % (name, self.int_expr(ctx, 1), name)]

    def s_import(self, ctx):
        if self.chance(0.5):
            return ["import math", "log.append(math.gcd(%s, %s))" % (self.int_expr(ctx, 1), self.atom(ctx))]
        return ["from operator import add as %s, neg" % self.pick(['op', 'add']), "%s = neg(%s)"
                % (self.pick(ctx.targets), self.int_expr(ctx, 1))]

    def s_while_walrus(self, ctx):
        """A loop whose test bumps its counter with a walrus."""
        n = self.fresh('n')
        c = ctx.child(loop=True)
        c.ints = ctx.ints + [n]
        cond = "(%s := %s + 1) <= %d" % (n, n, self.rng.randint(0, 3))
        cond = self.pick([cond, "%s and %s" % (cond, self.test(ctx, 1))])
        return ["%s = 0" % n, "while %s:" % cond] + self.indent(self.block(c)) + self.loop_else(ctx)

    def s_while_true(self, ctx):
        """``while True:`` ended by a break on a counter."""
        n = self.fresh('n')
        c = ctx.child(loop=True)
        c.ints = ctx.ints + [n]
        return (["%s = 0" % n, "while True:", "    %s += 1" % n, "    if %s > %d:" % (n, self.rng.randint(0, 3)),
                 "        break"] + self.indent(self.block(c)) + self.loop_else(ctx))

    def s_if(self, ctx):
        c = ctx.child()
        out = ["if %s:" % self.test(ctx)] + self.indent(self.block(c))
        for _ in range(self.pick([0, 0, 1, 2])):
            out += ["elif %s:" % self.test(ctx)] + self.indent(self.block(c))
        if self.chance(0.5):
            out += ["else:"] + self.indent(self.block(c))
        return out

    def loop_else(self, ctx):
        return (["else:"] + self.indent(self.block(ctx.child()))) if self.chance(0.3) else []

    def s_for(self, ctx):
        var = self.fresh('i')
        c = ctx.child(loop=True)
        c.ints = ctx.ints + [var]
        source = self.pick(["range(%d)" % self.rng.randint(0, 4), "range(%s %% 4)" % self.int_expr(ctx),
                            "[%s, %s]" % (self.int_expr(ctx), self.int_expr(ctx)), "s0[:3]"])
        head = "for %s in %s:" % (var, source)
        if self.on("targets") and self.chance(0.15):
            target = self.pick(ctx.atargets + ["s0[-1]", "(%s, *s0)" % self.pick(ctx.targets)])
            source = self.pick(["[[1, 2], [%s]]" % self.int_expr(ctx, 1), "[(%s, 3)]" % self.atom(ctx)]) \
                if target.startswith("(") else source
            head = "for %s in %s:" % (target, source)
        elif self.chance(0.15):
            var2 = self.fresh('j')
            c.ints.append(var2)
            head = "for %s, %s in zip(range(3), %s):" % (var, var2, source)
        return [head] + self.indent(self.block(c)) + self.loop_else(ctx)

    def s_while(self, ctx):
        n = self.fresh('n')
        c = ctx.child(loop=True)
        c.ints = ctx.ints + [n]
        guard = "%s < %d" % (n, self.rng.randint(1, 4))
        # the counter is bumped first thing in the body, so each form ends after a few rounds
        cond = self.pick([guard, guard, "%s and %s" % (guard, self.test(ctx, 1)),
                          "%s and %s" % (self.test(ctx, 1), guard),
                          "%s and (%s or %s)" % (guard, self.test(ctx, 2), self.atom(ctx))])
        return ["%s = 0" % n, "while %s:" % cond, "    %s += 1" % n] + self.indent(self.block(c)) + self.loop_else(ctx)

    def handler_ctx(self, ctx, name, star=False):
        c = ctx.child(in_handler=True, excvar=name)
        if star:
            c.loop = False
            c.ret = False
        return c

    def s_try(self, ctx):
        out = ["try:"] + self.indent(self.block(ctx.child()))
        handlers = self.rng.randint(0, 2)
        final = handlers == 0 or self.chance(0.4)
        for k in range(handlers):
            exc = self.pick(['ValueError', 'KeyError', '(ValueError, KeyError)', 'Exception', 'TypeError',
                             'ZeroDivisionError', 'IndexError'] + (['BaseException', 'AttributeError']
                                                                    if self.on("bareexcept") else []))
            if k == handlers - 1 and self.on("bareexcept") and self.chance(0.1):
                exc = ''   # a bare except: (last)
            name = self.fresh('e') if self.chance(0.5) and exc else None
            out += ["except%s%s:" % (exc and " " + exc, " as " + name if name else "")]
            out += self.indent(self.block(self.handler_ctx(ctx, name)))
        if handlers and self.chance(0.3):
            out += ["else:"] + self.indent(self.block(ctx.child()))
        if final:
            out += ["finally:"] + self.indent(self.block(ctx.child()))
        return out

    def s_try_star(self, ctx):
        body = self.block(ctx.child())
        if self.chance(0.5):
            body.append("raise ExceptionGroup('g', [ValueError(%s), KeyError(%s)])"
                        % (self.int_expr(ctx), self.atom(ctx)))
            if self.chance(0.5):
                body[-1] = "if %s:\n    %s" % (self.test(ctx), body[-1])
                body[-1:] = body[-1].split("\n")
        out = ["try:"] + self.indent(body)
        for exc in self.rng.sample(['ValueError', 'KeyError', 'TypeError'], self.rng.randint(1, 2)):
            name = self.fresh('e') if self.chance(0.6) else None
            out += ["except* %s%s:" % (exc, " as " + name if name else "")]
            c = self.handler_ctx(ctx, None, star=True)
            lines = self.block(c)
            if name:
                lines.insert(0, "log.append(repr(%s.exceptions))" % name)
            out += self.indent(lines)
        if self.chance(0.3):
            out += ["else:"] + self.indent(self.block(ctx.child()))
        if self.chance(0.3):
            out += ["finally:"] + self.indent(self.block(ctx.child()))
        return out

    def with_item(self, ctx, cls):
        item = "%s(log, %d%s)" % (cls, self.tag(), ", True" if self.chance(0.3) else "")
        if self.chance(0.4):
            target = self.pick(ctx.targets)
            if self.on("targets") and self.chance(0.2):
                target = self.pick(ctx.atargets + ["s0[0]"])
            item += " as %s" % target
        return item

    def s_with(self, ctx, cls='CM', kw='with'):
        items = ", ".join(self.with_item(ctx, cls) for _ in range(self.pick([1, 1, 2])))
        return ["%s %s:" % (kw, items)] + self.indent(self.block(ctx.child()))

    def s_async_with(self, ctx):
        return self.s_with(ctx, 'ACM', 'async with')

    def s_async_for(self, ctx):
        var = self.fresh('i')
        c = ctx.child(loop=True)
        c.ints = ctx.ints + [var]
        return (["async for %s in AIter(%d):" % (var, self.rng.randint(0, 3))]
                + self.indent(self.block(c)) + self.loop_else(ctx))

    def s_match(self, ctx):
        subject = self.pick([self.int_expr(ctx), "s0", "(%s, %s)" % (self.atom(ctx), self.atom(ctx)),
                             "{'k': %s}" % self.atom(ctx)])
        t = self.pick(ctx.targets)
        patterns = ["0", "1 | 2", "-1", "[%s, *s0]" % t, "(0, %s)" % t, "[]", "{'k': %s}" % t,
                    "int(%s) if %s" % (t, self.test(ctx)), "[_, _]", "{'k': 1 | 3}", "str()"]
        if self.on("matchx"):
            if ctx.objs and self.chance(0.3):
                subject = "o"
            patterns += ["[%s, *_]" % t, "{'k': 1, **rest}", "(0 | 1) as %s" % t, "[1 | 2, *s0]",
                         "int() | str()", "Obj(x=0)", "Obj(x=%s, y=%s)" % (t, self.pick(['1', '2', '_'])),
                         "(%s, 0 | 1)" % t, "{'k': _, 'j': %s}" % t, "[0, [%s, _]]" % t]
        out = ["match %s:" % subject]
        for p in self.rng.sample(patterns, self.rng.randint(1, 3)):
            guard = ""
            if " if " not in p and self.chance(0.25):
                guard = " if %s" % self.test(ctx)
            out += ["    case %s%s:" % (p, guard)] + self.indent(self.indent(self.block(ctx.child())))
        if self.chance(0.5):
            last = self.pick(["_", t])
            out += ["    case %s:" % last] + self.indent(self.indent(self.block(ctx.child())))
        return out

    # -- a whole function
    def inner_def(self, ctx):
        """A nested function that rebinds a variable of the outer one (nonlocal)."""
        c = Ctx('func')
        c.ints = ['k', 'v0', 'a', 'b']
        c.targets = ['k', 'v0']
        c.lists = ['s0']
        c.depth = 2
        saved, self.budget = self.budget, 3
        body = self.block(c, 2)
        self.budget = saved
        return (["def h(k):", "    nonlocal v0"] + self.indent(body)
                + ["    return %s" % self.int_expr(c)])

    def function(self):
        kind = self.pick(['func'] * 9 + ['gen'] * 5 + ['coro'] * 3 + ['agen'] * 3)
        if kind in ('coro', 'agen') and "async" in self.without or kind == 'gen' and "gen" in self.without:
            kind = 'func'
        if kind == 'agen' and "agen" in self.without:
            kind = 'coro'
        ctx = Ctx(kind)
        self.budget = self.rng.randint(*self.budget_range)
        ctx.uses_global = self.chance(0.2)
        head = []
        if ctx.uses_global:
            head.append("global G")
        head.append("v0, v1, v2, s0 = a, b, c, [a, b, c]")
        if self.on("attr") and self.chance(0.3):
            head.append("o, d = Obj(log, a), D(log, k=b, j=c)")
            ctx.objs = True
            # double quotes: these end up inside f-strings, which pre-3.12 cannot reuse their quote
            ctx.atargets = ['o.x', 'o.y', 'd["k"]', 'd["j"]']
            ctx.ints += ['o.x', 'd["k"]']
        if self.chance(0.2):
            head += self.inner_def(ctx)
            ctx.inner = 'h'
        body = self.block(ctx, self.rng.randint(1, 4))
        if kind != 'agen' and self.chance(0.7):
            body.append("return %s" % self.value(ctx))
        elif kind == 'agen' and self.chance(0.3):
            body.append("yield %s" % self.value(ctx))
        if kind in ('gen', 'agen') and not any('yield' in line for line in body):
            body.insert(0, "yield %s" % self.int_expr(ctx))
        if kind == 'coro' and not any('await' in line for line in body):
            body.insert(0, "v1 = await Aw(%s)" % self.atom(ctx))
        prefix = "async def" if kind in ('coro', 'agen') else "def"
        fn = ["%s f(a, b, c, log):" % prefix] + self.indent(head + body)
        if self.chance(0.15):   # f is itself a closure: it gets a free variable
            fn = (["def make():", "    w = 7", "    " + fn[0], "        nonlocal w", "        w += 1",
                   "        log.append(w)"] + self.indent(fn[1:]) + ["    return f"])
        return "\n".join(fn) + "\n"


FEATURES = ("chain", "match", "exceptstar", "with", "async", "agen", "gen",
            # constructs added for outside generators' sake (see Generator.extra_exprs, stmt)
            "attr", "slice", "kwcall", "chainassign", "targets", "isin", "whiletrue", "displays",
            "fstring", "anyall", "closure", "classdef", "asynccomp", "bareexcept", "import",
            "comprwalrus", "matchx", "exprstmt", "whilewalrus", "tstring", "annotations")
WITHOUT = set()   # set by --without: leave out constructs whose known bugs hide others


def generate(seed, index, version=V, without=None):
    """The source text of case ``index`` of ``seed`` (deterministic for one
    interpreter version and one ``without`` set)."""
    rng = random.Random("unveil-fuzz:%s:%s" % (seed, index))
    return Generator(rng, version, WITHOUT if without is None else without,
                     big=str(seed).startswith("big")).function()


# ---------------------------------------------------------------------------
# The oracle: run a function on every input and record what it does.

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def rep(v, depth=0):
    """A comparable text for a value (no addresses, exceptions by type and args)."""
    if depth > 8:
        return "..."
    if isinstance(v, BaseException):
        inner = ""
        if hasattr(v, "exceptions"):
            inner = rep(list(v.exceptions), depth + 1)
        return "%s%s%s" % (type(v).__name__, rep(v.args, depth + 1), inner)
    if isinstance(v, (list, tuple)):
        return "%s(%s)" % (type(v).__name__, ", ".join(rep(x, depth + 1) for x in v))
    if isinstance(v, dict):
        return "{%s}" % ", ".join("%s: %s" % (rep(k, depth + 1), rep(x, depth + 1)) for k, x in v.items())
    if v is None or isinstance(v, (bool, int, float, str, bytes)):
        return _ADDRESS.sub("", repr(v))
    return "<%s>" % type(v).__name__


class Timeout(BaseException):
    """Not an Exception: generated code catches Exception and must not swallow this."""


_FIRED = []   # the alarm went off during the current case (even if the case swallowed it)


def _alarm(signum, frame):
    _FIRED.append(True)
    raise Timeout()


def _throw_step(i):
    """When (if ever) a ValueError is thrown into a generator/coroutine on input ``i``."""
    return (None, 1, None, 2, 0, 3)[i % 6]


def drive(obj, i, events):
    """Drive a generator or coroutine: send 0, 1, 2, ... (or throw at one step)."""
    value = None
    try:
        x = obj.send(None)
        for step in range(MAX_STEPS):
            events.append(("y", rep(x)))
            if step == _throw_step(i):
                x = obj.throw(ValueError("thrown", step))
            else:
                x = obj.send(step * 10 + i)
        events.append(("runaway",))
        obj.close()
        return ("closed",)
    except StopIteration as stop:
        value = stop.value
        return ("ok", rep(value))
    except Exception as e:  # noqa: BLE001 - part of the behaviour
        return ("raised", rep(e))


def drive_asyncgen(agen, i, events):
    """Drive an async generator by hand: asend(0), asend(1), ... with the awaits answered."""
    sent = None
    for step in range(MAX_STEPS):
        if step == _throw_step(i) and step:
            aw = agen.athrow(ValueError("thrown", step))
        else:
            aw = agen.asend(sent)
        try:
            x = aw.send(None)
            for k in range(MAX_STEPS):
                events.append(("a", rep(x)))
                x = aw.send(1000 + k)
            return ("runaway",)
        except StopIteration as stop:
            events.append(("y", rep(stop.value)))
        except StopAsyncIteration:
            return ("done",)
        except Exception as e:  # noqa: BLE001
            return ("raised", rep(e))
        sent = step * 10 + i
    try:
        agen.aclose().send(None)
    except BaseException:  # noqa: BLE001
        pass
    return ("closed",)


def run_once(fn, args, i, ns):
    """What ``fn(*args, log)`` does: (outcome, events, log)."""
    ns["G"] = 0
    log = []
    events = []
    try:
        r = fn(*args, log)
        if isinstance(r, (types.GeneratorType, types.CoroutineType)):
            result = drive(r, i, events)
        elif isinstance(r, types.AsyncGeneratorType):
            result = drive_asyncgen(r, i, events)
        else:
            result = ("ok", rep(r))
    except Exception as e:  # noqa: BLE001 - part of the behaviour
        result = ("raised", rep(e))
    return result, events, rep(log), rep(ns["G"])


def behaviour(make, ns):
    """The records of every input; ``make()`` gives a fresh function (fresh closure cells)."""
    return [run_once(make(), args, i, ns) for i, args in enumerate(INPUTS)]


# ---------------------------------------------------------------------------
# One case: original vs decompiled.

def load(source):
    """Module namespace holding the prelude and the case; a factory of fresh ``f``s."""
    ns = {"__name__": "fuzzcase"}
    exec(compile(PRELUDE, "<prelude>", "exec"), ns)
    exec(compile(source, "<fuzz>", "exec"), ns)
    if "make" in ns:
        return ns, ns["make"]
    return ns, lambda: ns["f"]


def rebuild(fn, src, ns):
    """Compile decompiled ``src`` of ``fn`` and return a factory of equivalent functions
    that share ``fn``'s globals and get fresh closure cells (by name) from ``fresh()``."""
    ns2 = dict(ns)
    exec(compile(src, "<decompiled>", "exec"), ns2)
    name = fn.__code__.co_name
    if fn.__code__.co_freevars:
        new = ns2["__unveil_closure_" + name]()
    else:
        new = ns2[name]
    if not isinstance(new, types.FunctionType):
        raise KeyError(name)
    return new


class Case:
    """The outcome of one case: kind, and the texts to show."""

    def __init__(self, kind, source, text=None, detail="", diff=None):
        self.kind, self.source, self.text, self.detail = kind, source, text, detail
        self.diff = diff   # for a mismatch: (original record, decompiled record) of one input

    def signature(self):
        """What must stay the same while shrinking: the kind, and for a mismatch which
        parts of the record differ (a shrink must not drift into another failure,
        e.g. a variable left unbound by a deleted statement)."""
        if self.kind == "mismatch" and self.diff:
            want, got = self.diff
            unbound = any(n in repr(self.diff) for n in ("UnboundLocalError", "NameError"))
            return (self.kind, tuple(w != g for w, g in zip(want, got)), unbound)
        if self.kind in ("refused", "nocompile", "crash"):
            return (self.kind, re.sub(r"\d+|\bin \S+", "", self.detail.split("\n")[0]))
        return (self.kind,)


def check(source):
    """Run the differential check on ``source`` (text of ``f`` or ``make``)."""
    # CPU time, not wall time: on a loaded machine a slow wall clock is no hang.
    # The limit, then again every half second: generated code may swallow one alarm in a finally
    signal.signal(signal.SIGPROF, _alarm)
    del _FIRED[:]
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT, 0.5)
    stage = ["original"]
    try:
        case = _check(source, stage)
    except BaseException:   # noqa: BLE001 - Timeout, or a group holding it (except* wraps it)
        if not _FIRED:
            raise
        case = None
    finally:
        while True:   # the repeated alarm may go off here too
            try:
                signal.setitimer(signal.ITIMER_PROF, 0)
                break
            except Timeout:
                pass
    if _FIRED:
        return Case("badgen" if stage[0] == "original" else "hang", source,
                    stage[1] if len(stage) > 1 else None, detail="timeout in " + stage[0])
    return case


def _check(source, stage):
    """check() without the time limit; ``stage[0]`` says how far it got."""
    import unveil
    try:
        ns, make = load(source)
        want = behaviour(make, ns)
    except (SyntaxError, Exception) as e:  # noqa: BLE001
        return Case("badgen", source, detail="%s: %s" % (type(e).__name__, e))
    stage[0] = "decompile"
    fn = make()
    try:
        text = unveil.decompile(fn)
    except unveil.DecompilationError as e:
        return Case("refused", source, detail=str(e))
    except Exception as e:  # noqa: BLE001
        import traceback
        return Case("crash", source, detail="%s: %s\n%s" % (type(e).__name__, e,
                                                          "".join(traceback.format_exc(limit=-4))))
    stage[0] = "recompile"
    stage.append(text)
    try:
        new = rebuild(fn, text, ns)
    except Exception as e:  # noqa: BLE001
        return Case("nocompile", source, text, "%s: %s" % (type(e).__name__, e))
    stage[0] = "run decompiled"

    def make_new():
        orig = make()
        cells = dict(zip(orig.__code__.co_freevars, orig.__closure__ or ()))
        closure = tuple(cells[v] for v in new.__code__.co_freevars) or None
        g = types.FunctionType(new.__code__, orig.__globals__, orig.__name__, orig.__defaults__, closure)
        g.__qualname__ = orig.__qualname__   # error messages name the function by it
        return g
    try:
        got = behaviour(make_new, ns)
    except KeyError as e:
        return Case("mismatch", source, text, "free variables differ: %s" % e)
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return Case("mismatch", source, text, "input %r:\n  original   %s\n  decompiled %s"
                        % (INPUTS[i], _short(w), _short(g)), (w, g))
    return Case("same", source, text)


def _short(record, width=400):
    """A record for people: its text, the middle cut out when it is long."""
    text = repr(record)
    return text if len(text) <= width else text[:width // 2] + " ... " + text[-width // 2:]


def run_case(seed_index):
    seed, index = seed_index
    case = check(generate(seed, index))
    return index, case.kind, case.detail.split("\n")[0][:200]


KINDS = ["same", "mismatch", "nocompile", "refused", "crash", "hang", "badgen"]


def run(seed, count, jobs=1, start=0):
    """{kind: [(index, detail)]} for cases start .. start+count-1 of ``seed``."""
    work = [(seed, i) for i in range(start, start + count)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = list(pool.imap_unordered(run_case, work, chunksize=16))
    else:
        results = [run_case(w) for w in work]
    by_kind = {k: [] for k in KINDS}
    for index, kind, detail in sorted(results):
        by_kind[kind].append((index, detail))
    return by_kind


# ---------------------------------------------------------------------------
# The shrinker: delete statements / simplify expressions while the failure stays.

def _unparse(tree):
    from unveil.decompiler.emit import to_source
    return to_source(tree)


_BODIES = ("body", "orelse", "finalbody")


def _sites(tree):
    """Every possible simplification of ``tree``, each a function that applies it
    in place (the walk order is deterministic, so site k of a copy is site k)."""
    out = []
    for node in ast.walk(tree):
        for field in _BODIES + ("handlers", "cases"):
            seq = getattr(node, field, None)
            if not isinstance(seq, list) or not seq:
                continue
            for k in range(len(seq)):
                if not _is_loop_guard(seq[k]):
                    out.append(lambda seq=seq, k=k, field=field, node=node: _delete(node, field, seq, k))
            for k, s in enumerate(seq):
                for inner in ("body", "orelse", "finalbody"):
                    if isinstance(s, ast.stmt) and getattr(s, inner, None) and not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        out.append(lambda seq=seq, k=k, s=s, inner=inner: seq.__setitem__(slice(k, k + 1), getattr(s, inner)))
        if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            if node.orelse:
                out.append(lambda node=node: setattr(node, "orelse", []))
            if node.finalbody and node.handlers:
                out.append(lambda node=node: setattr(node, "finalbody", []))
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr) and not isinstance(value, (ast.Name, ast.Constant)) \
                    and not isinstance(node, (ast.comprehension,)):
                if field in ("value", "test", "left", "right", "operand", "iter", "body", "orelse", "elt",
                             "subject", "msg", "exc") or isinstance(node, ast.keyword):
                    for rep_ in (ast.Constant(value=0), ast.Constant(value=1)):
                        out.append(lambda node=node, field=field, r=rep_: setattr(node, field, copy.deepcopy(r)))
                    for child in ast.iter_child_nodes(value):
                        if isinstance(child, ast.expr):
                            out.append(lambda node=node, field=field, c=child: setattr(node, field, c))
            if isinstance(value, list) and field in ("values", "comparators", "elts", "args") and len(value) > 1 \
                    and isinstance(value[0], ast.expr):   # not a def's parameters: f is called with four
                for k in range(len(value)):
                    out.append(lambda node=node, value=value, k=k: _drop(node, value, k))
    return out


def _guards_intact(tree):
    """Every while loop that bumps a counter still tests it (so it still ends)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            bumped = {s.target.id for s in node.body if isinstance(s, ast.AugAssign) and _is_loop_guard(s)}
            test = node.test
            if isinstance(test, ast.Constant) and test.value is True:   # while True: if n1 > 2: break
                test = ast.Module(body=[s.test for s in node.body if isinstance(s, ast.If) and _is_loop_guard(s)],
                                  type_ignores=[])
            tested = {n.left.id for n in ast.walk(test)
                      if isinstance(n, ast.Compare) and isinstance(n.left, ast.Name)}
            walrus = {n.left.target.id for n in ast.walk(node.test)   # while (n1 := n1 + 1) <= 2
                      if isinstance(n, ast.Compare) and isinstance(n.left, ast.NamedExpr)
                      and re.match(r"n\d+$", n.left.target.id) and isinstance(n.left.value, ast.BinOp)}
            if walrus and not bumped:
                continue
            if not bumped or not bumped <= tested:
                return False
    return True


def _is_loop_guard(stmt):
    """``n1 += 1`` (or ``if n1 > 2: break`` in a ``while True:``): the statements
    that make a generated while loop end."""
    if (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and isinstance(stmt.test.left, ast.Name)
            and re.match(r"n\d+$", stmt.test.left.id) and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.Break) and not stmt.orelse):
        return True
    return (isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name)
            and re.match(r"n\d+$", stmt.target.id) is not None)


def _drop(node, seq, k):
    if isinstance(node, ast.Compare):
        if k == 0:
            return
        del node.ops[k]
    del seq[k]


def _delete(node, field, seq, k):
    del seq[k]
    if not seq and field == "body":
        seq.append(ast.Pass())
    if not seq and field == "handlers" and not node.finalbody:
        node.finalbody = [ast.Pass()]
    if not seq and field == "cases":
        seq.append(ast.match_case(pattern=ast.MatchAs(pattern=None, name=None), guard=None, body=[ast.Pass()]))


def _size(tree):
    return sum(1 for _ in ast.walk(tree))


def shrink(source, verbose=True):
    """A smaller source with the same failure kind as ``source``."""
    kind = check(source).signature()
    tree = ast.parse(source)
    best = source
    progress = True
    while progress:
        progress = False
        k = 0
        while k < len(_sites(tree)):
            trial = copy.deepcopy(tree)
            try:
                _sites(trial)[k]()
                text = _unparse(ast.fix_missing_locations(trial))
                compile(text, "<shrink>", "exec")
            except Exception:  # noqa: BLE001 - an edit that breaks the program is skipped
                k += 1
                continue
            if _size(trial) < _size(tree) and _guards_intact(trial) and check(text).signature() == kind:
                tree, best = trial, text
                progress = True
                if verbose:
                    print("  %d nodes" % _size(tree), file=sys.stderr)
                continue
            k += 1
    return best


# ---------------------------------------------------------------------------

def _seed_index(text):
    seed, _, index = text.partition(":")
    return seed, int(index)


def show(seed, index):
    source = generate(seed, index)
    case = check(source)
    print("# case %s:%d on Python %d.%d: %s" % (seed, index, V[0], V[1], case.kind))
    print(source)
    if case.text is not None:
        print("# ---- decompiled")
        print(case.text)
    if case.detail:
        print("# ---- " + case.detail)


def summary(by_kind, elapsed, seed, count, jobs):
    total = sum(len(v) for v in by_kind.values())
    print("Python %d.%d  seed %s  %d functions  %.1f s  %.0f functions/s  (%d jobs)"
          % (V[0], V[1], seed, total, elapsed, total / max(elapsed, 1e-9), jobs))
    print("%-10s %7s %7s" % ("outcome", "count", "%"))
    for k in KINDS:
        print("%-10s %7d %6.2f%%" % (k, len(by_kind[k]), 100.0 * len(by_kind[k]) / max(total, 1)))


def main():
    global TIME_LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=3.0, metavar="S",
                    help="CPU seconds per case before it counts as a hang (default %(default)s)")
    ap.add_argument("--list", type=int, default=10, metavar="N",
                    help="list up to N cases of every failing kind")
    ap.add_argument("--without", default="", metavar="A,B",
                    help="constructs to leave out, from: " + ", ".join(FEATURES)
                    + " (chain = chained comparisons, agen = async generators)")
    ap.add_argument("--show", metavar="SEED:INDEX")
    ap.add_argument("--shrink", metavar="SEED:INDEX")
    args = ap.parse_args()
    TIME_LIMIT = args.timeout
    WITHOUT.update(w for w in args.without.split(",") if w)
    if WITHOUT - set(FEATURES):
        ap.error("unknown --without: %s" % ", ".join(sorted(WITHOUT - set(FEATURES))))
    if args.show:
        show(*_seed_index(args.show))
        return
    if args.shrink:
        seed, index = _seed_index(args.shrink)
        small = shrink(generate(seed, index))
        case = check(small)
        print("# case %s:%d shrunk, Python %d.%d: %s" % (seed, index, V[0], V[1], case.kind))
        print(small)
        if case.text is not None:
            print("# ---- decompiled")
            print(case.text)
        print("# ---- " + case.detail)
        return
    t0 = time.perf_counter()
    by_kind = run(args.seed, args.count, args.jobs, args.start)
    summary(by_kind, time.perf_counter() - t0, args.seed, args.count, args.jobs)
    for k in KINDS[1:]:
        for index, detail in by_kind[k][:args.list]:
            print("  %-9s %s:%d  %s" % (k, args.seed, index, detail[:150]))


if __name__ == "__main__":
    main()
