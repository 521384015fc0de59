"""Our own unparser (``unveil.decompiler.unparse38``), needed on 3.8.

On every version: parse -> unparse -> parse gives the same tree.
On 3.9+: the text is exactly ``ast.unparse``'s.
"""
import ast
import importlib.util
import inspect
import os
import sys
import textwrap

import pytest

# Loaded from its file so that this test only depends on the module under
# test, not on the rest of the package being importable.
_PATH = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                     "src", "unveil", "decompiler", "unparse38.py")
_spec = importlib.util.spec_from_file_location("_unveil_unparse38", _PATH)
unparse38 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(unparse38)
unparse = unparse38.unparse

HAVE_AST_UNPARSE = hasattr(ast, "unparse")
#: 3.12+ reads an f-string that reuses its own quote inside a replacement field
#: (``f'{a['k']}'``), and the patch releases of 3.13 and 3.14 differ in which quote
#: ast.unparse picks for such an f-string: there the texts are compared with the quote
#: characters made one, and as the trees they parse to.
QUOTES_MAY_DIFFER = sys.version_info >= (3, 12)


def _same_text(ours, theirs):
    if ours == theirs or not QUOTES_MAY_DIFFER:
        return ours == theirs
    return (ours.replace('"', "'") == theirs.replace('"', "'")
            and _dump(ast.parse(ours)) == _dump(ast.parse(theirs)))


def S(src, since=(3, 8)):
    """A snippet, and the first Python version whose grammar accepts it."""
    return (textwrap.dedent(src).strip("\n") + "\n", since)


CORPUS = [
    # --- atoms and constants
    S("x"),
    S("1"),
    S("-1"),
    S("1.5"),
    S("1e309"),
    S("-1e309"),
    S("1e309j"),
    S("3j"),
    S("1 + 2j"),
    S("0.1 + 1e-10"),
    S("0xff, 0o7, 0b1"),
    S("1_000_000"),
    S("True, False, None"),
    S("..."),
    S("x[...]"),
    S("'abc'"),
    S('"it\'s"'),
    S("'say \"hi\"'"),
    S("'both \\' and \"'"),
    S("'tab\\tnew\\nline'"),
    S("'back\\\\slash'"),
    S("'\\x00\\x7f'"),
    S("'unicode é ☃ \\u200b'"),
    S("u'legacy'"),
    S("b'bytes'"),
    S("b'\\x00\\xff'"),
    S("rb'raw\\d'"),
    S("'implicit' 'concatenation'"),
    S("'''triple\nquoted'''"),
    # --- docstrings
    S('"""Module docstring."""\nx = 1'),
    S('"""Multi\nline\ndocstring\n"""'),
    S("'docstring with \"\"\" inside'"),
    S('"ends with quote\\""'),
    S('''
        def f():
            """Function docstring."""
            return 1
    '''),
    S('''
        class C:
            "Class docstring with 'quotes'."
            x = 1
    '''),
    S('''
        def f():
            u"""unicode docstring"""
    '''),
    S('''
        def f():
            x = 1
            "not a docstring"
    '''),
    # --- operators and precedence
    S("a + b * c"),
    S("(a + b) * c"),
    S("a - (b - c)"),
    S("(a - b) - c"),
    S("a / b / c"),
    S("a / (b / c)"),
    S("a // b % c @ d"),
    S("a ** b ** c"),
    S("(a ** b) ** c"),
    S("-a ** b"),
    S("(-a) ** b"),
    S("a ** -b"),
    S("-(-a)"),
    S("- -a"),
    S("+a, ~b, -c"),
    S("~(a + b)"),
    S("not a"),
    S("not (a and b)"),
    S("not a == b"),
    S("(not a) == b"),
    S("-(a + b)"),
    S("a << b >> c"),
    S("a | b ^ c & d"),
    S("(a | b) & c"),
    S("a & (b | c) ^ d"),
    S("a < b <= c > d >= e == f != g"),
    S("a is b, a is not b, a in b, a not in b"),
    S("(a < b) < c"),
    S("a < (b < c)"),
    S("(a == b) + c"),
    S("a and b or c"),
    S("a and (b or c)"),
    S("a or b and c"),
    S("(a or b) and c"),
    S("a or b or c or d"),
    S("a and b and c"),
    S("a or (b or c)"),
    S("a or not b"),
    S("a or b or not c"),
    S("not a or not b"),
    S("a if b else c"),
    S("(a if b else c) if d else e"),
    S("a if (b if c else d) else e"),
    S("a if b else c if d else e"),
    S("(a if b else c) + 1"),
    S("x = a if b else c"),
    S("a.b.c"),
    S("a().b[c].d()"),
    S("(a + b).c"),
    S("1 .real"),
    S("(1).real"),
    S("1.5.real"),
    S("True.real"),
    S("'s'.join(x)"),
    S("(-1).bit_length()"),
    S("(a, b).count(c)"),
    # --- calls
    S("f()"),
    S("f(a, b, *c, d=1, **e)"),
    S("f(*a, *b, **c, **d)"),
    S("f(a=1, *b)"),
    S("f(x for x in y)"),
    S("f((x for x in y), z)"),
    S("f(*(a or b))"),
    S("f(**(a or b))"),
    S("f((yield))"),
    S("f(lambda: 1)"),
    S("f(a)(b)(c)"),
    S("f(a if b else c)"),
    # --- subscripts and slices
    S("a[1]"),
    S("a[i, j]"),
    S("a[i,]"),
    S("a[()]"),
    S("a[(i, j)]"),
    S("a[1:2]"),
    S("a[:]"),
    S("a[::]"),
    S("a[::2]"),
    S("a[1:2:3]"),
    S("a[:-1]"),
    S("a[1:2, 3]"),
    S("a[1:2, ::3]"),
    S("a[1:2,]"),
    S("a[..., 1]"),
    S("a[(*b, c)]"),
    S("a[*b, c]", since=(3, 11)),
    S("a[b if c else d]"),
    S("a[lambda: 1]"),
    S("a[b:c][d]"),
    S("a[b][c] = d"),
    S("del a[1:2], b.c, d"),
    # --- displays
    S("[]"),
    S("[1, 2, 3]"),
    S("[*a, *b]"),
    S("()"),
    S("(1,)"),
    S("1, 2"),
    S("((1, 2), (3,))"),
    S("{}"),
    S("{1: 2, 'a': b}"),
    S("{**a, 'b': 1, **c}"),
    S("{**(a or b)}"),
    S("{1, 2}"),
    S("{*a, *b}"),
    S("set()"),
    S("{*()}"),
    S("{(a, b): c}"),
    # --- comprehensions
    S("[x for x in y]"),
    S("[x for x in y if x if not x]"),
    S("[(x, y) for x in a for y in b]"),
    S("[x for x, y in z]"),
    S("[x for (x, y) in z]"),
    S("[x for x, in z]"),
    S("{x for x in y}"),
    S("{k: v for k, v in d.items() if k}"),
    S("(x for x in y)"),
    S("[x for x in (a if b else c)]"),
    S("[x for x in y if (lambda: x)]"),
    S("[x for x in (yield)]"),
    S("[y for x in z for y in x if y > 1]"),
    S("[[y for y in x] for x in z]"),
    S('''
        async def f():
            return [x async for x in y]
    '''),
    S('''
        async def f():
            return {x: y async for x, y in z if await x}
    '''),
    S('''
        async def f():
            return [await x for x in y]
    '''),
    # --- lambda
    S("lambda: 0"),
    S("lambda x: x"),
    S("lambda x, y=1, *args, z, w=2, **kw: (x, y)"),
    S("lambda *, a: a"),
    S("lambda a, /, b: a"),
    S("lambda: (yield)"),
    S("(lambda: 1)()"),
    S("lambda x: lambda y: x + y"),
    S("x = lambda: a if b else c"),
    S("(lambda: a) if b else c"),
    # --- starred, walrus, yield, await
    S("a, *b = c"),
    S("*a, b = c"),
    S("[a, *b] = c"),
    S("(a, b), c = d"),
    S("a = b = c"),
    S("a, b = b, a"),
    S("x = *a, *b"),
    S("(x := 1)"),
    S("y = (x := 1)"),
    S("f(x := 1)"),
    S("[y := f(x), y ** 2]"),
    S("if (n := len(a)) > 10:\n    pass"),
    S("while (line := f()):\n    pass"),
    S("(x := (a + b))"),
    S("[y for x in z if (y := x)]"),
    S('''
        def g():
            yield
            yield a
            yield a, b
            yield a + b
            x = yield
            x = yield a
            yield from a
            x = yield from a
            await_ = (yield) + 1
    '''),
    S('''
        async def f():
            await x
            await x.y
            (await x).y
            await (x + y)
            return await f()
    '''),
    S('''
        async def f():
            -(await x)
            (await x) ** 2
            x ** await y
    '''),
    # --- f-strings
    S("f'{x}'"),
    S("f'a{x}b{y}c'"),
    S("f'{x!r} {y!s} {z!a}'"),
    S("f'{x:>10}'"),
    S("f'{x:{width}.{precision}}'"),
    S("f'{x!r:^{w}}'"),
    S("f'{{literal}} {x}'"),
    S("f'{x + 1}'"),
    S("f'{x if y else z}'"),
    S("f'{(lambda: 1)()}'"),
    S("f'{ {1: 2}[1] }'"),
    S("f'{ {1, 2} }'"),
    S("f'{a[\"k\"]}'"),
    S("f\"{a['k']}\""),
    S("f'{x}\\n'"),
    S("f'{x}\\t{y}'"),
    S("f'it\\'s {x}'"),
    S("f'\"{x}\"'"),
    S("f'{x=}'"),
    S("f'{x=!s:>4}'"),
    S("f'{f\"{y}\"}'"),
    S("f'{\"a\" if x else \"b\"}'"),
    S("f'{x:%Y-%m-%d}'"),
    S("f''"),
    S("f'plain'"),
    S("f'{x}' 'y' f'{z}'"),
    S("f'''{x}\nnew line'''"),
    S("f'{x:{\"a\"}}'"),
    S("f'{x}' + f'{y}'"),
    S("f'{x!r}'.upper()"),
    S("f'{x:\\n}'", since=(3, 12)),
    S("f'{'nested same quotes'}'", since=(3, 12)),
    # --- simple statements
    S("pass"),
    S("x = 1"),
    S("x: int"),
    S("x: int = 1"),
    S("(x): int = 1"),
    S("a.b: int"),
    S("a[0]: List[int] = []"),
    S("x += 1"),
    S("x -= a or b"),
    S("x **= 2"),
    S("x @= y"),
    S("x //= y; x %= y; x <<= y; x >>= y; x |= y; x ^= y; x &= y; x /= y; x *= y"),
    S("del x"),
    S("del (a, b)"),
    S("del [a, b]"),
    S("assert x"),
    S("assert x, 'message'"),
    S("assert (a, b)"),
    S("raise"),
    S("raise E"),
    S("raise E('x') from None"),
    S("raise E from e"),
    S("import a"),
    S("import a.b.c"),
    S("import a as b, c.d as e"),
    S("from a import b"),
    S("from a.b import c as d, e"),
    S("from . import a"),
    S("from .. import a as b"),
    S("from ...pkg.mod import x"),
    S("from .mod import *"),
    S("from __future__ import annotations"),
    S("print(*a, sep='')"),
    # --- compound statements
    S('''
        def f():
            global a, b
            nonlocal_ = 1

        def g():
            x = 1

            def h():
                nonlocal x
                x = 2
    '''),
    S('''
        if a:
            pass
    '''),
    S('''
        if a:
            x = 1
        else:
            x = 2
    '''),
    S('''
        if a:
            x = 1
        elif b:
            x = 2
        elif c:
            x = 3
        else:
            x = 4
    '''),
    S('''
        if a:
            x = 1
        else:
            if b:
                x = 2
            y = 3
    '''),
    S('''
        if a:
            pass
        else:
            if b:
                pass
    '''),
    S('''
        while x:
            x -= 1
            if x == 3:
                break
            continue
        else:
            done()
    '''),
    S('''
        for x in y:
            pass
        else:
            pass
    '''),
    S('''
        for a, b in c:
            pass
    '''),
    S('''
        for (a, b), c in d:
            pass
    '''),
    S('''
        for x in 1, 2:
            pass
    '''),
    S('''
        for x, in y:
            pass
    '''),
    S('''
        async def f():
            async for x in y:
                pass
            else:
                pass
            async with a as b, c:
                pass
    '''),
    S('''
        with a:
            pass
    '''),
    S('''
        with a as b, c as (d, e), f:
            pass
    '''),
    S('''
        with a() as b.c, d[0] as e:
            pass
    '''),
    S('''
        try:
            pass
        except:
            pass
    '''),
    S('''
        try:
            x()
        except ValueError:
            pass
        except (TypeError, KeyError) as e:
            raise
        except Exception as e:
            raise RuntimeError from e
        else:
            y()
        finally:
            z()
    '''),
    S('''
        try:
            pass
        finally:
            pass
    '''),
    S('''
        try:
            try:
                pass
            except E:
                pass
        except F:
            pass
    '''),
    # --- functions
    S('''
        def f():
            pass
    '''),
    S('''
        def f(a, b=1, *args, c, d=2, **kwargs):
            return a
    '''),
    S('''
        def f(a, b, /, c, d=1, *, e, f=2):
            pass
    '''),
    S('''
        def f(a, b=1, /):
            pass
    '''),
    S('''
        def f(a=1, /, b=2, *, c):
            pass
    '''),
    S('''
        def f(*, a):
            pass
    '''),
    S('''
        def f(*args):
            pass
    '''),
    S('''
        def f(**kwargs):
            pass
    '''),
    S('''
        def f(a: int, b: 'str' = 'x', *args: int, c: float = 1.0, **kw: dict) -> List[int]:
            pass
    '''),
    S('''
        def f(a: int = 1, /, *, b: int) -> None:
            pass
    '''),
    S('''
        def f() -> (yield):
            pass
    '''),
    S('''
        @decorator
        def f():
            pass
    '''),
    S('''
        @a.b(c, d=e)
        @f
        async def g(x):
            return await x
    '''),
    S('''
        @x[0].y
        def f():
            pass
    ''', since=(3, 9)),
    S('''
        def outer():

            def inner():
                return 1
            return inner
    '''),
    S('''
        x = 1
        def f():
            pass
        y = 2
    '''),
    S('''
        def f():
            return
    '''),
    S('''
        def f():
            return a, b
    '''),
    S('''
        def f():
            return (yield)
    '''),
    # --- classes
    S('''
        class C:
            pass
    '''),
    S('''
        class C(A, B):
            x = 1

            def m(self):
                return self.x
    '''),
    S('''
        class C(A, metaclass=M, **kw):
            pass
    '''),
    S('''
        class C(*bases):
            pass
    '''),
    S('''
        class C():
            pass
    '''),
    S('''
        @dataclass(frozen=True)
        class Point:
            x: int
            y: int = 0

            @property
            def norm(self) -> float:
                return (self.x ** 2 + self.y ** 2) ** 0.5
    '''),
    S('''
        class Outer:

            class Inner:
                pass
    '''),
    # --- larger mixed code
    S('''
        def fib(n):
            a, b = 0, 1
            for _ in range(n):
                a, b = b, a + b
            return a
    '''),
    S('''
        def g(*a, **k):
            return {**k, 'args': [*a]}, {*a}
    '''),
    S('''
        result = [
            (i, j)
            for i in range(10)
            if i % 2
            for j in range(i)
            if j > i // 2
        ]
    '''),
    S('''
        def parse(text):
            try:
                return int(text)
            except ValueError as exc:
                raise TypeError(f'bad value {text!r}: {exc}') from exc
    '''),
    S('''
        async def main():
            async with lock:
                results = await gather(*[fetch(u) for u in urls])
            return {u: r for u, r in zip(urls, results) if r is not None}
    '''),
    S('''
        x = a if not b else -c
        y = not -a
        z = -a if b else ~c
    '''),
    S('''
        def f(x=lambda: 1, y=(yield)):
            pass
    '''),
    S("x = a[1:2], b[::-1]"),
    S("x = {'a': [1, (2, 3), {4}], 'b': {'c': None}}"),
    S("print(f'{a!r}, {b:.2f}, {c:>{w}}', end='')"),
    S("x = a.b(c)[d:e].f(*g, **h).i"),
    S("assert isinstance(x, (int, float)), f'got {type(x).__name__}'"),
    S("x = (a for b in c), [d for e in f]"),
    S("x = not a in b"),
    S("x = (not a) in b"),
    S("x = a is not (not b)"),
    S("x = 2 ** -1 * -3"),
    S("x = -2 ** 2"),
    S("x = (-2) ** 2"),
    S("x = a ** (b ** c) ** d"),
    S("x = a + (b if c else d)"),
    S("x = (a, *b, c)"),
    S("x = [*range(3)], {**{}}"),
    S("x = (yield)"),
]

IDS = ["%03d" % i for i in range(len(CORPUS))]


def _supported(since):
    if sys.version_info[:2] < since:
        pytest.skip("syntax needs Python %d.%d" % since)


def _dump(tree):
    return ast.dump(tree)


def test_corpus_size():
    assert len(CORPUS) >= 150
    assert len(set(src for src, _ in CORPUS)) == len(CORPUS)


@pytest.mark.parametrize("src,since", CORPUS, ids=IDS)
def test_round_trip(src, since):
    _supported(since)
    tree = ast.parse(src)
    text = unparse(tree)
    assert _dump(ast.parse(text)) == _dump(tree), text


@pytest.mark.skipif(not HAVE_AST_UNPARSE, reason="ast.unparse needs 3.9+")
@pytest.mark.parametrize("src,since", CORPUS, ids=IDS)
def test_same_text_as_ast_unparse(src, since):
    _supported(since)
    tree = ast.parse(src)
    assert _same_text(unparse(tree), ast.unparse(ast.parse(src)))


@pytest.mark.parametrize("src,since", CORPUS, ids=IDS)
def test_statements_and_expressions_alone(src, since):
    """Unparsing a single statement or expression (not a module)."""
    _supported(since)
    for stmt in ast.parse(src).body:
        text = unparse(stmt)
        assert _dump(ast.parse(text).body[0]) == _dump(stmt), text
        if HAVE_AST_UNPARSE:
            assert _same_text(text, ast.unparse(stmt))
        if isinstance(stmt, ast.Expr):
            text = unparse(stmt.value)
            if HAVE_AST_UNPARSE:
                assert _same_text(text, ast.unparse(stmt.value))


# --- 3.8 tree shapes: Index / ExtSlice built by hand work on every version.

def _index_node(value):
    return ast.Index(value=value) if sys.version_info < (3, 9) else value


def test_hand_built_subscripts():
    name = ast.Name(id="a", ctx=ast.Load())
    one = ast.Constant(value=1)
    two = ast.Constant(value=2)
    span = ast.Slice(lower=one, upper=two, step=None)
    cases = [
        (_index_node(one), "a[1]"),
        (_index_node(ast.Tuple(elts=[one, two], ctx=ast.Load())), "a[1, 2]"),
        (_index_node(ast.Tuple(elts=[], ctx=ast.Load())), "a[()]"),
        (span, "a[1:2]"),
    ]
    if sys.version_info < (3, 9):
        cases.append((ast.ExtSlice(dims=[span, ast.Index(value=two)]), "a[1:2, 2]"))
        cases.append((ast.ExtSlice(dims=[span]), "a[1:2,]"))
    for index, expected in cases:
        node = ast.Subscript(value=name, slice=index, ctx=ast.Load())
        assert unparse(node) == expected


def test_hand_built_constants_without_kind():
    # Constants made by the decompiler carry no ``kind`` on 3.8.
    assert unparse(ast.Constant(value="x")) == "'x'"
    assert unparse(ast.Constant(value=(1, "a"))) == "(1, 'a')"
    assert unparse(ast.Constant(value=(1,))) == "(1,)"
    assert unparse(ast.Constant(value=float("inf"))) == "1e309"
    assert unparse(ast.Constant(value=-float("inf"))) == "-1e309"
    assert unparse(ast.Constant(value=float("nan"))) == "(1e309-1e309)"
    assert unparse(ast.Constant(value=Ellipsis)) == "..."


def test_flavours():
    tree = ast.parse("a, b = lambda: c, d[(*e, f)]")
    assert unparse(tree, flavour=(3, 9)) == "(a, b) = (lambda : c, d[(*e, f)])"
    assert unparse(tree, flavour=(3, 11)) == "a, b = (lambda: c, d[*e, f])"
    # The default on 3.8 is 3.11's layout, in 3.8 syntax.
    assert unparse(tree, flavour=(3, 8)) == "a, b = (lambda: c, d[(*e, f)])"


# --- every function of a few stdlib modules

# (None of these uses match statements, which 3.8 has no nodes for.)
STDLIB_MODULES = ["textwrap", "colorsys", "json.decoder", "argparse",
                  "string", "ast", "tokenize", "configparser", "calendar",
                  "fractions", "difflib", "inspect", "functools", "pprint",
                  "shlex", "email.utils"]


def _functions(module_name):
    module = __import__(module_name, fromlist=["_"])
    tree = ast.parse(inspect.getsource(module))
    return [node for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("module_name", STDLIB_MODULES)
def test_stdlib_functions_round_trip(module_name):
    functions = _functions(module_name)
    assert functions
    for function in functions:
        text = unparse(function)
        again = ast.parse(text).body[0]
        assert _dump(again) == _dump(function), (function.name, text)
        if HAVE_AST_UNPARSE:
            assert _same_text(text, ast.unparse(function)), function.name


@pytest.mark.parametrize("module_name", STDLIB_MODULES)
def test_stdlib_module_round_trip(module_name):
    module = __import__(module_name, fromlist=["_"])
    tree = ast.parse(inspect.getsource(module))
    text = unparse(tree)
    assert _dump(ast.parse(text)) == _dump(tree)
    if HAVE_AST_UNPARSE:
        assert _same_text(text, ast.unparse(tree))
