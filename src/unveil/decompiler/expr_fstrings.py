"""f-strings and 3.14's template strings: formatted values with their conversion and spec,
the joined string, a template's interpolations (whose text must be their expression's).
"""
import ast

from . import values as V
from .errors import DecompilationError


def _build_string(f, ins):
    parts = [f.expr(v, ins) for v in f.popn(ins.arg, ins)]
    vals = []
    for p in parts:
        if isinstance(p, ast.JoinedStr):
            vals.extend(p.values)
        elif isinstance(p, ast.Constant) and isinstance(p.value, str):
            vals.append(p)
        else:
            # a piece formatted earlier (Dynamo resumes half-way through an
            # f-string): a str, which formats as itself
            vals.append(ast.FormattedValue(value=p, conversion=-1, format_spec=None))
    f.push(ast.JoinedStr(values=vals))


def _format_value(f, ins):
    conv, has_spec = ins.arg
    spec = f.pop_expr(ins) if has_spec else None
    v = f.pop(ins)
    if isinstance(v, V.Converted):
        conv, v = v.conversion, v.value
    v = f.expr(v, ins)
    if spec is not None and not isinstance(spec, ast.JoinedStr):
        spec = ast.JoinedStr(values=[spec])
    f.push(ast.JoinedStr(values=[ast.FormattedValue(value=v, conversion=conv, format_spec=spec)]))


_CONVERSIONS = {0: -1, 1: ord("s"), 2: ord("r"), 3: ord("a")}


def _build_interpolation(f, ins):
    """3.14's part of a template string (PEP 750): the value, its source text and (argument
    bit 0) a format spec; the conversion in the bits above."""
    spec = f.pop_expr(ins) if ins.arg & 1 else None
    text = f.pop_expr(ins)
    value = f.pop_expr(ins)
    # the text is written between the braces as it is: only the text of this very value
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str)
            and _parses_to(text.value, value) and ins.arg >> 2 in _CONVERSIONS):
        raise DecompilationError("a template interpolation whose text is not its expression",
                                 f.ctx.name, ins.offset, ins.op)
    if spec is not None and not isinstance(spec, ast.JoinedStr):
        spec = ast.JoinedStr(values=[spec])
    f.push(ast.Interpolation(value=value, str=text.value, conversion=_CONVERSIONS[ins.arg >> 2],
                             format_spec=spec))


def _parses_to(text, node) -> bool:
    """Whether ``text`` is the source of ``node``: the same tree, or the constant the compiler
    folded it to (``-1``)."""
    try:
        parsed = ast.parse("(%s\n)" % text, mode="eval").body
    except SyntaxError:
        return False
    if ast.dump(parsed) == ast.dump(node):
        return True
    if not isinstance(node, ast.Constant):
        return False
    try:
        value = ast.literal_eval(parsed)
    except ValueError:
        return False
    return type(value) is type(node.value) and repr(value) == repr(node.value)


def _build_template(f, ins):
    """3.14's template string: the constant strings between the interpolations, and them."""
    parts = f.pop_expr(ins)
    strings = f.pop_expr(ins)
    parts = list(parts.elts) if isinstance(parts, ast.Tuple) else (
        [] if isinstance(parts, ast.Constant) and parts.value == () else None)
    if (parts is None or not all(isinstance(p, ast.Interpolation) for p in parts)
            or not (isinstance(strings, ast.Constant) and isinstance(strings.value, tuple)
                    and len(strings.value) == len(parts) + 1 and all(isinstance(s, str) for s in strings.value))):
        raise DecompilationError("a template string of an unknown form", f.ctx.name, ins.offset, ins.op)
    values = []
    for s, p in zip(strings.value, parts + [None]):
        if s:
            values.append(ast.Constant(value=s))
        if p is not None:
            values.append(p)
    f.push(ast.TemplateStr(values=values))


def _convert_value(f, ins):
    f.push(V.Converted(f.pop_expr(ins), ins.arg))


#: the instructions built here, and their builders (expressions.execute runs them)
HANDLERS = {
    "BUILD_STRING": _build_string,
    "FORMAT_VALUE": _format_value,
    "CONVERT_VALUE": _convert_value,
    "BUILD_INTERPOLATION": _build_interpolation,
    "BUILD_TEMPLATE": _build_template,
}
