"""Calls, and the functions and classes they make: plain, keyword and star calls
(``CALL``, ``CALL_KW``, ``CALL_FUNCTION_EX`` with its merged keywords), a decorator applied
to a def or class, a comprehension's call of its function (the function's context builds
it), ``MAKE_FUNCTION`` with its defaults, annotations and closure cells.
"""
import ast

from . import values as V
from .errors import DecompilationError
from .expr_frame import const
from .versions import CALL_STACK_GUIDELINE


def _call(f, ins):
    _call_with(f, ins, *ins.arg)


def _call_kw(f, ins):
    """3.13+'s CALL_KW whose keyword names are on the stack, not loaded just before it."""
    count, slots = ins.arg
    names = f.pop_expr(ins)
    if not (isinstance(names, ast.Constant) and type(names.value) is tuple
            and all(type(n) is str for n in names.value) and len(names.value) <= count):
        raise DecompilationError("CALL_KW without a tuple of keyword names", f.ctx.name, ins.offset, ins.op)
    _call_with(f, ins, count - len(names.value), names.value, slots)


def _call_with(f, ins, argc, kwnames, slots):
    nkw = len(kwnames) if kwnames else 0
    raw = f.popn(argc + nkw, ins)
    head = f.popn(slots, ins)
    callee = [h for h in head if h is not V.NULL]
    if not callee:
        raise DecompilationError("call of NULL", f.ctx.name, ins.offset, ins.op)
    func = callee[0]
    if len(callee) == 2:
        # 3.11+: [callable, self] with no NULL - self is the first argument
        # (a comprehension's iterator is passed this way)
        raw = [callee[1]] + raw
        argc += 1
    if isinstance(func, V.WithExit):
        f.push(V.NULL)  # the exit's result, discarded by the following POP_TOP
        return
    if isinstance(func, V.BuildClass):
        f.push(f.ctx.build_class(raw, kwnames, ins))
        return
    args = raw[:argc]
    kwvals = raw[argc:]
    if (isinstance(func, V.Function) or isinstance(func, V.Iterator)) or any(isinstance(a, V.Iterator) for a in args):
        comp = f.ctx.comprehension_call(f, func, args, ins)
        if comp is not None:
            f.push(comp)
            return
    if len(args) == 1 and isinstance(args[0], (V.Function, V.ClassValue, V.Decorated)) and not kwvals:
        # maybe a decorator applied to a def or class: decided when stored
        f.push(V.Decorated(f.expr(func, ins), args[0]))
        return
    fexpr = f.expr(func, ins)
    arg_nodes = [f.expr(a, ins) for a in args]
    keywords = [ast.keyword(arg=k, value=f.expr(v, ins)) for k, v in zip(kwnames or (), kwvals)]
    f.push(ast.Call(func=fexpr, args=arg_nodes, keywords=keywords))


def _call_function_ex(f, ins):
    has_kw, slots = ins.arg
    kw = None
    if has_kw:
        kw = f.pop(ins)  # (3.14's keyword slot holds a NULL when there are no keyword arguments)
        kw = None if kw is V.NULL else f.expr(kw, ins)
    args = f.pop_expr(ins)
    head = f.popn(slots, ins)
    func = [h for h in head if h is not V.NULL][0]
    fexpr = f.expr(func, ins)
    if isinstance(args, (ast.Tuple, ast.List)):
        arg_nodes = list(args.elts)
    elif isinstance(args, ast.Constant) and isinstance(args.value, tuple):
        arg_nodes = [const(x) for x in args.value]
    else:
        arg_nodes = [ast.Starred(value=args, ctx=ast.Load())]
    keywords = []
    if isinstance(kw, ast.Dict) and not kw.keys:
        # an empty dict as the keyword arguments (Dynamo passes ``**kwargs`` it knows is empty
        # so): ``**{}``, which the compiler merges into an empty dict of its own
        keywords.append(ast.keyword(arg=None, value=kw))
    elif kw is not None:
        if isinstance(kw, ast.Dict) and all(k is None or keyword_name(k) for k in kw.keys):
            for k, v in zip(kw.keys, kw.values):
                if k is None:
                    keywords.append(ast.keyword(arg=None, value=v))
                else:
                    keywords.append(ast.keyword(arg=k.value, value=v))
        else:
            keywords.append(ast.keyword(arg=None, value=kw))
    if not any(isinstance(a, ast.Starred) for a in arg_nodes) and all(k.arg for k in keywords) \
            and not _star_call_when_written_out(arg_nodes, keywords):
        # written out, the call would be a plain one (not CALL_FUNCTION_EX): the source
        # unpacked a display, ``f(*(a, b))`` or ``f(**{'k': b})``; keep one unpacked
        if arg_nodes or kw is None:
            arg_nodes = [ast.Starred(value=args, ctx=ast.Load())]
        else:
            keywords = [ast.keyword(arg=None, value=kw)]
    f.push(ast.Call(func=fexpr, args=arg_nodes, keywords=keywords))


def _star_call_when_written_out(args, keywords) -> bool:
    """Whether the compiler makes a star call of ``f(*args, **keywords)`` written out as plain
    arguments: too many for the stack (16 or more keywords, 31 or more values, 3.10+)."""
    limit = CALL_STACK_GUIDELINE
    return limit is not None and len(args) + 2 * len(keywords) > limit


def _dict_merge(f, ins):
    v = f.pop_expr(ins)
    d = f.stack[-ins.arg]
    if isinstance(d, ast.Dict):
        if _keyword_group(v):
            # 16 or more keyword arguments after a ``**``: the compiler builds them
            # in steps (BUILD_MAP 0, MAP_ADD each) and merges them; a dict display
            # there would be built another way
            f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + v.keys, values=list(d.values) + v.values)
            return
        f.stack[-ins.arg] = ast.Dict(keys=list(d.keys) + [None], values=list(d.values) + [v])
    else:
        raise DecompilationError("DICT_MERGE on a non-dict", f.ctx.name, ins.offset, ins.op)


def _keyword_group(v):
    """Whether ``v``, merged into a call's keyword arguments, is a group of keyword
    arguments built in steps (each key once, each a name)."""
    return (isinstance(v, ast.Dict) and getattr(v, "_added", False) and all(map(keyword_name, v.keys))
            and len({k.value for k in v.keys}) == len(v.keys))


def keyword_name(key):
    """Whether ``key`` (a dict display's key) can be written as ``key=value`` in a call."""
    import keyword
    return (isinstance(key, ast.Constant) and isinstance(key.value, str)
            and key.value.isidentifier() and not keyword.iskeyword(key.value))


def _make_function(f, ins):
    flags, has_qualname = ins.arg
    if has_qualname:
        f.pop(ins)
    code = f.pop(ins)
    code = code.code if isinstance(code, V.CodeConst) else code.value if isinstance(code, ast.Constant) else code
    closure = f.pop(ins) if flags & 0x08 else None  # cells; the nested code names them
    annotate = f.pop(ins) if flags & 0x10 else None  # 3.14+: the function that builds the annotations
    annotations = f.pop(ins) if flags & 0x04 else None
    kwdefaults = f.pop(ins) if flags & 0x02 else None
    defaults = f.pop(ins) if flags & 0x01 else None
    fn = V.Function(code)
    if defaults is not None:
        d = f.expr(defaults)
        fn.defaults = ([const(x) for x in d.value] if isinstance(d, ast.Constant) else list(d.elts))
    if kwdefaults is not None:
        d = f.expr(kwdefaults)
        fn.kwdefaults = {k.value: v for k, v in zip(d.keys, d.values)}
    if annotations is not None:
        fn.annotations = f.expr(annotations)
    fn.closure = closure
    fn.annotate = annotate
    f.push(fn)


def _load_closure(f, ins):
    f.push(V.Cell(f.ctx.deref_name(ins.arg)))


def _load_build_class(f, ins):
    f.push(V.BuildClass())


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "CALL": _call,
    "CALL_KW": _call_kw,
    "CALL_FUNCTION_EX": _call_function_ex,
    "DICT_MERGE": _dict_merge,
    "MAKE_FUNCTION": _make_function,
    "LOAD_CLOSURE": _load_closure,
    "LOAD_BUILD_CLASS": _load_build_class,
}
