"""Torch's guard text -> Python.

Dynamo describes each guard with a line of text (``verbose_code_parts``). Most
lines are Python expressions over ``L`` (the frame's locals) and ``G`` (its
globals); some are not: ``___check_global_state() against {...}``,
``___check_type_id(L['b'], 94...), type=<class 'int'>``,
``...top_saved_tensors_hooks ids == None``. Each line becomes one Python
statement: the expression when it is one, the Python call with the rest as a
comment when torch appended a description to a call, otherwise a faithful call
``___torch_guard("<torch's text>")`` (a guard torch evaluates in C++).
"""
import ast
import functools
import io
import re
import tokenize

# Suffixes torch appends to a Python call: "<call> against {...}", "<call>, type=<class ...>".
_SUFFIXES = (" against ", ", type=")


@functools.lru_cache(maxsize=4096)
def split_comment(text: str):
    """``text`` -> (code, comment) at the first comment token outside strings."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                lines = text.splitlines(True)
                offset = sum(len(l) for l in lines[:tok.start[0] - 1]) + tok.start[1]
                return text[:offset].rstrip(), text[offset + 1:].strip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return text.rstrip(), ""


def _is_expression(text: str) -> bool:
    try:
        node = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return False
    return not isinstance(node.body, ast.Tuple)


@functools.lru_cache(maxsize=4096)
def to_python(part: str):
    """One guard line -> (expression, note, location).

    ``expression`` is valid Python; ``note`` is torch's text that is not Python
    (for a comment), ``location`` the source position torch attached.
    """
    code, location = split_comment(part)
    code = code.strip()
    if _is_expression(code):
        return code, "", location
    for suffix in _SUFFIXES:
        cut = code.find(suffix)
        while cut != -1:
            head = code[:cut]
            if _is_expression(head):
                return head.strip(), code[cut:].strip(" ,"), location
            cut = code.find(suffix, cut + 1)
    return "___torch_guard(%r)" % code, "torch's own text, checked in C++", location


def one_line(part: str, limit: int = 240) -> str:
    """A one-line summary of a guard line for the index."""
    expr, note, _ = to_python(part)
    if expr.startswith("___torch_guard("):
        text = " ".join(split_comment(part)[0].split())
    else:
        text = " ".join(expr.split()) + ("  # " + " ".join(note.split()) if note else "")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _comment(text: str, indent: str) -> str:
    lines = [l for l in text.splitlines() if l.strip()] or [""]
    return ("\n" + indent + "# ").join(lines)


class Heading(str):
    """An item of ``guard_function``'s ``parts`` written as a comment line (a group's title)."""


def guard_function(name: str, parts, notes=(), executable=None) -> str:
    """``def <name>(L, G, **___kwargs_ignored):`` returning True when all guard lines hold.

    ``executable(part, expr, note) -> (expr, note)`` (:class:`.guard_runtime.Executable`) may
    replace a line's Python by what decides it exactly as torch does."""
    out = ["def %s(L, G, **___kwargs_ignored):" % name]
    for n in notes:
        out.append("    # " + _comment(n, "    "))
    out.append("    __guard_hit = True")
    for part in parts:
        if isinstance(part, Heading):
            out.append("    # -- " + _comment(part, "    "))
            continue
        expr, note, location = to_python(part)
        if executable is not None:
            expr, note = executable(part, expr, note)
        if "\n" in expr:
            expr = "(\n        " + "\n        ".join(expr.splitlines()) + ")"
        elif expr[:1] != "(" or not expr.endswith(")"):
            expr = "(%s)" % expr if not _is_atom(expr) else expr
        comment = "  | ".join(x for x in (note, "from: " + location if location else "") if x)
        if comment:
            if "\n" in comment or len(comment) > 160:
                out.append("    # " + _comment(comment, "    "))
                out.append("    __guard_hit = __guard_hit and %s" % expr)
            else:
                out.append("    __guard_hit = __guard_hit and %s  # %s" % (expr, comment))
        else:
            out.append("    __guard_hit = __guard_hit and %s" % expr)
    out.append("    return __guard_hit")
    return "\n".join(out) + "\n"


@functools.lru_cache(maxsize=4096)  # (each guard line is written for the index and the file)
def _is_atom(expr: str) -> bool:
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return False
    return isinstance(node, (ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.Constant))


_ROOT = re.compile(r"""\b([LG])\[(['"])(.*?)\2\]""")


def roots_of(part: str) -> list:
    """The frame variables a guard line tests (``[("L", "x"), ("G", "torch")]``), each once."""
    code, _ = split_comment(part)
    out = []
    for scope, _, name in _ROOT.findall(code):
        if (scope, name) not in out:
            out.append((scope, name))
    return out


def in_frame_order(parts, varnames=()) -> list:
    """``parts`` in one order for every entry of a function, so that entries read side by side:
    lines on no variable (global state) first, then the lines on one variable, variable by
    variable -- locals in the code's order (its arguments first), then globals by name --, then
    the lines relating several variables. Torch's guard tree lists variables in the order the
    compile met them, which differs from entry to entry (``L['b'] == 3`` last in one entry,
    first in the others).

    Within a variable the lines keep torch's order (a tensor's type is checked before its
    sizes), and lines on several variables come after every line on any of them, as torch
    checks its relational guards last: each line is evaluated only where torch would."""
    rank = {name: k for k, name in enumerate(varnames or ())}

    def key(item):
        position, part = item
        roots = roots_of(part)
        if not roots:
            return (0, 0, "", position)
        if len(roots) > 1:
            return (3, 0, "", position)
        scope, name = roots[0]
        if scope == "L":
            return (1, rank.get(name, len(rank)), name, position)
        return (2, 0, name, position)

    return [part for _, part in sorted(enumerate(parts), key=key)]


def guard_parts(guard_manager, varnames=None) -> list:
    """Torch's verbose guard lines of one cache entry: with ``varnames`` (the code's
    ``co_varnames``) :func:`in_frame_order`, else in the order torch lists them (the guard
    manager's tree, then its epilogue guards)."""
    parts = []
    root = getattr(guard_manager, "root", None)
    if root is not None and hasattr(root, "get_leaf_guards"):
        def walk(mgr):
            for leaf in mgr.get_leaf_guards():
                parts.extend(leaf.verbose_code_parts())
            for child in mgr.get_child_managers():
                walk(child)
            # a dict's keys and values have managers of their own (torch prints them too)
            pairs = getattr(mgr, "get_key_value_managers", None)
            if callable(pairs):
                for _, (key_mgr, value_mgr) in sorted(pairs().items()):
                    for m in (key_mgr, value_mgr):
                        if m is not None:
                            walk(m)
        try:
            walk(root)
            # checked last, once the others hold: relations between sizes and strides
            # (``2 <= L['x'].size()[0]``), identity checks of objects
            epilogue = getattr(root, "get_epilogue_lambda_guards", None)
            for leaf in (epilogue() if callable(epilogue) else ()):
                parts.extend(leaf.verbose_code_parts())
        except Exception:
            parts = []
    if not parts:
        for attr in ("code_parts", "verbose_code_parts"):
            value = getattr(guard_manager, attr, None)
            if callable(value):
                try:
                    value = value()
                except Exception:
                    value = None
            if value:
                parts = list(value)
                break
    seen, out = set(), []
    for p in parts:  # torch may list a shared guard under several managers
        if p not in seen:
            seen.add(p)
            out.append(p)
    return in_frame_order(out, varnames) if varnames is not None else out
