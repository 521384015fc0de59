"""3.12+ inlined comprehensions (PEP 709): ``LOAD_FAST_AND_CLEAR`` saves the
loop variables, the comprehension runs in the function's own frame, and the
saved values are restored after it.

The walk (walk.block) calls :func:`inlined_comprehension` at a ``LOAD_FAST_AND_CLEAR``.

The layout the compiler produces (3.12 and 3.13; 3.15 and 3.13.x later patch releases get
the iterator, or get it again, after the ``SWAP 2`` that puts the iterable on top)::

    <outer iterable>; GET_ITER
    LOAD_FAST_AND_CLEAR a; [MAKE_CELL a]; LOAD_FAST_AND_CLEAR b ...   save
    SWAP n+1; BUILD_LIST|BUILD_SET|BUILD_MAP 0; SWAP 2                 result below the iterator
    H: FOR_ITER E ... LIST_APPEND|SET_ADD|MAP_ADD ... JUMP H            the loop, nested loops, ifs
    E: END_FOR [POP_TOP]
    SWAP n+1; STORE_FAST b; STORE_FAST a                                restore

An async comprehension (``GET_AITER`` for the iterator) has an ``async for``
loop instead: ``H: GET_ANEXT; <await> ... JUMP H`` with ``E: END_ASYNC_FOR``
where ``StopAsyncIteration`` ends it (asyncs.py, loops.py).

There is an exception-table entry from the BUILD_* to ``E`` whose handler (placed
at the end of the code) restores the names and re-raises; it starts with
``SWAP``, not ``PUSH_EXC_INFO``, so the structurer classifies it as compiler
cleanup and never makes a ``try`` of it.  The restore may be reordered with
the instruction that consumes the result (3.12's static swap elimination
turns ``SWAP 2; STORE_FAST x; STORE_FAST a`` into ``STORE_FAST a;
STORE_FAST x``), so the restore is followed symbolically: the saved values
are :class:`Saved` markers on the stack, and a store of a marker into its
own name is the restore and produces nothing.
"""
import ast

from .. import expressions as E
from .. import values as V
from ..cleanup import tidy
from ..function import comprehension, comprehension_parts
from .state import fail
from .jumps import is_loop_header
from .loops import loop_at


_KIND = {"BUILD_LIST": ("<listcomp>", "list"), "BUILD_SET": ("<setcomp>", "set"),
         "BUILD_MAP": ("<dictcomp>", "map")}


_STORE_OPS = ("STORE_FAST", "STORE_DEREF", "STORE_NAME")


_LOOP_HEADS = ("FOR_ITER", "GET_ANEXT")  # a for, an async for


_LOOPS = (ast.For, ast.AsyncFor)


class Saved(V.Marker):
    """The value of ``name`` saved by LOAD_FAST_AND_CLEAR before an inlined
    comprehension, waiting to be stored back."""

    def __init__(self, name):
        self.name = name


class Result(V.Marker):
    """The empty list/set/dict an inlined comprehension fills."""

    def __init__(self, op):
        self.op = op


def inlined_comprehension(w, ins, frame, region, loop, rest=True):
    """Fold the inlined comprehension starting at ``ins`` (its first
    LOAD_FAST_AND_CLEAR, or its ``BUILD_X 0`` when it saves no name) into
    one expression on ``frame``'s stack; return the index after it
    (with ``rest``, having run the rest of the block it ends in)."""
    instrs = w.instrs
    k = ins.index
    base = len(frame.stack)
    saved = []
    result = None
    # -- prologue: save, build the empty result, put the iterator on top
    while k < w.n and instrs[k].op not in _LOOP_HEADS:
        cur = instrs[k]
        if cur.op == "LOAD_FAST_AND_CLEAR" and result is None:
            marker = Saved(cur.arg)
            saved.append(marker)
            frame.push(marker)
        elif cur.op == "SWAP":
            if len(frame.stack) < cur.arg:
                fail(w, "inlined comprehension: stack underflow", k)
            E.execute(frame, cur)
        elif cur.op in ("GET_ITER", "GET_AITER") and result is not None:
            # 3.15 (and later 3.13 patch releases: again) gets the iterator here, after
            # the result is built, instead of (as well as) before the names are saved
            E.execute(frame, cur)
        elif cur.op in _KIND and cur.arg == 0 and result is None and (saved or k == ins.index):
            # (entered at the BUILD itself: a comprehension whose targets
            # are all attributes or subscripts saves no name)
            result = Result(cur.op)
            frame.push(result)
        else:
            fail(w, "inlined comprehension: unexpected prologue", k)
        k += 1
    if (result is None or k >= w.n or len(frame.stack) < base + 1
            or not isinstance(frame.stack[-1], V.Iterator)
            or frame.stack[-2] is not result):
        fail(w, "inlined comprehension: unrecognised prologue", ins.index)
    if frame.stack[-1].is_async != (instrs[k].op == "GET_ANEXT"):
        fail(w, "inlined comprehension: loop does not match the iterator", k)
    header = w.cfg.at(k)
    if header is None or not is_loop_header(w, header) or header.start in w.active_loops:
        fail(w, "inlined comprehension without its loop", k)
    # -- the loop, structured on its own into a for statement
    # The loop sees only its result and iterator: what lies below on the
    # stack belongs to the enclosing expression, which the comprehension
    # (a scope of its own in the source) cannot touch.
    sub = frame.copy()
    sub.stack = frame.stack[-2:]
    sub.stmts = []
    sub.pending = []
    follow = loop_at(w, header, sub, None)
    if follow is None:
        fail(w, "inlined comprehension loop never ends", k)
    kind_name, elt_kind = _KIND[result.op]
    stmts = _drop_tail_continues(tidy(sub.stmts))
    if len(stmts) != 1 or not isinstance(stmts[0], _LOOPS) or stmts[0].orelse:
        fail(w, "inlined comprehension: unrecognised loop", k)
    elt = comprehension_parts(kind_name, stmts)[1]
    if elt is not None and elt.kind != elt_kind:
        fail(w, "inlined comprehension: element does not match the result", k)
    if len(sub.stack) != 1 or sub.stack[0] is not result:
        fail(w, "inlined comprehension: result lost", follow)
    node = comprehension(kind_name, stmts, None)
    del frame.stack[-2:]
    frame.push(node)
    # -- restore: follow the stores of the saved values
    k = follow
    while any(isinstance(v, Saved) and v in saved for v in frame.stack):
        if k >= w.n:
            fail(w, "inlined comprehension: restore not found", follow)
        cur = instrs[k]
        if cur.op == "JUMP" and cur.target > k:
            # the cleanup handler placed between the loop and the restore
            k = cur.target
            continue
        if cur.op == "END_ASYNC_FOR" and k == follow:
            k += 1  # an async loop's exit: the iterator is already gone
            continue
        if cur.target is not None or cur.op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE",
                                              "LOAD_FAST_AND_CLEAR", "YIELD_VALUE"):
            fail(w, "inlined comprehension: control flow before the restore", k)
        top = frame.stack[-1] if frame.stack else None
        if isinstance(top, Saved) and cur.op != "SWAP":
            if cur.op not in _STORE_OPS or cur.arg != top.name or top not in saved:
                fail(w, "inlined comprehension: unexpected restore", k)
            frame.stack.pop()
        elif cur.op in ("SWAP", "COPY", "POP_TOP") or cur.op.startswith(("STORE_", "LOAD_")):
            if cur.op == "COPY" and isinstance(frame.stack[-cur.arg], Saved):
                fail(w, "inlined comprehension: saved value copied", k)
            if cur.op == "POP_TOP" and isinstance(top, V.Marker):
                fail(w, "inlined comprehension: unexpected pop", k)
            E.execute(frame, cur)
        else:
            fail(w, "inlined comprehension: unexpected instruction in the restore", k)
        k += 1
    if len(frame.stack) < base - 1:
        fail(w, "inlined comprehension: stack underflow", k)
    if rest and k < w.n and w.cfg.at(k) is None:
        # the rest of the block, so that callers get a block start
        # (or an exit) as from any other block
        return w.block(w.cfg.containing(k), frame, region, loop, start=k)
    return k


def _drop_tail_continues(stmts):
    """In a comprehension's loop nest a ``continue`` at the end of a loop
    body or of an ``if`` that ends one changes nothing: drop it (the walker
    writes the jump back to the loop header that way)."""
    out = list(stmts)
    while out and isinstance(out[-1], ast.Continue):
        out.pop()
    if out and isinstance(out[-1], _LOOPS + (ast.If,)):
        last = out[-1]
        last.body = _drop_tail_continues(last.body)
        if isinstance(last, ast.If):
            last.orelse = _drop_tail_continues(last.orelse)
    return out
