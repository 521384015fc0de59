"""Iterators, ``await`` and ``yield``: ``GET_ITER``/``GET_AITER`` (a loop's iterator, a
comprehension's ``.0``), an await, a yield and a yield from. The loops around them
(``FOR_ITER``, an await's ``SEND`` loop) are the structurer's.
"""
import ast

from . import values as V
from .expr_subscripts import none_or


def async_comprehension(node):
    """Whether ``node`` is a list/set/dict comprehension that is itself
    asynchronous (an ``async for`` or an ``await`` anywhere in it but in
    the outermost iterable, which runs outside its scope)."""
    if not isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)):
        return False
    parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for k, g in enumerate(node.generators):
        if g.is_async:
            return True
        parts.append(g.target)
        parts.extend(g.ifs)
        if k:
            parts.append(g.iter)
    return any(isinstance(x, ast.Await) or isinstance(x, ast.comprehension) and x.is_async
               for p in parts for x in ast.walk(p))


def _get_iter(f, ins):
    v = f.pop(ins)
    if isinstance(v, V.Iterator):
        f.push(v)
        return
    f.push(V.Iterator(f.expr(v, ins)))


def _get_aiter(f, ins):
    f.push(V.Iterator(f.pop_expr(ins), is_async=True))


def _await(f, ins):
    # GET_AWAITABLE; LOAD_CONST None; YIELD_FROM/SEND... -> the structurer
    # sees GET_AWAITABLE and folds the loop that follows.
    node = ast.Await(value=f.pop_expr(ins))
    # (<=3.10, run here in an operand of ``and``/``or``: calling an async comprehension's
    # function makes a coroutine awaited right away, an await the source does not write)
    node._implicit = async_comprehension(node.value)
    f.push(node)


def _yield_value(f, ins):
    v = f.pop(ins)
    # (an await's own YIELD_VALUE never gets here: asyncs.py folds the
    # whole SEND loop; ``yield await x`` is a real yield of the result)
    f.push(ast.Yield(value=none_or(f.expr(v, ins))))


def _yield_from(f, ins):
    f.pop(ins)  # the None sent in
    v = f.pop_expr(ins)
    if isinstance(v, ast.Await):
        f.push(v.value if getattr(v, "_implicit", False) else v)
    else:
        f.push(ast.YieldFrom(value=v))


def _get_yield_from_iter(f, ins):
    pass


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "GET_ITER": _get_iter,
    "GET_AITER": _get_aiter,
    "GET_AWAITABLE": _await,
    "YIELD_VALUE": _yield_value,
    "YIELD_FROM": _yield_from,
    "GET_YIELD_FROM_ITER": _get_yield_from_iter,
}
