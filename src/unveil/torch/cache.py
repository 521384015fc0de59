"""Cache entries of a code object, as data, in the order torch checks them."""
import types

from .guards import guard_parts


class EntryInfo:
    """One cache entry: the code torch runs, its compile id, guard lines and globals."""

    def __init__(self, code, compile_id, guard_lines, global_scope):
        self.code = code
        self.compile_id = compile_id
        self.guard_lines = guard_lines
        self.global_scope = global_scope
        self.guard_manager = None  # torch's GuardManagerWrapper (unveil.torch.guard_runtime reads it)


def _compile_id(entry) -> str:
    cid = getattr(entry, "compile_id", None)
    if cid is None:
        return "?"
    text = str(cid)
    return text


def entries(code: types.CodeType) -> list:
    """``code``'s cache entries in the order torch checks them (first checked first)."""
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
        raw = _debug_get_cache_entry_list(code)
    except Exception:
        return []
    out = []
    for e in raw:
        gm = getattr(e, "guard_manager", None)
        scope = getattr(gm, "global_scope", None)
        if isinstance(scope, dict) and isinstance(scope.get("G"), dict):
            scope = scope["G"]
        out.append(EntryInfo(e.code, _compile_id(e), guard_parts(gm, code.co_varnames) if gm is not None else [],
                             scope if isinstance(scope, dict) else None))
        out[-1].guard_manager = gm
    return out


def compiled_originals() -> list:
    """Original code objects that currently have cache entries (all of Dynamo's work so far)."""
    try:
        from torch._dynamo.utils import orig_code_map
        values = list(getattr(orig_code_map, "values", {}).values())
    except Exception:
        return []
    seen, out = set(), []
    for code in values:
        if isinstance(code, types.CodeType) and id(code) not in seen:
            seen.add(id(code))
            out.append(code)
    return out


def resume_code(global_scope, name):
    """The code object of resume function ``name`` (a ``__resume_at_*`` global), or None."""
    if not global_scope:
        return None
    fn = global_scope.get(name)
    code = getattr(fn, "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    # the resume function of a frame with free variables is installed as a factory taking
    # the closure (torch's install_resume_function_global: ``_make_fn(closure)``); the
    # resume code is the code object the factory closes over
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            held = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(held, types.CodeType):
            return held
    return code
