"""Symbolic stack execution of straight-line instructions.

A :class:`Frame` holds the symbolic value stack and the statements produced so
far. :func:`execute` runs one instruction that does not transfer control;
control flow is the structurer's job.

Each instruction is built by the module of its family; this one only picks it:

* expr_frame.py -- :class:`Frame` (the stack, the statements, the order of evaluation),
  :func:`name` and :func:`const`;
* expr_effects.py -- what evaluating a value may do (:func:`is_pure`, :func:`has_effects`);
* expr_stores.py -- stores and unpacking: assignments, chained, tuple, walrus, augmented;
* expr_names.py -- loads, stores and deletes of names, cells, attributes; constants;
* expr_operators.py -- binary, unary and comparison operators;
* expr_subscripts.py -- subscripts and slices;
* expr_annotations.py -- a module's or class's annotations;
* expr_displays.py -- tuple, list, set and dict displays, and what is unpacked into them;
* expr_fstrings.py -- f-strings and template strings;
* expr_calls.py -- calls, and the functions and classes they make;
* expr_stack.py -- ``POP_TOP``, ``COPY``, ``SWAP``, ``ROT``;
* expr_statements.py -- ``return``, ``raise``, imports;
* expr_generators.py -- iterators, ``await``, ``yield``.

They read the normalized instructions (stream.py, stack_effects.py) and the version flags
(versions.py); nothing of the reading side imports them.
"""
from . import (expr_annotations, expr_calls, expr_displays, expr_fstrings, expr_generators, expr_names,
               expr_operators, expr_stack, expr_statements, expr_stores, expr_subscripts)
from .errors import DecompilationError
from .expr_frame import Frame

# The names the structurer's modules (``E.Frame``, ``E.const``, ...), function.py, api.py and
# recompile.py read from here, where they lived before the builders were split; new code
# imports them from where they are defined.
from .expr_annotations import CO_FUTURE_ANNOTATIONS, Annotated, annotated, as_written
from .expr_effects import has_effects, is_pure
from .expr_frame import const, name
from .expr_statements import import_statement
from .expr_stores import simple_assign

__all__ = ["execute", "Frame", "CO_FUTURE_ANNOTATIONS", "Annotated", "annotated", "as_written",
           "has_effects", "is_pure", "const", "name", "import_statement", "simple_assign"]


def execute(frame: Frame, ins) -> None:
    """Run one non-control-flow instruction on ``frame``."""
    handler = _HANDLERS.get(ins.op)
    if handler is None:
        raise DecompilationError("unsupported instruction", frame.ctx.name, ins.offset, ins.op)
    frame.current = ins
    handler(frame, ins)


#: every instruction :func:`execute` runs, and its builder (each family names its own)
_HANDLERS = {
    **expr_names.HANDLERS, **expr_operators.HANDLERS, **expr_subscripts.HANDLERS,
    **expr_annotations.HANDLERS, **expr_displays.HANDLERS, **expr_fstrings.HANDLERS,
    **expr_calls.HANDLERS, **expr_stores.HANDLERS, **expr_stack.HANDLERS,
    **expr_statements.HANDLERS, **expr_generators.HANDLERS,
}
