"""Subscripts and slices: ``a[i]``, ``a[i:j]``, their stores and deletes (a symbolic list
changed in place by a constant index, as Dynamo's code does); a module's or class's
``__annotations__[name] = T`` is an annotation (expr_annotations.py).
"""
import ast

from . import values as V
from .expr_annotations import annotated, as_written
from .expr_displays import elements
from .expr_effects import is_pure
from .expr_stores import store
from .versions import FOLDS_CONSTANT_SLICES


def _const_index(index, lst):
    """A constant int or slice usable on ``lst``'s known elements, or None."""
    if any(isinstance(x, ast.Starred) for x in lst.elts):
        return None
    if isinstance(index, ast.Constant) and type(index.value) is int:
        if -len(lst.elts) <= index.value < len(lst.elts):
            return index.value
        return None
    if isinstance(index, ast.Slice):
        parts = [index.lower, index.upper, index.step]
        if all(p is None or isinstance(p, ast.Constant) and (p.value is None or type(p.value) is int)
               for p in parts):
            return slice(*[None if p is None else p.value for p in parts])
    return None


def _binary_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList):
        k = _const_index(index, obj)
        if k is not None:
            if isinstance(k, slice):
                picked = obj.elts[k]
                f.push(V.SymList(_shared(f, obj, picked), f.loop))
            else:
                f.push(_shared(f, obj, [obj.elts[k]])[0])
            return
    obj = f.expr(obj, ins)
    f.push(ast.Subscript(value=obj, slice=index, ctx=ast.Load()))


def _shared(f, lst, elts):
    """Elements about to be referenced twice: ones with effects are saved
    in temporaries first, so they are still evaluated once."""
    out = []
    for x in elts:
        if isinstance(x, ast.expr) and not is_pure(x) and not isinstance(x, ast.Name):
            f.save_below(lst)
            tmp = f.spill(x)
            lst.elts[:] = [tmp if y is x else y for y in lst.elts]
            x = tmp
        out.append(x)
    return out


def _binary_slice(f, ins):
    stop = f.pop_expr(ins)
    start = f.pop_expr(ins)
    obj = f.pop_expr(ins)
    f.push(ast.Subscript(value=obj, slice=_unfolded_slice(start, stop), ctx=ast.Load()))


def _store_slice(f, ins):
    stop = f.pop_expr(ins)
    start = f.pop_expr(ins)
    obj = f.pop_expr(ins)
    store(f, ast.Subscript(value=obj, slice=_unfolded_slice(start, stop), ctx=ast.Store()), ins)


def _unfolded_slice(start, stop):
    """``start:stop`` as BINARY_SLICE reads it. 3.14 would fold bounds written as constants into a
    slice constant; they were folded later from an expression (``0 + 2``, ``not 2``): one bound is
    written as an operator the compiler folds just as late to the same value (``+2``, ``not True``).
    Other constants (strings) stay as they are."""
    part = _slice(start, stop, None)
    if FOLDS_CONSTANT_SLICES and all(b is None or _reads_as_constant(b) for b in (part.lower, part.upper)):
        for field in ("lower", "upper"):
            b = getattr(part, field)
            if b is not None and type(b.value) is bool:
                setattr(part, field, ast.UnaryOp(op=ast.Not(), operand=ast.Constant(value=not b.value)))
                break
            if b is not None and type(b.value) in (int, float):
                setattr(part, field, ast.UnaryOp(op=ast.UAdd(), operand=b))
                break
    return part


def _reads_as_constant(e) -> bool:
    """Whether ``e`` is a constant whose text parses back to a constant (``-1`` is an operator)."""
    return isinstance(e, ast.Constant) and isinstance(ast.parse(ast.unparse(e), mode="eval").body, ast.Constant)


def none_or(e):
    return None if isinstance(e, ast.Constant) and e.value is None else e


def _slice(lower, upper, step):
    return ast.Slice(lower=none_or(lower), upper=none_or(upper),
                     step=none_or(step) if step is not None else None)


def _build_slice(f, ins):
    step = f.pop_expr(ins) if ins.arg == 3 else None
    upper = f.pop_expr(ins)
    lower = f.pop_expr(ins)
    f.push(_slice(lower, upper, step))


def _store_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList) and obj.loop == f.loop:
        k = _const_index(index, obj)
        if k is not None:
            value = f.pop(ins)
            if isinstance(k, slice):
                new = elements(value)
                if new is not None and (k.step is None or k.step == 1):
                    obj.elts[k] = new
                    return
                f.push(value)
            else:
                obj.elts[k] = f.expr(value, ins)
                return
    if isinstance(obj, V.SymList):
        f.push(obj)
        obj = f.spill_all(obj)
        f.pop()
    if isinstance(obj, V.AnnotationsDict):
        # module/class level ``x: T`` is ``__annotations__['x'] = T``
        annotation = as_written(f.pop_expr(ins), f.ctx.code)
        node = annotated(f.stmts[-1] if f.stmts else None, index.value, annotation)
        if node.value is not None:
            f.stmts[-1] = node
        else:
            f.emit(node)
        return
    store(f, ast.Subscript(value=f.expr(obj), slice=index, ctx=ast.Store()), ins)


def _delete_subscr(f, ins):
    index = f.pop_expr(ins)
    obj = f.pop(ins)
    if isinstance(obj, V.SymList) and obj.loop == f.loop:
        k = _const_index(index, obj)
        if k is not None:
            del obj.elts[k]
            return
    if isinstance(obj, V.SymList):
        f.push(obj)
        obj = f.spill_all(obj)
        f.pop()
    obj = f.expr(obj, ins)
    f.emit(ast.Delete(targets=[ast.Subscript(value=obj, slice=index, ctx=ast.Del())]))


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "BINARY_SUBSCR": _binary_subscr,
    "BINARY_SLICE": _binary_slice,
    "STORE_SLICE": _store_slice,
    "BUILD_SLICE": _build_slice,
    "STORE_SUBSCR": _store_subscr,
    "DELETE_SUBSCR": _delete_subscr,
}
