"""Structuring of the <=3.10 block-stack constructs: ``SETUP_FINALLY``,
``SETUP_WITH``/``SETUP_ASYNC_WITH``, ``POP_BLOCK``, ``BEGIN_FINALLY``/
``END_FINALLY``/``CALL_FINALLY``/``POP_FINALLY`` (3.8), ``WITH_CLEANUP_*``
(3.8), ``WITH_EXCEPT_START``/``RERAISE``/``JUMP_IF_NOT_EXC_MATCH`` (3.9, 3.10).

A mixin of :class:`structure.Structurer`: the walker calls ``setup_block``
when a block ends in a ``SETUP_*`` instruction.

How a statement is laid out (all three versions): the protected body, with
every early exit (``return``/``break``/``continue``) written inline, lies
between the ``SETUP_*`` instruction and its handler; each way out of the body
starts with a ``POP_BLOCK``. What follows that ``POP_BLOCK`` before the exit
proper is compiler bookkeeping, handled per instruction here:

* 3.8 runs a ``finally`` body as a subroutine (``CALL_FINALLY`` /
  ``BEGIN_FINALLY`` ... ``END_FINALLY``/``POP_FINALLY``) and calls ``__exit__``
  through ``WITH_CLEANUP_START``/``WITH_CLEANUP_FINISH``: the body is
  decompiled once, from the handler, and the calls are skipped;
* 3.9 and 3.10 copy the ``finally`` body onto every exit and call
  ``__exit__(None, None, None)`` inline: the copies are found by comparing
  them with the handler's copy and skipped, the exit call is consumed.

The exit that leads to the code after the statement (the *normal* exit) ends
the body. 3.10 copies small ``return`` blocks into every path that jumps to
them, so that exit may be followed by a copy of the code after the statement
rather than by a jump to it; :meth:`LegacyBlocks._normal_exits` tells it from
the early exits (see there).

The stack entries the interpreter pushes for a handler (the saved exception
state and the exception itself, the NULL of ``BEGIN_FINALLY``, 3.8's
``LOAD_CONST None`` pad under a finally body that leaves early) are markers
below: a ``POP_TOP`` drops them silently, using one as a value fails.
"""
import ast

from . import expressions as E
from . import values as V
from .instructions import COPIES_EXIT_BLOCKS
from .regions import (END, Exit, WithinRange, both, ends_in_loop_left_by_break, leaves_reraise, strip_name_cleanup,
                      strip_tail_reraise)


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
#: in the pattern of a finally body (see ``_legacy_copies``): a branch ends
_END_OF_COPY = object()
_STORES = ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF")
_DELETES = ("DELETE_FAST", "DELETE_NAME", "DELETE_GLOBAL", "DELETE_DEREF")


# ------------------------------------------------------ instruction handlers
def _pop_block(self, ins, frame, region, loop):
    nxt = self._legacy_pop_block(ins, frame)
    if isinstance(nxt, int) and loop is not None and nxt in loop.continue_targets:
        # a finally's inlined copy whose last jump goes straight to the loop's
        # header (the compiler threads ``continue``'s jump through the copy)
        return self.transfer(nxt, frame, region, loop)
    return nxt


def _begin_finally(self, ins, frame, region, loop):
    frame.push(Fin())


def _end_finally(self, ins, frame, region, loop):
    top = frame.pop(ins)
    if not isinstance(top, Fin):
        self.fail("END_FINALLY outside a finally body", ins.index)
    if top.stop:
        return Exit("leave", ins.index + 1)
    return None


def _pop_finally(self, ins, frame, region, loop):
    keep = frame.pop(ins) if ins.arg else None
    fin = frame.pop(ins)
    if not isinstance(fin, Fin):
        self.fail("POP_FINALLY outside a finally body", ins.index)
    if ins.arg:
        frame.push(keep)


def _with_cleanup_start(self, ins, frame, region, loop):
    # [exit, NULL] -> (call __exit__(None, None, None)) -> [NULL]
    k = self._legacy_skip_await(ins.index + 1)
    if self.instrs[k].op != "WITH_CLEANUP_FINISH":
        self.fail("unexpected with cleanup", ins.index)
    fin = frame.pop(ins)
    ex = frame.pop(ins)
    if not isinstance(fin, Fin) or not isinstance(ex, V.WithExit):
        self.fail("with cleanup outside a with block", ins.index)
    frame.push(fin)
    return k + 1


def _before_async_with(self, ins, frame, region, loop, previous=None):
    k = ins.index
    if (self.instrs[k + 1].op == "GET_AWAITABLE" and self._legacy_skip_await(k + 1) < self.n
            and self.instrs[self._legacy_skip_await(k + 1)].op == "SETUP_ASYNC_WITH"):
        cm = frame.pop_expr(ins)
        frame.push(V.WithExit(cm, True))
        frame.push(_enter_marker())
        return self._legacy_skip_await(k + 1)
    if previous is not None:
        return previous(self, ins, frame, region, loop)
    self.fail("unsupported async with", ins.index)


def _pop_except(self, ins, frame, region, loop, previous=None):
    st = frame.stack
    if st and isinstance(st[-1], SavedExc):
        if len(st) < 3 or not all(isinstance(x, SavedExc) for x in st[-3:]):
            self.fail("POP_EXCEPT without a saved exception", ins.index)
        del st[-3:]
        return self._legacy_clause_end(ins, frame, region, loop)
    if previous is not None:
        return previous(self, ins, frame, region, loop)
    self.fail("POP_EXCEPT outside a handler", ins.index)


_HANDLERS = {
    "POP_BLOCK": _pop_block,
    "BEGIN_FINALLY": _begin_finally,
    "END_FINALLY": _end_finally,
    "POP_FINALLY": _pop_finally,
    "WITH_CLEANUP_START": _with_cleanup_start,
}
_CHAINED = {
    "BEFORE_ASYNC_WITH": _before_async_with,
    "POP_EXCEPT": _pop_except,
}


def install(special):
    """Register the instruction handlers in ``special`` (structure.SPECIAL;
    called once, at the end of structure.py)."""
    for op, fn in _HANDLERS.items():
        special.setdefault(op, fn)
    for op, fn in _CHAINED.items():
        prev = special.get(op)
        special[op] = (lambda fn, prev: lambda self, ins, frame, region, loop:
                       fn(self, ins, frame, region, loop, previous=prev))(fn, prev)


def _enter_marker():
    enter = ast.Name(id=_WITH_ENTER, ctx=ast.Load())
    enter._with_enter = True
    return enter


def _mentions_enter(nodes):
    for n in nodes:
        for x in ast.walk(n):
            if isinstance(x, ast.Name) and x.id == _WITH_ENTER:
                return True
    return False


class LegacyBlocks:
    # ----------------------------------------------------------- helpers
    def _legacy_state(self):
        if not hasattr(self, "_lblocks"):
            self._lblocks = {}
            self._lv38 = any(i.op == "END_FINALLY" for i in self.instrs)
        return self._lblocks

    def _legacy_skip_await(self, k):
        """Index after ``GET_AWAITABLE; LOAD_CONST None; YIELD_FROM`` at ``k``
        (``k`` itself when there is none)."""
        ins = self.instrs
        if (k + 2 < self.n and ins[k].op == "GET_AWAITABLE" and ins[k + 1].op == "LOAD_CONST"
                and ins[k + 1].arg is None and ins[k + 2].op == "YIELD_FROM"):
            return k + 3
        return k

    def _legacy_continue(self, follow, frame, region, loop):
        """Go on at ``follow`` (possibly inside a block) after a statement."""
        if follow is None:
            return END
        if follow < self.n and region(self.cfg.containing(follow).start):
            return follow
        return self.transfer(follow, frame, region, loop)

    # ------------------------------------------------- duplicated follows
    def _legacy_key(self, i):
        """What the code at ``i`` is, to tell copies of one piece of code
        apart from different code: through unconditional jumps, the
        straight-line instructions up to a return or raise, each with the
        handler it runs under. ``i`` itself when the code does not end so.

        3.10 copies the code after a statement into each of its exits (the
        compiler inlines small exit blocks in place of the jumps to them);
        equal keys are one place in the source."""
        if not isinstance(i, int):
            return i
        keys = self.__dict__.setdefault("_legacy_keys", {})  # (asked again and again for one index)
        key = keys.get(i)
        if key is None:
            key = keys[i] = self._read_legacy_key(i)
        return key

    def _read_legacy_key(self, i):
        ins = self.instrs
        seen = set()
        while i < self.n and ins[i].op == "JUMP" and i not in seen:
            seen.add(i)
            i = ins[i].target
        key = []
        k = i
        while k < self.n and len(key) < 64:
            x = ins[k]
            if x.target is not None or x.op == "YIELD_FROM":
                return i
            key.append((x.op, repr(x.arg), self.cfg.containing(k).handler))
            if x.op in ("RETURN_VALUE", "RERAISE", "RAISE_VARARGS"):
                return ("tail", tuple(key))
            k += 1
        return i

    def _legacy_same_place(self, a, b):
        """Control at ``a`` and at ``b`` goes on in the same code."""
        if a == b:
            return True
        ka = self._legacy_key(a)
        return isinstance(ka, tuple) and ka == self._legacy_key(b)

    def past_legacy_finally_copy(self, index):
        """3.9/3.10: where the walk goes on from ``index`` when a try body's
        exit is there (``POP_BLOCK`` and the inlined copy of the finally
        body): after the copy, or its start when it never completes
        (see _legacy_pop_block). ``index`` for any other place."""
        if not (isinstance(index, int) and index < self.n and self.instrs[index].op == "POP_BLOCK"):
            return index
        blk = self._legacy_state().get(self.cfg.containing(index).handler)
        if blk is None or blk.kind != "finally":
            return index
        if index + 1 in blk.dead:
            return index + 1
        return blk.copies.get(index + 1, index)

    def legacy_alias(self, index):
        """For :meth:`Structurer.alias`: a copy of the code after a
        statement (registered while structuring it) stands for its code;
        None for any other index."""
        follows = getattr(self, "_lfollows", None)
        if not follows or not isinstance(index, int) or index not in follows:
            return None
        return self._legacy_key(index)

    def popped_copy(self, block, frame):
        """For :meth:`Structurer.through_trampoline`: where ``block`` goes on
        after dropping the operand a chained comparison kept (``POP_TOP``),
        when what follows is a copy of a small ``return``/``raise`` block
        (3.10+ copies them into the paths that jump to them); None otherwise.
        (:meth:`same_code` tells it from its originals)."""
        ins = self.instrs
        if not (COPIES_EXIT_BLOCKS and ins[block.start].op == "POP_TOP"
                and (len(block.preds) == 1 or self.chain_cleanup(block, frame))
                and not block.exc_preds and isinstance(frame.stack[-1], ast.expr)):
            return None  # (an iterator or handler entry is no chain's operand)
        tail = block.start + 1
        key = self._legacy_key(tail)
        if (not isinstance(key, tuple) or not self.falls_only_to(block, tail + len(key[1]))
                or key[1][-1][0] not in ("RETURN_VALUE", "RAISE_VARARGS", "RERAISE")):
            return None  # (RERAISE: the end of a finally body's exceptional copy)
        return tail

    def falls_only_to(self, block, end):
        """Whether the code from ``block`` to ``end`` runs in blocks that only
        ``block`` reaches, falling from each into the next: one straight run
        (3.10 ends a try's block at its ``POP_BLOCK``; the copy of the exit after
        it stands in a block of its own)."""
        k = block.end
        while k < end:
            b = self.cfg.at(k)
            if b is None or len(b.preds) != 1 or b.exc_preds:
                return False
            k = b.end
        return k == end

    def same_code(self, a, b):
        """Whether control at ``a`` and at ``b`` runs the same code (a
        ``return``/``raise`` block and its copies, see :meth:`_legacy_key`)."""
        return isinstance(a, int) and isinstance(b, int) and (
            self._legacy_same_place(a, b) or self._same_run_to_jump(a, b))

    def _same_run_to_jump(self, a, b, limit=8):
        """Whether the code at ``a`` and at ``b`` is the same short straight
        run, under the same handlers, ending in a jump to the same place:
        3.12+ copies an except clause's exit (``POP_EXCEPT; JUMP``) into each
        path that leaves the clause, a chained comparison's cleanup too."""
        ins = self.instrs
        for _ in range(limit):
            if a >= self.n or b >= self.n:
                return False
            x, y = ins[a], ins[b]
            if x.op != y.op or self.cfg.containing(a).handler != self.cfg.containing(b).handler:
                return False
            if x.op == "JUMP":
                return x.target == y.target
            if x.arg != y.arg or x.target != y.target:
                return False
            if x.target is not None or x.op in ("YIELD_VALUE", "YIELD_FROM", "RETURN_VALUE",
                                                "RAISE_VARARGS", "RERAISE"):
                return False  # (a return or raise is _legacy_key's to compare)
            a, b = a + 1, b + 1
        return False

    def legacy_else_end(self, then_start, else_start):
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
        if not isinstance(else_start, int) or not then_start <= k < self.n:
            return None
        jump = self.instrs[k]
        block = self.cfg.containing(k)
        if jump.op != "JUMP" or block.start != k or block.preds or block.exc_preds:
            return None
        return jump.target

    def _legacy_register(self, indices):
        """Note ``indices`` as places where the code after a statement
        starts (see :meth:`legacy_alias`)."""
        if not hasattr(self, "_lfollows"):
            self._lfollows = set()
        for i in indices:
            if isinstance(i, int) and isinstance(self._legacy_key(i), tuple):
                self._lfollows.add(i)

    def _legacy_clause_end(self, ins, frame, region=None, loop=None):
        """After an except clause's ``POP_EXCEPT`` (and ``name = None; del
        name``): when a copy of the try statement's follow comes next, the
        clause ends there; so it does at a jump to code that only this
        clause reaches (the try body never falls through)."""
        instrs = self.instrs
        q = ins.index + 1
        cleanup = (q + 3 < self.n and instrs[q].op == "LOAD_CONST" and instrs[q].arg is None
                   and instrs[q + 1].op in _STORES and instrs[q + 2].op in _DELETES
                   and instrs[q + 1].arg == instrs[q + 2].arg)
        j = q + 3 if cleanup else q
        if region is not None and j < self.n and instrs[j].op == "JUMP":
            t = instrs[j].target
            if (t > j and t < self.n and region(self.cfg.containing(t).start)
                    and instrs[t].op != "POP_BLOCK"  # (an enclosing block's exit: walked as one)
                    and (loop is None or t not in loop.continue_targets and t != loop.break_target)):
                # code after POP_EXCEPT runs outside the clause, even where
                # the clause dominates it
                if cleanup:
                    for k in range(q, q + 3):
                        E.execute(frame, instrs[k])
                return Exit("leave", t)
        stops = getattr(self, "_lstops", None)
        if not stops or stops[-1] is None:
            return None
        if cleanup and self._legacy_key(q + 3) == stops[-1]:
            for k in range(q, q + 3):
                E.execute(frame, instrs[k])
            q += 3
        elif self._legacy_key(q) != stops[-1]:
            return None
        self._legacy_register([q])
        return Exit("leave", q)

    def _legacy_same(self, a, b):
        """Instructions ``a`` and ``b`` do the same (jump targets ignored)."""
        return a.op == b.op and (a.target is not None or a.arg == b.arg)

    # ------------------------------------------------------------ POP_BLOCK
    def _legacy_pop_block(self, ins, frame):
        p = ins.index
        h = self.cfg.containing(p).handler
        blk = self._legacy_state().get(h)
        if blk is None:
            self.fail("POP_BLOCK of an unknown block", p)
        nxt = None
        if blk.kind == "with" and blk.inline_exit:
            k, swap = self._legacy_exit_call(p + 1)
            if k is None:
                self.fail("with block exit without the __exit__ call", p)
            st = frame.stack
            pos = len(st) - (2 if swap else 1)
            if pos < 0 or not isinstance(st[pos], V.WithExit):
                self.fail("with block exit without the __exit__ call", p)
            del st[pos]
            nxt = k
        elif blk.kind == "finally" and not self._lv38:
            if p + 1 in blk.dead:
                # the finally body's copy raises or returns: a value computed
                # for a ``return`` is returned; otherwise the walk stops at the
                # copy (the end of the try body, see Structurer._walk)
                if len(frame.stack) > blk.depth:
                    frame.emit(ast.Return(value=frame.pop_expr(ins)))
                    return END
                return p + 1
            if p + 1 not in blk.copies:
                self.fail("copy of the finally body not found", p)
            nxt = blk.copies[p + 1]
        if p in blk.normal:
            return Exit("leave", nxt if nxt is not None else p + 1)
        return nxt

    def _legacy_exit_call(self, k):
        """3.9/3.10: ``[ROT_TWO] LOAD_CONST None; DUP_TOP; DUP_TOP;
        CALL_FUNCTION 3; [await]; POP_TOP`` at ``k``: (index after, rot)."""
        ins = self.instrs
        swap = False
        if k < self.n and ins[k].op == "SWAP" and ins[k].arg == 2:
            swap = True
            k += 1
        if not (k + 4 < self.n and ins[k].op == "LOAD_CONST" and ins[k].arg is None
                and ins[k + 1].op == "COPY" and ins[k + 1].arg == 1
                and ins[k + 2].op == "COPY" and ins[k + 2].arg == 1
                and ins[k + 3].op == "CALL" and ins[k + 3].arg[0] == 3):
            return None, swap
        k = self._legacy_skip_await(k + 4)
        if k >= self.n or ins[k].op != "POP_TOP":
            return None, swap
        return k + 1, swap

    # ---------------------------------------------------------- the walk
    def setup_block(self, ins, frame, region, loop):
        """Structure the try/with statement opened by ``ins``; return the
        index where control continues after it, or an ``Exit``."""
        self._legacy_state()
        s, H = ins.index, ins.target
        if H is None or H >= self.n or H <= s:
            self.fail("SETUP without a handler", s)
        if ins.op in ("SETUP_WITH", "SETUP_ASYNC_WITH"):
            return self._legacy_with(ins, frame, region, loop)
        kind = self._legacy_handler_kind(H)
        if kind == "cleanup":
            # ``except E as name:``'s own try/finally that deletes the name:
            # its body is the clause body; the deletions are dropped later
            self._lblocks[H] = _Block("cleanup", s, H, len(frame.stack))
            return s + 1
        if kind == "except":
            return self._legacy_try(ins, frame, region, loop)
        return self._legacy_finally(ins, frame, region, loop)

    def _legacy_handler_kind(self, H):
        ins = self.instrs
        if (H + 3 < self.n and ins[H].op == "LOAD_CONST" and ins[H].arg is None
                and ins[H + 1].op in _STORES and ins[H + 2].op in _DELETES
                and ins[H + 1].arg == ins[H + 2].arg
                and ins[H + 3].op in ("END_FINALLY", "RERAISE")):
            return "cleanup"
        if all(H + j < self.n and ins[H + j].op == "POP_TOP" for j in range(3)):
            return "except"  # bare except
        if ins[H].op == "COPY" and ins[H].arg == 1:
            k = H + 1
            while k < self.n and ins[k].target is None and ins[k].op not in (
                    "CHECK_EXC_MATCH", "RETURN_VALUE", "RERAISE", "RAISE_VARARGS"):
                k += 1
            if k < self.n and ins[k].op in ("CHECK_EXC_MATCH", "JUMP_IF_NOT_EXC_MATCH"):
                return "except"
        return "finally"

    def _legacy_body(self, blk, frame, region, loop, excluded=()):
        """Walk the protected body of ``blk`` into a copy of ``frame``."""
        s, H = blk.setup, blk.handler
        body = frame.copy()
        body.stmts = []
        body.pending = []
        ex = self.walk(s + 1, body, both(region, WithinRange(s, H, set(excluded))), loop)
        return body, ex

    def _legacy_pops(self, blk):
        """The POP_BLOCKs that leave ``blk``'s body."""
        out = []
        for p in range(blk.setup + 1, blk.handler):
            if self.instrs[p].op == "POP_BLOCK" and self.cfg.containing(p).handler == blk.handler:
                out.append(p)
        return out

    def _legacy_through_pops(self, k, blk):
        """Where an exit of ``blk`` at ``k`` goes on through the exits of
        enclosing blocks (their ``POP_BLOCK`` and bookkeeping); None when
        one of those exits returns the value computed inside."""
        for _ in range(32):
            j = k
            while j < self.n and self.instrs[j].op == "POP_TOP":
                j += 1  # (a ``return`` drops the iterators of the for loops it leaves)
            if j >= self.n or self.instrs[j].op != "POP_BLOCK":
                return k
            outer = self._lblocks.get(self.cfg.containing(j).handler)
            if outer is None or outer is blk or outer.kind == "cleanup":
                return k
            k = j
            if outer.kind == "with" and outer.inline_exit:
                t, swap = self._legacy_exit_call(k + 1)
                if swap:
                    return None
                if t is None:
                    return k
                k = t
            elif outer.kind == "finally" and not self._lv38:
                if k + 1 in outer.dead:
                    return None  # (into a copy of a finally body that returns or raises)
                if k + 1 not in outer.copies:
                    return k
                k = outer.copies[k + 1]
            else:
                k += 1
        return k

    def _normal_exits(self, blk, loop, after):
        """3.9/3.10: which POP_BLOCK starts the normal exit of ``blk``.

        ``after(p)`` is where the code after the exit's bookkeeping starts.
        An exit that returns the value computed in the body, returns a
        constant, or jumps to a loop's header or exit is an early exit
        (placing it inside the body means the same). A jump to past the
        handlers is the normal exit; failing one, the single exit followed
        by other code is (3.10 copied the code after the statement there).
        """
        ins = self.instrs
        strong, other = [], []
        conts = loop.continue_targets if loop is not None else frozenset()
        brk = loop.break_target if loop is not None else None
        for p in self._legacy_pops(blk):
            t = after(p)
            if t is None:
                continue
            if t == "value":
                continue
            t = self._legacy_through_pops(t, blk)
            if t is None:
                continue
            if t in conts or t == brk:
                continue  # (a finally's copy whose last jump goes straight to the loop's header)
            k = t
            while (k + 1 < self.n and ins[k].op == "SWAP" and ins[k].arg == 2
                   and ins[k + 1].op == "POP_TOP"):
                k += 2  # a returned value kept above a loop's iterator
            while k + 2 < self.n and ((ins[k].op, ins[k].arg, ins[k + 1].op) == ("ROT", 4, "POP_EXCEPT")
                                      or ins[k].op == "POP_BLOCK"):
                # (3.9) one kept above the exception of each enclosing except
                # clause, out of the enclosing try bodies
                k += 1 if ins[k].op == "POP_BLOCK" else 2
            if ins[k].op == "RETURN_VALUE":
                continue
            k = t
            while k < self.n and ins[k].op == "POP_TOP":
                k += 1
            if ins[k].op == "JUMP":
                if ins[k].target in conts or ins[k].target == brk:
                    continue
                if k == t and ins[k].target >= blk.handler:
                    strong.append(p)
                    continue
            if (ins[k].op == "LOAD_CONST" and k + 1 < self.n
                    and ins[k + 1].op == "RETURN_VALUE"):
                continue
            other.append(p)
        chosen = strong or other
        if len(chosen) > 1:
            # 3.10 copied the code after the statement into each exit
            keys = {self._legacy_key(after(p)) for p in chosen}
            if len(keys) != 1 or not isinstance(next(iter(keys)), tuple):
                self.fail("several ways out of a block", blk.setup)
        self._legacy_register([after(p) for p in chosen])
        return set(chosen)

    # ----------------------------------------------------------- try/except
    def _legacy_try(self, ins, frame, region, loop):
        s, H = ins.index, ins.target
        blk = _Block("try", s, H, len(frame.stack))
        self._lblocks[H] = blk
        if not self._lv38:
            blk.normal = self._normal_exits(blk, loop, lambda p: p + 1)
        body, ex = self._legacy_body(blk, frame, region, loop, {p + 1 for p in blk.normal})
        if len(body.stack) != len(frame.stack) and ex.kind == "leave":
            self.fail("try body leaves values on the stack", s)
        stop = None
        if ex.kind == "leave" and not self._lv38:
            stop = self._legacy_key(ex.target)
            if isinstance(stop, tuple):
                self._legacy_register([ex.target])
            else:
                stop = None
        handlers, h_exit, dead_exit = self._legacy_clauses(blk, frame, region, loop, stop)
        orelse = []
        follow = None
        if ex.kind == "leave":
            X = ex.target
            if h_exit is not None and self._legacy_same_place(X, h_exit):
                follow = X
            elif h_exit is None and dead_exit is not None and self._legacy_same_place(X, dead_exit):
                follow = X  # no clause ends normally, but all would go where the body goes
            elif h_exit is None and dead_exit is None:
                # no clause ends normally and none shows where it would go:
                # the code after is the try statement's follow (an else
                # clause lies in the same place; see function.py for the
                # one at the end of a function)
                follow = X
            else:
                # the else clause runs from X to where the handlers go
                ef = frame.copy()
                ef.stmts = []
                ef.pending = []
                dom = self.dominated_by(self.cfg.containing(X))
                end = h_exit if h_exit is not None else dead_exit
                ex2 = self.walk(X, ef, lambda i: region(i) and dom(i) and i != end, loop)
                if self.ends_in_break(ex2, ef, len(frame.stack), region, loop):
                    ef.emit(ast.Break())
                    ex2 = END
                if (ex2.kind == "leave" and h_exit is not None
                        and not self._legacy_same_place(ex2.target, h_exit)):
                    self.fail("try/else ends in an unexpected place", X)
                orelse = ef.stmts
                follow = ex2.target if ex2.kind == "leave" else h_exit
        else:
            follow = h_exit
        frame.emit(ast.Try(body=body.stmts or [ast.Pass()], handlers=handlers,
                           orelse=orelse, finalbody=[]))
        return self._legacy_continue(follow, frame, region, loop)

    def _legacy_handler_frame(self, frame, blk, exception=True):
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

    def _legacy_clauses(self, blk, frame, region, loop, stop=None):
        """The except clauses at ``blk``'s handler, where they go, and where
        the clauses that never end would go (see
        :meth:`_legacy_dead_clause_exit`); ``stop``: the key of the code
        after the statement, whose copies end a clause."""
        if not hasattr(self, "_lstops"):
            self._lstops = []
        self._lstops.append(stop)
        try:
            return self._legacy_clauses_at(blk, frame, region, loop)
        finally:
            self._lstops.pop()

    def _legacy_clauses_at(self, blk, frame, region, loop):
        ins = self.instrs
        clauses = []
        exits = []
        dead_exits = []  # where clauses that never end normally would go
        k = blk.handler
        while True:
            op = ins[k].op
            typ = None
            nxt = None
            if op in ("END_FINALLY", "RERAISE"):
                break  # no clause matched: the exception goes on
            if op == "COPY" and ins[k].arg == 1:
                tf = E.Frame(self.ctx)
                j = k + 1
                while ins[j].op not in ("CHECK_EXC_MATCH", "JUMP_IF_NOT_EXC_MATCH"):
                    if ins[j].target is not None or ins[j].op in self.special:
                        self.fail("unexpected except test", j)
                    E.execute(tf, ins[j])
                    j += 1
                typ = tf.pop_expr(ins[j])
                if tf.stack or tf.stmts:
                    self.fail("unexpected except test", j)
                if ins[j].op == "CHECK_EXC_MATCH":
                    j += 1
                    if ins[j].op != "POP_JUMP_IF_FALSE":
                        self.fail("unexpected except test", j)
                nxt = ins[j].target
                k = j + 1
                if ins[k].op != "POP_TOP":
                    self.fail("unexpected except clause", k)
                name = None
                if ins[k + 1].op in _STORES:
                    name = ins[k + 1].arg
                elif ins[k + 1].op != "POP_TOP":
                    self.fail("unexpected except clause", k + 1)
                if ins[k + 2].op != "POP_TOP":
                    self.fail("unexpected except clause", k + 2)
                start = k + 3
            elif all(ins[k + j].op == "POP_TOP" for j in range(3)):
                name = None
                start = k + 3
            else:
                self.fail("unexpected except clause", k)
            cf = self._legacy_handler_frame(frame, blk, exception=False)
            if name is not None:
                cf.clause_names = cf.clause_names | {name}
            head = self.cfg.containing(k)
            dom = self.dominated_by(head)
            cregion = lambda i, dom=dom: region(i) and dom(i)
            blk_at = self.cfg.containing(start)
            if start >= self.n:
                self.fail("except clause without a body", k)
            if blk_at.start != start:
                ex = self.block(blk_at, cf, cregion, loop, start=start)
                if not isinstance(ex, Exit):
                    # (the next index may lie inside a block: a skipped copy)
                    ex = (self.walk(ex, cf, cregion, loop)
                          if ex < self.n and cregion(self.cfg.containing(ex).start)
                          else Exit("leave", ex))
            else:
                ex = self.walk(start, cf, cregion, loop)
            body = strip_name_cleanup(cf.stmts, name)
            if (body and isinstance(body[-1], ast.Continue) and nxt is not None
                    and self._legacy_dead_clause_exit(start, nxt, unreached=True) is not None):
                # the clause's own exit is there, unreached: the ``continue`` was
                # written (``pass`` would run into that exit), though it ends the loop body
                body[-1]._written = True
            if ex.kind == "leave":
                exits.append(ex.target)
            elif nxt is not None:
                dead = self._legacy_dead_clause_exit(start, nxt)
                if dead is not None:
                    dead_exits.append(dead)
            clauses.append(ast.ExceptHandler(type=typ, name=name, body=body or [ast.Pass()]))
            if nxt is None:
                break
            k = nxt
        if any(not self._legacy_same_place(exits[0], x) for x in exits[1:]):
            self.fail("except clauses end in different places", blk.handler)
        if not clauses:
            self.fail("try without except clauses", blk.handler)
        for c in clauses[:-1]:
            if c.type is None:
                self.fail("bare except before the last clause", blk.handler)
        dead_exit = None
        if dead_exits and all(self._legacy_same_place(dead_exits[0], x) for x in dead_exits[1:] + exits):
            dead_exit = dead_exits[0]
        return clauses, (exits[0] if exits else None), dead_exit

    def _legacy_dead_clause_exit(self, start, nxt, unreached=False):
        """Where the except clause whose body runs from ``start`` (and whose
        next clause's test is at ``nxt``) would go on if its body ended: the
        compiler writes the clause's exit (``POP_EXCEPT``, the ``as`` name's
        deletion, the jump to after the statement) even after a body that
        never ends: the last jump before ``nxt`` (the ``as`` name's cleanup
        handler has none). With ``unreached``, only when nothing reaches that
        exit (a body that ends in a jump of its own, ``continue``)."""
        ins = self.instrs
        for j in range(nxt - 1, start, -1):
            if ins[j].op != "JUMP":
                continue
            k = j - 1
            if (k - 2 > start and ins[k].op in _DELETES and ins[k - 1].op in _STORES
                    and ins[k - 1].arg == ins[k].arg and ins[k - 2].op == "LOAD_CONST"
                    and ins[k - 2].arg is None):
                k -= 3  # except E as name: the name's deletion
            if unreached:
                b = self.cfg.containing(k)
                if b.start != k or b.preds or b.exc_preds:
                    return None
            return ins[j].target if ins[k].op == "POP_EXCEPT" else None
        return None

    # ---------------------------------------------------------- try/finally
    def _legacy_finally(self, ins, frame, region, loop):
        s, H = ins.index, ins.target
        pad = False
        if (self._lv38 and frame.stack and isinstance(frame.stack[-1], ast.Constant)
                and frame.stack[-1].value is None and s > 0 and self.instrs[s - 1].op == "LOAD_CONST"
                and self.instrs[s - 1].arg is None):
            frame.stack[-1] = Pad()
            pad = True
        blk = _Block("finally", s, H, len(frame.stack))
        self._lblocks[H] = blk
        hb = self.cfg.at(H)
        hdom = self.dominated_by(hb)
        if self._lv38:
            body, ex = self._legacy_body(blk, frame, region, loop)
            ff = frame.copy()
            ff.stmts = []
            ff.pending = []
            ff.push(Fin(stop=True))
            fex = self.walk(H, ff, lambda i: region(i) and hdom(i), loop)
            fin = ff.stmts
            follow = None
            if fex.kind == "leave":
                e = fex.target - 1
                if self.instrs[e].op != "END_FINALLY":
                    self.fail("finally body ends in an unexpected place", H)
                follow = e + 1
                if pad:
                    if self.instrs[follow].op != "POP_TOP":
                        self.fail("finally body without its pad", follow)
                    follow += 1
                    frame.stack.pop()
            if ex.kind == "leave" and ex.target != H:
                self.fail("try/finally body ends in an unexpected place", s)
        else:
            # the handler's copy of the finally body, up to its RERAISE
            hf = self._legacy_handler_frame(frame, blk)
            fex = self.walk(H, hf, lambda i: region(i) and hdom(i), loop)
            ends = {n._index for st in hf.stmts for n in ast.walk(st) if getattr(n, "_reraise", False)}
            # (a statement inside that goes on to a copy of the re-raise)
            ends.update(i for i in getattr(self, "_lfollows", ()) if self.instrs[i].op == "RERAISE"
                        and hdom(self.cfg.containing(i).start))
            fin = strip_tail_reraise(hf.stmts)
            if leaves_reraise(fin):
                self.fail("finally body re-raises where no branch ends", H)
            # (3.9 leaves an unreachable jump to a re-raise after a raising branch)
            never_completes = fex.kind == "end" or not self._legacy_reached(fex.target)
            if never_completes and ends_in_loop_left_by_break(fin):
                never_completes = False  # (3.10: the loop's break is the re-raise)
            dead = self._legacy_dead_copies(blk, hdom, loop) if never_completes else None
            if dead is not None:
                # every path of the finally body raises or returns: so does
                # each inlined copy, where the body's exits end
                blk.dead = frozenset(dead)
                self.dead_end_copies.update(dict.fromkeys(dead, H))
                body, ex = self._legacy_body(blk, frame, region, loop)
                if ex.kind == "leave" and ex.target in dead:
                    ex = END
            else:
                blk.copies = self._legacy_copies(blk, hdom, ends)
                blk.normal = self._normal_exits(
                    blk, loop, lambda p: blk.copies.get(p + 1))
                body, ex = self._legacy_body(blk, frame, region, loop,
                                             {p + 1 for p in blk.normal})
            follow = ex.target if ex.kind == "leave" else None
            if follow is not None and s < follow < H:
                pass  # after the inlined copy: the code after the statement
        node = ast.Try(body=body.stmts or [ast.Pass()], handlers=[], orelse=[],
                       finalbody=fin or [ast.Pass()])
        if (len(node.body) == 1 and isinstance(node.body[0], ast.Try)
                and not node.body[0].finalbody and node.body[0].handlers):
            inner = node.body[0]
            node = ast.Try(body=inner.body, handlers=inner.handlers, orelse=inner.orelse,
                           finalbody=node.finalbody)
        frame.emit(node)
        return self._legacy_continue(follow, frame, region, loop)

    def _legacy_dead_copies(self, blk, hdom, loop=None):
        """3.9/3.10: the starts of the inlined copies of the finally body at
        ``blk.handler`` when that body never completes (the handler's copy
        raises, returns or continues/breaks ``loop`` on every path, no
        RERAISE); one copy after each POP_BLOCK of the body. None when the
        body may complete or a copy is missing."""
        H = blk.handler
        end = max(b.end for b in self.cfg.dominated_blocks(self.cfg.at(H)) if hdom(b.start))
        seq = self.instrs[H:end]
        if seq and seq[-1].op == "RERAISE" and not self._legacy_reached(end - 1):
            seq = seq[:-1]  # (3.9 keeps the unreachable re-raise)
        # (a ``break``/``continue`` of the loop around the statement goes
        # there from every copy; a jump out elsewhere goes on elsewhere)
        loop_exits = set(loop.continue_targets) | {loop.break_target} if loop is not None else set()
        if not seq or any(x.op == "RERAISE" and not self._legacy_nested_reraise(x.index, seq)
                          or x.target is not None and not H <= x.target < end
                          and x.target not in loop_exits and self._legacy_reached(x.index) for x in seq):
            return None
        # (the unwinding before a ``return`` in an else branch is a jump target)
        patterns = [self._legacy_copy_pattern(seq, H, (), at_targets) for at_targets in (False, True)]
        starts = set()
        for p in self._legacy_pops(blk):
            if (all(self._legacy_match(p + 1, pattern, True) is None for pattern in patterns)
                    and self._legacy_match_by_flow(H, hdom, p + 1, (), dead=True) is None):
                return None
            starts.add(p + 1)
        return starts

    def _legacy_nested_reraise(self, index, seq):
        """Whether the RERAISE at ``index`` belongs to the handler of a with
        or try statement inside the finally body whose copy is ``seq`` (it
        passes on what that statement did not swallow): it does not end the
        finally body."""
        b = self.cfg.containing(index)
        return any(self.dominated_by(self.cfg.at(x.target))(b.start) for x in seq
                   if x.op.startswith("SETUP_") and self.cfg.at(x.target) is not None)

    def _legacy_reached(self, index):
        """Whether the block at ``index`` is reachable from the entry."""
        b = self.cfg.containing(index)
        return self.cfg.dominates(b, b)  # (only reachable blocks are in the dominator tree)

    def _legacy_copies(self, blk, hdom, ends):
        """3.9/3.10: where the inlined copies of the finally body at
        ``blk.handler`` are (start -> index after), found after each
        POP_BLOCK of the body by comparing with the handler's copy (whose
        exits also drop the exception: those instructions are left out).
        ``ends``: the handler copy's re-raises that end a branch of the
        finally body (not those of a try statement inside it): there a
        copy goes on to the code after the statement."""
        H = blk.handler
        ins = self.instrs
        # (the blocks the handler dominates: its subtree, not every block of the function)
        end = max(b.end for b in self.cfg.dominated_blocks(self.cfg.at(H)) if hdom(b.start))
        seq = ins[H:end]
        if not seq or seq[-1].op != "RERAISE" and not (
                ends and seq[-1].op == "JUMP" and seq[-1].target < seq[-1].index):
            # (a loop that ends the body, whose break is the re-raise, may end
            # in its jump back)
            self.fail("finally handler does not end in RERAISE", H)
        # the last re-raise ends the finally body, unless it is the handler
        # of a try statement inside it (the body ended earlier, in ``ends``)
        last_ends_body = not ends or end - 1 in ends
        if last_ends_body:
            seq = seq[:-1]
        pattern = self._legacy_copy_pattern(seq, H, ends)
        completes = set(ends) | ({H + len(seq)} if last_ends_body else set())
        copies = {}
        for p in self._legacy_pops(blk):
            end = self._legacy_match(p + 1, pattern, last_ends_body)
            if end is None:
                end = self._legacy_match_by_flow(H, hdom, p + 1, completes)
            if end is not None:
                copies[p + 1] = self._legacy_past_dead_jump(p + 1, end)
        return copies

    def _legacy_copy_pattern(self, seq, H, ends, at_targets=False):
        """The handler's copy ``seq`` (from ``H``) of a finally body as the
        pattern its inlined copies match (see :meth:`_legacy_match`); with
        ``at_targets``, exception unwinding is looked for at jump targets too."""
        ins = self.instrs
        # an exit's unwinding is reached by falling, never by a jump (a
        # with's or an except clause's own POP_TOPs are jump targets)
        if not hasattr(self, "_ltargets"):
            self._ltargets = {x.target for x in ins if x.target is not None}
            self._ltargets.update(h.target for h in self.program.handlers)
        targets = self._ltargets
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

    def _legacy_past_dead_jump(self, start, end):
        """Where a finally body's copy from ``start`` to ``end`` goes on.
        When the body ends in a ``raise`` (``assert x or y``), the compiler's
        jump to after the statement at ``end`` is unreachable: the branches
        that end the body jump there themselves; that is where control goes
        on (not the dead jump, which lies outside every walk)."""
        ins = self.instrs
        b = self.cfg.at(end) if end < self.n else None
        if b is None or ins[end].op != "JUMP" or b.preds or b.exc_preds:
            return end
        t = ins[end].target
        out = {ins[k].target for k in range(start, end)
               if ins[k].target is not None and not start <= ins[k].target <= end}
        return t if out == {t} else end

    def _legacy_match(self, q, pattern, ends_at_end=True):
        """Where control goes on after the copy of ``pattern`` at ``q``, or
        None. ``None`` in the pattern is where the handler's copy drops the
        exception: a copy on a ``return`` path drops the pending value there
        instead (``POP_TOP``, ``ROT_TWO; POP_TOP``), other copies nothing.
        Where the pattern has branch ends (``_END_OF_COPY``), control goes
        on at the first one: every one must lead to the same code, and so
        must the end of the copy when the pattern ends the finally body
        (``ends_at_end``)."""
        ins = self.instrs

        def match(q, j, exit_):
            while j < len(pattern):
                x = pattern[j]
                if x is _END_OF_COPY:
                    if exit_ is not None and not self._legacy_same_tail(exit_, q):
                        return None
                    for size in self._legacy_branch_exits(q):
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
                if q >= self.n or not self._legacy_same(ins[q], x):
                    return None
                q += 1
                j += 1
            if not ends_at_end:
                return exit_
            if exit_ is not None and not self._legacy_same_tail(exit_, q):
                return None
            return q if exit_ is None else exit_
        return match(q, 0, None)

    def _legacy_match_by_flow(self, H, hdom, q, completes, dead=False):
        """:meth:`_legacy_match` for a copy laid out differently from the
        handler's: the compiler repeats a small tail (a chained comparison's
        cleanup, the re-raise after it) in each branch of the handler's copy
        where the inlined copy shares one. Both copies are walked side by
        side along their jumps; they must match instruction by instruction.
        ``completes``: the handler copy's re-raises known to end the finally
        body; so does any other reached outside a handler inside the body.
        With ``dead``, the body never completes (see :meth:`_legacy_dead_copies`):
        ``q`` when the copies match and no branch goes on (the inlined copy
        repeats a ``return`` where the handler's branches join to one, after
        a with statement, say)."""
        ins = self.instrs
        todo, seen, exits = [(H, q, False)], set(), []
        limit = 4 * len(ins)
        while todo:
            i, j, nested = todo.pop()
            i = self._legacy_follow(i)
            if i in completes or (not nested and i < self.n and ins[i].op == "RERAISE"
                                  and hdom(self.cfg.containing(i).start)):
                exits.append(j)  # where this branch of the copy goes on
                continue
            j = self._legacy_follow(j)
            if i >= self.n or not hdom(self.cfg.containing(i).start):
                if i != j:
                    return None  # a jump out of the body (break, continue) goes elsewhere
                continue
            if j >= self.n or hdom(self.cfg.containing(j).start):
                return None
            unwind = self._legacy_unwind_size(i)
            if unwind and [y.op for y in ins[j:j + unwind]] != [y.op for y in ins[i:i + unwind]]:
                # only the handler's copy drops the exception here; a copy on
                # a ``return`` path drops the pending value
                for skip in (["POP_TOP"], ["SWAP", "POP_TOP"], []):
                    if ([y.op for y in ins[j:j + len(skip)]] == skip and (len(skip) < 2 or ins[j].arg == 2)
                            and self._legacy_follow(j + len(skip)) < self.n
                            and self._legacy_same(ins[self._legacy_follow(j + len(skip))],
                                                  ins[self._legacy_follow(i + unwind)])):
                        todo.append((i + unwind, j + len(skip), nested))
                        break
                else:
                    return None
                continue
            # (pairs, not a one-to-one map: the handler's copy may repeat a
            # tail that the inlined one shares between its branches)
            if (i, j, nested) in seen:
                continue
            if not self._legacy_same(ins[i], ins[j]) or len(seen) > limit:
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
        if any(not self._legacy_same_tail(first, e) for e in exits):
            return None
        return first

    def _legacy_follow(self, index, limit=16):
        """Where a run of unconditional jumps from ``index`` leads."""
        while limit and index < self.n and self.instrs[index].op == "JUMP":
            index = self.instrs[index].target
            limit -= 1
        return index

    def _legacy_unwind_size(self, i):
        """How many instructions at ``i`` drop the handled exception before
        a finally body's exit (see :meth:`_legacy_copy_pattern`), or 0 (also
        at a jump target: the caller checks the inlined copy lacks them)."""
        ins = self.instrs
        ops = [x.op for x in ins[i:i + 6]]
        if ops[:4] == ["POP_TOP", "POP_TOP", "POP_TOP", "POP_EXCEPT"]:
            return 4
        if (ops == ["ROT", "POP_TOP", "POP_TOP", "POP_TOP", "ROT", "POP_EXCEPT"]
                and ins[i].arg == 4 and ins[i + 4].arg == 4):
            return 6
        return 0

    def _legacy_branch_exits(self, q):
        """How long the way out of a branch of a finally body's copy at
        ``q`` may be (the handler's copy re-raises there): a jump to the
        code after the statement, 3.10's copy of that code when it is a
        small ``return``/``raise`` block, or nothing when the branch falls
        into it."""
        sizes = []
        if q < self.n and self.instrs[q].op == "JUMP":
            sizes.append(1)
        key = self._legacy_key(q)
        if isinstance(key, tuple):
            sizes.append(len(key[1]))
        sizes.append(0)
        return sizes

    # ----------------------------------------------------------------- with
    def _legacy_with(self, ins, frame, region, loop):
        s, H = ins.index, ins.target
        is_async = ins.op == "SETUP_ASYNC_WITH"
        base = len(frame.stack) - (2 if is_async else 1)
        if is_async:
            if len(frame.stack) < 2 or not isinstance(frame.stack[-2], V.WithExit):
                self.fail("async with without its context manager", s)
            cm = frame.stack[-2].context
        else:
            cm = frame.pop_expr(ins)
            frame.push(V.WithExit(cm, False))
            frame.push(_enter_marker())
        blk = _Block("with", s, H, base + 1)
        self._lblocks[H] = blk
        instrs = self.instrs
        if self._lv38:
            k = self._legacy_skip_await(H + 1)
            if not (instrs[H].op == "WITH_CLEANUP_START" and instrs[k].op == "WITH_CLEANUP_FINISH"
                    and instrs[k + 1].op == "END_FINALLY"):
                self.fail("unexpected with cleanup", H)
            tail = k + 2
        else:
            blk.inline_exit = True
            k = self._legacy_skip_await(H + 1)
            if not (instrs[H].op == "WITH_EXCEPT_START" and instrs[k].op == "POP_JUMP_IF_TRUE"
                    and instrs[k + 1].op == "RERAISE" and instrs[k].target == k + 2
                    and [x.op for x in instrs[k + 2:k + 7]] == ["POP_TOP"] * 3 + ["POP_EXCEPT", "POP_TOP"]):
                self.fail("unexpected with cleanup", H)
            tail = k + 7

            def after(p):
                t, swap = self._legacy_exit_call(p + 1)
                return "value" if swap else t
            blk.normal = self._normal_exits(blk, loop, after)
        body, ex = self._legacy_body(blk, frame, region, loop, {p + 1 for p in blk.normal})
        del frame.stack[base:]  # the with's own entries
        if self._lv38:
            if ex.kind == "leave" and ex.target != H:
                self.fail("with body ends in an unexpected place", s)
            follow = tail
        elif ex.kind == "leave":
            follow = ex.target
            if not self._legacy_same_tail(follow, tail):
                self.fail("with block's exits continue differently", s)
        else:
            follow = tail
        stmts = [st for st in body.stmts if not getattr(st, "_cancelled", False)]
        target = None
        if stmts and isinstance(stmts[0], ast.Assign) and len(stmts[0].targets) == 1 \
                and getattr(stmts[0].value, "_with_enter", False):
            target = stmts[0].targets[0]
            stmts = stmts[1:]
        elif stmts and isinstance(stmts[0], ast.Expr) and getattr(stmts[0].value, "_with_enter", False):
            stmts = stmts[1:]
        else:
            self.fail("with statement's enter value not found", s)
        if _mentions_enter(stmts) or target is not None and _mentions_enter([target]):
            self.fail("with statement's enter value used elsewhere", s)
        item = ast.withitem(context_expr=cm, optional_vars=target)
        node_t = ast.AsyncWith if is_async else ast.With
        if len(stmts) == 1 and type(stmts[0]) is node_t:
            node = node_t(items=[item] + stmts[0].items, body=stmts[0].body, type_comment=None)
        else:
            node = node_t(items=[item], body=stmts or [ast.Pass()], type_comment=None)
        frame.emit(node)
        if follow is None or follow >= self.n:
            return END if follow is None else Exit("leave", follow)
        return self._legacy_continue(follow, frame, region, loop)

    def _legacy_same_tail(self, a, b):
        """Control at ``a`` and at ``b`` goes the same way: the same index,
        a jump from one to the other, or (3.10) equal copies of code."""
        if a == b or self._legacy_same_place(a, b):
            return True
        ins = self.instrs
        if ins[a].op == "JUMP" and ins[a].target == b:
            return True
        # (jumps that lead to one place: a nested with's exit jumps past the
        # outer one's cleanup to where the outer exit jumps)
        go = self._legacy_follow
        return (go(a) != a or go(b) != b) and self._legacy_same_place(go(a), go(b))
