"""``ast`` -> source text without ``ast.unparse`` (which is 3.9+).

``unparse(node)`` renders a tree the way ``ast.unparse`` of Python 3.9+ does:
same parentheses (driven by the precedence table below), same string quoting,
same f-string reconstruction, same blank lines and indentation.  It runs on
3.8-3.13 and understands both the 3.8 tree shapes (``ast.Index`` /
``ast.ExtSlice`` around subscripts, ``Constant`` nodes without ``kind``) and
the 3.9+ ones.

``ast.unparse`` itself is not quite the same text on every version, so the
output follows a *flavour*:

* 3.9 / 3.10: tuples are always parenthesized (``(a, b) = c``), ``lambda : x``.
* 3.11: bare tuples where unambiguous (``a, b = c``, ``for k, v in d``),
  ``lambda: x``, ``a[*b]``.
* 3.12: f-strings no longer avoid backslashes or quote reuse in their
  replacement fields; newlines in format specs are escaped.
* 3.13: quotes and backslashes in format specs are escaped as well.

By default the flavour is the running interpreter's, so the result is equal to
``ast.unparse`` there.  On 3.8 the 3.11 flavour is used, minus the one piece of
3.11-only syntax it would produce (a starred item in a subscript keeps its
parentheses, ``a[(*b, c)]``), so the text always parses on the running version.

Expressions are rendered by methods returning strings; the caller passes the
precedence of the slot the expression goes into, and an expression whose own
precedence is lower than that gets parentheses.  Statements append lines.
"""
import ast
import sys

__all__ = ["unparse"]


class Prec:
    """Binding strength of expression forms, weakest first.

    An expression is parenthesized when the slot it is written into asks for
    a higher value than the expression's own."""

    NAMED_EXPR = 1   # x := v
    TUPLE = 2        # a, b
    YIELD = 3        # yield, yield from
    TEST = 4         # a if c else b, lambda
    OR = 5
    AND = 6
    NOT = 7          # not x
    CMP = 8          # < > == >= <= != in, not in, is, is not
    EXPR = 9         # also '|'
    BOR = 9
    BXOR = 10
    BAND = 11
    SHIFT = 12
    ARITH = 13       # binary + -
    TERM = 14        # * @ / % //
    FACTOR = 15      # unary + - ~
    POWER = 16       # **
    AWAIT = 17
    ATOM = 18

    @staticmethod
    def above(level):
        """The next stronger level (ATOM stays ATOM)."""
        return min(level + 1, Prec.ATOM)


BINARY_OPERATORS = {
    # op class name: (text, precedence)
    "Add": ("+", Prec.ARITH),
    "Sub": ("-", Prec.ARITH),
    "Mult": ("*", Prec.TERM),
    "MatMult": ("@", Prec.TERM),
    "Div": ("/", Prec.TERM),
    "Mod": ("%", Prec.TERM),
    "FloorDiv": ("//", Prec.TERM),
    "LShift": ("<<", Prec.SHIFT),
    "RShift": (">>", Prec.SHIFT),
    "BitOr": ("|", Prec.BOR),
    "BitXor": ("^", Prec.BXOR),
    "BitAnd": ("&", Prec.BAND),
    "Pow": ("**", Prec.POWER),
}

UNARY_OPERATORS = {
    "Invert": ("~", Prec.FACTOR),
    "UAdd": ("+", Prec.FACTOR),
    "USub": ("-", Prec.FACTOR),
    "Not": ("not ", Prec.NOT),
}

BOOL_OPERATORS = {
    "And": (" and ", Prec.AND),
    "Or": (" or ", Prec.OR),
}

COMPARE_OPERATORS = {
    "Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
    "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in",
}

# Float/complex literals too large for a double become infinities in the tree;
# write them back as a literal that overflows again.
INFINITY_LITERAL = "1e" + repr(sys.float_info.max_10_exp + 1)

SINGLE_QUOTES = ("'", '"')
TRIPLE_QUOTES = ('"""', "'''")
ALL_QUOTES = SINGLE_QUOTES + TRIPLE_QUOTES

INDENT = "    "


def _lazy(node):
    """3.15's ``lazy import`` (PEP 810): the tree says so in ``is_lazy``."""
    return "lazy " if getattr(node, "is_lazy", 0) else ""


def _default_flavour():
    version = sys.version_info[:2]
    return version if version >= (3, 9) else (3, 8)


def _escape_for_literal(text, quotes, escape_newline_and_tab):
    """Spell the body of a string literal holding ``text`` using one of
    ``quotes``, with as few backslashes as possible.

    Returns ``(body, usable_quotes)``; the first usable quote is the one to
    write.  When no quote fits, the body is ``repr``'s."""
    pieces = []
    for char in text:
        if char in "\n\t" and not escape_newline_and_tab:
            pieces.append(char)
        elif char == "\\" or not char.isprintable():
            pieces.append(char.encode("unicode_escape").decode("ascii"))
        else:
            pieces.append(char)
    body = "".join(pieces)

    candidates = list(quotes)
    if "\n" in body:
        candidates = [q for q in candidates if q in TRIPLE_QUOTES]
    candidates = [q for q in candidates if q not in body]
    if not candidates:
        spelled = repr(text)
        quote = spelled[0]
        for q in quotes:
            if quote in q:
                quote = q
                break
        return spelled[1:-1], [quote]
    if body:
        # A quote equal to the last character would close the literal early:
        # prefer the others, and if none is left escape that character.
        candidates.sort(key=lambda q: q[0] == body[-1])
        if candidates[0][0] == body[-1]:
            body = body[:-1] + "\\" + body[-1]
    return body, candidates


def _string_literal(text, quotes=ALL_QUOTES):
    body, usable = _escape_for_literal(text, quotes, escape_newline_and_tab=False)
    return usable[0] + body + usable[0]


def _items(texts):
    """Comma-separated; a single item gets a trailing comma (tuple syntax)."""
    if len(texts) == 1:
        return texts[0] + ","
    return ", ".join(texts)


class Unparser:
    """Renders one tree; ``_s_<Node>`` methods emit statements, ``_e_<Node>``
    methods return expression text.  ``flavour`` as for :func:`unparse`."""

    def __init__(self, flavour=None, in_fstring_field=False):
        self.flavour = tuple(flavour) if flavour is not None else _default_flavour()
        # The flavour as switches.  Flavour (3, 8) means 3.11's layout
        # restricted to 3.8 syntax (see the module docstring).
        self.bare_tuples = self.flavour >= (3, 11) or self.flavour < (3, 9)
        self.starred_index_bare = self.flavour >= (3, 11)
        self.new_fstrings = self.flavour >= (3, 12)
        self.fstring_fallback = self.flavour >= (3, 11) or self.flavour < (3, 9)
        # Before 3.12 an f-string replacement field cannot hold a backslash.
        self.avoid_backslashes = in_fstring_field and not self.new_fstrings
        self._out = []
        self._depth = 0
        self._type_ignores = {}

    # ----------------------------------------------------------------- output

    def _write(self, text):
        self._out.append(text)

    def _newline_unless_first(self):
        if self._out:
            self._out.append("\n")

    def _line(self, text=""):
        """Start a new line at the current indentation."""
        self._newline_unless_first()
        self._out.append(INDENT * self._depth + text)

    def _block(self, body, suffix=None):
        """``:`` (plus an optional type comment) and an indented body."""
        self._write(":")
        if suffix:
            self._write(suffix)
        self._depth += 1
        self.statements(body)
        self._depth -= 1

    def _else_block(self, keyword, body):
        if body:
            self._line(keyword)
            self._block(body)

    def render(self, node):
        self._out = []
        if isinstance(node, list):
            self.statements(node)
        elif hasattr(self, "_s_" + type(node).__name__):
            self.statement(node)
        else:
            self._write(self.expr(node))
        return "".join(self._out)

    # ------------------------------------------------------------- statements

    def statements(self, nodes):
        for node in nodes:
            self.statement(node)

    def statement(self, node):
        method = getattr(self, "_s_" + type(node).__name__, None)
        if method is None:
            raise ValueError("unparse: unsupported statement %r" % type(node).__name__)
        method(node)

    def _type_comment(self, node):
        comment = self._type_ignores.get(getattr(node, "lineno", None))
        comment = comment or getattr(node, "type_comment", None)
        if comment is not None:
            return " # type: " + comment
        return None

    @staticmethod
    def _docstring(node):
        if not node.body:
            return None
        first = node.body[0]
        if not isinstance(first, ast.Expr):
            return None
        value = first.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value
        return None

    def _body_with_docstring(self, node):
        doc = self._docstring(node)
        if doc is None:
            self.statements(node.body)
            return
        prefix = "u" if getattr(doc, "kind", None) == "u" else ""
        self._line(prefix + _string_literal(doc.value, TRIPLE_QUOTES))
        self.statements(node.body[1:])

    def _s_Module(self, node):
        self._type_ignores = {
            ignore.lineno: "ignore" + ignore.tag
            for ignore in getattr(node, "type_ignores", None) or ()
        }
        self._body_with_docstring(node)
        self._type_ignores = {}

    def _s_Interactive(self, node):
        self.statements(node.body)

    def _s_Expression(self, node):
        self._write(self.expr(node.body))

    def _s_FunctionType(self, node):
        args = ", ".join(self.expr(a) for a in node.argtypes)
        self._write("(" + args + ") -> " + self.expr(node.returns))

    def _s_Expr(self, node):
        self._line(self.expr(node.value, Prec.YIELD))

    def _s_Assign(self, node):
        target_slot = Prec.TUPLE if self.bare_tuples else Prec.TEST
        text = "".join(self.expr(t, target_slot) + " = " for t in node.targets)
        self._line(text + self.expr(node.value))
        comment = self._type_comment(node)
        if comment:
            self._write(comment)

    def _s_AugAssign(self, node):
        op = BINARY_OPERATORS[type(node.op).__name__][0]
        self._line(self.expr(node.target) + " " + op + "= " + self.expr(node.value))

    def _s_AnnAssign(self, node):
        target = self.expr(node.target)
        if not node.simple and isinstance(node.target, ast.Name):
            target = "(" + target + ")"
        text = target + ": " + self.expr(node.annotation)
        if node.value:
            text += " = " + self.expr(node.value)
        self._line(text)

    def _s_Return(self, node):
        if node.value:
            self._line("return " + self.expr(node.value))
        else:
            self._line("return")

    def _s_Pass(self, node):
        self._line("pass")

    def _s_Break(self, node):
        self._line("break")

    def _s_Continue(self, node):
        self._line("continue")

    def _s_Delete(self, node):
        self._line("del " + ", ".join(self.expr(t) for t in node.targets))

    def _s_Assert(self, node):
        text = "assert " + self.expr(node.test)
        if node.msg:
            text += ", " + self.expr(node.msg)
        self._line(text)

    def _s_Global(self, node):
        self._line("global " + ", ".join(node.names))

    def _s_Nonlocal(self, node):
        self._line("nonlocal " + ", ".join(node.names))

    def _s_Raise(self, node):
        if not node.exc:
            if node.cause:
                raise ValueError("unparse: raise with a cause but no exception")
            self._line("raise")
            return
        text = "raise " + self.expr(node.exc)
        if node.cause:
            text += " from " + self.expr(node.cause)
        self._line(text)

    def _s_Import(self, node):
        self._line(_lazy(node) + "import " + ", ".join(self._alias(a) for a in node.names))

    def _s_ImportFrom(self, node):
        module = "." * (node.level or 0) + (node.module or "")
        names = ", ".join(self._alias(a) for a in node.names)
        self._line(_lazy(node) + "from " + module + " import " + names)

    @staticmethod
    def _alias(node):
        if node.asname:
            return node.name + " as " + node.asname
        return node.name

    def _s_If(self, node):
        self._line("if " + self.expr(node.test))
        self._block(node.body)
        # else: if ... collapses into elif.
        while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            self._line("elif " + self.expr(node.test))
            self._block(node.body)
        self._else_block("else", node.orelse)

    def _s_While(self, node):
        self._line("while " + self.expr(node.test))
        self._block(node.body)
        self._else_block("else", node.orelse)

    def _loop(self, keyword, node):
        target_slot = Prec.TUPLE if self.bare_tuples else Prec.TEST
        self._line(keyword + " " + self.expr(node.target, target_slot)
                   + " in " + self.expr(node.iter))
        self._block(node.body, self._type_comment(node))
        self._else_block("else", node.orelse)

    def _s_For(self, node):
        self._loop("for", node)

    def _s_AsyncFor(self, node):
        self._loop("async for", node)

    def _with(self, keyword, node):
        items = ", ".join(self._withitem(item) for item in node.items)
        self._line(keyword + " " + items)
        self._block(node.body, self._type_comment(node))

    def _withitem(self, node):
        text = self.expr(node.context_expr)
        if node.optional_vars:
            text += " as " + self.expr(node.optional_vars)
        return text

    def _s_With(self, node):
        self._with("with", node)

    def _s_AsyncWith(self, node):
        self._with("async with", node)

    def _s_Try(self, node, star=False):
        self._line("try")
        self._block(node.body)
        for handler in node.handlers:
            self._s_ExceptHandler(handler, star)
        self._else_block("else", node.orelse)
        self._else_block("finally", node.finalbody)

    def _s_TryStar(self, node):
        self._s_Try(node, star=True)

    def _s_ExceptHandler(self, node, star=False):
        text = "except*" if star else "except"
        if node.type:
            text += " " + self.expr(node.type)
        if node.name:
            text += " as " + node.name
        self._line(text)
        self._block(node.body)

    def _decorators(self, node):
        if getattr(node, "type_params", None):
            # PEP 695 (3.12+) syntax: outside what this module is for.
            raise ValueError("unparse: type parameters are not supported")
        self._newline_unless_first()
        for decorator in node.decorator_list:
            self._line("@" + self.expr(decorator))

    def _s_ClassDef(self, node):
        self._decorators(node)
        bases = [self.expr(b) for b in node.bases]
        bases += [self._keyword(k) for k in node.keywords]
        header = "class " + node.name
        if bases:
            header += "(" + ", ".join(bases) + ")"
        self._line(header)
        self._write(":")
        self._depth += 1
        self._body_with_docstring(node)
        self._depth -= 1

    def _function(self, keyword, node):
        self._decorators(node)
        header = keyword + " " + node.name + "(" + self._arguments(node.args) + ")"
        if getattr(node, "returns", None):
            header += " -> " + self.expr(node.returns)
        self._line(header)
        self._write(":")
        comment = self._type_comment(node)
        if comment:
            self._write(comment)
        self._depth += 1
        self._body_with_docstring(node)
        self._depth -= 1

    def _s_FunctionDef(self, node):
        self._function("def", node)

    def _s_AsyncFunctionDef(self, node):
        self._function("async def", node)

    # ---------------------------------------------------- function signatures

    def _arg(self, node):
        if node.annotation:
            return node.arg + ": " + self.expr(node.annotation)
        return node.arg

    def _arguments(self, node):
        parts = []
        posonly = getattr(node, "posonlyargs", None) or []
        positional = posonly + node.args
        defaults = [None] * (len(positional) - len(node.defaults)) + list(node.defaults)
        for index, (arg, default) in enumerate(zip(positional, defaults), 1):
            text = self._arg(arg)
            if default:
                text += "=" + self.expr(default)
            if index == len(posonly):
                text += ", /"
            parts.append(text)
        if node.vararg:
            parts.append("*" + self._arg(node.vararg))
        elif node.kwonlyargs:
            parts.append("*")
        for arg, default in zip(node.kwonlyargs, node.kw_defaults):
            text = self._arg(arg)
            if default:
                text += "=" + self.expr(default)
            parts.append(text)
        if node.kwarg:
            parts.append("**" + self._arg(node.kwarg))
        return ", ".join(parts)

    # Helper nodes, should one be unparsed on its own.
    def _e_arguments(self, node, slot):
        return self._arguments(node)

    def _e_arg(self, node, slot):
        return self._arg(node)

    def _e_keyword(self, node, slot):
        return self._keyword(node)

    def _e_alias(self, node, slot):
        return self._alias(node)

    def _e_withitem(self, node, slot):
        return self._withitem(node)

    def _e_comprehension(self, node, slot):
        return self._generators([node])

    def _keyword(self, node):
        if node.arg is None:
            return "**" + self.expr(node.value)
        return node.arg + "=" + self.expr(node.value)

    # ------------------------------------------------------------ expressions

    def expr(self, node, slot=Prec.TEST):
        """Source of expression ``node`` written into a slot of precedence
        ``slot`` (parenthesized if it binds more loosely than that)."""
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            raise ValueError("unparse: unsupported expression %r" % type(node).__name__)
        return method(node, slot)

    @staticmethod
    def _group(text, own, slot):
        return "(" + text + ")" if slot > own else text

    def _e_Name(self, node, slot):
        return node.id

    def _e_Constant(self, node, slot):
        value = node.value
        if isinstance(value, tuple):
            return "(" + _items([self._literal(v) for v in value]) + ")"
        if value is Ellipsis:
            return "..."
        prefix = "u" if getattr(node, "kind", None) == "u" else ""
        return prefix + self._literal(value)

    def _literal(self, value):
        if isinstance(value, (float, complex)):
            # inf -> an overflowing literal, nan -> inf - inf.
            text = repr(value).replace("inf", INFINITY_LITERAL)
            return text.replace("nan", "(%s-%s)" % (INFINITY_LITERAL, INFINITY_LITERAL))
        if isinstance(value, str) and self.avoid_backslashes:
            return _string_literal(value)
        return repr(value)

    # 3.8 spellings, should they show up outside a subscript.
    def _e_Index(self, node, slot):
        return self.expr(node.value, slot)

    def _e_ExtSlice(self, node, slot):
        return _items([self.expr(d) for d in node.dims])

    def _e_NamedExpr(self, node, slot):
        text = (self.expr(node.target, Prec.ATOM) + " := "
                + self.expr(node.value, Prec.ATOM))
        return self._group(text, Prec.NAMED_EXPR, slot)

    def _prefixed(self, keyword, value, own, slot):
        text = keyword
        if value:
            text += " " + self.expr(value, Prec.ATOM)
        return self._group(text, own, slot)

    def _e_Await(self, node, slot):
        return self._prefixed("await", node.value, Prec.AWAIT, slot)

    def _e_Yield(self, node, slot):
        return self._prefixed("yield", node.value, Prec.YIELD, slot)

    def _e_YieldFrom(self, node, slot):
        if not node.value:
            raise ValueError("unparse: yield from without a value")
        return self._prefixed("yield from", node.value, Prec.YIELD, slot)

    def _e_IfExp(self, node, slot):
        text = (self.expr(node.body, Prec.OR) + " if " + self.expr(node.test, Prec.OR)
                + " else " + self.expr(node.orelse, Prec.TEST))
        return self._group(text, Prec.TEST, slot)

    def _e_Lambda(self, node, slot):
        args = self._arguments(node.args)
        if args or not self.bare_tuples:
            head = "lambda " + args
        else:
            head = "lambda"
        text = head + ": " + self.expr(node.body, Prec.TEST)
        return self._group(text, Prec.TEST, slot)

    def _e_BoolOp(self, node, slot):
        joiner, own = BOOL_OPERATORS[type(node.op).__name__]
        # Each further operand is written into a slightly stronger slot, the
        # way ast.unparse does it.
        texts = []
        level = own
        for value in node.values:
            level = Prec.above(level)
            texts.append(self.expr(value, level))
        if getattr(node, "_own_line", False):
            # an operand whose jump must not be threaded past the enclosing and/or's
            # test starts on a line of its own (emit._Unparser does the same)
            return "(\n" + INDENT * (self._depth + 1) + joiner.join(texts) + ")"
        return self._group(joiner.join(texts), own, slot)

    def _e_BinOp(self, node, slot):
        op, own = BINARY_OPERATORS[type(node.op).__name__]
        if op == "**":   # right-associative
            left, right = Prec.above(own), own
        else:
            left, right = own, Prec.above(own)
        text = self.expr(node.left, left) + " " + op + " " + self.expr(node.right, right)
        return self._group(text, own, slot)

    def _e_UnaryOp(self, node, slot):
        op, own = UNARY_OPERATORS[type(node.op).__name__]
        return self._group(op + self.expr(node.operand, own), own, slot)

    def _e_Compare(self, node, slot):
        operand = Prec.above(Prec.CMP)
        parts = [self.expr(node.left, operand)]
        for op, right in zip(node.ops, node.comparators):
            parts.append(COMPARE_OPERATORS[type(op).__name__])
            parts.append(self.expr(right, operand))
        return self._group(" ".join(parts), Prec.CMP, slot)

    def _e_Attribute(self, node, slot):
        text = self.expr(node.value, Prec.ATOM)
        # `1.real` would lex as a float: write `1 .real`.
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, int):
            text += " "
        return text + "." + node.attr

    def _e_Call(self, node, slot):
        args = [self.expr(a) for a in node.args]
        args += [self._keyword(k) for k in node.keywords]
        return self.expr(node.func, Prec.ATOM) + "(" + ", ".join(args) + ")"

    def _e_Subscript(self, node, slot):
        index = node.slice
        if isinstance(index, getattr(ast, "Index", ())):   # 3.8
            index = index.value
        if isinstance(index, getattr(ast, "ExtSlice", ())):  # 3.8
            inside = _items([self.expr(d) for d in index.dims])
        elif self._bare_index_tuple(index):
            inside = _items([self.expr(e) for e in index.elts])
        else:
            inside = self.expr(index)
        return self.expr(node.value, Prec.ATOM) + "[" + inside + "]"

    def _bare_index_tuple(self, index):
        if not isinstance(index, ast.Tuple) or not index.elts:
            return False
        return self.starred_index_bare or not any(
            isinstance(e, ast.Starred) for e in index.elts)

    def _e_Slice(self, node, slot):
        text = self.expr(node.lower) if node.lower else ""
        text += ":"
        if node.upper:
            text += self.expr(node.upper)
        if node.step:
            text += ":" + self.expr(node.step)
        return text

    def _e_Starred(self, node, slot):
        return "*" + self.expr(node.value, Prec.EXPR)

    def _e_Tuple(self, node, slot):
        text = _items([self.expr(e) for e in node.elts])
        if self.bare_tuples and node.elts and slot <= Prec.TUPLE:
            return text
        return "(" + text + ")"

    def _e_List(self, node, slot):
        return "[" + ", ".join(self.expr(e) for e in node.elts) + "]"

    def _e_Set(self, node, slot):
        if not node.elts:
            return "{*()}"   # `{}` is a dict and `set` may be shadowed
        return "{" + ", ".join(self.expr(e) for e in node.elts) + "}"

    def _e_Dict(self, node, slot):
        items = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                items.append("**" + self.expr(value, Prec.EXPR))
            else:
                items.append(self.expr(key) + ": " + self.expr(value))
        return "{" + ", ".join(items) + "}"

    def _generators(self, generators):
        text = ""
        target_slot = Prec.TUPLE if self.bare_tuples else Prec.TEST
        for gen in generators:
            text += " async for " if gen.is_async else " for "
            text += self.expr(gen.target, target_slot)
            text += " in " + self.expr(gen.iter, Prec.OR)
            for condition in gen.ifs:
                text += " if " + self.expr(condition, Prec.OR)
        return text

    def _e_ListComp(self, node, slot):
        return "[" + self.expr(node.elt) + self._generators(node.generators) + "]"

    def _e_SetComp(self, node, slot):
        return "{" + self.expr(node.elt) + self._generators(node.generators) + "}"

    def _e_GeneratorExp(self, node, slot):
        return "(" + self.expr(node.elt) + self._generators(node.generators) + ")"

    def _e_DictComp(self, node, slot):
        return ("{" + self.expr(node.key) + ": " + self.expr(node.value)
                + self._generators(node.generators) + "}")

    # -------------------------------------------------------------- f-strings

    def _e_TemplateStr(self, node, slot):
        """3.14's template string (PEP 750): an f-string's text with a ``t``."""
        return "t" + self._e_JoinedStr(node, slot)[1:]

    def _e_JoinedStr(self, node, slot):
        if self.avoid_backslashes:
            # Nested in a replacement field (before 3.12): no backslash at all.
            return "f" + _string_literal(self._fstring_text(node))

        # Escapes are fine in the literal parts, not in the replacement
        # fields: choose a quote that works for all parts.
        parts = [(self._fstring_text(v), isinstance(v, ast.Constant)) for v in node.values]
        quotes = list(ALL_QUOTES)
        written = []
        fall_back = False
        for text, literal in parts:
            if self.new_fstrings and not literal:
                if "\n" in text:
                    quotes = [q for q in quotes if q in TRIPLE_QUOTES]
                written.append(text)
                continue
            text, usable = _escape_for_literal(text, quotes, escape_newline_and_tab=literal)
            written.append(text)
            if self.fstring_fallback and set(usable).isdisjoint(quotes):
                fall_back = True
                break
            quotes = usable
        if fall_back:
            # No single quote fits: repr-escape everything inside '''...'''.
            quotes = ["'''"]
            written = []
            for text, literal in parts:
                if literal or not self.new_fstrings:
                    text = repr('"' + text)[2:-1]
                written.append(text)
        return "f" + quotes[0] + "".join(written) + quotes[0]

    def _e_FormattedValue(self, node, slot):
        # Only reachable for a FormattedValue outside any JoinedStr.
        return self._e_JoinedStr(ast.JoinedStr(values=[node]), slot)

    def _fstring_text(self, node, in_format_spec=False):
        """The text between the quotes of an f-string for ``node`` (a
        JoinedStr, or one of its parts), before quoting."""
        if isinstance(node, ast.JoinedStr) or type(node).__name__ == "TemplateStr":
            return "".join(self._fstring_text(v, in_format_spec) for v in node.values)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.replace("{", "{{").replace("}", "}}")
            if in_format_spec and self.flavour >= (3, 13):
                text = (text.replace("\\", "\\\\").replace("'", "\\'")
                        .replace('"', '\\"').replace("\n", "\\n"))
            elif in_format_spec and self.new_fstrings:
                text = text.replace("\n", "\\n")
            return text
        if isinstance(node, ast.FormattedValue) or type(node).__name__ == "Interpolation":
            return self._replacement_field(node)
        raise ValueError("unparse: unexpected node in f-string: %r" % type(node).__name__)

    def _replacement_field(self, node):
        inner = Unparser(self.flavour, in_fstring_field=True)
        # (a template's interpolation keeps the expression's text as written, as ast.unparse does)
        expression = getattr(node, "str", None) or inner.expr(node.value, Prec.above(Prec.TEST))
        if not self.new_fstrings and "\\" in expression:
            raise ValueError("unparse: cannot avoid a backslash in an f-string field")
        if expression.startswith("{"):
            expression = " " + expression   # `{ {` rather than an escaped `{{`
        text = "{" + expression
        if node.conversion != -1:
            text += "!" + chr(node.conversion)
        if node.format_spec:
            text += ":" + self._fstring_text(node.format_spec, in_format_spec=True)
        return text + "}"


def unparse(node, flavour=None):
    """Source text for ``node`` (a module, statement, expression or a list of
    statements), as ``ast.unparse`` would write it.

    ``flavour`` is an ``ast.unparse`` version to imitate, e.g. ``(3, 11)``;
    by default the running interpreter's (3.11's when running on 3.8)."""
    return Unparser(flavour).render(node)
