"""The ``ast`` pattern of one case, built from the slots its code was read into (see
patterns.py, and match_facts.py for :class:`match_facts.Slot`): :func:`build` turns a slot
into its pattern (an or-pattern, an as-pattern, a value, a singleton, a sequence, a mapping, a
class, a capture or ``_``), raising :class:`match_facts.NoMatch` when the slot's tests make no
pattern Python would compile to them. Nothing here reads code; the functions only call one
another.
"""
import ast

from .match_facts import NoMatch


def build(s):
    p = None
    if s.alts is not None:
        if s.kind is not None or s.as_copy is not None or s.name is not None:
            raise NoMatch
        pats = []
        for a in s.alts:
            x = build(a)
            pats.extend(x.patterns if isinstance(x, ast.MatchOr) else [x])
        return ast.MatchOr(patterns=pats)
    if s.as_copy is not None:
        if s.kind is not None or s.name is None:
            raise NoMatch
        p = build(s.as_copy)
        if isinstance(p, ast.MatchAs) and p.pattern is None:
            raise NoMatch
    elif s.kind == "value":
        p = ast.MatchValue(value=s.value)
    elif s.kind == "single":
        p = ast.MatchSingleton(value=s.value)
    elif s.kind == "seq":
        p = build_seq(s)
    elif s.kind == "map":
        p = build_map(s)
    elif s.kind == "cls":
        p = build_cls(s)
    elif s.kind is not None:
        raise NoMatch
    if p is None:
        if s.name is None and not s.popped:
            raise NoMatch
        return ast.MatchAs(pattern=None, name=s.name)
    if s.name is not None:
        if s.kind is not None:
            raise NoMatch
        return ast.MatchAs(pattern=p, name=s.name)
    return p


def wild():
    return ast.MatchAs(pattern=None, name=None)


# (not ``star``: build_seq names the star's index so)
def star_pattern(e):
    if not e.fresh() and not (e.name is not None or e.popped) or e.kind is not None \
            or e.alts is not None or e.as_copy is not None:
        raise NoMatch
    if e.name is None and not e.popped:
        raise NoMatch
    return ast.MatchStar(name=e.name)


def build_seq(s):
    if s.elems is not None:
        n = len(s.elems)
        if s.star is None:
            if s.length != ("==", n):
                raise NoMatch
        elif s.length != (">=", n - 1) and not (n == 1 and s.length is None):
            raise NoMatch
        pats = [star_pattern(e) if k == s.star else build(e) for k, e in enumerate(s.elems)]
        return ast.MatchSequence(patterns=pats)
    if s.length is None:
        if s.subs:
            raise NoMatch
        return ast.MatchSequence(patterns=[ast.MatchStar(name=None)])
    op, n = s.length
    if op == "==":
        if s.subs:
            raise NoMatch
        return ast.MatchSequence(patterns=[wild() for _ in range(n)])
    size = n + 1
    pos = [k for k in s.subs if k >= 0]
    neg = [-k for k in s.subs if k < 0]
    star = max(pos) + 1 if pos else 0
    if neg and size - max(neg) <= star or any(k >= size - 1 + 1 for k in pos) \
            or any(k > size - 1 for k in neg):
        raise NoMatch
    pats = []
    for j in range(size):
        if j == star:
            pats.append(ast.MatchStar(name=None))
        elif j < star:
            pats.append(build(s.subs[j]) if j in s.subs else wild())
        else:
            k = -(size - j)
            pats.append(build(s.subs[k]) if k in s.subs else wild())
    return ast.MatchSequence(patterns=pats)


def parts_of(s, count):
    if s.parts is not None:
        if len(s.parts) != count or s.subs:
            raise NoMatch
        return [build(p) for p in s.parts]
    if any(k < 0 or k >= count for k in s.subs):
        raise NoMatch
    return [build(s.subs[k]) if k in s.subs else wild() for k in range(count)]


def build_map(s):
    keys = s.keys or []
    if s.keys is None:
        if s.rest is not None or s.length is not None or s.subs or s.parts:
            raise NoMatch
        return ast.MatchMapping(keys=[], patterns=[], rest=None)
    if keys and s.length != (">=", len(keys)) or not keys and s.length is not None:
        raise NoMatch
    pats = parts_of(s, len(keys))
    return ast.MatchMapping(keys=keys, patterns=pats, rest=s.rest)


def build_cls(s):
    count = s.nargs + len(s.kwnames)
    pats = parts_of(s, count)
    return ast.MatchClass(cls=s.cls, patterns=pats[:s.nargs], kwd_attrs=list(s.kwnames),
                          kwd_patterns=pats[s.nargs:])
