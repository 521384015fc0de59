"""Stack steps: ``POP_TOP`` (a value dropped: an expression statement, or nothing when it
has no effect), ``COPY``, ``SWAP``, ``ROT``; where Dynamo's code computes a value once and
uses it twice, or moves values with effects across each other, they are saved in
temporaries in the order the bytecode computed them.
"""
import ast

from . import values as V
from .errors import DecompilationError
from .expr_effects import has_effects, inert, is_droppable, is_pure, pending_walrus
from .expr_stores import fill_dead_store, fill_overwritten_store
from .stack_effects import is_walrus_store


def _pop_top(f, ins):
    v = f.pop(ins)
    if v is V.NULL or isinstance(v, (V.Iterator, V.WithExit, V.Exception_, V.WithEnter, V.ImportedName)):
        return
    if isinstance(v, V.Stored):
        # ``(x := value)`` as a statement: the assignment already emitted is it
        return
    if isinstance(v, V.Import):
        return  # end of ``from m import a, b``
    if isinstance(v, V.InPlace):
        raise DecompilationError("in-place result discarded", f.ctx.name, ins.offset, ins.op)
    if isinstance(v, V.UnpackSlot) and fill_dead_store(f, v, ins):
        return
    if fill_overwritten_store(f, v, ins):
        return
    discard(f, v, ins)


def discard(f, v, ins, seen=None):
    """Drop ``v``: a value with no effect leaves no statement (nothing to
    say); parts of it that have effects (a call inside a list Dynamo built)
    still run, in order."""
    if isinstance(v, V.SymList):
        seen = seen or set()
        if id(v) in seen or any(x is v for x in f.stack):
            return  # still referenced elsewhere
        seen.add(id(v))
        for x in v.elts:
            discard(f, x.value if isinstance(x, ast.Starred) else x, ins, seen)
        return
    if isinstance(v, ast.expr) and (is_pure(v) or is_droppable(v) and f.ctx.dynamo):
        return
    f.emit(ast.Expr(value=f.expr(v, ins)))


def _copy(f, ins):
    if len(f.stack) < ins.arg:
        raise DecompilationError("stack underflow", f.ctx.name, ins.offset, ins.op)
    value = f.stack[-ins.arg]
    if f.ctx.dynamo and isinstance(value, ast.expr) and not inert(value, f.ctx.cells) \
            and not _walrus_next(f, ins):
        # Dynamo's code computes a value once and uses it twice (``Random(3)`` for its
        # ``setstate`` and its ``gauss``): the text computes it once, into a temporary.
        # (Ordinary code copies only in shapes the structurer reads whole.)
        f.save_below(value)
        value = f.spill_all(value)
    f.push(value)


def _walrus_next(f, ins) -> bool:
    """Whether ``ins`` (a COPY) and the next instruction are a walrus: ``(name := value)``."""
    instrs = f.ctx.instrs
    return ins is not None and instrs is not None and ins.index + 1 < len(instrs) \
        and is_walrus_store(instrs, ins.index + 1)


def _keep_order(f, n):
    """Dynamo's code moves values across each other with SWAP/ROT (a resume function made after
    the call whose result it takes). Source evaluates the values in their new order, so when two
    of the moved values have effects they are first saved, in the order the bytecode computed
    them. (Ordinary code moves values this way only in shapes the structurer reads whole.)"""
    if not f.ctx.dynamo or len(f.stack) < n:
        return
    moved = range(len(f.stack) - n, len(f.stack))
    effects = [k for k in moved if has_effects(f.stack[k]) or pending_walrus(f.stack[k], f.ctx.cells)]
    if len(effects) >= 2:
        f.save_in_order(effects)


def _swap(f, ins):
    n = ins.arg
    s = f.stack
    if len(s) < n:
        raise DecompilationError("stack underflow", f.ctx.name, ins.offset, ins.op)
    _keep_order(f, n)
    s[-1], s[-n] = s[-n], s[-1]


def _rot(f, ins):
    n = ins.arg
    _keep_order(f, n)
    top = f.stack.pop()
    f.stack.insert(len(f.stack) - (n - 1), top)


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "POP_TOP": _pop_top,
    "COPY": _copy,
    "SWAP": _swap,
    "ROT": _rot,
}
