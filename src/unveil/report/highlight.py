"""Python source -> HTML lines, highlighted by Pygments (``pip install unveil[report]``).

Each source line becomes its own HTML fragment (a token that spans lines, such as a
docstring, is split at the line ends), so pages can number, link and highlight lines.
Without Pygments the text is shown plain.
"""
import html

try:
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    from pygments.token import STANDARD_TYPES
except ImportError:  # the report still works, without colours
    PythonLexer = None

#: text larger than this is shown plain. Pygments lexes about 0.5 MB of graph code a second, and a
#: training dump holds megabytes of graphs and kernels: colouring them all would take most of the
#: report's time (bench/report.py), while sources and transformed code stay far below this.
MAX_HIGHLIGHTED = 64000


def available() -> bool:
    return PythonLexer is not None


def highlighted(text: str) -> bool:
    """Whether :func:`lines` colours ``text``."""
    return PythonLexer is not None and len(text) <= MAX_HIGHLIGHTED


def _css_class(ttype, cache):
    cls = cache.get(ttype)
    if cls is None:
        t = ttype
        while t not in STANDARD_TYPES:
            t = t.parent
        cls = cache[ttype] = STANDARD_TYPES[t]
    return cls


_CLASSES = {}
_LEXER = []


def lines(text: str) -> list:
    """The HTML of each line of ``text`` (escaped; spans with Pygments' short class names)."""
    if not highlighted(text):
        return [html.escape(l) for l in text.split("\n")]
    if not _LEXER:
        _LEXER.append(PythonLexer(stripnl=False, ensurenl=False))
    out, cur = [], []
    for ttype, value in _LEXER[0].get_tokens(text):
        cls = _css_class(ttype, _CLASSES)
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append("".join(cur))
                cur = []
            if part:
                esc = html.escape(part, quote=False)
                cur.append('<span class="%s">%s</span>' % (cls, esc) if cls else esc)
    out.append("".join(cur))
    return out


def css(scope: str = ".code") -> str:
    """Pygments' style sheet for elements inside ``scope`` (empty without Pygments)."""
    if PythonLexer is None:
        return ""
    return HtmlFormatter(style="default").get_style_defs(scope)
