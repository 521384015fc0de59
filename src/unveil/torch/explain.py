"""``unveil.explain(fn, *args, **kwargs)``: which cache entry a call would run, and why -- without
running it.

Torch keeps the cache entries of a compiled frame in a list and, on each call, checks them in
order: an entry whose backend matches and whose guard manager accepts the frame's locals runs
(and moves to the front of the list); when none does, torch compiles a new entry, unless the
recompile limit is reached or the compile stance forbids it. :func:`explain` binds the
arguments the way the call would, asks each entry's guard manager for its verdict
(``check``) and, for a failing guard, for torch's own words (``check_verbose``), then says what
torch would do. Nothing is compiled or run.

The dump (:mod:`.dump`) uses :func:`explain_locals` when torch recompiles a frame, so the
``full_code`` file records which condition of each earlier entry the new call failed.
:func:`format_dump_entry` prints the same per-entry summary from a dump's ``index.json``
(``unveil show DIR --entry ID``) and needs no torch.
"""
import inspect
import os
import re
import sys
import types

__all__ = ["explain", "explain_locals", "Explanation", "EntryVerdict", "Condition"]

# torch's guard comment: "<source line>  # <file>:<line> in <function>[ (HINT: ...)]"
_LOCATION = re.compile(r"^(?P<file>.*?):(?P<line>\d+) in (?P<func>\S+)")


class Condition:
    """A guard condition that failed: torch's words and the source line the guard came from."""

    def __init__(self, text, guard_line=None, source_line=None, location=None, kind=None):
        self.text = text  # as torch reports it, e.g. "L['b'] == 1" or "tensor 'L['a']' size mismatch ..."
        self.guard_line = guard_line  # the guard's own condition when ``text`` is a description
        self.source_line = source_line  # e.g. "return a + b"
        self.location = location  # e.g. "/path/seed.py:19 in f"
        self.kind = kind  # the leaf guard, e.g. EQUALS_MATCH, TENSOR_MATCH (None when unknown)

    def to_dict(self) -> dict:
        return {"text": self.text, "guard_line": self.guard_line, "source_line": self.source_line,
                "location": self.location, "kind": self.kind}

    def __str__(self) -> str:
        out = self.text
        if self.source_line or self.location:
            out += "  (from: %s)" % "  # ".join(x for x in (self.source_line, self.location) if x)
        return out

    __repr__ = __str__


class EntryVerdict:
    """One cache entry, as torch would check it for the explained call."""

    def __init__(self, position, compile_id, accepted, failure=None, transformed_file=None,
                 reached=True, resume_functions=(), code=None):
        self.position = position  # 0 = checked first
        self.compile_id = compile_id  # "0/1", as torch prints [0/1]
        self.accepted = accepted  # torch's verdict: guard passes (and backend matches)
        self.failure = failure  # Condition, when not accepted
        self.transformed_file = transformed_file  # the file the entry's code was compiled from
        self.reached = reached  # False: an earlier entry already accepts the call
        self.resume_functions = list(resume_functions)
        self.code = code  # the code torch runs for this entry

    def to_dict(self) -> dict:
        return {"position": self.position, "compile_id": self.compile_id, "accepted": self.accepted,
                "failure": self.failure.to_dict() if self.failure else None,
                "transformed_file": self.transformed_file, "reached": self.reached,
                "resume_functions": list(self.resume_functions)}

    def __repr__(self) -> str:
        return "<EntryVerdict %s %s>" % (self.compile_id, "accepts" if self.accepted else "fails")


class Explanation:
    """What torch would do with one call of a compiled function (see :func:`explain`).

    ``entries`` are in torch's check order; ``chosen`` is the entry that would run (None when
    none accepts the call); ``action`` is one of ``"run"`` (the chosen entry runs),
    ``"compile"`` (a new entry is compiled), ``"recompile_limit"``, ``"error"``, ``"eager"``
    (the original code runs uncompiled), ``"not_compiled"`` (``fn`` is not compiled by
    torch.compile: the call runs plain Python)."""

    def __init__(self, function, source, entries, action, chosen=None, reasons=(), dynamic=(),
                 resume_note=None, notes=()):
        self.function = function
        self.source = source
        self.entries = list(entries)
        self.action = action
        self.chosen = chosen
        self.reasons = list(reasons)  # why a new compile (or not), in words
        self.dynamic = list(dynamic)  # dynamic-shape decisions torch would take
        self.resume_note = resume_note
        self.notes = list(notes)

    @property
    def will_compile(self) -> bool:
        return self.action == "compile"

    @property
    def transformed_file(self):
        """The file whose code would run (the chosen entry's), or None."""
        return self.chosen.transformed_file if self.chosen else None

    @property
    def failures(self) -> list:
        """(compile id, Condition) of every reached entry whose guard fails."""
        return [(e.compile_id, e.failure) for e in self.entries if e.reached and not e.accepted]

    def to_dict(self) -> dict:
        return {"function": self.function, "source": self.source, "action": self.action,
                "chosen": self.chosen.compile_id if self.chosen else None,
                "transformed_file": self.transformed_file,
                "entries": [e.to_dict() for e in self.entries], "reasons": list(self.reasons),
                "dynamic": list(self.dynamic), "resume_note": self.resume_note, "notes": list(self.notes)}

    def __str__(self) -> str:
        return format_explanation(self.to_dict())

    def __repr__(self) -> str:
        return "<Explanation %s: %s%s>" % (self.function, self.action,
                                          " %s" % self.chosen.compile_id if self.chosen else "")


# -- the target ---------------------------------------------------------------

class _Target:
    """The frame a call would enter: its code, the function whose signature binds the call,
    the bound ``self`` (modules, methods) and torch's compile context (backend)."""

    def __init__(self, code, func, bound_self, context, name):
        self.code = code
        self.func = func
        self.bound_self = bound_self
        self.context = context
        self.name = name


def _dynamo_context(wrapper):
    """The ``_TorchDynamoContext`` a torch.compile wrapper closes over, or None."""
    try:
        from torch._dynamo.eval_frame import _TorchDynamoContext
    except ImportError:  # pragma: no cover
        return None
    for cell in getattr(wrapper, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if isinstance(value, _TorchDynamoContext):
            return value
    return None


def _innermost(fn):
    try:
        from torch._dynamo.eval_frame import innermost_fn
        return innermost_fn(fn)
    except Exception:
        seen = set()
        while hasattr(fn, "_torchdynamo_orig_callable") and id(fn) not in seen:
            seen.add(id(fn))
            fn = fn._torchdynamo_orig_callable
        return fn


def _with_entries(fn):
    """``fn`` when it is a plain function whose code has cache entries, else None."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    code = getattr(fn, "__code__", None)
    if isinstance(fn, types.FunctionType) and isinstance(code, types.CodeType) \
            and _debug_get_cache_entry_list(code):
        return fn
    return None


def _target(fn) -> _Target:
    import torch
    OptimizedModule = getattr(torch._dynamo.eval_frame, "OptimizedModule", ())
    context = None
    if OptimizedModule and isinstance(fn, OptimizedModule):
        context = getattr(fn, "dynamo_ctx", None)
        inner = _with_entries(_innermost(getattr(fn, "forward", None)))
        if inner is not None:  # torch's own modules are compiled through a wrapper frame
            return _Target(inner.__code__, inner, None, context, getattr(inner, "__qualname__", "?"))
        fn = fn._orig_mod
    if isinstance(fn, torch.nn.Module):
        method = fn.forward
        context = context or _dynamo_context(getattr(fn, "_compiled_call_impl", None))
    else:
        context = context or _dynamo_context(fn)
        method = _innermost(fn)
    bound_self = None
    if isinstance(method, types.MethodType):
        bound_self, method = method.__self__, method.__func__
    code = getattr(method, "__code__", None)
    if not isinstance(code, types.CodeType):
        raise TypeError("unveil.explain: %r is not a Python function compiled with torch.compile" % (fn,))
    return _Target(code, method, bound_self, context, getattr(code, "co_qualname", code.co_name))


def frame_locals(func, bound_self, args, kwargs) -> dict:
    """The locals torch's guards would see when ``func`` is entered with these arguments: the
    parameters (``*args`` as a tuple, ``**kwargs`` as a dict, defaults filled in) and the free
    variables' values."""
    sig_args = ((bound_self,) if bound_self is not None else ()) + tuple(args)
    sig = inspect.signature(func, follow_wrapped=False)
    bound = sig.bind(*sig_args, **kwargs)
    bound.apply_defaults()
    out = dict(bound.arguments)
    code = func.__code__
    for name, cell in zip(code.co_freevars, func.__closure__ or ()):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # an empty cell: torch's frame has no value for it either
            pass
    return out


# -- verdicts -----------------------------------------------------------------

def _resolve_file(path, code):
    """torch shortens file names in guard comments; the full name when ``code``'s file ends so."""
    if code is not None and path and code.co_filename.endswith(path.lstrip("./")):
        return code.co_filename
    return path


def _condition_from_part(text, part, code, kind=None, description=False):
    from .guards import split_comment
    guard_line, comment = split_comment(part) if part else ("", "")
    source_line = location = None
    if comment:
        head, sep, tail = comment.rpartition("  # ")
        where = tail if sep else comment
        m = _LOCATION.match(where.strip())
        if m:
            source_line = head.strip() or None
            location = "%s:%s in %s" % (_resolve_file(m.group("file"), code), m.group("line"), m.group("func"))
        else:
            location = where.strip()
    return Condition(text, guard_line.strip() if description else None, source_line, location, kind)


def _failing_leaf(guard_manager, L, G, reason, all_leaves=None):
    """The first condition of ``guard_manager`` that fails for ``L`` and that ``reason``
    (torch's description) is about; torch's check_verbose names the value, not the guard.
    ``all_leaves``: ``leaves(guard_manager)`` when the caller has them already."""
    from .guard_runtime import _value_of, leaves
    first = None
    for leaf in leaves(guard_manager) if all_leaves is None else all_leaves:
        if leaf.relational:
            continue
        try:
            ok = bool(leaf.guard(_value_of(leaf.source, L, G)))
        except Exception:
            ok = False
        if ok:
            continue
        if leaf.source and leaf.source != "L" and leaf.source in reason:
            return leaf
        first = first or leaf
    return first


def _failure(entry, L, code):
    """torch's first failing condition of ``entry`` for locals ``L`` (its guard manager's
    verbose check), with the source line the guard came from."""
    from .guard_runtime import leaves
    gm = entry.guard_manager
    invalidated = getattr(gm, "invalidation_reason", None)
    if invalidated:
        return Condition("entry invalidated: %s" % invalidated)
    info = gm.check_verbose(L)
    parts = list(getattr(info, "verbose_code_parts", []) or [])
    G = (getattr(gm, "global_scope", None) or {}).get("G", {})
    if len(parts) > 1:  # a lambda guard of several conditions: torch evaluates each, as here
        scope = {"L": L, "G": G}
        scope.update(getattr(gm, "closure_vars", None) or {})
        for p in parts:
            try:
                if eval(p, dict(G=G), scope) is False:
                    parts = [p]
                    break
            except Exception:
                continue
    if not parts:
        return Condition("the guard manager rejects the call (torch gave no condition)")
    text = parts[0]
    all_leaves = leaves(gm)  # (walking torch's guard tree is most of an explanation's cost)
    by_part = {leaf.part: leaf for leaf in all_leaves}
    leaf = by_part.get(text)
    if leaf is None:
        wanted = text.split("#")[0].strip()
        leaf = next((l for l in by_part.values() if l.text == wanted), None)
    if leaf is not None:
        from .guards import split_comment
        return _condition_from_part(split_comment(text)[0].strip(), leaf.part, code, leaf.kind)
    if "#" in text:  # torch's condition with its comment, not found as a leaf (shape guards)
        from .guards import split_comment
        return _condition_from_part(split_comment(text)[0].strip(), text, code)
    leaf = _failing_leaf(gm, L, G, text, all_leaves)  # a description such as "tensor 'L['a']' size mismatch ..."
    if leaf is None:
        return Condition(text)
    return _condition_from_part(text, leaf.part, code, leaf.kind, description=True)


def _backend_of(context):
    if context is None:
        return None
    try:
        from torch._dynamo.eval_frame import innermost_backend
        return innermost_backend(context.callback)
    except Exception:
        return getattr(context, "callback", None)


def _same_backend(saved, current) -> bool:
    if current is None or saved is current:
        return True
    try:
        return type(saved) is type(current) and bool(saved == current)
    except Exception:
        return False


def _transformed_file(code):
    """The dumped file the entry's code was compiled from (unveil.prepare_debug), else None."""
    name = getattr(code, "co_filename", "")
    if os.path.basename(name).startswith("__transformed_code_") and os.path.isfile(name):
        return name
    return None


def _stance():
    try:
        from torch._dynamo.eval_frame import _stance
        return getattr(_stance, "stance", "default")
    except Exception:
        return "default"


def _resume_names(code):
    from .names import resume_globals_of
    return resume_globals_of(code) if isinstance(code, types.CodeType) else []


def _resume_entries(entry, names):
    """[(resume function, "entries 1/0, 1/1" or "not compiled yet")] for an entry's resume functions."""
    from . import cache
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    G = (getattr(entry.guard_manager, "global_scope", None) or {}).get("G")
    out = []
    for name in names:
        code = cache.resume_code(G, name)
        cids = [str(e.compile_id) for e in _debug_get_cache_entry_list(code)] if code is not None else []
        out.append((name, "cache entries %s" % ", ".join(cids) if cids else "not compiled yet"))
    return out


def explain_locals(code, L, backend=None, name=None, source=None, entries=None, closure=None) -> Explanation:
    """What torch does with frame ``code`` entered with locals ``L`` (see :func:`explain`)."""
    import torch
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    if entries is None:
        entries = _debug_get_cache_entry_list(code)
    name = name or getattr(code, "co_qualname", code.co_name)
    source = source or "%s:%s" % (code.co_filename, code.co_firstlineno)
    stance = _stance()
    verdicts, chosen, notes = [], None, []
    if stance == "force_eager":
        notes.append("compile stance force_eager: torch runs the original code and checks no entry")
    for k, entry in enumerate(entries):
        cid = str(getattr(entry, "compile_id", "?"))
        backend_ok = stance == "eager_on_recompile" or _same_backend(entry.backend, backend)
        failure = None
        if not backend_ok:
            accepted = False
            failure = Condition("the entry was compiled with another backend (%r); this call uses %r"
                                % (entry.backend, backend), kind="BACKEND_MATCH")
        else:
            try:
                accepted = bool(entry.guard_manager.check(L))
            except Exception as err:  # torch's own lookup would raise it from the call too
                accepted = False
                failure = Condition("evaluating the guard raises %s: %s (the call raises it too)"
                                    % (type(err).__name__, err), kind="ERROR")
            if not accepted and failure is None:
                try:
                    failure = _failure(entry, L, code)
                except Exception as err:  # explaining never breaks the user's program
                    failure = Condition("guard fails (unveil could not get torch's reason: %s: %s)"
                                        % (type(err).__name__, err))
        v = EntryVerdict(k, cid, accepted, failure, _transformed_file(entry.code),
                         reached=chosen is None, resume_functions=_resume_names(entry.code), code=entry.code)
        verdicts.append(v)
        if accepted and chosen is None:
            chosen = v
    reasons, dynamic = [], []
    resume_note = None
    if stance == "force_eager":
        action, chosen = "eager", None
    elif chosen is not None:
        action = "run"
        if chosen.position:
            notes.append("torch moves entry %s to the front of the list: it is checked first on the next call"
                         % chosen.compile_id)
        if chosen.resume_functions:
            known = _resume_entries(entries[chosen.position], chosen.resume_functions)
            resume_note = ("after a graph break entry %s continues in %s; %s guards are checked later, "
                           "at the graph break, on values (the stack and locals there) that exist only "
                           "when the code runs, so unveil does not explain them before the call"
                           % (chosen.compile_id, ", ".join("%s (%s)" % (n, k) for n, k in known),
                              "its" if len(known) == 1 else "their"))
    elif not entries:
        action = "compile"
        reasons.append("%s has no cache entries: the call compiles it (first compilation)" % name)
    else:
        action, reasons = _miss(entries, L, stance)
        if action == "compile":
            dynamic = _dynamic_decisions(verdicts, backend, code, closure, L, entries)
    return Explanation(name, source, verdicts, action, chosen, reasons, dynamic, resume_note, notes)


def _miss(entries, L, stance):
    """No entry accepts the call: what torch does instead."""
    from torch._dynamo import config
    n = len(entries)
    if stance == "eager_on_recompile":
        return "eager", ["no entry accepts the call and the compile stance is eager_on_recompile: "
                         "torch runs the original code uncompiled"]
    if stance == "fail_on_recompile":
        return "error", ["no entry accepts the call and the compile stance is fail_on_recompile: "
                         "torch raises an error naming the failed guards"]
    limit = getattr(config, "recompile_limit", getattr(config, "cache_size_limit", None))
    exceeded = None
    try:
        from torch._dynamo.cache_size import compute_cache_size
        size = compute_cache_size(types.SimpleNamespace(f_locals=L), entries)
        if size.will_compilation_exceed_accumulated_limit():
            exceeded = "accumulated_recompile_limit (%s)" % config.accumulated_recompile_limit
        elif size.will_compilation_exceed_specific_limit(limit):
            exceeded = "recompile_limit (%s)" % limit
    except Exception:
        if limit is not None and n >= limit:
            exceeded = "recompile_limit (%s)" % limit
    if exceeded:
        if getattr(config, "fail_on_recompile_limit_hit", False):
            return "error", ["no entry accepts the call and the cache limit %s is reached: torch raises "
                             "(fail_on_recompile_limit_hit)" % exceeded]
        return "recompile_limit", ["no entry accepts the call and the cache limit %s is reached: torch "
                                   "does not compile again and runs the original code uncompiled" % exceeded]
    if getattr(config, "error_on_recompile", False):
        return "error", ["no entry accepts the call and torch._dynamo.config.error_on_recompile is set: "
                         "torch raises a RecompileError"]
    return "compile", ["no entry accepts the call: torch compiles a new entry (%d of at most %s for "
                       "this frame)" % (n + 1, limit)]


_SIZE = re.compile(r"tensor '(?P<src>.+?)' (?P<what>size|stride) mismatch at index (?P<i>\d+)\. "
                   r"expected (?P<exp>\S+), actual (?P<act>\S+)")


def _automatic_dynamic_state(code, closure):
    """torch's record of the sizes and scalars it saw for ``code`` (automatic dynamic shapes:
    ``torch._dynamo.pgo``), or None where this torch does not expose it."""
    try:
        from torch._dynamo import pgo
        states = getattr(pgo, "_CODE_STATE", None)
        if not states:
            return None
        state = states.get(pgo.CodeId.make(code, closure))  # .get: never adds to torch's dict
        return state.automatic_dynamic if state is not None else None, pgo.auto_dynamic
    except Exception:
        return None


def _recorded_changes(recorded, marker, L, G):
    """What torch's automatic dynamic shapes make dynamic when this call is compiled: a size or an
    int that differs from every one torch recorded for the frame becomes dynamic."""
    from .guard_runtime import _value_of
    import torch
    out = []
    for source, entry in recorded.items():
        try:
            value = _value_of(source, L, G)
        except Exception:
            continue
        if isinstance(value, torch.Tensor) and isinstance(entry.size, tuple):
            if len(entry.size) != value.dim():
                out.append("%s changes rank (%d -> %d): all its sizes become dynamic"
                           % (source, len(entry.size), value.dim()))
                continue
            for i, (old, new) in enumerate(zip(entry.size, value.shape)):
                if old is not marker and old != new:
                    out.append("%s size %d changes (%s -> %s): that dimension becomes dynamic"
                               % (source, i, old, new))
        elif type(value) is int and isinstance(entry.scalar, int) and entry.scalar is not marker \
                and entry.scalar != value:
            out.append("%s changes (%s -> %s): it becomes a dynamic int (a SymInt) in the new entry"
                       % (source, entry.scalar, value))
    return out


def _dynamic_decisions(verdicts, backend, code=None, closure=None, L=None, entries=()):
    """Dynamic-shape decisions torch would take on the recompile, as far as torch exposes them."""
    from torch._dynamo import config
    out = []
    dynamic = getattr(backend, "dynamic", None)
    automatic = getattr(config, "automatic_dynamic_shapes", False) and dynamic is not False
    state = _automatic_dynamic_state(code, closure) if automatic and code is not None else None
    if state is not None and state[0]:
        G = (getattr(entries[0].guard_manager, "global_scope", None) or {}).get("G", {}) if entries else {}
        return ["automatic_dynamic_shapes: " + c for c in _recorded_changes(state[0], state[1], L, G)]
    changes = []
    for v in verdicts:
        m = _SIZE.search(v.failure.text) if v.failure else None
        if m:
            changes.append((v.compile_id, m))
    if not changes:
        return out
    if dynamic is False:
        out.append("torch.compile(dynamic=False): the new entry is compiled for the new sizes, static again")
    elif not getattr(config, "automatic_dynamic_shapes", False):
        out.append("automatic_dynamic_shapes is off: the new entry is compiled for the new sizes, static again")
    else:
        for cid, m in changes:
            out.append("automatic_dynamic_shapes: %s of %s changed at index %s (%s -> %s, entry %s); the "
                       "new entry treats that dimension as dynamic (unless it is marked static)"
                       % (m.group("what"), m.group("src"), m.group("i"), m.group("exp"), m.group("act"), cid))
    return out


def explain(fn, *args, **kwargs) -> Explanation:
    """Which cache entry of ``fn`` (a function or module compiled with ``torch.compile``) a call
    ``fn(*args, **kwargs)`` would run, and why -- without running it.

    For each entry, in the order torch checks them: its compile id, torch's verdict for these
    arguments and, for a guard that fails, the first failing condition as torch reports it with
    the source line the guard came from. Then which entry's transformed file would run, or that a
    new entry would be compiled and why (recompile limit, compile stance, dynamic shapes).
    ``print(explain(...))`` shows it; the object's fields serve code and tests."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    target = _target(fn)
    L = frame_locals(target.func, target.bound_self, args, kwargs)
    source = "%s:%s" % (target.code.co_filename, target.code.co_firstlineno)
    if target.context is None and not _debug_get_cache_entry_list(target.code):
        return Explanation(target.name, source, [], "not_compiled", reasons=[
            "%s is not compiled by torch.compile (it is neither what torch.compile returned nor "
            "code torch compiled before): explain the function or module torch.compile returns"
            % target.name])
    notes = []
    if target.bound_self is not None and _has_hooks(target.bound_self):
        notes.append("the module has forward hooks: torch checks the arguments the hooks pass on")
    out = explain_locals(target.code, L, _backend_of(target.context), target.name, source,
                         closure=getattr(target.func, "__closure__", None))
    out.notes.extend(notes)
    return out


def _has_hooks(obj) -> bool:
    return bool(getattr(obj, "_forward_pre_hooks", None))


def compiling_frame_locals(code):
    """The locals of the frame torch is compiling for ``code`` (read from Dynamo's ``_compile``
    on the stack, during the bytecode hook), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "_compile":  # f_locals only of that frame: it copies
            loc = frame.f_locals
            if loc.get("code") is code and isinstance(loc.get("locals"), dict):
                return loc["locals"]
        frame = frame.f_back
    return None


# -- text ---------------------------------------------------------------------

def format_explanation(d: dict) -> str:
    """The printable form of :meth:`Explanation.to_dict` (also used for explanations in a dump)."""
    out = ["%s (%s)" % (d.get("function"), d.get("source"))]
    entries = d.get("entries") or []
    if entries:
        out.append("cache entries in the order torch checks them:")
    for e in entries:
        if not e.get("reached", True):
            verdict = "not checked (an earlier entry accepts the call)"
        else:
            verdict = "guard passes" if e.get("accepted") else "guard fails"
        out.append("  %d. entry %s: %s%s" % (e.get("position", 0) + 1, e.get("compile_id"), verdict,
                                             "  -> %s" % e["transformed_file"] if e.get("transformed_file") else ""))
        f = e.get("failure")
        if f and e.get("reached", True):
            out.append("       failed: %s" % f.get("text"))
            if f.get("guard_line"):
                out.append("       guard:  %s" % f["guard_line"])
            if f.get("source_line") or f.get("location"):
                out.append("       from:   %s" % "  # ".join(x for x in (f.get("source_line"), f.get("location")) if x))
    action = d.get("action")
    if action == "run":
        out.append("=> runs entry %s: %s" % (d.get("chosen"), d.get("transformed_file") or "(Dynamo's bytecode, no file)"))
    elif action == "compile":
        out.append("=> torch compiles a new entry")
    elif action == "recompile_limit":
        out.append("=> no compile: the recompile limit is reached")
    elif action == "error":
        out.append("=> torch raises an error")
    elif action == "eager":
        out.append("=> runs the original code uncompiled")
    elif action == "not_compiled":
        out.append("=> not compiled by torch.compile: the call runs the plain Python code")
    for r in d.get("reasons") or []:
        out.append("   " + r)
    for r in d.get("dynamic") or []:
        out.append("   dynamic shapes: " + r)
    if d.get("resume_note"):
        out.append("   resume functions: " + d["resume_note"])
    for n in d.get("notes") or []:
        out.append("   note: " + n)
    return "\n".join(out) + "\n"


def recompile_lines(d: dict) -> list:
    """Lines for a dump: why a new entry was compiled (the failed condition of each earlier entry)."""
    out = []
    for e in d.get("entries") or []:
        f = e.get("failure") or {}
        line = "entry %s failed: %s" % (e.get("compile_id"), f.get("text", "?"))
        if f.get("source_line") or f.get("location"):
            line += "  (from: %s)" % "  # ".join(x for x in (f.get("source_line"), f.get("location")) if x)
        out.append(line)
    return out


def format_dump_entry(fn: dict, entry: dict, position: int, functions=None) -> str:
    """``unveil show DIR --entry ID``: one entry of a dump's index.json (no torch needed);
    ``functions``: :func:`.naming.by_torch_name` of the index, to name the resume functions."""
    from . import naming
    stack = fn.get("stack_values") or {}
    out = ["%s, checked %s of %d" % (
        naming.with_torch_names(naming.entry_title(naming.title_of(fn), entry.get("index"), entry.get("compile_id", "?")),
                                *naming.torch_names_of(fn)),
        _ordinal(position), len(fn.get("entries") or []))]
    if fn.get("source_file"):
        out.append("  source: %s:%s" % (fn["source_file"], fn.get("first_line")))
    out.append("  transformed code: %s" % (entry.get("transformed_file") or "(none)"))
    out.append("  full code: %s" % fn.get("full_code"))
    expl = entry.get("explanation")
    if expl:
        out.append("  why it exists: the call that compiled it failed every earlier entry's guard:")
        out.extend("    " + naming.with_stack_values(line, stack) for line in recompile_lines(expl))
    elif entry.get("reason"):
        out.append("  why it exists: %s" % naming.with_stack_values(" ".join(str(entry["reason"]).split()), stack))
    else:
        out.append("  why it exists: first compilation")
    guards = entry.get("guard") or []
    out.append("  guard (%d condition%s, all must hold):" % (len(guards), "" if len(guards) == 1 else "s"))
    out.extend("    " + naming.with_stack_values(g, stack) for g in guards)
    for name in entry.get("compiled_fns") or []:
        out.append("  calls graph %s" % name)
    for name in entry.get("resume_functions") or []:
        out.append("  resumes in %s (its guards are checked at the graph break)" % naming.refer_to(name, functions or {}))
    return "\n".join(out) + "\n"


def _ordinal(k: int) -> str:
    n = k + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def find_dump_entry(index: dict, key: str):
    """(function, entry, position) of the entry ``key`` names in a dump index: a compile id
    (``0/1``), ``FN:INDEX`` (``f:1``) or a transformed file name; None when nothing matches."""
    fn_name, _, idx = key.rpartition(":")
    for fn in index.get("functions") or []:
        for k, e in enumerate(fn.get("entries") or []):
            if str(e.get("compile_id")) == key or e.get("transformed_file") == key:
                return fn, e, k
            if fn_name and idx.isdigit() and int(idx) == e.get("index") and fn_name in (fn.get("name"), fn.get("qualname")):
                return fn, e, k
    return None


# -- command line ---------------------------------------------------------------

def call_parts(call: str):
    """``"f(x, 2)"`` -> an expression that, evaluated where ``f`` and ``x`` live, calls
    ``__unveil_explain(f, x, 2)``; ValueError unless ``call`` is one call expression."""
    import ast
    try:
        tree = ast.parse(call.strip(), mode="eval")
    except SyntaxError as err:
        raise ValueError("--call %r is not a Python expression (%s)" % (call, err.msg))
    node = tree.body
    if not isinstance(node, ast.Call):
        raise ValueError("--call %r is not a call such as 'f(x, 2)'" % call)
    node.args.insert(0, node.func)
    node.func = ast.Name(id="__unveil_explain", ctx=ast.Load())
    return compile(ast.fix_missing_locations(tree), "<--call>", "eval")


def _globals_read(table) -> set:
    """The global names a symbol table (and the scopes inside it) reads."""
    names = {sym.get_name() for sym in table.get_symbols() if sym.is_global() and sym.is_referenced()}
    for child in table.get_children():
        names |= _globals_read(child)
    return names


def _globals_bound(table) -> set:
    """The module-level names a module's symbol table binds, ``global`` statements included."""
    names = set()
    for sym in table.get_symbols():
        if table.get_type() == "module" and (sym.is_assigned() or sym.is_imported() or sym.is_namespace()):
            names.add(sym.get_name())
        elif sym.is_declared_global() and sym.is_assigned():
            names.add(sym.get_name())
    for child in table.get_children():
        names |= _globals_bound(child)
    return names


def undefined_names(call: str, script: str) -> list:
    """The names ``call`` reads that ``script`` never binds at module level and that are not
    builtins, read from the source without running it. [] when a static reading cannot know
    (``import *``, ``globals()``, ``exec``, ``__builtins__``: names bound where no statement shows)."""
    import builtins
    import importlib.util
    import symtable
    try:
        with open(script, "rb") as fh:
            source = importlib.util.decode_source(fh.read())
        module = symtable.symtable(source, script, "exec")
        read = _globals_read(symtable.symtable(call.strip(), "<--call>", "eval"))
    except (OSError, SyntaxError, ValueError):
        return []
    if re.search(r"\bimport\s+\*|\bglobals\s*\(|\bexec\s*\(|__builtins__|__dict__", source):
        return []
    return sorted(read - _globals_bound(module) - set(dir(builtins)) - {"__name__", "__file__", "__doc__"})


class UndefinedName(ValueError):
    """A name of ``--call`` that the script's globals do not hold once it ran."""


def explain_script(script: str, call: str, script_args=(), dump_dir=None) -> Explanation:
    """Run ``script`` as ``__main__`` (inside ``prepare_debug(dump_dir)`` when given, so the
    entries run from dumped files), then explain ``call`` evaluated in the script's globals."""
    import runpy
    code = call_parts(call)
    saved_argv = sys.argv[:]
    sys.argv = [script] + list(script_args)
    try:
        if dump_dir:
            import unveil
            with unveil.prepare_debug(dump_dir):
                scope = runpy.run_path(script, run_name="__main__")
        else:
            scope = runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = saved_argv
    scope = dict(scope)
    scope["__unveil_explain"] = explain
    try:
        return eval(code, scope)
    except NameError as err:
        if getattr(err, "name", None) not in scope:  # a name of the call itself (3.10+: err.name)
            raise UndefinedName("--call %r: %s in %s's globals after it ran" % (call, err, script)) from None
        raise
