"""Stores: an assignment from a stored value, whichever shape the bytecode gives it.

A store (``STORE_*``, ``UNPACK_*``) becomes ``a = v``, a chained ``a = b = v``, a walrus
``(a := v)`` (the value still on the stack), a part of a tuple assignment collected until
its last store (``a, b = b, a``), an augmented ``a += v``, or a ``def``/``class``/``import``
(the function's context makes those). What follows a store is read from the instructions
(stack_effects.py) to tell these apart.
"""
import ast

from . import values as V
from .expr_frame import Frame, name
from .nodes import walk
from .stack_effects import is_walrus_store, pops_pushes
from .versions import DROPS_OVERWRITTEN_STORE, OPTIMIZES_WALRUS_VALUE


def store(frame: Frame, target: ast.expr, ins):
    """Store the top of the stack into ``target``."""
    value = frame.pop(ins)
    assign_to(frame, target, value, ins)


def assign_to(frame: Frame, target, value, ins):
    ctx = frame.ctx
    if isinstance(value, V.UnpackSlot):
        value.group.fill(value.index, target)
        return
    if isinstance(value, V.Stored) and written_as_walrus(frame, value):
        stored, value = value, frame.expr(value, ins)  # ``b = (a := value)``
        value._seq = _evaluated_at(stored)
    if isinstance(value, V.Stored):
        if not any(v is value for v in frame.stack) and (frame.pending or frame.stack and isinstance(
                frame.stack[-1], ast.expr) and _store_follows(frame, ins)):
            # a value computed before it is stored next: ``a, b = x, (c := y)``
            # (the compiler stores the tuple's items one by one), not ``c = b = y``;
            # or the last item of such an assignment, stored after the others (``a,
            # a = x, (c := y)`` stores ``x`` first), not ``c = a = y`` before them
            expr = frame.expr(value, ins)
            expr._seq = _evaluated_at(value)  # (the tuple keeps the order of evaluation)
            simple_assign(frame, target, expr, ins)
            return
        # another target of a chained assignment (a = b = value)
        value.assign.targets.append(target)
        if any(v is value for v in frame.stack):
            return
        return
    if isinstance(value, V.InPlace) and _same_target(value.target, target):
        frame.emit(ast.AugAssign(target=target, op=value.op, value=value.value))
        return
    if isinstance(value, V.WithEnter):
        frame.emit(ast.Assign(targets=[target], value=ctx.as_expr(value)))
        return
    decorators, inner = [], value
    while isinstance(inner, V.Decorated):
        decorators.append(inner.decorator)
        inner = inner.target
    if isinstance(inner, V.Function):
        if isinstance(target, ast.Name) and ctx.make_def(frame, inner, target.id, decorators):
            return
    if isinstance(inner, V.ClassValue):
        if isinstance(target, ast.Name) and ctx.make_class(frame, inner, target.id, decorators):
            return
    if isinstance(value, (V.Import, V.ImportedName)):
        if ctx.make_import(frame, value, target):
            return
    if isinstance(value, V.SymList) and any(v is value for v in frame.stack):
        # ``a = b = []``: one list under several names is what a chained
        # assignment makes, no temporary needed
        expr = ast.List(elts=[frame.expr(x) for x in value.elts], ctx=ast.Load())
    else:
        expr = frame.expr(value, ins)
    if any(v is value for v in frame.stack):
        # a copy of the value is still on the stack: chained assignment or walrus
        node = ast.Assign(targets=[target], value=expr)
        node._no_spill = True  # becomes a walrus or part of a chained assignment
        node._seq = frame.ctx.next_seq()
        frame.emit(node)
        for k, v in enumerate(frame.stack):
            if v is value:
                frame.stack[k] = V.Stored(node, expr)
        return
    simple_assign(frame, target, expr, ins)


def _evaluated_at(stored):
    """Where in the order of evaluation the value of ``stored`` was computed (a value
    folded to a new node, 3.8's ``-1``, has the place of its store)."""
    return getattr(stored.value, "_seq", getattr(stored.assign, "_seq", 0))


def written_as_walrus(frame, stored):
    """Whether the value of ``stored``, stored to its names and now to one
    more target, was a walrus's (``b = (a := value)``) rather than a chained
    assignment's (``a = b = value``), the same bytecode but for what 3.8/3.9
    optimize: everything under a walrus stays as written, so a value whose
    text the optimizer would change (``[x for x in [1, 2]]``, ``1 + 2``) was
    a walrus's; had it been a chained assignment's, the code would hold the
    optimized form. (Saying yes where the optimizer would change nothing
    costs only a walrus in the text.)"""
    return (not OPTIMIZES_WALRUS_VALUE and not getattr(stored.assign, "_pinned", False)
            and all(isinstance(t, ast.Name) for t in stored.assign.targets)
            and not any(v is stored for v in frame.stack) and optimizer_changes(stored.value))


def optimizer_changes(expr):
    """Whether 3.8/3.9's AST optimizer may change ``expr`` (or code nested in
    it): an operation on constants, a tuple of constants, a list or set display
    iterated or tested with ``in``, ``not`` of an ``is``/``in`` test, ``__debug__``."""
    for n in walk(expr):
        if isinstance(n, (ast.BinOp, ast.Subscript)) and all(
                isinstance(x, (ast.Constant, ast.Tuple, ast.Index)) for x in (
                    (n.left, n.right) if isinstance(n, ast.BinOp) else (n.value, n.slice))):
            return True
        if isinstance(n, ast.UnaryOp) and (isinstance(n.operand, (ast.Constant, ast.Tuple)) or isinstance(
                n.op, ast.Not) and isinstance(n.operand, ast.Compare) and len(n.operand.ops) == 1):
            return True
        if isinstance(n, ast.Tuple) and all(isinstance(x, ast.Constant) for x in n.elts):
            return True
        if isinstance(n, (ast.comprehension, ast.For, ast.AsyncFor)) and isinstance(n.iter, (ast.List, ast.Set)):
            return True
        if isinstance(n, ast.Compare) and any(
                isinstance(op, (ast.In, ast.NotIn)) and isinstance(x, (ast.List, ast.Set))
                for op, x in zip(n.ops, n.comparators)):
            return True
        if isinstance(n, ast.Name) and n.id == "__debug__":
            return True
    return False


#: How deep below the values a store pushes for its target the stored value lies.
_STORE_VALUE_DEPTH = {"STORE_FAST": 0, "STORE_NAME": 0, "STORE_GLOBAL": 0, "STORE_DEREF": 0,
                      "UNPACK_SEQUENCE": 0, "UNPACK_EX": 0, "STORE_ATTR": 1, "STORE_SUBSCR": 2}


_STORE_SCAN_LIMIT = 40


def _store_follows(frame, ins):
    """Whether the next store after ``ins`` stores another value computed
    before it: ``a, b = x, y`` stores one after the other, and the expressions
    of a target (``xs[j + 1]``) are computed between the stores."""
    instrs = frame.ctx.instrs
    if ins is None or instrs is None:
        return False
    depth = 0  # values pushed since ``ins``
    stop = min(ins.index + _STORE_SCAN_LIMIT, len(instrs))
    k = ins.index
    while k + 1 < stop:
        k += 1
        step = instrs[k]
        if depth and k + 1 < stop and is_walrus_store(instrs, k + 1):
            k += 1  # ``(c := value)`` in a target: the value stays where it is
            continue
        if step.op in _STORE_VALUE_DEPTH:
            return depth == _STORE_VALUE_DEPTH[step.op]
        if depth == 0 and _drops_overwritten_store(instrs, k):
            return True
        if step.op in ("SWAP", "ROT"):
            if step.arg > depth > 0:
                return False  # mixes new values with earlier ones
            continue
        pp = pops_pushes(step)
        if pp is None or pp[0] > depth:
            return False
        depth += pp[1] - pp[0]
    return False


def _drops_overwritten_store(instrs, k):
    """Whether ``instrs[k]``, a ``POP_TOP``, is the store that 3.13 dropped from a tuple
    assignment because the same local is stored again (``x, x = a, b``): it follows a
    store to a local, or another such dropped store."""
    if not DROPS_OVERWRITTEN_STORE or instrs[k].op != "POP_TOP":
        return False
    while k > 0 and instrs[k - 1].op == "POP_TOP":
        k -= 1  # ``x, x, x = a, b, c``: each dropped store names the same local
    return k > 0 and instrs[k - 1].op == "STORE_FAST"


def fill_overwritten_store(f, v, ins):
    """The value ``v`` that ``ins`` (a ``POP_TOP``) drops, as one more item of the tuple
    assignment being collected, stored to the local the assignment stores to just before
    (see :data:`.versions.DROPS_OVERWRITTEN_STORE`). True when that is the case."""
    instrs = f.ctx.instrs
    if (not f.pending or instrs is None or not isinstance(v, ast.expr)
            or not _drops_overwritten_store(instrs, ins.index)):
        return False
    k = ins.index
    while instrs[k].op == "POP_TOP":
        k -= 1
    target = f.pending[-1][0]
    if not (isinstance(target, ast.Name) and target.id == instrs[k].arg):
        return False
    f.pending.append((name(target.id, ast.Store()), f.expr(v, ins)))
    if not (f.stack and isinstance(f.stack[-1], ast.expr) and _store_follows(f, ins)):
        flush_pending(f)
    return True


def simple_assign(frame, target, expr, ins):
    """``target = expr``, or one part of a tuple assignment whose values were
    all computed before the first store (``a, b = b, a``)."""
    ins = ins or frame.current
    # (a walrus's value below counts: ``a, b = x, (c := y)`` stores ``x`` first when
    # the targets are swapped, ``b, a = ...``)
    top_is_value = bool(frame.stack) and isinstance(frame.stack[-1], (ast.expr, V.Stored))
    if frame.pending or (top_is_value and _store_follows(frame, ins)):
        frame.pending.append((target, expr))
        if not (_store_follows(frame, ins) and top_is_value):
            flush_pending(frame)
        return
    if (frame.ctx.dynamo and isinstance(target, ast.Name) and isinstance(expr, ast.Name)
            and target.id == expr.id):
        return  # ``x = x``: Dynamo's way of keeping a value; says nothing
    frame.emit(ast.Assign(targets=[target], value=expr))


def flush_pending(frame):
    pending, frame.pending = frame.pending, []
    if not pending:
        return
    if len(pending) == 1:
        frame.emit(ast.Assign(targets=[pending[0][0]], value=pending[0][1]))
        return
    pending.sort(key=lambda tv: getattr(tv[1], "_seq", 0))
    frame.emit(ast.Assign(targets=[ast.Tuple(elts=[t for t, _ in pending], ctx=ast.Store())],
                          value=ast.Tuple(elts=[v for _, v in pending], ctx=ast.Load())))


def _same_target(a, b):
    return ast.dump(a) == ast.dump(b)


def _unpack_sequence(f, ins):
    _unpack(f, ins, ins.arg, None)


def _unpack_ex(f, ins):
    before = ins.arg & 0xFF
    after = ins.arg >> 8
    _unpack(f, ins, before + after + 1, before)


def _unpack(f, ins, n, starred):
    v = f.pop(ins)
    if isinstance(v, V.Stored) and written_as_walrus(f, v):
        v = f.expr(v, ins)  # ``a, b = (c := value)``
    if isinstance(v, V.UnpackSlot):
        group = V.TargetGroup(n, None, starred, parent=(v.group, v.index))
    elif isinstance(v, V.Stored):
        # ``a, b = c, d = value``: the value already stored to the first targets,
        # unpacked again: one more target of that assignment
        group = V.TargetGroup(n, lambda target, stored=v: stored.assign.targets.append(target), starred)
    else:
        shared = any(x is v for x in f.stack)
        value = f.expr(v, ins)
        frame_ref = f

        def done(target, value=value, frame_ref=frame_ref, original=v):
            if shared:
                # ``a, b = x = value``: one evaluation, several targets
                node = ast.Assign(targets=[target], value=value)
                node._no_spill = True
                frame_ref.emit(node)
                for k, x in enumerate(frame_ref.stack):
                    if x is original:
                        frame_ref.stack[k] = V.Stored(node, value)
                return
            frame_ref.ctx.emit_unpack(frame_ref, target, value)
        group = V.TargetGroup(n, done, starred)
    # pushed so that the first target is on top
    for i in reversed(range(n)):
        f.push(V.UnpackSlot(group, i))


def fill_dead_store(f, slot, ins):
    """3.13 drops a store that the next store overwrites (``_, _, x = t``
    stores ``_`` twice: ``POP_TOP; STORE_FAST _``): the dropped slot's
    target is the name stored next. True when that is the case."""
    instrs = f.ctx.instrs
    k = ins.index + 1
    while instrs is not None and k < len(instrs) and instrs[k].op == "POP_TOP":
        k += 1  # ``_, _, _, x``: every dropped store names the same target
    if instrs is None or k >= len(instrs) or instrs[k].op != "STORE_FAST":
        return False
    slot.group.fill(slot.index, name(instrs[k].arg, ast.Store()))
    return True


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "UNPACK_SEQUENCE": _unpack_sequence,
    "UNPACK_EX": _unpack_ex,
}
