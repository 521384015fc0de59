"""Structuring of ``await``, ``async for``, ``async with``, ``yield from``
and async generators, on every version (``YIELD_FROM`` on <=3.10, ``SEND``
loops with ``END_SEND``/``CLEANUP_THROW`` handlers on 3.11+).

The walk (walk.block) calls :func:`async_op` for the instructions in ``ASYNC_OPS``;
loops.loop_at asks jumps.async_for_header for every loop header it does not know and
structures an ``async for`` with loops.async_for_loop; what these ask about the code is in
async_facts.py.

How the constructs are laid out:

* ``await x`` / ``yield from x``: ``GET_AWAITABLE`` (``GET_YIELD_FROM_ITER``);
  ``LOAD_CONST None``; then ``YIELD_FROM`` (<=3.10) or a delegation loop
  (3.11+)::

      L: SEND X; YIELD_VALUE; JUMP L; [CLEANUP_THROW]; X: [END_SEND]

  whose ``YIELD_VALUE`` is covered by a ``CLEANUP_THROW; JUMP X`` handler
  (3.12+). The whole sequence is one expression: it is folded into an
  ``ast.Await`` / ``ast.YieldFrom`` and the walk goes on after it, so the
  walker never sees the loop's back edge.
* ``async for``: ``GET_AITER`` (the iterator, a ``V.Iterator(is_async)``
  marker), then the loop header ``H``::

      H: SETUP_FINALLY E; GET_ANEXT; <await>; POP_BLOCK; <target>; body; JUMP H
      E: END_ASYNC_FOR                                            (<=3.10)
      H: GET_ANEXT; <await>; <target>; body; JUMP H    (3.11+, E handles H..)

  The loop ends by ``StopAsyncIteration`` reaching ``E``; ``E`` is the
  loop's normal exit and its ``END_ASYNC_FOR`` a no-op for the walk.
* ``async with``: ``BEFORE_ASYNC_WITH``; ``<await>`` (of ``__aenter__``);
  then as ``with`` (3.11+: :func:`.withs.with_`; <=3.10: the
  ``SETUP_ASYNC_WITH`` block in :mod:`.legacy`). The exit call
  ``__aexit__(None, None, None)`` is awaited: an await of the exit call's
  result marker keeps the marker.
"""
import ast

from .. import values as V
from ..stream import Instr
from .state import fail
from .jumps import await_end
from ..expr_generators import async_comprehension
from .async_facts import async_continue, async_state, resumes_in_place
from .withs import with_


def _fold_await(w, ins, frame, region, loop, node_t):
    end = await_end(w, ins.index)
    if end is None:
        fail(w, "unrecognised %s" % ("await" if node_t is ast.Await else "yield from"),
                  ins.index)
    v = frame.pop(ins)
    if v is V.NULL and node_t is ast.Await:
        # the result of an ``async with``'s exit call, awaited and dropped
        frame.push(V.NULL)
    elif node_t is ast.Await and async_comprehension(v):
        # calling an async list/set/dict comprehension's function makes
        # a coroutine, awaited right away: the source has no ``await``
        frame.push(v)
    else:
        frame.push(node_t(value=frame.expr(v, ins)))
    if resumes_in_place(w, ins.index, end):
        # the code after the SEND loop goes on with the same statement:
        # run it as the rest of this block (not a place the walk comes to)
        return w.block(w.cfg.containing(end), frame, region, loop, start=end)
    return _go_on(w, end, frame, region, loop)


def _go_on(w, k, frame, region, loop):
    """Continue at ``k``, after a construct folded in the middle of a
    block (<=3.10: after YIELD_FROM or the await of ``__aenter__``): the
    rest of that block. Left to the walk, ``k`` would count as a place
    of the block's start, outside the region when the block heads the
    loop whose body is walked."""
    if k < w.n and w.cfg.at(k) is None:
        return w.block(w.cfg.containing(k), frame, region, loop, start=k)
    return async_continue(w, k)


def async_op(w, ins, frame, region, loop):
    """Structure the construct that starts at ``ins``; return the index
    where control continues, or an ``Exit``."""
    op = ins.op
    if op == "GET_AWAITABLE":
        return _fold_await(w, ins, frame, region, loop, ast.Await)
    if op == "GET_YIELD_FROM_ITER":
        return _fold_await(w, ins, frame, region, loop, ast.YieldFrom)
    if op == "BEFORE_ASYNC_WITH":
        return _async_with(w, ins, frame, region, loop)
    if op == "END_ASYNC_FOR":
        if ins.index not in async_state(w):
            fail(w, "END_ASYNC_FOR outside an async for loop", ins.index)
        # the loop's normal exit: the iterator is already gone
        return async_continue(w, ins.index + 1)
    fail(w, "unexpected %s" % op, ins.index)


def _async_with(w, ins, frame, region, loop):
    k = ins.index
    if k + 1 < w.n and w.instrs[k + 1].op == "GET_AWAITABLE":
        end = await_end(w, k + 1)
    else:
        end = None
    if end is None:
        fail(w, "async with without the await of __aenter__", k)
    if end < w.n and w.instrs[end].op == "SETUP_ASYNC_WITH":
        # <=3.10: the block stack construct (legacy.py)
        special = w.special.get("BEFORE_ASYNC_WITH")
        if special is None:
            fail(w, "unsupported async with", k)
        r = special(w, ins, frame, region, loop)
        return _go_on(w, r if r is not None else k + 1, frame, region, loop)
    # 3.11+: a with statement whose body starts after the await
    proxy = Instr(ins.op, ins.arg, ins.offset, ins.line)
    proxy.index = end - 1
    return with_(w, proxy, frame, region, loop)
