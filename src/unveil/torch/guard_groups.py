"""Guards people can read: what tells an entry from the other entries of the same
function first, then the guard lines under a heading per variable they test.

A model's entry has hundreds of guard lines (GPT-2's forward: 333, a third of them
identity checks of modules and globals). The answer to "why did torch run entry 2 and
not entry 1" is in the few lines the entries do not share: they are summed up first.
"""
from .guards import Heading, one_line, roots_of


def variable_of(part: str) -> str:
    """The frame variable a guard line tests first (``L['x']``), or "" (global state)."""
    roots = roots_of(part)
    return "%s[%r]" % roots[0] if roots else ""


def arrange(parts, siblings=()) -> list:
    """``parts`` in torch's order with :class:`~.guards.Heading` items: first a summary of
    the lines the other entries of the function (``siblings``: their guard lines) do not
    all share, then a heading wherever the variable tested changes.

    The lines themselves stay in torch's order: the guard function evaluates them one
    after the other, and a later line may rely on an earlier one (torch checks a
    tensor's type before its sizes, the relations between sizes last)."""
    parts = list(parts)
    out = []
    if siblings:
        shared = set.intersection(*[set(s) for s in siblings])
        distinct = [p for p in parts if p not in shared]
        if distinct:
            out.append(Heading("what tells this entry from the other entries of the function "
                               "(%d of %d conditions, all checked below):\n%s" % (
                                   len(distinct), len(parts),
                                   "\n".join("  " + one_line(p, 160) for p in distinct[:20]))))
    current = None
    for p in parts:
        var = variable_of(p)
        if var != current and len(parts) >= 8:
            out.append(Heading("conditions on %s" % var if var else "global state"))
            current = var
        out.append(p)
    return out
