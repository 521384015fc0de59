"""Facts about the <=3.10 block-stack constructs (see legacy.py): the stack
entries a handler finds (:class:`SavedExc`, :class:`ExcPart`, :class:`Fin`, :class:`Pad`), the
``SETUP_*`` blocks met so far (``_Block``), the normal exit of a protected body, and the copies of
a finally body on each way out of it (3.9, 3.10), matched against the handler's copy. Nothing
here walks.
"""
import ast
from functools import partial

from .. import expressions as E
from .. import values as V
from .regions import END, Exit
from .state import dominated_by, fail
from .jumps import follow_jumps, legacy_key
from .with_facts import legacy_same_place


class SavedExc(V.Exception_):
    """One of the three saved ``exc_info`` entries under a handler;
    ``POP_EXCEPT`` drops all three."""


class ExcPart(V.Exception_):
    """Traceback, value or type of the exception a handler runs for."""


class Fin(V.Exception_):
    """What a 3.8 finally body finds on the stack: NULL (``BEGIN_FINALLY``),
    the exception, or ``CALL_FINALLY``'s return address. ``stop``: its
    ``END_FINALLY`` ends the finally body being decompiled."""

    def __init__(self, stop=False):
        self.stop = stop


class Pad(V.Exception_):
    """3.8: the ``None`` pushed under a finally body that may leave early."""


class _Block:
    """One SETUP_* construct being structured."""

    def __init__(self, kind, setup, handler, depth):
        self.kind = kind  # "try", "finally", "with", "cleanup"
        self.setup = setup
        self.handler = handler
        self.depth = depth
        self.normal = set()  # POP_BLOCK indices of the normal exit
        self.copies = {}  # 3.9/3.10 finally: copy start -> index after it
        self.dead = frozenset()  # 3.9/3.10 finally: starts of copies that never complete
        self.inline_exit = False  # 3.9/3.10 with: __exit__ called inline


_WITH_ENTER = "__with_enter__"


#: in the pattern of a finally body (see ``legacy_copies``): a branch ends
_END_OF_COPY = object()


STORES = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")


_DELETES = ("DELETE_FAST", "DELETE_NAME", "DELETE_GLOBAL", "DELETE_DEREF")


def enter_marker():
    enter = ast.Name(id=_WITH_ENTER, ctx=ast.Load())
    enter._with_enter = True
    return enter


def mentions_enter(nodes):
    for n in nodes:
        for x in ast.walk(n):
            if isinstance(x, ast.Name) and x.id == _WITH_ENTER:
                return True
    return False


def legacy_state(w):
    if w._lblocks is None:
        w._lblocks = {}
        w._lv38 = any(i.op == "END_FINALLY" for i in w.instrs)
    return w._lblocks


def legacy_skip_await(w, k):
    """Index after ``GET_AWAITABLE; LOAD_CONST None; YIELD_FROM`` at ``k``
    (``k`` itself when there is none)."""
    ins = w.instrs
    if (k + 2 < w.n and ins[k].op == "GET_AWAITABLE" and ins[k + 1].op == "LOAD_CONST"
            and ins[k + 1].arg is None and ins[k + 2].op == "YIELD_FROM"):
        return k + 3
    return k


def past_legacy_finally_copy(w, index):
    """3.9/3.10: where the walk goes on from ``index`` when a try body's
    exit is there (``POP_BLOCK`` and the inlined copy of the finally
    body): after the copy, or its start when it never completes
    (see legacy_pop_block). ``index`` for any other place."""
    if not (isinstance(index, int) and index < w.n and w.instrs[index].op == "POP_BLOCK"):
        return index
    blk = legacy_state(w).get(w.cfg.containing(index).handler)
    if blk is None or blk.kind != "finally":
        return index
    if index + 1 in blk.dead:
        return index + 1
    return blk.copies.get(index + 1, index)


def legacy_else_end(w, then_start, else_start):
    """3.8/3.9: where the ``else`` clause of an if statement whose body
    never falls through ends, or None when the source had no ``else``.

    The compiler ends an if body with a jump over the else clause even
    when the body ends in ``raise``/``continue``/``break`` or in a
    statement whose branches all leave; only a jump straight after a
    ``return`` is removed (3.10 removes every unreachable jump). That
    dead jump, just before the else code, is the only trace of the
    ``else``. Its target is the end of the else clause, or the loop's
    header when the if statement ends a loop body."""
    k = else_start - 1
    if not isinstance(else_start, int) or not then_start <= k < w.n:
        return None
    jump = w.instrs[k]
    block = w.cfg.containing(k)
    if jump.op != "JUMP" or block.start != k or block.preds or block.exc_preds:
        return None
    return jump.target


def legacy_register(w, indices):
    """Note ``indices`` as places where the code after a statement
    starts (see :func:`legacy_alias`)."""
    for i in indices:
        if isinstance(i, int) and isinstance(legacy_key(w, i), tuple):
            w._lfollows.add(i)


def legacy_clause_end(w, ins, frame, region=None, loop=None):
    """After an except clause's ``POP_EXCEPT`` (and ``name = None; del
    name``): when a copy of the try statement's follow comes next, the
    clause ends there; so it does at a jump to code that only this
    clause reaches (the try body never falls through)."""
    instrs = w.instrs
    q = ins.index + 1
    cleanup = (q + 3 < w.n and instrs[q].op == "LOAD_CONST" and instrs[q].arg is None
               and instrs[q + 1].op in STORES and instrs[q + 2].op in _DELETES
               and instrs[q + 1].arg == instrs[q + 2].arg)
    j = q + 3 if cleanup else q
    if region is not None and j < w.n and instrs[j].op == "JUMP":
        t = instrs[j].target
        if (t > j and t < w.n and region(w.cfg.containing(t).start)
                and instrs[t].op != "POP_BLOCK"  # (an enclosing block's exit: walked as one)
                and (loop is None or t not in loop.continue_targets and t != loop.break_target)):
            # code after POP_EXCEPT runs outside the clause, even where
            # the clause dominates it
            if cleanup:
                for k in range(q, q + 3):
                    E.execute(frame, instrs[k])
            return Exit("leave", t)
    stops = w._lstops
    if not stops or stops[-1] is None:
        return None
    if cleanup and legacy_key(w, q + 3) == stops[-1]:
        for k in range(q, q + 3):
            E.execute(frame, instrs[k])
        q += 3
    elif legacy_key(w, q) != stops[-1]:
        return None
    legacy_register(w, [q])
    return Exit("leave", q)


def _legacy_same(w, a, b):
    """Instructions ``a`` and ``b`` do the same (jump targets ignored)."""
    return a.op == b.op and (a.target is not None or a.arg == b.arg)


def legacy_pop_block(w, ins, frame):
    p = ins.index
    h = w.cfg.containing(p).handler
    blk = legacy_state(w).get(h)
    if blk is None:
        fail(w, "POP_BLOCK of an unknown block", p)
    nxt = None
    if blk.kind == "with" and blk.inline_exit:
        k, swap = legacy_exit_call(w, p + 1)
        if k is None:
            fail(w, "with block exit without the __exit__ call", p)
        st = frame.stack
        pos = len(st) - (2 if swap else 1)
        if pos < 0 or not isinstance(st[pos], V.WithExit):
            fail(w, "with block exit without the __exit__ call", p)
        del st[pos]
        nxt = k
    elif blk.kind == "finally" and not w._lv38:
        if p + 1 in blk.dead:
            # the finally body's copy raises or returns: a value computed
            # for a ``return`` is returned; otherwise the walk stops at the
            # copy (the end of the try body, see walk._walk)
            if len(frame.stack) > blk.depth:
                frame.emit(ast.Return(value=frame.pop_expr(ins)))
                return END
            return p + 1
        if p + 1 not in blk.copies:
            fail(w, "copy of the finally body not found", p)
        nxt = blk.copies[p + 1]
    if p in blk.normal:
        return Exit("leave", nxt if nxt is not None else p + 1)
    return nxt


def legacy_exit_call(w, k):
    """3.9/3.10: ``[ROT_TWO] LOAD_CONST None; DUP_TOP; DUP_TOP;
    CALL_FUNCTION 3; [await]; POP_TOP`` at ``k``: (index after, rot)."""
    ins = w.instrs
    swap = False
    if k < w.n and ins[k].op == "SWAP" and ins[k].arg == 2:
        swap = True
        k += 1
    if not (k + 4 < w.n and ins[k].op == "LOAD_CONST" and ins[k].arg is None
            and ins[k + 1].op == "COPY" and ins[k + 1].arg == 1
            and ins[k + 2].op == "COPY" and ins[k + 2].arg == 1
            and ins[k + 3].op == "CALL" and ins[k + 3].arg[0] == 3):
        return None, swap
    k = legacy_skip_await(w, k + 4)
    if k >= w.n or ins[k].op != "POP_TOP":
        return None, swap
    return k + 1, swap


def legacy_handler_kind(w, H):
    ins = w.instrs
    if (H + 3 < w.n and ins[H].op == "LOAD_CONST" and ins[H].arg is None
            and ins[H + 1].op in STORES and ins[H + 2].op in _DELETES
            and ins[H + 1].arg == ins[H + 2].arg
            and ins[H + 3].op in ("END_FINALLY", "RERAISE")):
        return "cleanup"
    if all(H + j < w.n and ins[H + j].op == "POP_TOP" for j in range(3)):
        return "except"  # bare except
    if ins[H].op == "COPY" and ins[H].arg == 1:
        k = H + 1
        while k < w.n and ins[k].target is None and ins[k].op not in (
                "CHECK_EXC_MATCH", "RETURN_VALUE", "RERAISE", "RAISE_VARARGS"):
            k += 1
        if k < w.n and ins[k].op in ("CHECK_EXC_MATCH", "JUMP_IF_NOT_EXC_MATCH"):
            return "except"
    return "finally"


def _legacy_pops(w, blk):
    """The POP_BLOCKs that leave ``blk``'s body."""
    out = []
    for p in range(blk.setup + 1, blk.handler):
        if w.instrs[p].op == "POP_BLOCK" and w.cfg.containing(p).handler == blk.handler:
            out.append(p)
    return out


def _legacy_through_pops(w, k, blk):
    """Where an exit of ``blk`` at ``k`` goes on through the exits of
    enclosing blocks (their ``POP_BLOCK`` and bookkeeping); None when
    one of those exits returns the value computed inside."""
    for _ in range(32):
        j = k
        while j < w.n and w.instrs[j].op == "POP_TOP":
            j += 1  # (a ``return`` drops the iterators of the for loops it leaves)
        if j >= w.n or w.instrs[j].op != "POP_BLOCK":
            return k
        outer = w._lblocks.get(w.cfg.containing(j).handler)
        if outer is None or outer is blk or outer.kind == "cleanup":
            return k
        k = j
        if outer.kind == "with" and outer.inline_exit:
            t, swap = legacy_exit_call(w, k + 1)
            if swap:
                return None
            if t is None:
                return k
            k = t
        elif outer.kind == "finally" and not w._lv38:
            if k + 1 in outer.dead:
                return None  # (into a copy of a finally body that returns or raises)
            if k + 1 not in outer.copies:
                return k
            k = outer.copies[k + 1]
        else:
            k += 1
    return k


def normal_exits(w, blk, loop, after):
    """3.9/3.10: which POP_BLOCK starts the normal exit of ``blk``.

    ``after(p)`` is where the code after the exit's bookkeeping starts.
    An exit that returns the value computed in the body, returns a
    constant, or jumps to a loop's header or exit is an early exit
    (placing it inside the body means the same). A jump to past the
    handlers is the normal exit; failing one, the single exit followed
    by other code is (3.10 copied the code after the statement there).
    """
    ins = w.instrs
    strong, other = [], []
    conts = loop.continue_targets if loop is not None else frozenset()
    brk = loop.break_target if loop is not None else None
    for p in _legacy_pops(w, blk):
        t = after(p)
        if t is None:
            continue
        if t == "value":
            continue
        t = _legacy_through_pops(w, t, blk)
        if t is None:
            continue
        if t in conts or t == brk:
            continue  # (a finally's copy whose last jump goes straight to the loop's header)
        k = t
        while (k + 1 < w.n and ins[k].op == "SWAP" and ins[k].arg == 2
               and ins[k + 1].op == "POP_TOP"):
            k += 2  # a returned value kept above a loop's iterator
        while k + 2 < w.n and ((ins[k].op, ins[k].arg, ins[k + 1].op) == ("ROT", 4, "POP_EXCEPT")
                                  or ins[k].op == "POP_BLOCK"):
            # (3.9) one kept above the exception of each enclosing except
            # clause, out of the enclosing try bodies
            k += 1 if ins[k].op == "POP_BLOCK" else 2
        if ins[k].op == "RETURN_VALUE":
            continue
        k = t
        while k < w.n and ins[k].op == "POP_TOP":
            k += 1
        if ins[k].op == "JUMP":
            if ins[k].target in conts or ins[k].target == brk:
                continue
            if k == t and ins[k].target >= blk.handler:
                strong.append(p)
                continue
        if (ins[k].op == "LOAD_CONST" and k + 1 < w.n
                and ins[k + 1].op == "RETURN_VALUE"):
            continue
        other.append(p)
    chosen = strong or other
    if len(chosen) > 1:
        # 3.10 copied the code after the statement into each exit
        keys = {legacy_key(w, after(p)) for p in chosen}
        if len(keys) != 1 or not isinstance(next(iter(keys)), tuple):
            fail(w, "several ways out of a block", blk.setup)
    legacy_register(w, [after(p) for p in chosen])
    return set(chosen)


def legacy_handler_frame(w, frame, blk, exception=True):
    f = frame.copy()
    f.stmts = []
    f.pending = []
    del f.stack[blk.depth:]
    for _ in range(3):
        f.push(SavedExc())
    if exception:
        for _ in range(3):
            f.push(ExcPart())
    return f


def legacy_dead_clause_exit(w, start, nxt, unreached=False):
    """Where the except clause whose body runs from ``start`` (and whose
    next clause's test is at ``nxt``) would go on if its body ended: the
    compiler writes the clause's exit (``POP_EXCEPT``, the ``as`` name's
    deletion, the jump to after the statement) even after a body that
    never ends: the last jump before ``nxt`` (the ``as`` name's cleanup
    handler has none). With ``unreached``, only when nothing reaches that
    exit (a body that ends in a jump of its own, ``continue``)."""
    ins = w.instrs
    for j in range(nxt - 1, start, -1):
        if ins[j].op != "JUMP":
            continue
        k = j - 1
        if (k - 2 > start and ins[k].op in _DELETES and ins[k - 1].op in STORES
                and ins[k - 1].arg == ins[k].arg and ins[k - 2].op == "LOAD_CONST"
                and ins[k - 2].arg is None):
            k -= 3  # except E as name: the name's deletion
        if unreached:
            b = w.cfg.containing(k)
            if b.start != k or b.preds or b.exc_preds:
                return None
        return ins[j].target if ins[k].op == "POP_EXCEPT" else None
    return None


def legacy_dead_copies(w, blk, hdom, loop=None):
    """3.9/3.10: the starts of the inlined copies of the finally body at
    ``blk.handler`` when that body never completes (the handler's copy
    raises, returns or continues/breaks ``loop`` on every path, no
    RERAISE); one copy after each POP_BLOCK of the body. None when the
    body may complete or a copy is missing."""
    H = blk.handler
    end = max(b.end for b in w.cfg.dominated_blocks(w.cfg.at(H)) if hdom(b.start))
    seq = w.instrs[H:end]
    if seq and seq[-1].op == "RERAISE" and not legacy_reached(w, end - 1):
        seq = seq[:-1]  # (3.9 keeps the unreachable re-raise)
    # (a ``break``/``continue`` of the loop around the statement goes
    # there from every copy; a jump out elsewhere goes on elsewhere)
    loop_exits = set(loop.continue_targets) | {loop.break_target} if loop is not None else set()
    if not seq or any(x.op == "RERAISE" and not _legacy_nested_reraise(w, x.index, seq)
                      or x.target is not None and not H <= x.target < end
                      and x.target not in loop_exits and legacy_reached(w, x.index) for x in seq):
        return None
    # (the unwinding before a ``return`` in an else branch is a jump target)
    patterns = [_legacy_copy_pattern(w, seq, H, (), at_targets) for at_targets in (False, True)]
    starts = set()
    for p in _legacy_pops(w, blk):
        if (all(_legacy_match(w, p + 1, pattern, True) is None for pattern in patterns)
                and _legacy_match_by_flow(w, H, hdom, p + 1, (), dead=True) is None):
            return None
        starts.add(p + 1)
    return starts


def _legacy_nested_reraise(w, index, seq):
    """Whether the RERAISE at ``index`` belongs to the handler of a with
    or try statement inside the finally body whose copy is ``seq`` (it
    passes on what that statement did not swallow): it does not end the
    finally body."""
    b = w.cfg.containing(index)
    return any(dominated_by(w, w.cfg.at(x.target))(b.start) for x in seq
               if x.op.startswith("SETUP_") and w.cfg.at(x.target) is not None)


def legacy_reached(w, index):
    """Whether the block at ``index`` is reachable from the entry."""
    b = w.cfg.containing(index)
    return w.cfg.dominates(b, b)  # (only reachable blocks are in the dominator tree)


def legacy_copies(w, blk, hdom, ends):
    """3.9/3.10: where the inlined copies of the finally body at
    ``blk.handler`` are (start -> index after), found after each
    POP_BLOCK of the body by comparing with the handler's copy (whose
    exits also drop the exception: those instructions are left out).
    ``ends``: the handler copy's re-raises that end a branch of the
    finally body (not those of a try statement inside it): there a
    copy goes on to the code after the statement."""
    H = blk.handler
    ins = w.instrs
    # (the blocks the handler dominates: its subtree, not every block of the function)
    end = max(b.end for b in w.cfg.dominated_blocks(w.cfg.at(H)) if hdom(b.start))
    seq = ins[H:end]
    if not seq or seq[-1].op != "RERAISE" and not (
            ends and seq[-1].op == "JUMP" and seq[-1].target < seq[-1].index):
        # (a loop that ends the body, whose break is the re-raise, may end
        # in its jump back)
        fail(w, "finally handler does not end in RERAISE", H)
    # the last re-raise ends the finally body, unless it is the handler
    # of a try statement inside it (the body ended earlier, in ``ends``)
    last_ends_body = not ends or end - 1 in ends
    if last_ends_body:
        seq = seq[:-1]
    pattern = _legacy_copy_pattern(w, seq, H, ends)
    completes = set(ends) | ({H + len(seq)} if last_ends_body else set())
    copies = {}
    for p in _legacy_pops(w, blk):
        end = _legacy_match(w, p + 1, pattern, last_ends_body)
        if end is None:
            end = _legacy_match_by_flow(w, H, hdom, p + 1, completes)
        if end is not None:
            copies[p + 1] = _legacy_past_dead_jump(w, p + 1, end)
    return copies


def _legacy_copy_pattern(w, seq, H, ends, at_targets=False):
    """The handler's copy ``seq`` (from ``H``) of a finally body as the
    pattern its inlined copies match (see :func:`_legacy_match`); with
    ``at_targets``, exception unwinding is looked for at jump targets too."""
    ins = w.instrs
    # an exit's unwinding is reached by falling, never by a jump (a
    # with's or an except clause's own POP_TOPs are jump targets)
    if w._ltargets is None:
        w._ltargets = {x.target for x in ins if x.target is not None}
        w._ltargets.update(h.target for h in w.program.handlers)
    targets = w._ltargets
    pattern = []
    j = 0
    while j < len(seq):
        ops = [x.op for x in seq[j:j + 6]] if at_targets or H + j not in targets else []
        if ops[:4] == ["POP_TOP", "POP_TOP", "POP_TOP", "POP_EXCEPT"]:
            j += 4
            pattern.append(None)
            continue
        if (ops == ["ROT", "POP_TOP", "POP_TOP", "POP_TOP", "ROT", "POP_EXCEPT"]
                and seq[j].arg == 4 and seq[j + 4].arg == 4):
            j += 6
            pattern.append(None)
            continue
        if H + j in ends:
            pattern.append(_END_OF_COPY)  # a branch of the finally body ends
            j += 1
            continue
        pattern.append(seq[j])
        j += 1
    return pattern


def _legacy_past_dead_jump(w, start, end):
    """Where a finally body's copy from ``start`` to ``end`` goes on.
    When the body ends in a ``raise`` (``assert x or y``), the compiler's
    jump to after the statement at ``end`` is unreachable: the branches
    that end the body jump there themselves; that is where control goes
    on (not the dead jump, which lies outside every walk)."""
    ins = w.instrs
    b = w.cfg.at(end) if end < w.n else None
    if b is None or ins[end].op != "JUMP" or b.preds or b.exc_preds:
        return end
    t = ins[end].target
    out = {ins[k].target for k in range(start, end)
           if ins[k].target is not None and not start <= ins[k].target <= end}
    return t if out == {t} else end


def _legacy_match(w, q, pattern, ends_at_end=True):
    """Where control goes on after the copy of ``pattern`` at ``q``, or
    None. ``None`` in the pattern is where the handler's copy drops the
    exception: a copy on a ``return`` path drops the pending value there
    instead (``POP_TOP``, ``ROT_TWO; POP_TOP``), other copies nothing.
    Where the pattern has branch ends (``_END_OF_COPY``), control goes
    on at the first one: every one must lead to the same code, and so
    must the end of the copy when the pattern ends the finally body
    (``ends_at_end``)."""
    ins = w.instrs

    def match(q, j, exit_):
        while j < len(pattern):
            x = pattern[j]
            if x is _END_OF_COPY:
                if exit_ is not None and not legacy_same_tail(w, exit_, q):
                    return None
                for size in _legacy_branch_exits(w, q):
                    end = match(q + size, j + 1, q if exit_ is None else exit_)
                    if end is not None:
                        return end
                return None
            if x is None:
                for skip in (["POP_TOP"], ["SWAP", "POP_TOP"], []):
                    if ([y.op for y in ins[q:q + len(skip)]] == skip
                            and (len(skip) < 2 or ins[q].arg == 2)):
                        end = match(q + len(skip), j + 1, exit_)
                        if end is not None:
                            return end
                return None
            if q >= w.n or not _legacy_same(w, ins[q], x):
                return None
            q += 1
            j += 1
        if not ends_at_end:
            return exit_
        if exit_ is not None and not legacy_same_tail(w, exit_, q):
            return None
        return q if exit_ is None else exit_
    return match(q, 0, None)


def _legacy_match_by_flow(w, H, hdom, q, completes, dead=False):
    """:func:`_legacy_match` for a copy laid out differently from the
    handler's: the compiler repeats a small tail (a chained comparison's
    cleanup, the re-raise after it) in each branch of the handler's copy
    where the inlined copy shares one. Both copies are walked side by
    side along their jumps; they must match instruction by instruction.
    ``completes``: the handler copy's re-raises known to end the finally
    body; so does any other reached outside a handler inside the body.
    With ``dead``, the body never completes (see :func:`legacy_dead_copies`):
    ``q`` when the copies match and no branch goes on (the inlined copy
    repeats a ``return`` where the handler's branches join to one, after
    a with statement, say)."""
    ins = w.instrs
    todo, seen, exits = [(H, q, False)], set(), []
    limit = 4 * len(ins)
    while todo:
        i, j, nested = todo.pop()
        i = follow_jumps(w, i)
        if i in completes or (not nested and i < w.n and ins[i].op == "RERAISE"
                              and hdom(w.cfg.containing(i).start)):
            exits.append(j)  # where this branch of the copy goes on
            continue
        j = follow_jumps(w, j)
        if i >= w.n or not hdom(w.cfg.containing(i).start):
            if i != j:
                return None  # a jump out of the body (break, continue) goes elsewhere
            continue
        if j >= w.n or hdom(w.cfg.containing(j).start):
            return None
        unwind = _legacy_unwind_size(w, i)
        if unwind and [y.op for y in ins[j:j + unwind]] != [y.op for y in ins[i:i + unwind]]:
            # only the handler's copy drops the exception here; a copy on
            # a ``return`` path drops the pending value
            for skip in (["POP_TOP"], ["SWAP", "POP_TOP"], []):
                if ([y.op for y in ins[j:j + len(skip)]] == skip and (len(skip) < 2 or ins[j].arg == 2)
                        and follow_jumps(w, j + len(skip)) < w.n
                        and _legacy_same(w, ins[follow_jumps(w, j + len(skip))],
                                              ins[follow_jumps(w, i + unwind)])):
                    todo.append((i + unwind, j + len(skip), nested))
                    break
            else:
                return None
            continue
        # (pairs, not a one-to-one map: the handler's copy may repeat a
        # tail that the inlined one shares between its branches)
        if (i, j, nested) in seen:
            continue
        if not _legacy_same(w, ins[i], ins[j]) or len(seen) > limit:
            return None
        seen.add((i, j, nested))
        if ins[i].op in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"):
            continue
        if ins[i].target is not None:
            # (a handler inside the body: its re-raises are its own)
            todo.append((ins[i].target, ins[j].target, nested or ins[i].op.startswith("SETUP_")))
        todo.append((i + 1, j + 1, nested and ins[i].op != "POP_EXCEPT"))
    if dead:
        return q if not exits else None
    if not exits:
        return None
    first = min(exits)
    if any(not legacy_same_tail(w, first, e) for e in exits):
        return None
    return first


def _legacy_unwind_size(w, i):
    """How many instructions at ``i`` drop the handled exception before
    a finally body's exit (see :func:`_legacy_copy_pattern`), or 0 (also
    at a jump target: the caller checks the inlined copy lacks them)."""
    ins = w.instrs
    ops = [x.op for x in ins[i:i + 6]]
    if ops[:4] == ["POP_TOP", "POP_TOP", "POP_TOP", "POP_EXCEPT"]:
        return 4
    if (ops == ["ROT", "POP_TOP", "POP_TOP", "POP_TOP", "ROT", "POP_EXCEPT"]
            and ins[i].arg == 4 and ins[i + 4].arg == 4):
        return 6
    return 0


def _legacy_branch_exits(w, q):
    """How long the way out of a branch of a finally body's copy at
    ``q`` may be (the handler's copy re-raises there): a jump to the
    code after the statement, 3.10's copy of that code when it is a
    small ``return``/``raise`` block, or nothing when the branch falls
    into it."""
    sizes = []
    if q < w.n and w.instrs[q].op == "JUMP":
        sizes.append(1)
    key = legacy_key(w, q)
    if isinstance(key, tuple):
        sizes.append(len(key[1]))
    sizes.append(0)
    return sizes


def legacy_same_tail(w, a, b):
    """Control at ``a`` and at ``b`` goes the same way: the same index,
    a jump from one to the other, or (3.10) equal copies of code."""
    if a == b or legacy_same_place(w, a, b):
        return True
    ins = w.instrs
    if ins[a].op == "JUMP" and ins[a].target == b:
        return True
    # (jumps that lead to one place: a nested with's exit jumps past the
    # outer one's cleanup to where the outer exit jumps)
    go = partial(follow_jumps, w)
    return (go(a) != a or go(b) != b) and legacy_same_place(w, go(a), go(b))
