"""Facts about the async constructs (see asyncs.py): where an ``async with``'s
body ends, which blocks only its exit handlers reach, where an ``async for`` goes when its
iterator is exhausted. Nothing here walks.
"""

from .regions import Exit
from .jumps import thread




def async_state(w):
    return w._async_exits


def resumes_in_place(w, k, end):
    """Whether the block holding ``end`` (after the SEND loop of the
    await at ``k``) is only reached from that loop (and its throw
    handler) and has the handler of the code before it."""
    if end >= w.n or w.instrs[k + 2].op != "SEND":
        return False
    xb = w.cfg.containing(end)
    if xb.start <= k or xb.handler != w.cfg.containing(k).handler:
        return False
    inner = {w.cfg.containing(k + 2).id, w.cfg.containing(k + 3).id}
    for p in xb.preds:
        if p.id in inner or _throw_handler_block(w, p):
            continue
        return False
    return True


def _throw_handler_block(w, block):
    """Whether ``block`` is a delegation loop's throw handler
    (``CLEANUP_THROW; JUMP X``, 3.12+), or the JUMP alone when the
    exception table covers only the CLEANUP_THROW and splits them."""
    ins = w.instrs
    if ins[block.start].op == "CLEANUP_THROW" and block.end - block.start <= 2:
        return True
    return (block.end - block.start == 1 and ins[block.start].op == "JUMP"
            and block.start > 0 and ins[block.start - 1].op == "CLEANUP_THROW")


def async_continue(w, end):
    if end >= w.n:
        return Exit("leave", end)
    return end


def with_body_end(w, handler, start):
    """End of a ``with`` body (sync or async, 3.11+): the last range the
    exception table sends to ``handler`` among those normal control flow
    from ``start`` reaches. The ranges of an inner statement's handler
    code (and of 3.12's ``CLEANUP_THROW`` blocks), also sent to
    ``handler``, lie after the function's normal code and do not count."""
    ranges = _ranges_to(w, handler)
    # The search from ``start`` stops once it has met every range that
    # normal control flow reaches at all: searching on through the rest
    # of the function for each with statement is quadratic in a run of them.
    entry_reaches = _normally_reachable(w)
    first = w.cfg.containing(start)
    wanted = {w.cfg.containing(h.start).id for h in ranges}
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
    ends = [h.end for h in ranges if w.cfg.containing(h.start).id in seen]
    if not ends:
        ends = [h.end for h in ranges]
    return max(ends)


def _ranges_to(w, handler):
    """The exception table's ranges that go to ``handler``, in order."""
    if w._ranges_by_target is None:
        w._ranges_by_target = {}
        for h in w.program.handlers:
            w._ranges_by_target.setdefault(h.target, []).append(h)
    return w._ranges_by_target.get(handler, [])


def _normally_reachable(w):
    """Ids of the blocks normal control flow reaches from the entry."""
    if w._entry_reaches is None:
        seen = set()
        work = w.cfg.blocks[:1]
        while work:
            b = work.pop()
            if b.id not in seen:
                seen.add(b.id)
                work.extend(b.succs)
        w._entry_reaches = seen
    return w._entry_reaches


def async_for_exits_to(w, exit_, target):
    """Whether the normal exit ``exit_`` of an async for loop goes on at
    ``target`` (3.11+ places ``END_ASYNC_FOR`` at the end, with a jump
    back; before, it falls into the code after the loop, which may be a
    lone jump): a body that drops the iterator and goes there breaks
    (with no back edge to tell, the loop's break target is not known)."""
    if exit_ is None or exit_ >= w.n or w.instrs[exit_].op != "END_ASYNC_FOR":
        return False
    return target == exit_ + 1 or thread(w, exit_ + 1) == (target, False)
