"""Facts about ``with`` statements (see withs.py): the inline exit call
``__exit__(None, None, None)`` and what follows it, which handler is a with statement's, the
range a handler covers (:func:`covered_by`, :func:`handler_chain`), and comparing two runs of code
for being the same (:func:`same_code`, shared by the <=3.10 block-stack code). Nothing here walks.
"""
import ast

from .. import values as V
from ..versions import COPIES_EXIT_BLOCKS
from .regions import END
from .statement_parts import continue_to
from .jumps import legacy_key, await_end, same_copied_return, same_place, thread


def with_exit_call_at(w, index, frame):
    """Whether ``__exit__(None, None, None)`` of a with statement whose
    exit is on ``frame``'s stack is called at ``index`` (after the ``SWAP
    2`` that puts a returned value below it: ``return x`` in an except
    clause, whose ``POP_EXCEPT`` ends the clause's range, 3.11+)."""
    if index < w.n and (w.instrs[index].op, w.instrs[index].arg) == ("SWAP", 2):
        index += 1
    ins = w.instrs[index:index + 4]
    return (len(ins) == 4 and all((x.op, x.arg) == ("LOAD_CONST", None) for x in ins[:3])
            and ins[3].op == "CALL" and any(isinstance(v, V.WithExit) for v in frame.stack))


def constant_returned_from_with(w, ex, body, frame, handler):
    """When the with body that left for ``ex`` (walked in ``body``; the
    statement began on ``frame``) ends in ``return <constant>`` (a bare
    ``return``: None), the index of that constant's LOAD_CONST; else None.
    The body's way out calls this ``__exit__`` and the enclosing with
    statements', then returns the constant, while an exception
    ``__exit__`` swallows goes on elsewhere. (A body that just ends goes
    on, either way, at one place or in copies of one return.)"""
    if ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1:
        return None
    k = after_exit_call(w, ex.target)
    after = after_suppressed(w, handler)
    if k is None or after is None or k == after or same_copied_return(w, k, after):
        return None
    while after_exit_call(w, k) is not None:
        k = after_exit_call(w, k)
    if k + 1 < w.n and w.instrs[k].op == "LOAD_CONST" and w.instrs[k + 1].op == "RETURN_VALUE":
        return k
    return None


def jumped_out_through_exit(w, ex, body, frame, handler, region, loop):
    """``ex``, or END after the ``break``/``continue`` that ends the with body (walked
    in ``body``; the statement began on ``frame``): its way out calls ``__exit__``,
    then goes elsewhere than an exception ``__exit__`` swallows does (which goes on
    after the statement, where a body that just ends goes too)."""
    if ex.kind != "leave" or len(body.stack) != len(frame.stack) - 1 or loop is None:
        return ex
    k = after_exit_call(w, ex.target)
    after = after_suppressed(w, handler)
    if k is None or after is None or same_place(w, k, after):
        return ex
    below = len(body.stack) - 2  # what lies below the exits called on the way
    while after_exit_call(w, k) is not None and below >= 0 and isinstance(body.stack[below], V.WithExit):
        k = after_exit_call(w, k)  # (``with a, b: break`` calls b's exit, then a's)
        below -= 1
    t, pops = thread(w, k)
    if (t == k and w.instrs[k].op == "POP_TOP" and below >= 0
            and isinstance(body.stack[below], V.Iterator)):
        t, pops = k + 1, True  # a for loop's ``break`` drops the iterator
    if t in loop.continue_targets and not region(t) and not pops:
        body.emit(continue_to(t, loop))
    elif loop.break_target is not None and not region(t) and (t == loop.break_target or (
            COPIES_EXIT_BLOCKS and same_code(w, t, loop.break_target))):
        body.emit(ast.Break())  # (3.10+ copies a small exit block into the ``break``)
    else:
        return ex
    return END


def after_exit_call(w, index):
    """The index after ``__exit__(None, None, None)`` called at ``index``
    and its result dropped (awaited first: an async with), or None."""
    ins = w.instrs
    if not (index + 4 < w.n and all((x.op, x.arg) == ("LOAD_CONST", None) for x in ins[index:index + 3])
            and ins[index + 3].op == "CALL"):
        return None
    k = index + 4
    if ins[k].op == "GET_AWAITABLE":
        k = await_end(w, k)
    return k + 1 if k is not None and k < w.n and ins[k].op == "POP_TOP" else None


def returned_through_with_exits(w, exit_, frame, depth):
    """``exit_``, or END after emitting ``return <value>`` into ``frame`` when control
    leaves with one value more than ``depth`` on the stack into the exit calls of
    enclosing with statements followed by the return (``return x`` in a try's else
    clause inside a with statement, 3.11+)."""
    if (exit_.kind == "leave" and len(frame.stack) == depth + 1 and exit_.target < w.n
            and w.instrs[exit_.target].op == "SWAP"
            and returns_through_with_exits(w, exit_.target, frame)):
        frame.emit(ast.Return(value=frame.pop_expr()))
        return END
    return exit_


def returns_through_with_exits(w, index, frame):
    """Whether control at ``index`` returns the value on top of ``frame``'s stack,
    at once or after calling ``__exit__(None, None, None)`` of the with statements
    whose exits lie right below that value: ``return x`` inside nested with
    statements (3.11+) swaps the value above each exit in turn, calls it, returns."""
    ins, k, below = w.instrs, index, len(frame.stack) - 2
    while (k + 5 < w.n and (ins[k].op, ins[k].arg) == ("SWAP", 2) and below >= 0
           and isinstance(frame.stack[below], V.WithExit) and with_exit_call_at(w, k + 1, frame)):
        after = k + 5  # past the call
        if frame.stack[below].is_async:  # ``__aexit__``'s result is awaited
            after = await_end(w, after) if ins[after].op == "GET_AWAITABLE" else None
        if after is None or after >= w.n or ins[after].op != "POP_TOP":
            return False
        k, below = after + 1, below - 1
    while (k + 2 < w.n and (ins[k].op, ins[k].arg) == ("SWAP", 2) and ins[k + 1].op == "POP_TOP"
           and below >= 0 and isinstance(frame.stack[below], V.Iterator)):
        k, below = k + 2, below - 1  # (inside for loops: their iterators are dropped too)
    return k < w.n and ins[k].op == "RETURN_VALUE"


def is_with_handler(w, handler):
    """Whether ``handler`` is a with statement's (3.9+: it calls
    ``__exit__`` with the exception first)."""
    ins = w.instrs
    k = handler + 1 if handler < w.n and ins[handler].op == "PUSH_EXC_INFO" else handler
    return k < w.n and ins[k].op == "WITH_EXCEPT_START"


def after_suppressed(w, handler):
    """Where control goes when the with block's ``__exit__`` (handler at
    ``handler``) returns true: after its pops, or where its jump goes."""
    ins = w.instrs
    k = handler
    while k < w.n and ins[k].op != "WITH_EXCEPT_START":
        k += 1
    k += 1
    if k < w.n and ins[k].op == "GET_AWAITABLE":  # async with: __aexit__'s result awaited
        k = await_end(w, k)
        if k is None:
            return None
    if k >= w.n or ins[k].op != "POP_JUMP_IF_TRUE":
        return None
    k = ins[k].target
    while k < w.n and ins[k].op in ("POP_TOP", "POP_EXCEPT"):
        k += 1
    if k < w.n and ins[k].op == "JUMP":
        k = ins[k].target
    return k if k < w.n else None


def covered_by(w, i, handler):
    """Whether the block at ``i`` lies in ``handler``'s protected range, directly or
    inside a nested try: whether ``handler`` is on the chain of handlers from the block's
    own (a handler's code is covered by the try around it)."""
    b = w.cfg.at(i)
    return b is not None and b.handler is not None and handler in handler_chain(w, b.handler)


def handler_chain(w, h):
    """``h`` and the handlers of the handlers after it, as a set. Every enclosing try's
    region asks for each of its blocks: built once per handler, from the outer chain's
    set (deep nested tries would otherwise walk the chain again at each level)."""
    known = w._handler_chains.get(h)
    if known is not None:
        return known
    walked, seen = [], set()
    while h is not None and h not in seen and h not in w._handler_chains:
        walked.append(h)
        seen.add(h)
        hb = w.cfg.at(h)
        h = hb.handler if hb else None
    if h in seen:  # a chain that comes back on itself (corrupt input): kept for its start only
        return frozenset(walked)
    chain = w._handler_chains.get(h, frozenset())
    for h in reversed(walked):
        chain = w._handler_chains[h] = chain | {h}
    return chain


def legacy_same_place(w, a, b):
    """Control at ``a`` and at ``b`` goes on in the same code."""
    if a == b:
        return True
    ka = legacy_key(w, a)
    return isinstance(ka, tuple) and ka == legacy_key(w, b)


def same_code(w, a, b):
    """Whether control at ``a`` and at ``b`` runs the same code (a
    ``return``/``raise`` block and its copies, see :func:`legacy_key`)."""
    return isinstance(a, int) and isinstance(b, int) and (
        legacy_same_place(w, a, b) or _same_run_to_jump(w, a, b))


def _same_run_to_jump(w, a, b, limit=8):
    """Whether the code at ``a`` and at ``b`` is the same short straight
    run, under the same handlers, ending in a jump to the same place:
    3.12+ copies an except clause's exit (``POP_EXCEPT; JUMP``) into each
    path that leaves the clause, a chained comparison's cleanup too."""
    ins = w.instrs
    for _ in range(limit):
        if a >= w.n or b >= w.n:
            return False
        x, y = ins[a], ins[b]
        if x.op != y.op or w.cfg.containing(a).handler != w.cfg.containing(b).handler:
            return False
        if x.op == "JUMP":
            return x.target == y.target
        if x.arg != y.arg or x.target != y.target:
            return False
        if x.target is not None or x.op in ("YIELD_VALUE", "YIELD_FROM", "RETURN_VALUE",
                                            "RAISE_VARARGS", "RERAISE"):
            return False  # (a return or raise is legacy_key's to compare)
        a, b = a + 1, b + 1
    return False
