"""Annotations of a module or class body: ``x: T`` and ``x: T = v`` from the store into
``__annotations__`` (<=3.13) or 3.14+'s record of which annotated statements ran, and the
text of an annotation under ``from __future__ import annotations``. function.py writes
3.14+'s annotations from the ``__annotate__`` function.
"""
import ast

from .expr_frame import name


#: ``from __future__ import annotations`` (every code object compiled under it has the flag)
CO_FUTURE_ANNOTATIONS = __import__("__future__").annotations.compiler_flag


def as_written(annotation, code):
    """An annotation of ``code`` as the source wrote it: under ``from __future__ import
    annotations`` the compiler keeps the text of the expression (a str constant), parsed back
    here (the proof compares the text the compiler makes of it again)."""
    if not (code.co_flags & CO_FUTURE_ANNOTATIONS and isinstance(annotation, ast.Constant)
            and type(annotation.value) is str):
        return annotation
    try:
        return ast.parse(annotation.value, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return annotation  # (not the compiler's text: refused by the proof)


def annotated(previous, target, annotation):
    """The statement annotating the name ``target`` (module or class level) that follows the
    statement ``previous`` (or None): ``target: annotation = v`` that stands for ``previous``
    where that is ``target = v`` (the compiler stores the value, then records the
    annotation), else ``target: annotation``."""
    value = None
    if (isinstance(previous, ast.Assign) and len(previous.targets) == 1
            and isinstance(previous.targets[0], ast.Name) and previous.targets[0].id == target):
        value = previous.value
    return ast.AnnAssign(target=name(target, ast.Store()), annotation=annotation, value=value, simple=1)


class Annotated(ast.stmt):
    """3.14+: the compiler's record that the annotated statement numbered ``number`` ran
    (see versions.MARKS_CONDITIONAL_ANNOTATIONS); function.with_annotations writes
    the annotation there."""
    _fields = ("number",)


def _annotated(f, ins):
    f.emit(Annotated(number=ins.arg.number))


def _setup_annotations(f, ins):
    pass  # implied by the first annotated assignment


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "SETUP_ANNOTATIONS": _setup_annotations,
    "ANNOTATED": _annotated,
}
