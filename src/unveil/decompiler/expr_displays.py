"""Displays: tuples, lists, sets and dicts, built at once or in steps (``LIST_APPEND``,
``LIST_EXTEND``, ``SET_UPDATE``, ``DICT_UPDATE``, <=3.8's ``BUILD_*_UNPACK``), with what
was unpacked into them (``[*a, b]``); a comprehension's append is its element (the
function's context makes the comprehension). Lists stay symbolic while Dynamo's code
changes them by position.
"""
import ast

from . import values as V
from .errors import DecompilationError
from .expr_calls import keyword_name
from .expr_frame import const, name
from .stack_effects import pops_pushes
from .stream import CONDITIONAL_JUMPS


def _build(kind):
    def run(f, ins):
        raw = f.popn(ins.arg, ins)
        if kind is ast.List:
            # lists inside lists stay symbolic: Dynamo builds and edits nests
            f.push(V.SymList([v if isinstance(v, V.SymList) else f.expr(v, ins) for v in raw], f.loop))
            return
        if kind is ast.Tuple and raw and all(isinstance(v, V.Cell) for v in raw):
            f.push(V.CellTuple(raw))  # a closure: for MAKE_FUNCTION, or a value
            return
        items = [f.expr(v, ins) for v in raw]
        if kind is ast.Tuple:
            f.push(ast.Tuple(elts=items, ctx=ast.Load()))
        else:
            s = ast.Set(elts=items)
            s._loop = f.loop
            f.push(s)
    return run


def _build_map(f, ins):
    items = [f.expr(v, ins) for v in f.popn(2 * ins.arg, ins)]
    d = ast.Dict(keys=items[0::2], values=items[1::2])
    d._loop = f.loop
    f.push(d)


def _build_const_key_map(f, ins):
    keys = f.pop(ins)
    vals = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
    keys = f.expr(keys)
    if isinstance(keys, ast.Constant):
        knodes = [const(k) for k in keys.value]
    else:
        knodes = list(keys.elts)
    f.push(ast.Dict(keys=knodes, values=vals))


def _collection_add(kind):
    # LIST_APPEND / SET_ADD / MAP_ADD inside a comprehension body: the
    # collection is below; the structurer turns these statements into the
    # comprehension's element. In straight-line code (``[a, *b, c]``) the
    # element simply joins the list.
    def run(f, ins):
        if kind == "list" and len(f.stack) > ins.arg:
            lst = _target_list(f, ins.arg + 1, ins)  # the item is still on top
            if lst is not None:
                lst.elts.append(f.pop_expr(ins))
                return
        width = 2 if kind == "map" else 1
        if len(f.stack) > ins.arg + width - 1:
            target = f.stack[-(ins.arg + width)]
            if (isinstance(target, (ast.Dict if kind == "map" else ast.Set))
                    and getattr(target, "_loop", None) == f.loop):
                # a big display built in steps (BUILD_MAP then MAP_ADD)
                if kind == "map":
                    v = f.pop_expr(ins)
                    k = f.pop_expr(ins)
                    new = ast.Dict(keys=list(target.keys) + [k], values=list(target.values) + [v])
                    new._added = True  # (see expr_calls._dict_merge)
                else:
                    new = ast.Set(elts=list(target.elts) + [f.pop_expr(ins)])
                new._loop = f.loop
                f.stack[-ins.arg] = new
                return
        if kind == "map":
            v = f.pop_expr(ins)
            k = f.pop_expr(ins)
            f.emit(f.ctx.comprehension_element(kind, (k, v)))
        else:
            v = f.pop_expr(ins)
            f.emit(f.ctx.comprehension_element(kind, v))
    return run


def elements(v):
    """The elements of ``v`` if it is a known sequence, else None."""
    if isinstance(v, V.SymList):
        return list(v.elts)
    if isinstance(v, (ast.List, ast.Tuple)):
        return list(v.elts)
    if isinstance(v, ast.Constant) and isinstance(v.value, tuple):
        return [const(x) for x in v.value]
    return None


def _target_list(f, depth, ins):
    """The list ``depth`` below the top, if it can still change symbolically
    (it was built in the loop being executed)."""
    lst = f.stack[-depth]
    if isinstance(lst, V.SymList) and lst.loop == f.loop:
        return lst
    return None


def _unpacked_display(f, v, ins) -> bool:
    """Whether extending with ``v`` is the source unpacking a list display (``f(x, *[a, b])``,
    ``(x, *[a, b])``), written ``*[a, b]``: its items written in place would be built another
    way. Only where the list becomes a tuple next: Dynamo's code extends lists that it then
    changes by position (``STORE_SUBSCR`` at constant indices), which a starred item would
    shift; a list turned into a tuple is never changed again."""
    instrs = f.ctx.instrs
    if not isinstance(v, V.SymList) or not v.elts or ins is None or instrs is None:
        return False
    return _becomes_tuple_untouched(instrs, ins.index + 1)


def _becomes_tuple_untouched(instrs, start, limit=200) -> bool:
    """Whether the list on top of the stack before ``instrs[start]`` becomes a tuple next
    (``LIST_TO_TUPLE``) on every path, the code in between touching only the values above
    it: a call's later arguments (a conditional expression's branches, a chained
    comparison's ``SWAP``/``COPY`` of its own operands, a walrus's store of its copy)."""
    work, seen = [(start, 0)], set()
    while work:
        k, height = work.pop()   # ``height``: values above the list
        if (k, height) in seen:
            continue
        seen.add((k, height))
        if len(seen) > limit or k >= len(instrs):
            return False
        ins = instrs[k]
        if ins.op == "CALL_INTRINSIC_1" and ins.arg == "INTRINSIC_LIST_TO_TUPLE" and height == 0:
            continue  # (3.9-3.11's LIST_TO_TUPLE, named as 3.12+ does: read_opcodes.py)
        if ins.op == "JUMP":
            work.append((ins.target, height))
            continue
        if ins.op == "FOR_ITER":  # (an inlined comprehension's loop, 3.12+)
            if height < 1:
                return False
            work.append((ins.target, height - 1))
            work.append((k + 1, height + 1))
            continue
        if ins.op in CONDITIONAL_JUMPS:
            if height < 1:
                return False
            keeps = ins.op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP")
            work.append((ins.target, height if keeps else height - 1))
            work.append((k + 1, height - 1))
            continue
        reach, pops, pushes = _stack_step(ins)
        if reach is None or reach > height or pops > height:
            return False  # (Dynamo's code shuffles and changes the lists it builds by position)
        work.append((k + 1, height + pushes - pops))
    return True


def _stack_step(ins):
    """(deepest value reached, values popped, values pushed) of a straight-line step that
    may run between a list display and its ``LIST_TO_TUPLE``; (None, 0, 0) for others."""
    if ins.op in _SHUFFLES:
        return (ins.arg if isinstance(ins.arg, int) else None), 0, _SHUFFLES[ins.op]
    pp = _COLLECTION_STEPS.get(ins.op) or pops_pushes(ins)
    if pp is None:
        return None, 0, 0
    return pp[0], pp[0], pp[1]


#: stack shuffles as instructions.read names them (their argument: the deepest value they
#: reach) and the values they push
_SHUFFLES = {"SWAP": 0, "COPY": 1, "ROT": 0}


#: steps adding the top value to a collection below it, and stores (a walrus's copy)
_COLLECTION_STEPS = {"LIST_APPEND": (1, 0), "LIST_EXTEND": (1, 0), "SET_ADD": (1, 0),
                     "SET_UPDATE": (1, 0), "DICT_UPDATE": (1, 0), "DICT_MERGE": (1, 0),
                     "MAP_ADD": (2, 0), "STORE_FAST": (1, 0), "STORE_NAME": (1, 0),
                     "STORE_GLOBAL": (1, 0), "STORE_DEREF": (1, 0), "POP_TOP": (1, 0),
                     "CALL_INTRINSIC_1": (1, 1), "GET_ITER": (1, 1), "LOAD_FAST_AND_CLEAR": (0, 1)}


def _list_extend(f, ins):
    v = f.pop(ins)
    lst = _target_list(f, ins.arg, ins)
    # a list or tuple display extended into another is one the source unpacked
    # (``f(x, *[a, b])``): its items written in place would be built another way
    extra = None if isinstance(v, ast.Tuple) or _unpacked_display(f, v, ins) else elements(v)
    if extra is None:
        extra = [ast.Starred(value=f.expr(v, ins), ctx=ast.Load())]
    if lst is not None:
        lst.elts.extend(extra)
        return
    target = f.stack[-ins.arg]
    if isinstance(target, V.SymList):
        target = f.spill_all(target)
    f.emit(ast.Expr(value=ast.Call(func=ast.Attribute(value=f.expr(target, ins), attr="extend", ctx=ast.Load()),
                                   args=[ast.List(elts=extra, ctx=ast.Load())], keywords=[])))


def _set_update(f, ins):
    v = f.pop_expr(ins)
    s = f.expr(f.stack[-ins.arg])
    if isinstance(v, ast.Constant) and isinstance(v.value, frozenset):
        extra = [const(x) for x in v.value]
    else:
        extra = [ast.Starred(value=v, ctx=ast.Load())]
    new = ast.Set(elts=list(s.elts) + extra)
    # still the display built here: a SET_ADD after it (``{*xs, c}`` in a loop)
    # joins it, it is no set comprehension's element
    new._loop = getattr(s, "_loop", None)
    f.stack[-ins.arg] = new


def _dict_update(f, ins):
    v = f.pop_expr(ins)
    d = f.expr(f.stack[-ins.arg])
    f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + [None], values=list(d.values) + [v])


def _is_key_group(part, after_group, in_call):
    """Whether ``part``, merged by <=3.8's BUILD_MAP_UNPACK(_WITH_CALL), is a
    group of ``key: value`` items (keywords in a call) written in place: the
    compiler makes one map of each run of them, never an empty one, so an empty
    map or one right after another is a ``**{...}`` of the source."""
    if not isinstance(part, ast.Dict) or not part.keys or after_group:
        return False
    if None in part.keys:
        return False
    return not in_call or all(keyword_name(k) for k in part.keys)


def _build_unpack(kind):
    def run(f, ins):
        parts = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
        if kind == "map":
            keys, vals = [], []
            after_group = False
            for p in parts:
                if _is_key_group(p, after_group, ins.op == "BUILD_MAP_UNPACK_WITH_CALL"):
                    keys.extend(p.keys)
                    vals.extend(p.values)
                    after_group = True
                else:
                    # ``**{...}``: a dict display unpacked (run as it was built)
                    keys.append(None)
                    vals.append(p)
                    after_group = isinstance(p, ast.Dict)
            f.push(ast.Dict(keys=keys, values=vals))
            return
        elts = []
        after_run = False
        for p in parts:
            # the compiler builds each run of plain items as a tuple (a set for a set
            # display), never two runs in a row; a list, or a tuple right after a
            # run, is a display the source unpacked: ``*[a, b]``, ``*(a, b)``
            if isinstance(p, ast.Tuple if kind != "set" else ast.Set) and not after_run:
                elts.extend(p.elts)
                after_run = True
            else:
                elts.append(ast.Starred(value=p, ctx=ast.Load()))
                after_run = False
        if kind == "tuple":
            f.push(ast.Tuple(elts=elts, ctx=ast.Load()))
        elif kind == "list":
            f.push(ast.List(elts=elts, ctx=ast.Load()))
        else:
            f.push(ast.Set(elts=elts))
    return run


def _intrinsic(f, ins):
    what = ins.arg
    if what == "INTRINSIC_LIST_TO_TUPLE":
        v = f.pop_expr(ins)
        f.push(ast.Tuple(elts=list(v.elts), ctx=ast.Load()) if isinstance(v, ast.List) else
               ast.Call(func=name("tuple"), args=[v], keywords=[]))
    elif what == "INTRINSIC_UNARY_POSITIVE":
        f.push(ast.UnaryOp(op=ast.UAdd(), operand=f.pop_expr(ins)))
    elif what == "INTRINSIC_IMPORT_STAR":
        mod = f.pop(ins)
        f.emit(ast.ImportFrom(module=mod.name, names=[ast.alias(name="*", asname=None)],
                              level=mod.level))
        f.push(V.NULL)  # the POP_TOP that follows discards it
    elif what == "INTRINSIC_STOPITERATION_ERROR":
        pass  # generator epilogue; handled as an exception region
    elif what == "INTRINSIC_ASYNC_GEN_WRAP":
        pass  # the value stays the same for source purposes
    else:
        raise DecompilationError("unsupported intrinsic %s" % what, f.ctx.name, ins.offset, ins.op)


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "BUILD_TUPLE": _build(ast.Tuple),
    "BUILD_LIST": _build(ast.List),
    "BUILD_SET": _build(ast.Set),
    "BUILD_MAP": _build_map,
    "BUILD_CONST_KEY_MAP": _build_const_key_map,
    "LIST_APPEND": _collection_add("list"),
    "SET_ADD": _collection_add("set"),
    "MAP_ADD": _collection_add("map"),
    "LIST_EXTEND": _list_extend,
    "SET_UPDATE": _set_update,
    "DICT_UPDATE": _dict_update,
    "BUILD_LIST_UNPACK": _build_unpack("list"),
    "BUILD_TUPLE_UNPACK": _build_unpack("tuple"),
    "BUILD_TUPLE_UNPACK_WITH_CALL": _build_unpack("tuple"),
    "BUILD_SET_UNPACK": _build_unpack("set"),
    "BUILD_MAP_UNPACK": _build_unpack("map"),
    "BUILD_MAP_UNPACK_WITH_CALL": _build_unpack("map"),
    "CALL_INTRINSIC_1": _intrinsic,
}
