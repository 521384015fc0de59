"""Structuring of ``await``, ``async for``, ``async with``, ``yield from``
and async generators, on every version (``YIELD_FROM`` on <=3.10, ``SEND``
loops with ``END_SEND``/``CLEANUP_THROW`` handlers on 3.11+).

A mixin of :class:`structure.Structurer`: ``Structurer.block()`` calls
``async_op`` for the instructions in ``ASYNC_OPS``; ``Structurer.loop()``
asks ``async_for_header`` for every loop header it does not know.

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
  then as ``with`` (3.11+: :meth:`Structurer.with_`; <=3.10: the
  ``SETUP_ASYNC_WITH`` block in :mod:`legacy`). The exit call
  ``__aexit__(None, None, None)`` is awaited: an await of the exit call's
  result marker keeps the marker.
"""
import ast

from . import values as V
from .instructions import Instr
from .regions import Exit

#: instructions that ``Structurer.block()`` hands to ``async_op``
ASYNC_OPS = frozenset({
    "GET_AWAITABLE", "GET_YIELD_FROM_ITER", "GET_ANEXT", "SEND", "END_SEND",
    "CLEANUP_THROW", "END_ASYNC_FOR", "BEFORE_ASYNC_WITH", "YIELD_FROM",
})


def _async_comprehension(node):
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


class AsyncConstructs:
    # ------------------------------------------------------------- helpers
    def _async_state(self):
        if not hasattr(self, "_async_exits"):
            self._async_exits = set()  # END_ASYNC_FOR indices of structured loops
        return self._async_exits

    def _jump_sources(self):
        if not hasattr(self, "_async_sources"):
            src = {}
            for x in self.instrs:
                if x.target is not None:
                    src.setdefault(x.target, []).append(x.index)
            self._async_sources = src
        return self._async_sources

    def await_end(self, k):
        """When ``k`` starts ``GET_AWAITABLE``/``GET_ANEXT``/
        ``GET_YIELD_FROM_ITER``; ``LOAD_CONST None``; and the delegation
        (``YIELD_FROM`` or a ``SEND`` loop): the index after it, else None."""
        ins = self.instrs
        n = self.n
        if not (k + 2 < n and ins[k + 1].op == "LOAD_CONST" and ins[k + 1].arg is None):
            return None
        d = k + 2
        if ins[d].op == "YIELD_FROM":
            return d + 1
        if ins[d].op != "SEND" or d + 2 >= n:
            return None
        y, j = ins[d + 1], ins[d + 2]
        if y.op != "YIELD_VALUE" or j.op != "JUMP" or j.target != d:
            return None
        x = ins[d].target
        after = d + 3
        if x == after + 1 and ins[after].op == "CLEANUP_THROW":
            pass  # 3.12+: the throw handler placed before END_SEND
        elif x != after:
            return None
        # anything else jumping into the loop is not an await
        sources = self._jump_sources()
        if sources.get(d + 1) or sources.get(d + 2) or sources.get(d, []) != [d + 2]:
            return None
        # the handler of the YIELD_VALUE, if any, only resumes at X
        h = self.cfg.containing(d + 1).handler
        if h is not None and h < n and ins[h].op == "CLEANUP_THROW":
            if not (h + 1 < n and (ins[h + 1].op == "JUMP" and ins[h + 1].target == x
                                   or h + 1 == x)):
                return None
        if x < n and ins[x].op == "END_SEND":
            return x + 1
        return x

    def _fold_await(self, ins, frame, region, loop, node_t):
        end = self.await_end(ins.index)
        if end is None:
            self.fail("unrecognised %s" % ("await" if node_t is ast.Await else "yield from"),
                      ins.index)
        v = frame.pop(ins)
        if v is V.NULL and node_t is ast.Await:
            # the result of an ``async with``'s exit call, awaited and dropped
            frame.push(V.NULL)
        elif node_t is ast.Await and _async_comprehension(v):
            # calling an async list/set/dict comprehension's function makes
            # a coroutine, awaited right away: the source has no ``await``
            frame.push(v)
        else:
            frame.push(node_t(value=frame.expr(v, ins)))
        if self._resumes_in_place(ins.index, end):
            # the code after the SEND loop goes on with the same statement:
            # run it as the rest of this block (not a place the walk comes to)
            return self.block(self.cfg.containing(end), frame, region, loop, start=end)
        return self._go_on(end, frame, region, loop)

    def _go_on(self, k, frame, region, loop):
        """Continue at ``k``, after a construct folded in the middle of a
        block (<=3.10: after YIELD_FROM or the await of ``__aenter__``): the
        rest of that block. Left to the walk, ``k`` would count as a place
        of the block's start, outside the region when the block heads the
        loop whose body is walked."""
        if k < self.n and self.cfg.at(k) is None:
            return self.block(self.cfg.containing(k), frame, region, loop, start=k)
        return self._async_continue(k)

    def _resumes_in_place(self, k, end):
        """Whether the block holding ``end`` (after the SEND loop of the
        await at ``k``) is only reached from that loop (and its throw
        handler) and has the handler of the code before it."""
        if end >= self.n or self.instrs[k + 2].op != "SEND":
            return False
        xb = self.cfg.containing(end)
        if xb.start <= k or xb.handler != self.cfg.containing(k).handler:
            return False
        inner = {self.cfg.containing(k + 2).id, self.cfg.containing(k + 3).id}
        for p in xb.preds:
            if p.id in inner or self._throw_handler_block(p):
                continue
            return False
        return True

    def _throw_handler_block(self, block):
        """Whether ``block`` is a delegation loop's throw handler
        (``CLEANUP_THROW; JUMP X``, 3.12+), or the JUMP alone when the
        exception table covers only the CLEANUP_THROW and splits them."""
        ins = self.instrs
        if ins[block.start].op == "CLEANUP_THROW" and block.end - block.start <= 2:
            return True
        return (block.end - block.start == 1 and ins[block.start].op == "JUMP"
                and block.start > 0 and ins[block.start - 1].op == "CLEANUP_THROW")

    def _async_continue(self, end):
        if end >= self.n:
            return Exit("leave", end)
        return end

    # ------------------------------------------------------------ dispatch
    def async_op(self, ins, frame, region, loop):
        """Structure the construct that starts at ``ins``; return the index
        where control continues, or an ``Exit``."""
        op = ins.op
        if op == "GET_AWAITABLE":
            return self._fold_await(ins, frame, region, loop, ast.Await)
        if op == "GET_YIELD_FROM_ITER":
            return self._fold_await(ins, frame, region, loop, ast.YieldFrom)
        if op == "BEFORE_ASYNC_WITH":
            return self._async_with(ins, frame, region, loop)
        if op == "END_ASYNC_FOR":
            if ins.index not in self._async_state():
                self.fail("END_ASYNC_FOR outside an async for loop", ins.index)
            # the loop's normal exit: the iterator is already gone
            return self._async_continue(ins.index + 1)
        self.fail("unexpected %s" % op, ins.index)

    # ---------------------------------------------------------- async with
    def _async_with(self, ins, frame, region, loop):
        k = ins.index
        if k + 1 < self.n and self.instrs[k + 1].op == "GET_AWAITABLE":
            end = self.await_end(k + 1)
        else:
            end = None
        if end is None:
            self.fail("async with without the await of __aenter__", k)
        if end < self.n and self.instrs[end].op == "SETUP_ASYNC_WITH":
            # <=3.10: the block stack construct (legacy.py)
            special = self.special.get("BEFORE_ASYNC_WITH")
            if special is None:
                self.fail("unsupported async with", k)
            r = special(self, ins, frame, region, loop)
            return self._go_on(r if r is not None else k + 1, frame, region, loop)
        # 3.11+: a with statement whose body starts after the await
        proxy = Instr(ins.op, ins.arg, ins.offset, ins.line)
        proxy.index = end - 1
        return self.with_(proxy, frame, region, loop)

    def with_body_end(self, handler, start):
        """End of a ``with`` body (sync or async, 3.11+): the last range the
        exception table sends to ``handler`` among those normal control flow
        from ``start`` reaches. The ranges of an inner statement's handler
        code (and of 3.12's ``CLEANUP_THROW`` blocks), also sent to
        ``handler``, lie after the function's normal code and do not count."""
        ranges = self._ranges_to(handler)
        # The search from ``start`` stops once it has met every range that
        # normal control flow reaches at all: searching on through the rest
        # of the function for each with statement is quadratic in a run of them.
        entry_reaches = self._normally_reachable()
        first = self.cfg.containing(start)
        wanted = {self.cfg.containing(h.start).id for h in ranges}
        if first.id in entry_reaches:
            wanted &= entry_reaches
        seen = set()
        work = [first]
        while work and wanted:
            b = work.pop()
            if b.id in seen:
                continue
            seen.add(b.id)
            wanted.discard(b.id)
            work.extend(b.succs)
        ends = [h.end for h in ranges if self.cfg.containing(h.start).id in seen]
        if not ends:
            ends = [h.end for h in ranges]
        return max(ends)

    def _ranges_to(self, handler):
        """The exception table's ranges that go to ``handler``, in order."""
        if not hasattr(self, "_ranges_by_target"):
            self._ranges_by_target = {}
            for h in self.program.handlers:
                self._ranges_by_target.setdefault(h.target, []).append(h)
        return self._ranges_by_target.get(handler, [])

    def _normally_reachable(self):
        """Ids of the blocks normal control flow reaches from the entry."""
        if not hasattr(self, "_entry_reaches"):
            seen = set()
            work = self.cfg.blocks[:1]
            while work:
                b = work.pop()
                if b.id not in seen:
                    seen.add(b.id)
                    work.extend(b.succs)
            self._entry_reaches = seen
        return self._entry_reaches

    # ------------------------------------------------------------ async for
    def async_for_header(self, header):
        """(body start, END_ASYNC_FOR index) when ``header`` is the header of
        an ``async for`` loop, else None."""
        ins = self.instrs
        h = header.start
        if ins[h].op == "SETUP_FINALLY":
            e = ins[h].target
            if ins[h + 1].op != "GET_ANEXT":
                return None
            end = self.await_end(h + 1)
            if end is None or ins[end].op != "POP_BLOCK":
                return None
            body = end + 1
        elif ins[h].op == "GET_ANEXT":
            end = self.await_end(h)
            if end is None:
                return None
            e = header.handler
            body = end
        else:
            return None
        if e is None or e >= self.n or ins[e].op != "END_ASYNC_FOR":
            return None
        return body, e

    def async_for_exits_to(self, exit_, target):
        """Whether the normal exit ``exit_`` of an async for loop goes on at
        ``target`` (3.11+ places ``END_ASYNC_FOR`` at the end, with a jump
        back; before, it falls into the code after the loop, which may be a
        lone jump): a body that drops the iterator and goes there breaks
        (with no back edge to tell, the loop's break target is not known)."""
        if exit_ is None or exit_ >= self.n or self.instrs[exit_].op != "END_ASYNC_FOR":
            return False
        return target == exit_ + 1 or self.thread(exit_ + 1) == (target, False)

    def async_for_loop(self, header, frame, natural, outer):
        found = self.async_for_header(header)
        if found is None:
            self.fail("unrecognised async for loop", header.start)
        body_start, exit_ = found
        it = frame.pop()
        if not isinstance(it, V.Iterator) or not (
                it.is_async or isinstance(it.expr, ast.Name) and it.expr.id == ".0"):
            self.fail("async for loop over a non-async iterator", header.start)
        self._async_state().add(exit_)
        return self.iteration(ast.AsyncFor, header, frame, it, body_start, exit_, natural, outer)
