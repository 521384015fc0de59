"""Decompile one code object: read its instructions, structure them into
statements, tidy and finish the body (implicit returns, docstring, declarations);
and the ``def`` / ``class`` statement around it. The top of the decompiler:
it imports the structurer, which imports the modules below it (never back)."""
import ast
import inspect

from .cleanup import check_asserts_whole, check_evaluated_once, tidy
from .depth import Nested
from .errors import DecompilationError
from .function import (CO_ASYNC_GENERATOR, CO_COROUTINE, COMPREHENSIONS, Context, arguments,
                       bare_returns, check_annotations_kept, clean_class_body,
                       declare_unbound_locals, docstring_first, ends_with_dead_return,
                       has_docstring, has_yield, last_return_into_else, returns_none_explicitly,
                       strip_implicit_return, with_annotations)
from .instructions import read
from .versions import COPIES_EXIT_BLOCKS
from .structure.walk import structure


def decompile_code(code, consts=None):
    """Statements of ``code``'s body and the :class:`Context` used."""
    ctx = Context(code, consts)
    ctx.decompile_nested = decompile_code
    program = read(code)
    ctx.instrs = program.instrs
    try:
        with Nested(lambda: (ctx.name, None, None)):
            body = structure(ctx, program)
    except RecursionError:
        raise DecompilationError("control flow could not be structured: the walk went past "
                                 "Python's recursion limit (nesting too deep from where "
                                 "decompile was called, or a walk that does not end)",
                                 ctx.name) from None
    body = tidy(body)
    if not code.co_flags & inspect.CO_OPTIMIZED:
        check_annotations_kept(program, body, ctx.name)
    check_evaluated_once(body, ctx.name)
    check_asserts_whole(body, ctx.name, ctx.temp_prefix)
    if code.co_name not in COMPREHENSIONS and code.co_name != "<lambda>":
        if not COPIES_EXIT_BLOCKS and ends_with_dead_return(program):
            body = last_return_into_else(body)
        if not (COPIES_EXIT_BLOCKS and returns_none_explicitly(program)):
            body = strip_implicit_return(body)  # (a written last ``return None`` stays)
    if code.co_flags & CO_ASYNC_GENERATOR:
        bare_returns(body)
    module_docstring = False
    if code.co_name == "<module>":  # (a class body's: clean_class_body)
        annotated = with_annotations(body)
        body = docstring_first(annotated)
        module_docstring = body is not annotated
    if has_docstring(code):
        body.insert(0, ast.Expr(value=ast.Constant(value=code.co_consts[0])))
    if code.co_flags & (inspect.CO_GENERATOR | CO_ASYNC_GENERATOR) and not has_yield(body):
        # a generator whose yield was unreachable (and removed by the compiler)
        keep = ast.If(test=ast.Constant(value=False), body=[ast.Expr(value=ast.Yield(value=None))],
                      orelse=[])
        keep._keeps_generator = True  # (a generator expression has its own form of it)
        body.append(keep)
    # (the docstring must stay the first statement, a module's __future__ imports next)
    start = 1 if has_docstring(code) or module_docstring else 0
    while start < len(body) and isinstance(body[start], ast.ImportFrom) \
            and body[start].module == "__future__":
        start += 1
    if code.co_flags & inspect.CO_OPTIMIZED and code.co_name not in COMPREHENSIONS \
            and code.co_name != "<lambda>":
        body[start:start] = declare_unbound_locals(code, body)
    decls = []
    if ctx.globals:
        decls.append(ast.Global(names=list(ctx.globals)))
    if ctx.nonlocals:
        decls.append(ast.Nonlocal(names=list(ctx.nonlocals)))
    return body[:start] + decls + body[start:], ctx


def class_def(code, name=None, consts=None):
    """The class statement whose body is ``code``. Its bases, keywords and
    decorators are evaluated outside the body, so they are not known here."""
    if ".type_params" in code.co_freevars:
        raise DecompilationError("the body of a generic class (class %s[...]): its type "
                                 "parameters are not in the body" % code.co_name, code.co_name)
    body, ctx = decompile_code(code, consts)
    body = clean_class_body(body)
    node = ast.ClassDef(name=name or code.co_name, bases=[], keywords=[],
                        body=body or [ast.Pass()], decorator_list=[])
    if hasattr(ast, "TypeVar"):
        node.type_params = []
    return node, ctx


def function_def(code, defaults=(), kwdefaults=None, name=None, consts=None):
    """``code`` as a complete ``def`` statement (defaults given as nodes)."""
    body, ctx = decompile_code(code, consts)
    node_t = ast.AsyncFunctionDef if code.co_flags & (CO_COROUTINE | CO_ASYNC_GENERATOR) else ast.FunctionDef
    node = node_t(name=name or code.co_name, args=arguments(code, defaults, kwdefaults),
                  body=body or [ast.Pass()], decorator_list=[], returns=None, type_comment=None)
    if hasattr(ast, "TypeVar"):
        node.type_params = []
    return node, ctx
