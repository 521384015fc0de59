"""Translation validation: is the recompiled code the same program as the original?

Every text the decompiler hands out is compiled back and checked here against
the code object it came from; a text that cannot be proved is refused.

Two levels:

1. **Equal bytecode.** The normalized instruction streams of DESIGN.md section 3,
   plus the exception table, are identical: nothing more to prove.
2. **The same events.** Otherwise both code objects run side by side
   symbolically (a product program). Each side runs its *pure* instructions --
   locals, constants, stack shuffles, tuples, jumps -- on its own; everything
   else is an *event* (an operation that may run user code, touch state outside
   the frame, or raise), described by the operation, its argument and the values
   it reads, and the exception being handled at the time. At each event both
   sides must perform the same operation on the same values; its results get one
   shared name. At each branch both sides must test the same value; both then
   follow the same outcome. Both must end the same way (return the same value,
   raise the same exception). By induction over the events, two code objects run
   on the same inputs perform the same operations on the same values in the same
   order, and end alike.

   Every event may raise; both sides then continue in their exception handlers
   (3.11+: the exception table; <=3.10: the block stack) with the same exception.

   Loops and joins: the product state is kept per pair of program points; on a
   second arrival the states are joined (values become variables; what stays
   known is which positions on both sides hold the *same* value, and constants)
   until nothing changes. A join only forgets facts, so the proof stays sound; it
   terminates because facts can only be forgotten finitely often.

   CELLS. A cell is read and written like a local while no other code holds it.
   Once a closure holding it has been made (``escaped``), other code may read or
   change it, but only while an event runs code other than the interpreter's
   (:func:`runs_code`: a call, an operator, a suspended ``yield``; not a global's
   load or making a function): such an event also reads every held cell this frame
   wrote since the last one (both sides must have written the same), and afterwards
   each held cell holds a fresh value shared by both sides (:func:`world_value`).
   A frame's writes to held cells are compared again where it returns or raises.
   A cell a closure's code never reads is not part of the closure (the compiler
   keeps cells for references it then optimized away).

What the model trusts: locals are private to the frame (a call that reads its
caller's frame -- ``locals()``, ``vars()``, ``dir()``, ``eval``/``exec`` without
namespaces, zero-argument ``super()`` -- is given the whole frame as input); an
operation on the same values in the same state of the world behaves the same.
Anything the model does not know (an unknown instruction, a value it cannot follow
into 3.8's finally subroutines, a state too large) makes the proof fail: unproved is
refused.
"""
import ast
import bisect
import builtins
import dis
import heapq
import operator
import types
import warnings
from typing import Dict, List, Optional, Tuple

from .opsem import (BLOCK_STACK, EX_READS_KEYWORD_SLOT, FINALLY_SUBROUTINES, ITERATOR_POPPED_BY_POP_ITER, NULL,
                    NULL_ABOVE, PY, RECEIVER_SLOTS, Op, cell_event, read_ops)

UNBOUND = ("unbound",)
NONE = ("c", "NoneType", "None")
TRUE = ("c", "bool", "True")
FALSE = ("c", "bool", "False")
LASTI = ("lasti",)
NULL_VALUE = ("null",)

#: builtins that read the calling frame; a call to one gets the frame's locals as input
FRAME_READERS = frozenset({"locals", "vars", "dir", "eval", "exec", "super", "breakpoint"})


class NotEquivalent(Exception):
    """The two code objects could not be proved to behave the same."""


# ---------------------------------------------------------------- values

def const(value, codes):
    """The symbolic value of a constant; nested code objects are numbered per name
    (in ``codes``) so the n-th nested ``g`` of one side pairs with the n-th of the other."""
    if value is NULL:
        return ("null",)
    if isinstance(value, types.CodeType):
        if not any(c is value for c in codes):
            codes.append(value)
        same = [c for c in codes if c.co_name == value.co_name]
        return ("code", value.co_name, next(k for k, c in enumerate(same) if c is value))
    if isinstance(value, tuple):
        return ("c", "tuple", tuple(const(v, codes) for v in value))
    if type(value) is slice:  # 3.14 folds a slice of constants: the value BUILD_SLICE makes
        parts = (value.start, value.stop) if value.step is None else (value.start, value.stop, value.step)
        return ("slice",) + tuple(const(v, codes) for v in parts)
    if isinstance(value, frozenset):  # iteration order is not part of the value
        return ("c", "frozenset", tuple(sorted((const(v, codes) for v in value), key=repr)))
    kind = type(value)
    return ("c", kind.__name__ if kind.__module__ == "builtins" else kind.__module__ + "." + kind.__qualname__,
            repr(value))


def is_bool(v) -> bool:
    """Whether ``v`` is certainly a bool (testing it runs no code)."""
    return v[0] in ("t", "vb", "is", "not") or v in (TRUE, FALSE)


def tuple_value(items):
    """A tuple of these values; of constants only, the constant tuple (the compiler folds
    one into the other)."""
    items = tuple(items)
    return ("c", "tuple", items) if all(v[0] == "c" for v in items) else ("tuple",) + items


def truth_of_const(v):
    """``bool()`` of a constant of a builtin type, or None when unknown."""
    if v[0] != "c":
        return None
    if v[1] in ("tuple", "frozenset"):
        return bool(v[2])
    if v[1] == "ellipsis":
        return True
    if v[1] in ("NoneType", "bool", "int", "float", "complex", "str", "bytes"):
        try:
            return bool(ast.literal_eval(v[2]))
        except (ValueError, SyntaxError):  # nan, inf: their reprs are not literals
            return True
    return None


def unpart(v):
    """<=3.10: the exception behind one of the (tb, value, type) entries."""
    return v[2] if v[0] == "part" else v


# ---------------------------------------------------------------- one side

class Side:
    """One code object's symbolic state: program point, value stack, locals,
    block stack (<=3.10), the exception being handled, the lists it built, and
    its cells (which of them other code may hold: ``escaped``)."""

    __slots__ = ("prog", "pc", "stack", "env", "blocks", "exc", "lists", "cells", "escaped")

    def __init__(self, prog, pc, stack, env, blocks, exc, lists=None, cells=None, escaped=frozenset()):
        self.prog = prog
        self.pc = pc
        self.stack = stack
        self.env = env
        self.blocks = blocks
        self.exc = exc
        # lists the code built that nothing outside the frame has seen yet: their
        # items are known (("L", id) values refer to them); see escape()
        self.lists = lists if lists is not None else {}
        # the cells, by name: read and written like locals; see CELLS in the docstring
        self.cells = cells if cells is not None else {}
        self.escaped = escaped

    def copy(self):
        return Side(self.prog, self.pc, list(self.stack), dict(self.env), self.blocks, self.exc,
                    {k: list(v) for k, v in self.lists.items()}, dict(self.cells), self.escaped)

    def pop(self, n=1):
        if n > len(self.stack):
            raise NotEquivalent("stack underflow in %s at offset %d" % (self.prog.name, self.offset))
        if n == 0:
            return []
        out = self.stack[-n:]
        del self.stack[-n:]
        return out

    @property
    def offset(self):
        ops = self.prog.ops
        return ops[self.pc][0] if self.pc < len(ops) else -1


class Program:
    """A code object read for the proof."""

    def __init__(self, code, qualname_prefix, fixed_global=None):
        self.code = code
        self.fixed_global = fixed_global or dynamo_global
        self.name = code.co_qualname if hasattr(code, "co_qualname") else code.co_name
        self.ops = read_ops(code)
        self.cellnames, self.freevars = _model_cells(self)
        self.functions: Dict[tuple, tuple] = {}  # 3.13: a function made -> its code value
        self.codes: List[types.CodeType] = []
        self.prefix = qualname_prefix
        #: 3.11+: per instruction, (target index, depth, lasti) of the handler covering it
        self.handlers = _handlers(code, self.ops) if not BLOCK_STACK else [None] * len(self.ops)
        self.ops = _as_method_loads(self.ops, self.handlers)
        self.lists_made = 0
        self.joins = self.live = None  # see analyse()
        self.loops = None  # see in_loop()

    def analyse(self):
        """Where paths meet (states are joined only there) and which locals each
        instruction may still read: needed only when the symbolic run is."""
        if self.joins is not None:
            return
        succ = _successors(self)
        preds = [0] * (len(self.ops) + 1)
        for nxt in succ:
            for k in nxt:
                preds[k] += 1
        self.joins = frozenset(k for k, n in enumerate(preds) if n > 1)
        # (every cycle takes an edge that goes back in the instruction order)
        self.loop_heads = frozenset(k for pc, nxt in enumerate(succ) for k in nxt if k <= pc)
        self.live = _liveness(self, succ)

    def in_loop(self, pc) -> bool:
        """Whether ``pc`` may lie in a loop: between a backward jump and its target
        (one that can run: 3.8 leaves the jump back of a loop that always breaks)."""
        if self.loops is None:
            reached = _reachable(self)
            self.loops = [(op.target, k) for k, (_, op) in enumerate(self.ops)
                          if op.target is not None and op.target <= k and k in reached]
        return any(t <= pc <= k for t, k in self.loops)

    def fresh_list(self):
        self.lists_made += 1
        return self.lists_made

    def handler(self, pc):
        """3.11+: (target index, depth, lasti) of the handler covering ``pc``, or None."""
        return self.handlers[pc]

    def value_of_const(self, value):
        return const(value, self.codes)

    def code_of(self, v) -> Optional[types.CodeType]:
        """The nested code object behind the value ``("code", name, k)``."""
        if v[0] != "code":
            return None
        same = [c for c in self.codes if c.co_name == v[1]]
        return same[v[2]] if v[2] < len(same) else None

    def qualname(self, v):
        """A qualified name the code gives a function or class it defines (<=3.10's
        MAKE_FUNCTION argument, a class body's ``__qualname__``), relative to the
        code's own: the decompiled text is compiled under another name."""
        if v[:2] != ("c", "str") or not self.prefix:
            return v
        name = ast.literal_eval(v[2])
        if name == self.prefix or name.startswith(self.prefix + "."):
            return ("qualname", "<self>" + name[len(self.prefix):])
        return v


#: the globals TorchDynamo installs for the code it writes (graphs, imports, resume
#: functions, builtins): they exist before that code runs and nothing rebinds them while
#: it runs, so reading one is no event. No other code uses these reserved names.
DYNAMO_GLOBALS = ("__compiled_fn_", "__import_", "__resume_at_", "__builtins_dict___")


def dynamo_global(name: str) -> bool:
    return name.startswith(DYNAMO_GLOBALS)


def _dynamo_or_builtin(name: str) -> bool:
    """In code Dynamo wrote, builtins are read from its own dict of them; the text reads
    them by name: both are the builtin, which the code does not rebind."""
    return name.startswith(DYNAMO_GLOBALS) or name in _BUILTIN_NAMES


_BUILTIN_NAMES = frozenset(dir(builtins))


_USES = {"load_fast": 1, "load_fast_bound": 1, "load_fast_and_clear": 1, "delete_fast": 1}


def _successors(prog, every_handler=True) -> List[List[int]]:
    """The instructions each instruction may go on to (exception handlers included;
    <=3.10 without ``every_handler``: only from the SETUP_* instruction, its target)."""
    ops = prog.ops
    n = len(ops)
    handlers = set()
    if BLOCK_STACK:
        handlers = {op.target for _, op in ops if op.kind.startswith("setup_")}
    # 3.8: END_FINALLY returns to where any CALL_FINALLY called the finally body from
    returns = [pc + 1 for pc, (_, op) in enumerate(ops) if op.kind == "call_finally"]
    succ = []
    for pc, (_, op) in enumerate(ops):
        kind = op.kind
        nxt = [] if kind in ("jump", "return", "return_const", "reraise") or (
            kind == "event" and op.key[0] == "RAISE_VARARGS") else [pc + 1]
        if op.target is not None:
            nxt.append(op.target)
        if kind == "end_finally":
            nxt.extend(returns)
        if BLOCK_STACK:
            if every_handler:
                nxt.extend(handlers)
        else:
            h = prog.handler(pc)
            if h is not None:
                nxt.append(h[0])
        succ.append([k for k in nxt if k < n])
    return succ


def _liveness(prog, succ) -> Optional[List[frozenset]]:
    """The locals each instruction may still read (a local no path reads again is dead:
    what it holds cannot matter). None when the code may read its whole frame
    (``locals()`` and kin): then every local counts."""
    if FRAME_READERS & set(prog.code.co_names):
        return None
    ops = prog.ops
    n = len(ops)
    uses, defs = [], []
    for _, op in ops:
        u, d = set(), set()
        if op.kind in _USES:
            u.add(op.arg)
        elif op.kind == "load_fast_load_fast":
            u.update(op.arg)
        elif op.kind == "store_fast":
            d.add(op.arg)
        elif op.kind == "store_fast_store_fast":
            d.update(op.arg)
        elif op.kind == "store_fast_load_fast":
            d.add(op.arg[0])
            u.add(op.arg[1])
        elif op.kind in ("load_deref", "delete_deref", "closure"):  # (cells: ("cell", name))
            u.add(("cell", op.arg))
            if op.kind == "closure":
                u.add(op.arg)
        elif op.kind == "store_deref":
            d.add(("cell", op.arg))
        uses.append(frozenset(u))
        defs.append(frozenset(d - u))
    empty = frozenset()
    live = [empty] * n
    changed = True
    while changed:
        changed = False
        for pc in range(n - 1, -1, -1):
            nxt = succ[pc]
            if len(nxt) == 1:  # most instructions: no union to build
                out = live[nxt[0]]
            else:
                out = empty.union(*(live[k] for k in nxt)) if nxt else empty
            if defs[pc]:
                out = out - defs[pc]
            new = uses[pc] | out if uses[pc] else out  # (frozensets: shared, never changed)
            if new is not live[pc] and new != live[pc]:
                live[pc] = new
                changed = True
    return live


def _handlers(code, ops) -> list:
    """The handler covering each instruction: the first entry of the exception table
    whose range holds its offset (entries applied last to first, so the first wins)."""
    offsets = [off for off, _ in ops]
    index = {off: k for k, off in enumerate(offsets)}
    out = [None] * len(ops)
    for start, end, target, depth, lasti in reversed(_exception_table(code)):
        for pc in range(bisect.bisect_left(offsets, start), bisect.bisect_left(offsets, end)):
            out[pc] = (index[target], depth, lasti)
    return out


def _exception_table(code):
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]


def _as_method_loads(ops, handlers):
    """Loads of an attribute for a call, written the one way: 3.11+ compiles ``x.f()``
    with a plain attribute load when ``x`` was bound by an import in the module (the NULL
    then comes with ``x``'s load, or after the attribute's on 3.13), with a method load
    elsewhere -- so text compiled outside its module differs there. Both leave the same
    stack and run the same events; the method load is kept."""
    targets = {op.target for _, op in ops if op.target is not None}
    targets.update(h[0] for h in handlers if h is not None)
    out = list(ops)
    for k in range(len(out) - 1):
        (off, x), (off2, y) = out[k], out[k + 1]
        if k + 1 in targets or x.kind != "event" or y.kind not in ("event", "const"):
            continue
        if (x.key[0] == "LOAD_GLOBAL" and x.null == "below" and y.kind == "event"
                and y.key[0] == "LOAD_ATTR" and y.null is None and y.pops == 1):
            out[k], out[k + 1] = (off, x._replace(null=None)), (off2, y._replace(null="below"))
        elif (x.key[0] == "LOAD_ATTR" and x.null is None and x.pops == 1 and y.kind == "const"
              and y.arg is NULL and NULL_ABOVE):
            out[k], out[k + 1] = (off, x._replace(null="above")), (off2, Op("nop"))
    return out


def _model_cells(prog):
    """(the cells the proof models, sorted; the free ones among them). A cell the code
    makes anew in its body (3.12+ comprehensions) is not modelled: its operations stay
    events, in order."""
    code = prog.code
    remade = set()
    prologue = True
    for _, op in prog.ops:
        if op.kind == "make_cell" and not prologue:
            remade.add(op.arg)
        elif op.kind not in ("nop", "make_cell"):
            prologue = False
    if remade:
        prog.ops = [(off, op if op.kind not in _CELL_KINDS or op.arg not in remade
                     else Op("nop") if op.kind == "make_cell" else cell_event(op))
                    for off, op in prog.ops]
    names = tuple(sorted(set(code.co_cellvars + code.co_freevars) - remade))
    return names, frozenset(code.co_freevars) - remade


_CELL_KINDS = ("load_deref", "store_deref", "delete_deref", "make_cell")


def initial(prog: Program) -> Side:
    code = prog.code
    nargs = (code.co_argcount + code.co_kwonlyargcount
             + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08))
    env = {name: UNBOUND for name in code.co_varnames}
    for k, name in enumerate(code.co_varnames[:nargs]):
        env[name] = ("arg", k)
    cells = {name: world_value(0, name) if name in prog.freevars else env.get(name, UNBOUND)
             for name in prog.cellnames}
    return Side(prog, 0, [], env, (), NONE, None, cells, prog.freevars)


def world_value(event, name):
    """What the cell ``name`` holds after event number ``event`` (0: on entry) ran code
    that may hold it: unknown, the same on both sides, possibly unbound."""
    return ("v?", ("w", event, name))


def is_world_value(v) -> bool:
    return v[0] == "v?" and isinstance(v[1], tuple) and v[1][0] == "w"


# ---------------------------------------------------------------- observations

class Obs:
    """What a side does next that the other side must match.

    kind: "event" (``key``, ``inputs``; ``side`` is at the instruction), "decide"
    (``key`` is the tested bool; ``succ`` the sides for true and false),
    "return"/"raise" (``key`` is the value), "diverge"."""

    __slots__ = ("kind", "key", "inputs", "side", "op", "succ")

    def __init__(self, kind, key=None, inputs=None, side=None, op=None, succ=None):
        self.kind, self.key, self.inputs, self.side, self.op, self.succ = kind, key, inputs, side, op, succ


def _decision(cond, if_true: Side, if_false: Side):
    """A branch on ``cond`` (a bool), ``not`` layers folded into the outcome; a
    branch on a constant is no branch (the side to go on with)."""
    while cond[0] == "not":
        cond = cond[1]
        if_true, if_false = if_false, if_true
    if cond in (TRUE, FALSE):
        return if_true if cond == TRUE else if_false
    return Obs("decide", cond, succ=(if_true, if_false))


def observe(side: Side, stop_at_joins=True, resumed=False, loop_heads_only=False):
    """Run ``side``'s pure instructions up to its next observation, or up to a join
    (``Obs("join")``; with ``resumed``, not the one it stands at; with
    ``loop_heads_only``, only a join a loop comes back to).

    Returns an :class:`Obs` (``side`` is consumed)."""
    seen = set()
    start = side.pc if resumed else -1
    joins = side.prog.joins if stop_at_joins else ()
    if loop_heads_only:
        joins = side.prog.loop_heads
    while True:
        if side.pc >= len(side.prog.ops):
            raise NotEquivalent("ran off the end of %s" % side.prog.name)
        if side.pc in joins and side.pc != start:
            return Obs("join", side=side)
        if side.pc in seen:
            # a loop of pure instructions only: runs forever
            return Obs("diverge")
        seen.add(side.pc)
        result = _step(side)
        if result is None:
            continue
        if isinstance(result, Side):
            side = result
            continue
        return result


def _step(s: Side):
    """Execute one instruction of ``s`` in place if it is pure (returns None or
    the side to go on with); otherwise return the :class:`Obs` it makes."""
    off, op = s.prog.ops[s.pc]
    kind = op.kind
    if kind == "nop":
        s.pc += 1
    elif kind == "load_fast":
        return _load_fast(s, op.arg)
    elif kind == "load_fast_bound":
        s.stack.append(_bound(s, op.arg))
        s.pc += 1
    elif kind == "load_fast_load_fast":
        s.stack.extend((_bound(s, op.arg[0]), _bound(s, op.arg[1])))
        s.pc += 1
    elif kind == "load_fast_and_clear":
        s.stack.append(s.env.get(op.arg, UNBOUND))
        s.env[op.arg] = UNBOUND
        s.pc += 1
    elif kind == "store_fast":
        s.env[op.arg] = s.pop()[0]
        s.pc += 1
    elif kind == "store_fast_store_fast":
        s.env[op.arg[0]] = s.pop()[0]
        s.env[op.arg[1]] = s.pop()[0]
        s.pc += 1
    elif kind == "store_fast_load_fast":
        s.env[op.arg[0]] = s.pop()[0]
        s.stack.append(_bound(s, op.arg[1]))
        s.pc += 1
    elif kind == "delete_fast":
        return _delete(s, op, s.env, "DELETE_FAST")
    elif kind == "const":
        s.stack.append(s.prog.value_of_const(op.arg))
        s.pc += 1
    elif kind == "load_deref":
        return _load_deref(s, op.arg)
    elif kind == "store_deref":
        s.cells[op.arg] = s.pop()[0]
        s.pc += 1
    elif kind == "delete_deref":
        # (an own cell's unbound name raises as a local's does)
        return _delete(s, op, s.cells, "DELETE_DEREF" if op.arg in s.prog.freevars else "DELETE_FAST")
    elif kind == "make_cell":  # (in the prologue: the cells start as initial() makes them)
        s.env[op.arg] = UNBOUND  # the local's slot holds the cell from here on
        s.pc += 1
    elif kind == "closure":
        s.stack.append(_closure_load(s, op))
        s.pc += 1
    elif kind == "pop":
        s.pop(op.arg)
        s.pc += 1
    elif kind == "end_send":
        v = s.pop(1 + RECEIVER_SLOTS)[-1]  # (the receiver, 3.15's NULL beside it, the value)
        s.stack.append(v)
        s.pc += 1
    elif kind == "copy":
        if op.arg > len(s.stack):
            raise NotEquivalent("stack underflow")
        s.stack.append(s.stack[-op.arg])
        s.pc += 1
    elif kind == "dup_top_two":
        s.stack.extend(s.stack[-2:])
        s.pc += 1
    elif kind == "swap":
        n = op.arg
        if n > len(s.stack):
            raise NotEquivalent("stack underflow")
        s.stack[-1], s.stack[-n] = s.stack[-n], s.stack[-1]
        s.pc += 1
    elif kind == "rot":
        n = op.arg
        if n > len(s.stack):
            raise NotEquivalent("stack underflow")
        top = s.stack.pop()
        s.stack.insert(len(s.stack) - n + 1, top)
        s.pc += 1
    elif kind == "build_tuple":
        s.stack.append(tuple_value(s.pop(op.arg)))
        s.pc += 1
    elif kind == "build_string":
        s.stack.append(("str",) + tuple(s.pop(op.arg)))
        s.pc += 1
    elif kind == "build_slice":
        s.stack.append(("slice",) + tuple(s.pop(op.arg)))
        s.pc += 1
    elif kind == "is":
        if _has_list(s.stack[-2:]):  # identity of a list: an event that lets it escape
            return Obs("event", ("IS_OP",), tuple(s.stack[-2:]), s, op)  # ``is not``: negated
        a, b = s.pop(2)
        v = ("is", a, b)
        s.stack.append(("not", v) if op.arg else v)
        s.pc += 1
    elif kind in ("not", "to_bool"):
        v = s.stack[-1]
        if kind == "not" and v in (TRUE, FALSE):
            # (``not 4`` whose constant a removed conditional expression left
            # unfolded, ``not (x if 0 else 4)``: the compiler folds the text's)
            s.stack[-1] = FALSE if v == TRUE else TRUE
            s.pc += 1
            return None
        if is_bool(v):
            s.stack[-1] = ("not", v) if kind == "not" else v
            s.pc += 1
            return None
        t = truth_of_const(v)
        if t is not None:
            s.stack[-1] = TRUE if t != (kind == "not") else FALSE
            s.pc += 1
            return None
        return Obs("event", ("bool",), (v,), s, op)
    elif kind == "jump":
        s.pc = op.target
    elif kind == "cond":
        return _cond(s, op)
    elif kind in ("for_iter", "send", "exc_match_jump"):
        n = {"for_iter": 1, "send": 2, "exc_match_jump": 2}[kind]
        if len(s.stack) < n:
            raise NotEquivalent("stack underflow")
        return Obs("event", op.key, tuple(s.stack[-n:]), s, op)
    elif kind == "return":
        return Obs("return", s.pop()[0], side=s)
    elif kind == "return_const":
        return Obs("return", s.prog.value_of_const(op.arg), side=s)
    elif kind == "push_exc_info":
        v = s.pop()[0]
        s.stack.extend((s.exc, v))
        s.exc = v
        s.pc += 1
    elif kind == "pop_except":
        if BLOCK_STACK:
            # pops the handler's block and the (tb, value, type) saved under the
            # exception it handled (a return value may sit below them)
            if not s.blocks or s.blocks[-1][0] != "except":
                raise NotEquivalent("POP_EXCEPT outside a handler")
            s.exc = unpart(s.pop(3)[1])
            s.blocks = s.blocks[:-1]
        else:
            s.exc = s.pop()[0]
        s.pc += 1
    elif kind == "reraise":
        if BLOCK_STACK:
            exc = unpart(s.pop(3)[1])
        else:
            exc = s.pop()[0]
        return raise_into(s, exc)
    elif kind == "setup_finally":
        s.blocks = s.blocks + (("finally", op.target, len(s.stack)),)
        s.pc += 1
    elif kind == "setup_async_with":
        s.blocks = s.blocks + (("finally", op.target, len(s.stack) - 1),)
        s.pc += 1
    elif kind == "setup_with":
        return Obs("event", ("SETUP_WITH",), (s.stack[-1],) if s.stack else (), s, op)
    elif kind == "pop_block":
        if not s.blocks or s.blocks[-1][0] != "finally":
            raise NotEquivalent("POP_BLOCK without a block")
        s.blocks = s.blocks[:-1]
        s.pc += 1
    elif kind in ("event", "contains"):
        return _event_obs(s, op)
    elif kind == "begin_finally":
        s.stack.append(FIN_NONE)
        s.pc += 1
    elif kind == "call_finally":
        s.stack.append(("fin", "return", s.pc + 1))
        s.pc = op.target
    elif kind == "end_finally":
        return _end_finally(s)
    elif kind == "pop_finally":
        _pop_finally(s, op.arg)
    elif kind == "with_cleanup_start":
        exc = s.stack[-1] if s.stack else None
        if exc == FIN_NONE and len(s.stack) >= 2:
            return Obs("event", op.key, (s.stack[-2], NONE), s, op)
        if exc is not None and exc[:2] == ("part", "type") and len(s.stack) >= 7:
            return Obs("event", op.key, (s.stack[-7], exc[2]), s, op)
        raise NotEquivalent("WITH_CLEANUP_START on an unknown value in %s" % s.prog.name)
    elif kind == "with_cleanup_finish":
        return _with_cleanup_finish(s, op)
    else:
        raise NotEquivalent("instruction %s is not modelled" % (op.arg,))
    return None


# ---- 3.8's finally subroutines (FINALLY_SUBROUTINES)

FIN_NONE = ("fin", "none")  # the NULL of BEGIN_FINALLY: the finally body was entered normally


def _end_finally(s: Side):
    """END_FINALLY: go on (entered normally), return to the caller (CALL_FINALLY's
    address) or raise the exception again (the body was entered by it)."""
    top = s.stack[-1] if s.stack else None
    if top == FIN_NONE:
        s.pop()
        s.pc += 1
        return None
    if top is not None and top[:2] == ("fin", "return"):
        s.pop()
        s.pc = top[2]
        return None
    if top is not None and top[:2] == ("part", "type"):
        s.pop(3)
        return raise_into(s, top[2])
    raise NotEquivalent("END_FINALLY on an unknown value in %s at offset %d" % (s.prog.name, s.offset))


def _pop_finally(s: Side, preserve_tos):
    """POP_FINALLY: leave a finally body early (``return``/``break`` in it): drop what it
    was entered with; for an exception also its handler's block, restoring the exception
    handled before."""
    res = s.pop()[0] if preserve_tos else None
    top = s.pop()[0]
    if top[0] != "fin":
        if top[:2] != ("part", "type"):
            raise NotEquivalent("POP_FINALLY on an unknown value in %s" % s.prog.name)
        s.pop(2)
        if not s.blocks or s.blocks[-1][0] != "except":
            raise NotEquivalent("POP_FINALLY outside a handler")
        level = s.blocks[-1][2]
        if len(s.stack) != level + 3:
            raise NotEquivalent("POP_FINALLY: stack and handler disagree")
        s.exc = unpart(s.stack[level + 1])
        del s.stack[level:]
        s.blocks = s.blocks[:-1]
    if preserve_tos:
        s.stack.append(res)
    s.pc += 1


def _with_cleanup_finish(s: Side, op):
    """WITH_CLEANUP_FINISH: after ``__exit__`` returned ``res`` for an exception, a true
    ``res`` swallows it."""
    if len(s.stack) < 2:
        raise NotEquivalent("stack underflow at WITH_CLEANUP_FINISH")
    res, exc = s.stack[-1], s.stack[-2]
    if exc == NONE:  # left normally: __exit__'s result is dropped
        s.pop(2)
        s.pc += 1
        return None
    if not is_bool(res):
        t = truth_of_const(res)
        if t is None:
            return Obs("event", ("bool",), (res,), s, op)
        res = TRUE if t else FALSE
    return _swallow_or_not(s, res)


def _swallow_or_not(s: Side, res):
    before = s.copy()
    s.pop(2)
    swallowed = s.copy()
    if not swallowed.blocks or swallowed.blocks[-1][0] != "except":
        raise NotEquivalent("WITH_CLEANUP_FINISH outside a handler")
    level = swallowed.blocks[-1][2]
    if len(swallowed.stack) < level + 3:
        raise NotEquivalent("stack underflow at WITH_CLEANUP_FINISH")
    swallowed.exc = unpart(swallowed.stack[level + 1])
    del swallowed.stack[level:]
    swallowed.blocks = swallowed.blocks[:-1]
    swallowed.stack.append(FIN_NONE)
    swallowed.pc += 1
    s.pc += 1
    got = _decision(res, swallowed, s)
    if isinstance(got, Obs):
        got.side = before
    return got


def _fin_shape(side: Side) -> tuple:
    """Where 3.8's finally markers sit on the stack: states are joined only when these
    agree (a finally body called from two places is explored once per caller)."""
    return tuple((k, v) for k, v in enumerate(side.stack) if v[0] == "fin")


def _bound(s: Side, name):
    """3.12+ ``LOAD_FAST``: the compiler proved the local bound."""
    v = s.env.get(name, UNBOUND)
    if v == UNBOUND:
        raise NotEquivalent("LOAD_FAST of the unbound local %r in %s" % (name, s.prog.name))
    return v


def _load_fast(s: Side, name):
    v = s.env.get(name, UNBOUND)
    if v == UNBOUND:
        return Obs("event", ("UNBOUND_LOCAL", name), (), s, None)
    if v[0] == "v?":
        return Obs("event", ("LOAD_MAYBE_UNBOUND", name), (v,), s, None)
    s.stack.append(v)
    s.pc += 1
    return None


def _closure_load(s: Side, op):
    """The cell ``op`` loads for a closure. 3.13 loads it with LOAD_FAST from the local's
    slot, where an inlined comprehension keeps its own variable of the same name
    meanwhile (set by STORE_FAST, the cell put back after it): that value, when set."""
    if op.key != "fast":
        return ("cell", op.arg)
    v = s.env.get(op.arg, UNBOUND)
    if v == UNBOUND:
        return ("cell", op.arg)
    if v[0] == "v?":
        raise NotEquivalent("LOAD_FAST of %r: the cell or a value, unknown which" % op.arg)
    return v


def _delete(s: Side, op, table, event_name):
    """``del name`` of a local (``table`` s.env) or a cell (s.cells): a name known to be
    bound is unbound with no event; one that is unbound or may be is the event
    ``event_name`` (it may raise)."""
    v = table.get(op.arg, UNBOUND)
    if v != UNBOUND and v[0] != "v?":
        table[op.arg] = UNBOUND
        s.pc += 1
        return None
    return Obs("event", (event_name, op.arg, v == UNBOUND), (v,), s, op)


def _load_deref(s: Side, name):
    """A cell's value: read like a local (an unbound own cell raises as an unbound local
    does; a free one raises NameError)."""
    v = s.cells.get(name, UNBOUND)
    free = name in s.prog.freevars
    if v == UNBOUND:
        return Obs("event", ("UNBOUND_FREE" if free else "UNBOUND_LOCAL", name), (), s, None)
    if v[0] == "v?":
        return Obs("event", ("LOAD_MAYBE_UNBOUND", name) + (("free",) if free else ()), (v,), s, None)
    s.stack.append(v)
    s.pc += 1
    return None


def _cond(s: Side, op):
    v = s.stack[-1]
    how = op.arg
    if how not in ("none", "not_none") and not is_bool(v):
        t = truth_of_const(v)
        if t is None:
            return Obs("event", ("bool",), (v,), s, op)
        v = TRUE if t else FALSE
    before = s.copy()  # the state at the branch, where paths are joined
    if how in ("none", "not_none"):
        s.pop()
        cond = FALSE if v[0] == "L" else ("is", v, NONE)
        got = _branch(s, cond, how == "none", op.target, keep=False)
    else:
        got = _cond_on_bool(s, v, op)
    if isinstance(got, Obs):
        got.side = before
    return got


def _cond_on_bool(s: Side, b, op):
    """``s`` at conditional jump ``op`` whose tested value (on top) is the bool ``b``."""
    how = op.arg
    jump_if = how in ("true", "true_or_pop")
    keep = how in ("true_or_pop", "false_or_pop")
    if not keep:
        s.pop()
    return _branch(s, b, jump_if, op.target, keep)


def _branch(s: Side, cond, jump_if, target, keep):
    jumped = s.copy()
    jumped.pc = target
    fell = s
    fell.pc += 1
    if keep:
        fell.pop()  # *_OR_POP: the value stays only on the jump
    if_true, if_false = (jumped, fell) if jump_if else (fell, jumped)
    got = _decision(cond, if_true, if_false)
    return got


def _event_obs(s: Side, op):
    if _list_step(s, op):
        return None
    if op.arith is not None and _fold(s, op):
        return None
    if op.key[0] == "LOAD_GLOBAL" and s.prog.fixed_global(op.key[1]):
        if op.null == "below":
            s.stack.append(NULL_VALUE)
        s.stack.append(("global", op.key[1]))
        if op.null == "above":
            s.stack.append(NULL_VALUE)
        s.pc += 1
        return None
    need = max(op.pops, op.deep or 0)
    if need > len(s.stack):
        raise NotEquivalent("stack underflow in %s at offset %d" % (s.prog.name, s.offset))
    inputs = tuple(s.stack[len(s.stack) - op.pops:]) if op.pops else ()
    if op.key == ("STORE_NAME", "__firstlineno__", 1, 0):
        inputs = (("lineno",),)  # 3.13 class bodies record their line: layout, not meaning
    elif op.key == ("STORE_NAME", "__qualname__", 1, 0):
        inputs = (s.prog.qualname(inputs[0]),)
    elif op.key[0] == "MAKE_FUNCTION" and PY < (3, 11):
        inputs = inputs[:-1] + (s.prog.qualname(inputs[-1]),)
    key = op.key
    if key[0] == "MAKE_FUNCTION" and PY < (3, 13) and key[1] & 8:
        code_at = len(inputs) - (2 if PY < (3, 11) else 1)
        closure = _closure(s.prog, inputs[code_at], inputs[code_at - 1])
        if closure == ("closure",):  # no cell the code reads: no closure
            key = (key[0], key[1] & ~8, key[2] - 1, key[3])
            inputs = inputs[:code_at - 1] + inputs[code_at:]
        elif closure is not None:
            inputs = inputs[:code_at - 1] + (closure,) + inputs[code_at:]
    elif key[:2] == ("SET_FUNCTION_ATTRIBUTE", 8):
        closure = _closure(s.prog, s.prog.functions.get(inputs[1], NONE), inputs[0])
        if closure == ("closure",):
            fn = s.pop(2)[1]
            s.stack.append(fn)
            s.pc += 1
            return None
        if closure is not None:
            inputs = (closure, inputs[1])
    if op.callee_slots == 2:
        inputs = tuple(v for v in inputs[:2] if v != NULL_VALUE) + inputs[2:]
    if key[0] == "CALL" and key[1] == ("ex", False) and inputs:
        # f(*args) with args a list or tuple of known items is the call f(item, ...)
        # (only a star call: ``f([a, 1])`` passes one list, not two items)
        star = inputs[:-1] if EX_READS_KEYWORD_SLOT and inputs[-1] == NULL_VALUE else inputs
        args = None
        if star is not inputs or not EX_READS_KEYWORD_SLOT:
            args = s.lists.get(star[-1]) if star[-1][0] == "L" else _items(star[-1])
        if args is not None:
            key = ("CALL", None, False, len(args), None)
            inputs = star[:-1] + tuple(args)
    elif key[0] == "BUILD_CONST_KEY_MAP" and inputs and inputs[-1][:2] == ("c", "tuple"):
        # the same dict as BUILD_MAP with the keys beside their values
        pairs = zip(inputs[-1][2], inputs[:-1])
        key = ("BUILD_MAP", key[1], 2 * key[1], 1)
        inputs = tuple(x for pair in pairs for x in pair)
    elif key[0] == "FORMAT_VALUE" and key[1] & 4 and inputs and inputs[-1] == ("c", "str", "''"):
        key = ("FORMAT_VALUE", key[1] & ~4, 1, 1)  # an empty format spec is no spec
        inputs = inputs[:-1]
    if op.deep:
        inputs = (s.stack[-op.deep],) + inputs
        if op.key[0] == "WITH_EXCEPT_START" and BLOCK_STACK:
            inputs += tuple(s.stack[-3:])
        elif op.key[0] == "WITH_EXCEPT_START":
            inputs += (s.stack[-1],)
    return Obs("event", key, inputs, s, op)


def _closure(prog, code_value, cells):
    """The closure a function made from ``code_value`` gets from the tuple ``cells``,
    written as the cells its code reads, each under the name the code reads it by
    (a cell it never reads makes no difference: the compiler passes one for a
    reference it then optimized away), or None when unknown."""
    code = prog.code_of(code_value)
    items = _items(cells)
    if code is None or items is None or len(items) != len(code.co_freevars):
        return None
    used = _used_freevars(code)
    return ("closure",) + tuple(("free", name, cell) for name, cell in zip(code.co_freevars, items)
                                if name in used)


_USED_FREEVARS: Dict[types.CodeType, frozenset] = {}


def _used_freevars(code) -> frozenset:
    got = _USED_FREEVARS.get(code)
    if got is None:
        free = frozenset(code.co_freevars)
        if FRAME_READERS & set(code.co_names):
            got = free
        else:
            got = free & _cells_reached(Program(code, None), _passed_and_read(code))
        if len(_USED_FREEVARS) > 4096:
            _USED_FREEVARS.clear()
        _USED_FREEVARS[code] = got
    return got


_NUMBERS = ("int", "float", "complex", "bool")
_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
              "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_, "|": operator.or_,
              "^": operator.xor, "neg": operator.neg, "pos": operator.pos, "inv": operator.invert,
              "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
              ">": operator.gt, ">=": operator.ge}
_STORES = ("store_fast", "store_deref", "store_fast_load_fast", "store_fast_store_fast")
_FOLD_BITS = 4096  # no int past this size is made (the compiler's own folding stops far below)


def _fold(s: Side, op) -> bool:
    """Do the arithmetic or comparison ``op`` in place when its operands are constant
    numbers (builtin types: no code of the user's runs; the compiler folds the same
    arithmetic when the source spells it on constants, and a text may spell a comparison
    of constants by its outcome). Returns whether it did."""
    n = op.pops
    if len(s.stack) < n or n not in (1, 2):
        return False
    operands = s.stack[-n:]
    if any(v[0] != "c" or v[1] not in _NUMBERS for v in operands):
        return False
    if s.prog.in_loop(s.pc) and s.prog.ops[s.pc + 1][1].kind in _STORES:
        # (a loop's counter, stored back, is no constant the compiler folds: folding it
        # on one side past the loop's join, where the other side waits with it
        # generalized, would put the two out of step)
        return False
    try:
        values = [ast.literal_eval(v[2]) for v in operands]
    except (ValueError, SyntaxError):  # nan, inf: their reprs are no literals
        return False
    if not _small_enough(op.arith, values):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (~True warns on 3.12+): leave it to run
            result = _OPERATORS[op.arith](*values)
    except Exception:  # noqa: BLE001 - 1 / 0 and kin: the operation raises when run
        return False
    if type(result).__name__ not in _NUMBERS:
        return False
    s.pop(n)
    s.stack.append(const(result, []))
    s.pc += 1
    return True


def _small_enough(symbol, values) -> bool:
    ints = [abs(v) for v in values if isinstance(v, int)]
    if any(v.bit_length() > _FOLD_BITS for v in ints):
        return False
    if symbol == "**" and len(ints) == 2:
        base, exp = values
        return exp <= _FOLD_BITS and (abs(base) <= 1 or exp * abs(base).bit_length() <= _FOLD_BITS)
    if symbol == "<<" and len(ints) == 2:
        return values[1] <= _FOLD_BITS
    return True


def _passed_and_read(code) -> frozenset:
    """The cells that the code objects nested in ``code`` read (or pass on to code that
    does): only those can be read through a closure ``code`` makes."""
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return frozenset().union(*(_used_freevars(c) for c in nested))


def _cells_reached(prog, passed_read) -> set:
    """The cells the instructions reachable from the start of ``prog`` read, write or
    pass on to code that reads them (``passed_read``: a cell passed on only to code
    that never reads it, a reference the compiler optimized away in a lambda's
    generator expression, is not read through this closure either; 3.8 leaves
    unreachable code in place)."""
    names = set()
    for pc in _reachable(prog):
        op = prog.ops[pc][1]
        if op.kind in _CELL_KINDS or op.kind == "closure" and op.arg in passed_read:
            names.add(op.arg)
        elif op.kind == "event" and op.key[0] in _CELL_EVENTS:
            names.add(op.key[1])
    return names


def _reachable(prog) -> set:
    """The instructions reachable from the start of ``prog`` (<=3.10: a handler only
    once the SETUP_* instruction that pushes its block is)."""
    succ = _successors(prog, every_handler=False)
    seen, work = {0}, [0]
    while work:
        pc = work.pop()
        for k in succ[pc]:
            if k not in seen:
                seen.add(k)
                work.append(k)
    return seen


_CELL_EVENTS = ("LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF")


def _has_list(values) -> bool:
    return any(isinstance(v, tuple) and v and (v[0] == "L" or _has_list(v[1:])) for v in values)


def _int_index(v, n):
    """The index a constant int ``v`` denotes in a sequence of ``n`` items, else None."""
    if v[:2] != ("c", "int"):
        return None
    k = int(v[2])
    if -n <= k < n:
        return k % n
    return None


def _const_key(v, n):
    """The int index (within ``n`` items) or slice a constant ``v`` denotes, else None."""
    if v[0] == "slice":
        parts = []
        for p in v[1:]:
            if p == NONE:
                parts.append(None)
            elif p[:2] == ("c", "int"):
                parts.append(int(p[2]))
            else:
                return None
        return slice(*parts)
    return _int_index(v, n)


def _items(v):
    """The items of a tuple or list whose items are all known, else None."""
    if v[0] == "tuple":
        items = list(v[1:])
    elif v[:2] == ("c", "tuple"):
        items = list(v[2])
    else:
        return None
    return items


def _list_step(s: Side, op) -> bool:
    """Do ``op`` in place when it only builds, fills or reads a list that has not escaped,
    or reads a known tuple (no code runs); return whether it did."""
    name = op.key[0] if op.key else None
    st = s.stack
    if name == "BUILD_LIST":
        items = s.pop(op.pops)
        lid = ("L", s.prog.fresh_list())
        s.lists[lid] = items
        st.append(lid)
    elif name in ("LIST_APPEND", "LIST_EXTEND") and len(st) >= op.deep and st[-op.deep] in s.lists:
        target = s.lists[st[-op.deep]]
        if name == "LIST_APPEND":
            target.append(st[-1])
        else:
            got = _items(st[-1]) if st[-1][0] != "L" else s.lists.get(st[-1])
            if got is None:
                return False
            target.extend(got)
        st.pop()
    elif name == "STORE_SUBSCR" and len(st) >= 3 and st[-2] in s.lists:
        items = s.lists[st[-2]]
        k = _const_key(st[-1], len(items))
        if k is None:
            return False
        if isinstance(k, slice):
            new = s.lists.get(st[-3]) if st[-3][0] == "L" else _items(st[-3])
            if new is None or (k.step not in (None, 1) and len(range(*k.indices(len(items)))) != len(new)):
                return False
            items[k] = list(new)
        else:
            items[k] = st[-3]
        s.pop(3)
    elif name == "DELETE_SUBSCR" and len(st) >= 2 and st[-2] in s.lists:
        items = s.lists[st[-2]]
        k = _const_key(st[-1], len(items))
        if k is None:
            return False
        del items[k]
        s.pop(2)
    elif (name == "BINARY_SUBSCR" and len(st) >= 2 and st[-2][0] == "global"
          and st[-2][1].startswith("__builtins_dict___") and st[-1][:2] == ("c", "str")):
        # Dynamo reads builtins from a dict of its own: the builtin, fixed like its globals
        key = ast.literal_eval(s.pop(2)[1][2])
        st.append(("global", key))
    elif name == "BINARY_SUBSCR" and len(st) >= 2 and st[-2][0] == "gout" and st[-1][:2] == ("c", "int"):
        # an item of the tuple a compiled graph returned: no code runs
        item = ("gitem",) + tuple(s.pop(2))
        st.append(item)
    elif name == "BINARY_SUBSCR" and len(st) >= 2:
        seq = s.lists.get(st[-2]) if st[-2][0] == "L" else _items(st[-2])
        k = None if seq is None else _const_key(st[-1], len(seq))
        if k is None:
            return False
        is_list = st[-2][0] == "L"
        s.pop(2)
        if not isinstance(k, slice):
            st.append(seq[k])
        elif is_list:  # a new list
            lid = ("L", s.prog.fresh_list())
            s.lists[lid] = seq[k]
            st.append(lid)
        else:
            st.append(tuple_value(seq[k]))
    elif (name == "LIST_TO_TUPLE" or op.key == ("CALL_INTRINSIC_1", 6, 1, 1)) and st and st[-1] in s.lists:
        st[-1] = tuple_value(s.lists[st[-1]])
    elif name == "UNPACK_SEQUENCE" and st:
        seq = s.lists.get(st[-1]) if st[-1][0] == "L" else _items(st[-1])
        if seq is None or len(seq) != op.pushes:
            return False
        s.pop()
        st.extend(reversed(seq))
    else:
        return False
    s.pc += 1
    return True


def escape(side: Side, values, tag):
    """``values`` with every list of ``side`` in them written out as its items (each
    list numbered by first appearance, so aliasing shows), and those lists made opaque
    objects (``(tag, k)``) from here on: the operation they are handed to may keep
    them, change them, compare their identity."""
    order = []
    written = tuple(_written_out(v, side, order) for v in values)
    if order:
        mapping = {lid: tag + (k,) for k, lid in enumerate(order)}
        _rename_lists(side, mapping)
    return written


# The recursive walks below are module functions taking their state as arguments: a nested
# function that calls itself is a reference cycle (function -> cell -> function), and the
# proof makes thousands of them per decompile for the cyclic collector to find.
def _written_out(v, side: Side, order: list):
    if not isinstance(v, tuple) or not v:
        return v
    if v[0] == "L":
        if v in order:
            return ("listref", order.index(v))
        order.append(v)
        return ("list", order.index(v)) + tuple(_written_out(x, side, order) for x in side.lists.get(v, ()))
    if v[0] in ATOMS or v[0] in GROUND:
        return v
    return tuple(_written_out(x, side, order) if isinstance(x, tuple) else x for x in v)


def _lists_written(side: Side, values) -> list:
    """The lists ``escape`` would write out for ``values``, without changing ``side``."""
    copy = side.copy()
    return [v for v in _walk(escape(copy, values, ("esc", "probe"))) if v[0] == "list"]


def _lists_in_order(side: Side, values) -> list:
    """The ids of ``side``'s lists reachable from ``values``, by first appearance."""
    order = []

    def visit(v):
        if not isinstance(v, tuple) or not v:
            return
        if v[0] == "L":
            if v not in order:
                order.append(v)
                for x in side.lists.get(v, ()):
                    visit(x)
            return
        if v[0] not in ATOMS and v[0] not in GROUND:
            for x in v:
                visit(x)

    for v in values:
        visit(v)
    return order


def _flat_items(side: Side, lid):
    """The items of list ``lid`` when none of them is (or holds) a list, else None."""
    items = tuple(side.lists.get(lid, ()))
    if any(v[0] == "L" for v in _walk(items)):
        return None
    return items


def _pair_lists(a: Side, b: Side, va, vb, tag):
    """At a join where the two sides hold different lists (one made a list that the
    other makes later, or holds one the other dropped), each list of ``a`` is paired
    with a list of ``b`` holding the same items (neither holding a list): nothing
    outside the frame has seen either, so one is as good as the other, and the pair
    becomes one opaque object. A list left without a partner becomes an object
    only its own side knows: any later use of it must be matched by the other side,
    which it cannot be, so the proof then fails."""
    oa, ob = _lists_in_order(a, va), _lists_in_order(b, vb)
    free = [(lid, _flat_items(b, lid)) for lid in ob]
    ma, mb = {}, {}
    for lid in oa:
        items = _flat_items(a, lid)
        if items is None:
            continue
        for k, (other, its) in enumerate(free):
            if its == items:
                ma[lid] = mb[other] = tag + (len(ma),)
                del free[k]
                break
    for side, order, mapping, who in ((a, oa, ma, "a"), (b, ob, mb, "b")):
        for k, lid in enumerate(order):
            if lid not in mapping:
                mapping[lid] = tag + (who, k)
        _rename_lists(side, mapping)
        side.lists = {}


def _renamed(v, mapping):
    if not isinstance(v, tuple) or not v:
        return v
    if v[0] == "L":
        return mapping.get(v, v)
    if v[0] in ATOMS or v[0] in GROUND:
        return v
    return tuple(_renamed(x, mapping) if isinstance(x, tuple) else x for x in v)


def _rename_lists(side: Side, mapping):
    side.stack = [_renamed(v, mapping) for v in side.stack]
    side.env = {n: _renamed(v, mapping) for n, v in side.env.items()}
    side.cells = {n: _renamed(v, mapping) for n, v in side.cells.items()}
    side.exc = _renamed(side.exc, mapping)
    side.lists = {lid: [_renamed(x, mapping) for x in items] for lid, items in side.lists.items()
                  if lid not in mapping}


def after_event(obs: Obs, results):
    """The side after its event ``obs`` completed normally with ``results``
    (a tuple of fresh values): a :class:`Side`, or an :class:`Obs` for a branch."""
    s, op = obs.side, obs.op
    key = obs.key
    if key[0] == "UNBOUND_LOCAL":
        return None  # always raises
    if key[0] == "LOAD_MAYBE_UNBOUND":
        # loaded: bound, and holding that value until something runs that may change it
        # (a load again is no event then; other code's writes to a held cell come after
        # an event that runs code, which refreshes the cell)
        value, name = obs.inputs[0], key[1]
        if s.cells.get(name) == value:
            s.cells[name] = results[0]
        elif s.env.get(name) == value:
            s.env[name] = results[0]
        s.stack.append(results[0])
        s.pc += 1
        return s
    if op is not None and op.kind == "delete_deref":
        if key[2]:
            return None
        s.cells[key[1]] = UNBOUND
        s.pc += 1
        return s
    if key[0] == "DELETE_FAST":
        if key[2]:
            return None
        s.env[key[1]] = UNBOUND
        s.pc += 1
        return s
    if key[0] in ("UNBOUND_FREE",):
        return None  # always raises
    if key == ("bool",):
        t = results[0]
        if op.kind == "cond":
            return _cond_on_bool(s, t, op)
        if op.kind == "with_cleanup_finish":
            return _swallow_or_not(s, t)
        s.stack[-1] = ("not", t) if op.kind == "not" else t
        s.pc += 1
        return s
    if op.kind == "for_iter":
        done = results[1]
        exhausted = s.copy()
        if not ITERATOR_POPPED_BY_POP_ITER:
            exhausted.pop()
        exhausted.pc = op.target
        s.stack.append(results[0])
        s.pc += 1
        return Obs("decide", done, succ=(exhausted, s))
    if op.kind == "send":
        done = results[1]
        finished = s.copy()
        if PY < (3, 12):
            finished.pop(2)
        else:
            finished.pop()
        finished.stack.append(results[0])
        finished.pc = op.target
        s.pop()
        s.stack.append(results[0])
        s.pc += 1
        return Obs("decide", done, succ=(finished, s))
    if op.kind == "exc_match_jump":
        s.pop(2)
        matched = s.copy()
        matched.pc += 1
        s.pc = op.target
        return Obs("decide", results[0], succ=(matched, s))
    if op.kind == "with_cleanup_start":
        # entered normally: [exit, NULL] -> [NULL, None, res]; by an exception:
        # [exit, 3 saved, tb, value, type] -> [3 saved, NULL, tb, value, type, type, res],
        # the handler's block one lower
        if s.stack[-1] == FIN_NONE:
            del s.stack[-2]
            s.stack.extend((NONE, results[0]))
        else:
            del s.stack[-7]
            s.stack.insert(len(s.stack) - 3, FIN_NONE)
            s.stack.extend((s.stack[-1], results[0]))
            kind, handler, level = s.blocks[-1]
            s.blocks = s.blocks[:-1] + ((kind, handler, level - 1),)
        s.pc += 1
        return s
    if op.kind == "setup_with":
        s.pop()
        s.stack.append(results[0])
        s.blocks = s.blocks + (("finally", op.target, len(s.stack)),)
        s.stack.append(results[1])
        s.pc += 1
        return s
    if key[0] == "RAISE_VARARGS":
        return None
    if key[0] == "IS_OP":  # the identity of a list (which escaped): a bool
        s.pop(2)
        s.stack.append(("not", results[0]) if op.arg else results[0])
        s.pc += 1
        return s
    if key[0] == "END_ASYNC_FOR" and BLOCK_STACK:
        # StopAsyncIteration caught: the handler's block goes as at POP_EXCEPT, then the
        # async iterator below it
        if not s.blocks or s.blocks[-1][0] != "except":
            raise NotEquivalent("END_ASYNC_FOR outside a handler")
        level = s.blocks[-1][2]
        if len(s.stack) < level + 3 or level < 1:
            raise NotEquivalent("stack underflow at END_ASYNC_FOR")
        s.exc = unpart(s.stack[level + 1])
        del s.stack[level - 1:]
        s.blocks = s.blocks[:-1]
        s.pc += 1
        return s
    if op.kind == "contains":
        s.pop(2)
        s.stack.append(("not", results[0]) if op.arg else results[0])
        s.pc += 1
        return s
    popped = s.pop(op.pops)
    s.stack.extend(popped[:op.keep])
    if op.null == "below":
        s.stack.append(NULL_VALUE)
    s.stack.extend(results)
    if op.null == "above":
        s.stack.append(NULL_VALUE)
    s.pc += 1
    return s


def results_for(obs: Obs, ident) -> tuple:
    """Fresh values for the results of event number ``ident``."""
    op, key = obs.op, obs.key
    if key == ("bool",) or key[0] == "IS_OP":
        return (("t", ident, 0),)
    if key[0] == "LOAD_MAYBE_UNBOUND":
        return (("r", ident, 0),)
    if op is not None and op.kind in ("for_iter", "send"):
        return (("r", ident, 0), ("t", ident, 1))
    if op is not None and op.kind == "exc_match_jump":
        return (("t", ident, 0),)
    if op is not None and op.kind == "setup_with":
        return (("r", ident, 0), ("r", ident, 1))
    if op is None:
        return ()
    if key[0] == "CALL" and any(v[0] == "global" and v[1].startswith("__compiled_fn_")
                                for v in obs.inputs[:2]):
        return (("gout", ident, 0),)  # the tuple a compiled graph returns
    n = op.pushes - op.keep
    out = []
    for k in range(max(n, 0)):
        last = k == n - 1
        out.append(("t" if (op.bool_result and last) else "r", ident, k))
    return tuple(out)


def raise_into(s: Side, exc):
    """``s`` raising ``exc`` at its current instruction: the side in the handler
    that catches it, or an ``Obs("raise")`` when it leaves the function."""
    if not BLOCK_STACK:
        h = s.prog.handler(s.pc)
        if h is None:
            return Obs("raise", exc, side=s)
        target, depth, lasti = h
        if depth > len(s.stack):
            raise NotEquivalent("handler depth above the stack")
        del s.stack[depth:]
        if lasti:
            s.stack.append(LASTI)
        s.stack.append(exc)
        s.pc = target
        return s
    blocks = list(s.blocks)
    while blocks:
        kind, handler, level = blocks.pop()
        if kind == "except":
            if len(s.stack) < level + 3:
                raise NotEquivalent("stack underflow while unwinding")
            s.exc = unpart(s.stack[level + 1])
            del s.stack[level:]
            continue
        del s.stack[level:]
        blocks.append(("except", None, level))
        prev = s.exc
        s.stack.extend((("part", "tb", prev), ("part", "value", prev), ("part", "type", prev)))
        s.exc = exc
        s.stack.extend((("part", "tb", exc), ("part", "value", exc), ("part", "type", exc)))
        s.blocks = tuple(blocks)
        s.pc = handler
        return s
    return Obs("raise", exc, side=s)


# ---------------------------------------------------------------- joins

ATOMS = frozenset({"r", "t", "exc", "arg", "v", "vb", "v?", "esc", "gout"})  # opaque values
GROUND = frozenset({"c", "null", "unbound", "cell", "lasti", "code", "global", "fin"})


def _side_values(side: Side, names) -> list:
    """Every value one side holds: its stack, its locals and cells (``names``: both
    in order), the exception being handled."""
    return (list(side.stack) + [side.env.get(n, UNBOUND) for n in names[0]]
            + [side.cells.get(n, UNBOUND) for n in names[1]] + [side.exc])


def _positions(a: Side, b: Side, names) -> tuple:
    """Every value both sides hold, in a fixed order of positions."""
    return tuple(_side_values(a, names[0]) + _side_values(b, names[1]))


def _set_positions(a: Side, b: Side, names, values):
    it = iter(values)
    for side, (local_names, cell_names) in ((a, names[0]), (b, names[1])):
        side.stack = [next(it) for _ in side.stack]
        for n in local_names:
            side.env[n] = next(it)
        for n in cell_names:
            side.cells[n] = next(it)
        side.exc = next(it)


def _may_be_unbound(v) -> bool:
    return v == UNBOUND or v[0] == "v?"


def instance_of(new: tuple, old: tuple) -> bool:
    """Whether ``new`` is ``old`` with its opaque values replaced consistently
    (then everything proved from ``old`` holds for ``new``)."""
    sub = {}
    work = list(zip(old, new))
    while work:
        x, y = work.pop()
        if x == y and x[0] not in ATOMS:
            continue
        if x[0] in ATOMS:
            if x in sub:
                if sub[x] != y:
                    return False
                continue
            if x[0] in ("t", "vb") and not is_bool(y):
                return False
            if x[0] != "v?" and _may_be_unbound(y):
                return False
            if is_world_value(x) and not (is_world_value(y) and y[1][2] == x[1][2]):
                return False
            sub[x] = y
            continue
        if x[0] in GROUND or x[0] != y[0] or len(x) != len(y):
            return False
        work.extend((p, q) for p, q in zip(x[1:], y[1:]) if isinstance(p, tuple))
        if any(not isinstance(p, tuple) and p != q for p, q in zip(x[1:], y[1:])):
            return False
    return True


def generalize(old: tuple, new: tuple, fresh) -> tuple:
    """The most specific state of which both ``old`` and ``new`` are instances
    (anti-unification): equal parts stay, different parts become variables, the
    same pair of parts the same variable."""
    memo = {}
    return tuple(_lgg(x, y, memo, fresh) for x, y in zip(old, new))


def _lgg(x, y, memo, fresh):
    """``generalize`` of one pair of values (``memo``: the variable of each pair of parts)."""
    if x == y:
        return x
    if (x[0] == y[0] and len(x) == len(y) and x[0] not in ATOMS and x[0] not in GROUND
            and all(p == q or isinstance(p, tuple) and isinstance(q, tuple)
                    for p, q in zip(x[1:], y[1:]))):
        return (x[0],) + tuple(_lgg(p, q, memo, fresh) if isinstance(p, tuple) else p
                               for p, q in zip(x[1:], y[1:]))
    got = memo.get((x, y))
    if got is None and is_world_value(x) and is_world_value(y) and x[1][2] == y[1][2]:
        # what the last event left in the cell on either path: still that
        got = memo[(x, y)] = world_value(("j", fresh()), x[1][2])
    if got is None:
        if _may_be_unbound(x) or _may_be_unbound(y):
            kind = "v?"
        elif is_bool(x) and is_bool(y):
            kind = "vb"
        else:
            kind = "v"
        got = memo[(x, y)] = (kind, fresh())
    return got


# ---------------------------------------------------------------- the product

class Prover:
    """Explores the product of two programs; raises :class:`NotEquivalent`."""

    def __init__(self, a: Program, b: Program, budget: int):
        self.a, self.b = a, b
        a.analyse()
        b.analyse()
        self.names = ((tuple(sorted(a.code.co_varnames)), a.cellnames),
                      (tuple(sorted(b.code.co_varnames)), b.cellnames))
        self.states: Dict[tuple, tuple] = {}
        self.work: List[tuple] = []  # heap of (pc, pc, seq, item)
        self.seq = 0
        self.queued: Dict[tuple, Tuple[Side, Side]] = {}
        self.counter = 0
        self.budget = budget
        self.code_equal: Dict[tuple, bool] = {}  # (code value, code value) -> proved the same
        # without nested code objects no value holds a code value: equal values are the same
        self.no_code_values = not (_holds_code(a.code.co_consts) or _holds_code(b.code.co_consts))
        self.nested_reason = None
        self.origin: Dict[tuple, tuple] = {}  # event result -> the key of its event

    def run(self):
        self.push(initial(self.a), initial(self.b))
        while self.work:
            _, _, _, item = heapq.heappop(self.work)
            self.budget -= 1
            if self.budget < 0:
                raise NotEquivalent("the proof needs more steps than allowed")
            if item[0] == "join":
                key = item[1]
                a, b = self.queued.pop(key)
                a, b = a.copy(), b.copy()
                _set_positions(a, b, self.names, self.states[key])
                x, y = observe(a, resumed=True), observe(b, resumed=True)
                if _holds_state(x) and _holds_state(y) and (x.side.pc, y.side.pc) == key[:2]:
                    self.match(x, y)  # what is seen at the join itself: explore it
                else:
                    self.arrive(x, y)
            else:
                self.arrive(observe(item[1]), observe(item[2]))

    def push(self, a, b):
        """Queue a pair of sides to run to their next observations. The queue runs in
        program order, so the paths into a join have usually all arrived before the
        join is explored (once)."""
        self.seq += 1
        heapq.heappush(self.work, (a.pc, b.pc, self.seq, ("run", a, b)))

    def arrive(self, x: Obs, y: Obs):
        """Two observations reached from a queued pair: where either side stands at a
        join, the state is joined with what is known there (and explored from there
        later, once); elsewhere they are matched at once."""
        if x.kind == "join" and not _holds_state(y):
            x = observe(x.side, stop_at_joins=False)  # the other side cannot wait there
        if y.kind == "join" and not _holds_state(x):
            y = observe(y.side, stop_at_joins=False)
        x, y = self.past_forward_join(x, y)
        if not (_holds_state(x) and _holds_state(y)) or (
                x.side.pc not in x.side.prog.joins and y.side.pc not in y.side.prog.joins):
            self.match(x, y)
            return
        a, b = x.side, y.side
        key = (a.pc, b.pc, a.blocks, b.blocks, len(a.stack), len(b.stack), a.escaped, b.escaped)
        if FINALLY_SUBROUTINES:
            key += (_fin_shape(a), _fin_shape(b))
        _forget_dead(a)
        _forget_dead(b)
        if a.lists or b.lists:
            self.flush_lists(a, b)
        values = _positions(a, b, self.names)
        old = self.states.get(key)
        if old is not None:
            if instance_of(values, old):
                return
            values = generalize(old, values, self.fresh)
        self.states[key] = values
        if key not in self.queued:
            self.queued[key] = (a, b)
            self.seq += 1
            heapq.heappush(self.work, (a.pc, b.pc, self.seq, ("join", key)))

    def past_forward_join(self, x: Obs, y: Obs):
        """(x, y), where one side stands at a join no loop comes back to while the other
        stands at none, and the two hold different lists, with the first going on past
        the join. Joined there, a list the other side made ahead of it would become an
        object of one side only, that its own list, made after the join, could never
        match. (The exploration still ends: every cycle passes a loop's head, where
        states are joined as before.)"""
        if (x.kind == "join") == (y.kind == "join") or not (_holds_state(x) and _holds_state(y)):
            return x, y
        at, other = (x, y) if x.kind == "join" else (y, x)
        if (other.side.pc in other.side.prog.joins or at.side.pc in at.side.prog.loop_heads
                or not (x.side.lists or y.side.lists)):
            return x, y
        va, vb = _side_values(x.side, self.names[0]), _side_values(y.side, self.names[1])
        if _lists_written(x.side, va) == _lists_written(y.side, vb):
            return x, y
        went = observe(at.side, loop_heads_only=True)
        return (went, y) if at is x else (x, went)

    def fresh(self):
        self.counter += 1
        return self.counter

    def flush_lists(self, a: Side, b: Side):
        """At a join the lists the two sides still hold become opaque objects: the
        k-th list reachable on one side must have the items of the k-th on the other."""
        tag = ("esc", "join", self.fresh())
        va, vb = _side_values(a, self.names[0]), _side_values(b, self.names[1])
        if _lists_written(a, va) != _lists_written(b, vb):
            _pair_lists(a, b, va, vb, tag)  # not the same lists in the same order
            return
        escape(a, va, tag)
        escape(b, vb, tag)
        a.lists, b.lists = {}, {}

    def follow(self, x, y):
        """Continue with two successors (sides or pending branches)."""
        if isinstance(x, Side) and isinstance(y, Side):
            self.push(x, y)
            return
        ox = x if isinstance(x, Obs) else observe(x)
        oy = y if isinstance(y, Obs) else observe(y)
        self.arrive(ox, oy)

    def match(self, x: Obs, y: Obs):
        if x.kind != y.kind:
            raise NotEquivalent(self.where(x, y, "one side %s, the other %s" % (
                self.describe(x), self.describe(y))))
        if x.kind == "diverge":
            return
        if x.kind in ("return", "raise"):
            # (with what the cells other code holds are left holding)
            self.same(escape(x.side, (x.key, _shared_cells(x.side)), ("esc", 0)),
                      escape(y.side, (y.key, _shared_cells(y.side)), ("esc", 0)), x, y)
            return
        if x.kind == "decide":
            self.same(x.key, y.key, x, y)
            self.follow(x.succ[0], y.succ[0])
            self.follow(x.succ[1], y.succ[1])
            return
        # events
        if x.key != y.key:
            raise NotEquivalent(self.where(x, y, "different operations: %s and %s" % (
                self.describe(x), self.describe(y))))
        self.counter += 1
        tag = ("esc", self.counter)
        ins_x = escape(x.side, self.frame_inputs(x) + (x.side.exc,), tag)
        ins_y = escape(y.side, self.frame_inputs(y) + (y.side.exc,), tag)
        _mark_escaped(x.side, ins_x)
        _mark_escaped(y.side, ins_y)
        runs = runs_code(x.key)
        if runs:  # the world it may read includes the cells other code holds
            ins_x += escape(x.side, (_shared_cells(x.side),), tag + ("cells",))
            ins_y += escape(y.side, (_shared_cells(y.side),), tag + ("cells",))
        self.same(ins_x, ins_y, x, y)
        results = results_for(x, self.counter)
        for r in results:
            self.origin[r] = x.key
        if x.key[0] == "MAKE_FUNCTION" and results:
            x.side.prog.functions[results[0]] = x.inputs[-1]
            y.side.prog.functions[results[0]] = y.inputs[-1]
        raise_x, raise_y = x.side.copy(), y.side.copy()
        if runs:
            for side in (x.side, y.side, raise_x, raise_y):
                _refresh_cells(side, self.counter)
        nx, ny = after_event(x, results), after_event(y, results)
        if (nx is None) != (ny is None):
            raise NotEquivalent(self.where(x, y, "an event raises on one side only"))
        if nx is not None:
            self.follow(nx, ny)
        exc = ("exc", self.counter)
        self.follow(raise_into(raise_x, exc), raise_into(raise_y, exc))

    def frame_inputs(self, obs: Obs) -> tuple:
        """A call's inputs; a call of a frame-reading builtin also reads every local."""
        inputs = obs.inputs
        op = obs.op
        if op is None or not obs.key[0].startswith("CALL") or not inputs:
            return inputs
        callee_keys = [self.origin.get(v) for v in inputs[:2]]
        if any(k and k[0] in ("LOAD_GLOBAL", "LOAD_NAME") and _name(k) in FRAME_READERS
               for k in callee_keys):
            # (tagged: a bare (name, value) pair for a local named ``code`` would read as a code value)
            bound = tuple(("local", n, v) for n, v in sorted(obs.side.env.items()) if v != UNBOUND)
            cells = tuple(("cellval", n, v) for n, v in sorted(obs.side.cells.items()) if v != UNBOUND)
            return inputs + (("frame",) + bound + cells,)
        return inputs

    def same(self, u, v, x, y):
        """``u`` (the original's) and ``v`` are the same value; the functions they
        make from nested code objects are the same when those are proved the same.
        (Equal is not enough: ``("code", name, k)`` names the k-th nested ``name`` of
        each side, whose bodies may differ.)"""
        if not self.same_but_code(u, v):
            nested = "; %s" % self.nested_reason if self.nested_reason else ""
            raise NotEquivalent(self.where(x, y, "different values: %s and %s%s" % (
                _short(u), _short(v), nested)))

    def same_but_code(self, u, v) -> bool:
        if self.no_code_values:  # (the walk below, at C speed: a third of a proof's time)
            return u == v
        if isinstance(u, tuple) and isinstance(v, tuple) and u and v and u[0] == v[0] == "code":
            key = (u, v)
            if key not in self.code_equal:
                self.code_equal[key] = self.nested_same(u, v)
            return self.code_equal[key]
        if (not isinstance(u, tuple) or not isinstance(v, tuple) or len(u) != len(v)
                or (u and u[0] in ATOMS)):
            return u == v
        return all(self.same_but_code(p, q) for p, q in zip(u, v))

    def nested_same(self, u, v) -> bool:
        """Whether the nested code objects behind ``u`` and ``v`` are proved the same."""
        if u[1] != v[1]:
            return False
        try:
            _check_nested(self.a, self.b, [(u, v)], self.a.fixed_global)
            return True
        except NotEquivalent as e:
            self.nested_reason = str(e)
            return False

    def describe(self, o: Obs):
        if o.kind == "event":
            return "%s%s" % (o.key[0], "" if len(o.key) < 2 else " %r" % (o.key[1],))
        return o.kind

    def where(self, x, y, what):
        ox = x.side.offset if x.side is not None else "-"
        oy = y.side.offset if y.side is not None else "-"
        return "%s (original offset %s, recompiled offset %s)" % (what, ox, oy)


#: events that run no code but the interpreter's own (the cells other code holds can
#: neither be read nor change while they run)
NO_USER_CODE = frozenset({"LOAD_GLOBAL", "LOAD_ASSERTION_ERROR", "LOAD_BUILD_CLASS", "MAKE_FUNCTION",
                          "SET_FUNCTION_ATTRIBUTE", "IS_OP", "UNBOUND_LOCAL", "UNBOUND_FREE",
                          "LOAD_MAYBE_UNBOUND", "DELETE_FAST", "DELETE_DEREF", "LIST_APPEND",
                          "LIST_TO_TUPLE"})


def runs_code(key) -> bool:
    """Whether an event may run code other than the interpreter's (a method of the user's,
    a generator's caller while it is suspended, ...)."""
    return key[0] not in NO_USER_CODE


def _mark_escaped(side: Side, values):
    """The cells handed over in ``values`` (a closure) are held by other code from now on."""
    names = [v[1] for v in _walk(values) if v[0] == "cell" and v[1] in side.cells]
    if names:
        side.escaped = side.escaped | frozenset(names)


def _shared_cells(side: Side) -> tuple:
    """What the cells other code holds hold, where this frame put it (the rest hold what
    the last event that ran code left there, the same on both sides)."""
    return ("cells",) + tuple(("cellval", n, side.cells[n]) for n in sorted(side.escaped)
                              if n in side.cells and not is_world_value(side.cells[n]))


def _refresh_cells(side: Side, event):
    """After an event that ran code: the cells other code holds hold what it left there."""
    for n in side.escaped:
        if n in side.cells:
            side.cells[n] = world_value(event, n)


def _holds_state(o: Obs) -> bool:
    """Whether ``o`` keeps its side as it was at the observation (so the pair can be
    joined there and explored later)."""
    return o.kind in ("event", "decide", "join") and o.side is not None


def _name(key):
    arg = key[1]
    return arg[0] if isinstance(arg, tuple) else arg


def _short(v, limit=120):
    text = repr(v)
    return text if len(text) <= limit else text[:limit] + "..."


DEAD = ("c", "dead", "")


def _forget_dead(side: Side):
    """Locals no path reads again hold nothing that matters."""
    live = side.prog.live
    if live is None or side.pc >= len(live):
        return
    keep = live[side.pc]
    for name in side.env:
        if name not in keep:
            side.env[name] = DEAD
    held = _cells_on_stack(side) if side.cells else ()
    for name in side.cells:  # (a cell other code holds, or is about to hold, is never dead)
        if ("cell", name) not in keep and name not in side.escaped and name not in held:
            side.cells[name] = DEAD


def _cells_on_stack(side: Side) -> set:
    """The cells a closure being built on the stack holds: they escape with the function
    made next (forgotten on one side only, where it stands at that event while the other
    stands at a join before its LOAD_CLOSURE, they would differ)."""
    return {v[1] for v in _walk(side.stack) if v[0] == "cell"}


def _walk(values):
    for v in values:
        if isinstance(v, tuple) and v:
            yield v
            if v[0] not in ATOMS and v[0] not in GROUND:
                yield from _walk(x for x in v[1:] if isinstance(x, tuple))


def _holds_code(consts) -> bool:
    """Whether a code object is among ``consts`` or inside a tuple or frozenset of them."""
    todo = list(consts)
    while todo:
        c = todo.pop()
        if isinstance(c, types.CodeType):
            return True
        if isinstance(c, (tuple, frozenset)):
            todo.extend(c)
    return False


def _collect_codes(v, out):
    if isinstance(v, tuple):
        if v and v[0] == "code":
            out.add(v)
            return
        for x in v:
            if isinstance(x, tuple):
                _collect_codes(x, out)


# ---------------------------------------------------------------- entry points

_SIGNATURE = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount")
# flags that change what the code does (generator, varargs, ...); CO_NESTED and
# CO_NOFREE are bookkeeping
_FLAG_MASK = 0x0004 | 0x0008 | 0x0020 | 0x0080 | 0x0100 | 0x0200 | 0x0002


def same_code(a, b) -> bool:
    """Level 1: the same instructions on the same constants, names and exception
    table (line numbers aside), nested code objects alike."""
    if (a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames
            or a.co_cellvars != b.co_cellvars or a.co_freevars != b.co_freevars
            or getattr(a, "co_exceptiontable", None) != getattr(b, "co_exceptiontable", None)
            or len(a.co_consts) != len(b.co_consts)):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType):
            if not (isinstance(y, types.CodeType) and x.co_name == y.co_name
                    and getattr(x, "co_qualname", None) == getattr(y, "co_qualname", None)
                    and x.co_flags == y.co_flags and x.co_argcount == y.co_argcount
                    and x.co_posonlyargcount == y.co_posonlyargcount
                    and x.co_kwonlyargcount == y.co_kwonlyargcount and same_code(x, y)):
                return False
        elif const(x, []) != const(y, []):
            return False
    return True


def prove_text(code, text: str, consts=None, def_name: Optional[str] = None,
               fixed_global=None) -> None:
    """Compile ``text`` (decompiled from ``code``) and prove it equivalent to ``code``;
    raise :class:`NotEquivalent` saying why not."""
    from .recompile import compile_back
    try:
        new, compiled_qualname = compile_back(text, code, "<unveil>", def_name, consts)
    except (SyntaxError, ValueError) as e:
        raise NotEquivalent("the text does not compile: %s" % e) from None
    except Exception as e:  # noqa: BLE001 - LayoutError and kin: not the same function
        raise NotEquivalent(str(e)) from None
    check(code, new, new_prefix=compiled_qualname, fixed_global=fixed_global)


def check(like, new, new_prefix=None, budget=None, fixed_global=None):
    """Raise :class:`NotEquivalent` unless ``new`` is proved to do what ``like`` does.

    ``new_prefix``: the qualified name ``new`` was compiled under when it differs
    from its ``co_qualname`` (the names of the functions it defines start with it).
    ``fixed_global(name)``: globals known never to change while the code runs and
    always to exist; loading one is no event (default: Dynamo's, :data:`DYNAMO_GLOBALS`)."""
    _check_signature(like, new)
    if same_code(like, new):
        return
    if fixed_global is None and any(n.startswith(DYNAMO_GLOBALS) for n in like.co_names):
        fixed_global = _dynamo_or_builtin
    a = Program(like, qualname_prefix(like), fixed_global)
    b = Program(new, new_prefix or qualname_prefix(new), fixed_global)
    pairs = _same_instructions(a, b)
    if pairs is None:
        if budget is None:
            # (steps per instruction: under 2 in the stdlib, under 10 in 1,500 fuzzed functions;
            # a step costs up to ~0.1 ms, so a proof that needs more is refused, not run for seconds)
            budget = 2000 + 10 * (len(a.ops) + len(b.ops))
        Prover(a, b, budget).run()  # (nested code objects are proved as they are met)
        return
    _check_nested(a, b, [(p, p) for p in pairs], fixed_global)


def _same_instructions(a: Program, b: Program):
    """The nested code objects to compare when ``a`` and ``b`` are the same instructions
    (locals and constants by name and value, exception handlers alike), else None."""
    # (no-ops aside: a jump to one goes on at the next instruction; none raises)
    keep_a, at_a = _without_nops(a)
    keep_b, at_b = _without_nops(b)
    if len(keep_a) != len(keep_b):
        return None
    pairs = set()
    for pa, pb in zip(keep_a, keep_b):
        x, y = a.ops[pa][1], b.ops[pb][1]
        if x.target is not None and y.target is not None:
            x, y = x._replace(target=at_a[x.target]), y._replace(target=at_b[y.target])
        if x.kind in ("const", "return_const") and x.kind == y.kind:
            # by value and type (1, 1.0 and True are equal as Python values)
            vx, vy = a.value_of_const(x.arg), b.value_of_const(y.arg)
            if vx != vy:
                return None
            _collect_codes(vx, pairs)
        elif x != y:
            return None
        if not BLOCK_STACK:
            ha, hb = a.handler(pa), b.handler(pb)
            if (ha is None) != (hb is None) or ha is not None and (
                    (at_a[ha[0]],) + ha[1:] != (at_b[hb[0]],) + hb[1:]):
                return None
    if a.prefix != b.prefix and any(x.kind == "event" and x.key[0] in ("MAKE_FUNCTION", "STORE_NAME")
                                    for _, x in a.ops):
        return None  # qualified names passed as constants: compared relative, by the proof
    return pairs


def _without_nops(prog):
    """(the indices of ``prog``'s instructions that are no no-op; for every index, the
    position among those of the instruction that runs next from there)."""
    keep = [pc for pc, (_, op) in enumerate(prog.ops) if op.kind != "nop"]
    at = [0] * (len(prog.ops) + 1)
    k = len(keep)
    for pc in range(len(prog.ops), -1, -1):
        if pc < len(prog.ops) and prog.ops[pc][1].kind != "nop":
            k -= 1
        at[pc] = k
    return keep, at


def qualname_prefix(code) -> Optional[str]:
    """The qualified name the functions ``code`` defines are named under
    (``f`` in ``f.<locals>.g``): 3.11+ ``co_qualname``; before, read from the
    qualified names ``code`` passes to MAKE_FUNCTION (a class body: its ``__qualname__``)."""
    if hasattr(code, "co_qualname"):
        return code.co_qualname
    if not code.co_flags & 0x01 and code.co_name != "<module>":  # a class body
        for c in code.co_consts:
            if isinstance(c, str) and (c == code.co_name or c.endswith("." + code.co_name)):
                return c
    for c in code.co_consts:
        if isinstance(c, str) and ".<locals>." in c and c.rsplit(".<locals>.", 1)[0].endswith(code.co_name):
            return c.rsplit(".<locals>.", 1)[0]
    if code.co_name in ("<genexpr>", "<listcomp>", "<setcomp>", "<dictcomp>"):
        # (<=3.10 names what a comprehension defines without ".<locals>": ``f.<locals>.<genexpr>.<lambda>``)
        nested = {c.co_name for c in code.co_consts if isinstance(c, types.CodeType)}
        for c in code.co_consts:
            if isinstance(c, str) and "." in c and c.rsplit(".", 1)[1] in nested and (
                    c.rsplit(".", 1)[0].endswith("." + code.co_name)):
                return c.rsplit(".", 1)[0]
    return None


def _check_signature(like, new):
    for attr in _SIGNATURE:
        if getattr(like, attr) != getattr(new, attr):
            raise NotEquivalent("%s differs: %r, recompiled %r" % (attr, getattr(like, attr), getattr(new, attr)))
    if (like.co_flags & _FLAG_MASK) != (new.co_flags & _FLAG_MASK):
        raise NotEquivalent("co_flags differ: %#x, recompiled %#x" % (like.co_flags, new.co_flags))
    nargs = (like.co_argcount + like.co_kwonlyargcount
             + bool(like.co_flags & 0x04) + bool(like.co_flags & 0x08))
    if like.co_varnames[:nargs] != new.co_varnames[:nargs]:
        raise NotEquivalent("argument names differ: %r, recompiled %r" % (
            like.co_varnames[:nargs], new.co_varnames[:nargs]))
    if not set(new.co_freevars) <= set(like.co_freevars):
        # (a free variable the code never reads may be missing: the closure cell is unused)
        raise NotEquivalent("free variables differ: %r, recompiled %r" % (like.co_freevars, new.co_freevars))


def _check_nested(a: Program, b: Program, pairs, fixed_global=None):
    """Prove each pair of code values (``("code", name, k)`` of ``a`` and of ``b``) the same."""
    for (_, name, k), (_, _, j) in sorted(pairs, key=repr):
        ca = [c for c in a.codes if c.co_name == name]
        cb = [c for c in b.codes if c.co_name == name]
        if k >= len(ca) or j >= len(cb):
            raise NotEquivalent("nested code %s missing" % name)
        ca, cb = ca[k], cb[j]
        if (hasattr(ca, "co_qualname") and a.prefix and ca.co_qualname.startswith(a.prefix + ".")
                and _relative(ca.co_qualname, a.prefix) != _relative(cb.co_qualname, b.prefix)):
            # (a nested code object Dynamo took over from the user's function keeps that
            # function's qualified name, which no text compiled elsewhere can give it)
            raise NotEquivalent("nested %s: qualified names differ: %s, recompiled %s" % (
                name, ca.co_qualname, cb.co_qualname))
        try:
            check(ca, cb, fixed_global=fixed_global)
        except NotEquivalent as e:
            raise NotEquivalent("in nested %s: %s" % (name, e)) from None


def _relative(qualname, prefix):
    if prefix and qualname.startswith(prefix + "."):
        return "<self>" + qualname[len(prefix):]
    return qualname
