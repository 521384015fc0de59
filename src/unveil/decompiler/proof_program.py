"""A code object read for the proof (:class:`Program`) and the state of one side running
it (:class:`Side`); what is known of the program before anything runs: the instructions
(:mod:`.opsem`'s reading, normalised), the handler covering each, the successors of each
instruction, where paths join, which locals are still read, the cells it models.

Above :mod:`.proof_values`; :mod:`.proof_lists`, :mod:`.proof_interpreter` and
:mod:`.proof_product` build on it.
"""
import ast
import bisect
import builtins
import dis
import types
from typing import Dict, List, Optional

from .errors import NotEquivalent
from .opsem import BLOCK_STACK, NULL, NULL_ABOVE, Op, cell_event, read_ops
from .proof_values import NONE, UNBOUND, const, world_value


#: builtins that read the calling frame; a call to one gets the frame's locals as input
FRAME_READERS = frozenset({"locals", "vars", "dir", "eval", "exec", "super", "breakpoint"})


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
        # the cells, by name: read and written like locals; see CELLS in validate.py's docstring
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
