"""Names, cells, attributes and constants: their loads, stores and deletes.
"""
import ast

from . import values as V
from .expr_frame import name
from .expr_stores import store


def _load_const(f, ins):
    f.push(f.ctx.constant(ins.arg))


def _load_name(f, ins):
    if ins.arg == "__annotations__" and ins.op == "LOAD_NAME":
        f.push(V.AnnotationsDict())  # a class or module level annotation follows
        return
    if ins.arg == ".0":
        # a comprehension's argument: the iterator of its outermost loop
        f.push(V.Iterator(name(".0")))
        return
    f.push(name(ins.arg))


def _load_global(f, ins):
    f.push(name(ins.arg))


def _load_deref(f, ins):
    f.push(name(f.ctx.deref_name(ins.arg)))


def _store_name(f, ins):
    store(f, name(ins.arg, ast.Store()), ins)


def _store_global(f, ins):
    f.ctx.declare_global(ins.arg)
    store(f, name(ins.arg, ast.Store()), ins)


def _store_deref(f, ins):
    n = f.ctx.deref_name(ins.arg)
    f.ctx.declare_nonlocal(n)
    store(f, name(n, ast.Store()), ins)


def _delete(ctx_fn):
    def run(f, ins):
        f.emit(ast.Delete(targets=[ctx_fn(f, ins)]))
    return run


def _delete_global(f, ins):
    f.ctx.declare_global(ins.arg)
    f.emit(ast.Delete(targets=[name(ins.arg, ast.Del())]))


def _delete_deref(f, ins):
    n = f.ctx.deref_name(ins.arg)
    f.ctx.declare_nonlocal(n)
    f.emit(ast.Delete(targets=[name(n, ast.Del())]))


def _load_attr(f, ins):
    obj = f.pop(ins)
    if isinstance(obj, (V.Import, V.ImportedName)):
        f.push(V.ImportedName(obj, ins.arg))  # ``import a.b as c`` walks to the leaf
        return
    obj = f.expr(obj, ins)
    f.push(ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Load()))


def _load_method(f, ins):
    obj = f.pop_expr(ins)
    f.push(ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Load()))
    f.push(V.NULL)


def _load_super_attr(f, ins):
    attr, is_method, two_args = ins.arg
    self_, cls, sup = f.pop(ins), f.pop(ins), f.pop(ins)
    args = [f.expr(cls), f.expr(self_)] if two_args else []
    call = ast.Call(func=f.expr(sup), args=args, keywords=[])
    f.push(ast.Attribute(value=call, attr=attr, ctx=ast.Load()))
    if is_method:
        f.push(V.NULL)


def _store_attr(f, ins):
    obj = f.pop_expr(ins)
    store(f, ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Store()), ins)


def _delete_attr(f, ins):
    obj = f.pop_expr(ins)
    f.emit(ast.Delete(targets=[ast.Attribute(value=obj, attr=ins.arg, ctx=ast.Del())]))


def _load_locals(f, ins):
    f.push(ast.Call(func=name("locals"), args=[], keywords=[]))


def _load_from_dict_or_deref(f, ins):
    f.pop(ins)
    f.push(name(f.ctx.deref_name(ins.arg)))


def _load_from_dict_or_globals(f, ins):
    f.pop(ins)
    f.push(name(ins.arg))


def _push_null(f, ins):
    f.push(V.NULL)


def _load_assertion_error(f, ins):
    node = name("AssertionError")
    node._assertion = True  # an ``assert`` statement raises this
    node._line_mark = ins.arg  # "own line" / "under if" (see read_rewrites.mark_asserts_on_own_line)
    f.push(node)


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "LOAD_CONST": _load_const,
    "LOAD_FAST": _load_name,
    "LOAD_NAME": _load_name,
    "LOAD_GLOBAL": _load_global,
    "LOAD_DEREF": _load_deref,
    "LOAD_CLASSDEREF": _load_deref,
    "STORE_FAST": _store_name,
    "STORE_NAME": _store_name,
    "STORE_GLOBAL": _store_global,
    "STORE_DEREF": _store_deref,
    "DELETE_FAST": _delete(lambda f, i: name(i.arg, ast.Del())),
    "DELETE_NAME": _delete(lambda f, i: name(i.arg, ast.Del())),
    "DELETE_GLOBAL": _delete_global,
    "DELETE_DEREF": _delete_deref,
    "LOAD_ATTR": _load_attr,
    "LOAD_METHOD": _load_method,
    "LOAD_SUPER_ATTR": _load_super_attr,
    "STORE_ATTR": _store_attr,
    "DELETE_ATTR": _delete_attr,
    "LOAD_LOCALS": _load_locals,
    "LOAD_FROM_DICT_OR_DEREF": _load_from_dict_or_deref,
    "LOAD_FROM_DICT_OR_GLOBALS": _load_from_dict_or_globals,
    "PUSH_NULL": _push_null,
    "LOAD_ASSERTION_ERROR": _load_assertion_error,
}
