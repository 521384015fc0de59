"""Machinery of the torch.compile zoo: run a program under plain ``torch.compile``
and again with every code object Dynamo writes replaced by
the code the dump's ``unveil.torch.hook.transform`` compiles (decompiled, recompiled as
file ``<zoo>``, proved); compare.

Run as a script to print the table of docs/zoo.md (and the failures, if any)::

    .venv/bin/python tests/torch/zoo_harness.py [program ...]

or, to see every code object Dynamo writes for a program (the decompiled text used for
recompilation, or the error, and the disassembly)::

    .venv/bin/python tests/torch/zoo_harness.py --show program
"""
import contextlib
import dataclasses
import dis
import io
import os
import sys
import traceback
import types
from typing import Any, List, Optional

import torch

from unveil.decompiler.api import _source_name
from unveil.torch.hook import transform

ZOO_FILENAME = "<zoo>"
RESUME_PREFIX = "torch_dynamo_resume_in_"


@dataclasses.dataclass
class Failure:
    original: types.CodeType  # the code Dynamo compiled (user code or a resume function)
    code: types.CodeType      # the code that failed to round-trip
    what: str                 # "transformed" or "resume function"
    error: str
    trace: str

    def report(self) -> str:
        return "%s code of %s (%s):\n%s\n%s" % (self.what, self.original.co_name, self.code.co_name,
                                                self.error, disassembly(self.code))


def disassembly(code: types.CodeType, width: int = 70) -> str:
    """``dis.dis`` of ``code`` (and its nested code objects), one line per instruction, with long
    argument representations (Dynamo puts whole globals dicts in ``co_consts``) cut to ``width``."""
    lines = []
    for ins in dis.get_instructions(code):
        rep = " ".join(ins.argrepr.split())
        if len(rep) > width:
            rep = rep[:width] + "..."
        lines.append("%4s %s %5d %-24s %s%s" % (
            ins.starts_line or "", ">>" if ins.is_jump_target else "  ", ins.offset, ins.opname,
            "" if ins.arg is None else ins.arg, " (%s)" % rep if rep else ""))
    text = "\n".join(lines) + "\n"
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            text += "\nDisassembly of %s:\n%s" % (const.co_name, disassembly(const, width))
    return text


class RecompileHook:
    """A Dynamo bytecode hook. With ``replace``: returns the code the dump's ``transform``
    compiles (decompiled, recompiled, proved the same program) for every
    code object Dynamo writes and records failures (returning None, so Dynamo's code runs).
    Without: only counts what Dynamo writes."""

    def __init__(self, replace: bool = True):
        self.replace = replace
        self.produced: List[tuple] = []     # (original, Dynamo's transformed code)
        self.replaced: List[tuple] = []     # (original, Dynamo's code, recompiled code)
        self.resume_functions: List[types.CodeType] = []  # generated in the run
        self.resume_checked: List[types.CodeType] = []  # resume function bodies recompiled
        self.failures: List[Failure] = []
        self.cache: List[types.CodeType] = []  # the code of every cache entry at the end of the run
        self.handle = None

    def __enter__(self):
        self.handle = torch._dynamo.convert_frame.register_bytecode_hook(self)
        return self

    def __exit__(self, *exc):
        self.handle.remove()
        self.handle = None

    def __call__(self, code, new_code):
        self.produced.append((code, new_code))
        if not self.replace:
            return None
        new = self._recompile(code, new_code, "transformed")
        if new is not None:
            self.replaced.append((code, new_code, new))
        return new

    def check_resume_functions(self, codes):
        """Recompile the bodies of the resume functions Dynamo generated. Torch keeps tracing
        (or, for a skipped frame, running) its own objects, so these are checked, not swapped in;
        the ones Dynamo compiled also went through the hook as transformed code."""
        for code in codes:
            if self._recompile(code, code, "resume function") is not None:
                self.resume_checked.append(code)

    def _recompile(self, original, code, what):
        """The dump's own step (decompile, compile, prove; it never raises), as a file named
        ZOO_FILENAME; a failure is recorded and fails the test."""
        try:
            done = transform(code, _source_name(code.co_name), ZOO_FILENAME, header="")
            if done.code is not None:
                assert done.code.co_filename == ZOO_FILENAME
                return done.code
            error, trace = done.error, ""
        except Exception as exc:  # noqa: BLE001 - every failure is recorded and fails the test
            error, trace = "%s: %s" % (type(exc).__name__, exc), traceback.format_exc()
        self.failures.append(Failure(original, code, what, error, trace))
        return None


@dataclasses.dataclass
class Run:
    results: List[Any]   # per call: (output, gradients)
    stdout: str
    state: Any
    hook: RecompileHook


def _tensors(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _tensors(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _tensors(v)


def _detached(obj):
    if isinstance(obj, torch.Tensor):
        return obj.detach().clone()
    if isinstance(obj, dict):
        return {k: _detached(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_detached(v) for v in obj)
    return obj


def execute(program, backend: str, replace: bool, dump_dir: Optional[str] = None) -> Run:
    """One run of ``program``: fresh Dynamo, seeded build, every call, backward if asked
    (inside ``unveil.prepare_debug(dump_dir)`` when ``dump_dir`` is given)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    case = program.make()
    compiled = torch.compile(case.fn, backend=backend)
    results = []
    out_text = io.StringIO()
    dump = contextlib.nullcontext()
    if dump_dir is not None:
        import unveil
        dump = unveil.prepare_debug(dump_dir)
    with torch._dynamo.config.patch(**program.config), RecompileHook(replace) as hook, \
            contextlib.redirect_stdout(out_text), dump:
        for args, kwargs in case.calls:
            out = compiled(*args, **kwargs)
            grads = None
            if case.grads:
                loss = sum(t.float().sum() for t in _tensors(out) if t.requires_grad)
                loss.backward()
                grads = [None if t.grad is None else t.grad.clone() for t in case.grads]
                for t in case.grads:
                    t.grad = None
            results.append((_detached(out), grads))
    state = case.state() if case.state else None
    hook.resume_functions = resume_functions()
    hook.cache = cache_codes(hook)
    if replace:
        hook.check_resume_functions(hook.resume_functions)
    torch._dynamo.reset()
    return Run(results, out_text.getvalue(), state, hook)


def assert_same(got, expected, path="result"):
    """``got`` equals ``expected`` exactly: tensors bit for bit (dtype, shape, values),
    containers element by element, anything else with ``==``."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, torch.Tensor), "%s: %r is not a tensor" % (path, got)
        torch.testing.assert_close(got, expected, rtol=0, atol=0, equal_nan=True, msg=lambda m: "%s: %s" % (path, m))
    elif isinstance(expected, dict):
        assert type(got) is type(expected) and list(got) == list(expected), "%s: keys %r != %r" % (
            path, list(got), list(expected))
        for k in expected:
            assert_same(got[k], expected[k], "%s[%r]" % (path, k))
    elif isinstance(expected, (list, tuple)):
        assert type(got) is type(expected) and len(got) == len(expected), "%s: %r != %r" % (path, got, expected)
        for k, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, "%s[%d]" % (path, k))
    else:
        assert type(got) is type(expected) and got == expected, "%s: %r != %r" % (path, got, expected)


def resume_functions():
    """Every resume function Dynamo generated since the last ``torch._dynamo.reset()``
    (including those of frames it then skipped, which never reach a bytecode hook)."""
    from torch._dynamo.resume_execution import ContinueExecutionCache
    return [code for by_key in ContinueExecutionCache.cache.values.values() for code in by_key.values()]


def cache_codes(hook: RecompileHook):
    """The code objects of every cache entry of every code Dynamo compiled in ``hook``'s run."""
    from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    originals = {id(c): c for c, _ in hook.produced}
    return [e.code for c in originals.values() for e in _debug_get_cache_entry_list(c)]


def compare(program, backend: str):
    """Plain run and recompiled run of ``program``; returns (plain, recompiled) for assertions."""
    plain = execute(program, backend, replace=False)
    recompiled = execute(program, backend, replace=True)
    return plain, recompiled


def show(code: types.CodeType, label: str) -> str:
    """Markdown: ``code``'s layout, whether it recompiles, its decompiled text, its disassembly."""
    from unveil.decompiler.api import source_for
    out = ["#### %s: `%s`" % (label, code.co_name),
           "co_varnames=%r co_cellvars=%r co_freevars=%r" % (code.co_varnames, code.co_cellvars, code.co_freevars)]
    done = transform(code, _source_name(code.co_name), ZOO_FILENAME, header="")
    out.append("recompile: ok" if done.code is not None else "recompile: %s" % done.error.splitlines()[0])
    try:
        out.append("```python\n%s\n```" % source_for(code)[0].rstrip())
    except Exception as exc:  # noqa: BLE001
        out.append("decompiled text: %s: %s" % (type(exc).__name__, exc))
    out.append("```\n%s\n```" % disassembly(code, 60).rstrip())
    return "\n".join(out)


def main(argv):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import zoo_programs
    if argv[:1] == ["--show"]:
        for p in zoo_programs.PROGRAMS:
            if p.name in argv[1:]:
                run = execute(p, p.backends[0], replace=False)
                for original, code in run.hook.produced:
                    print(show(code, "%s: transformed code of %s" % (p.name, original.co_name)))
                for code in run.hook.resume_functions:
                    print(show(code, "%s: resume function" % p.name))
        return
    names = set(argv)
    rows = []
    for p in zoo_programs.PROGRAMS:
        if names and p.name not in names:
            continue
        for backend in p.backends:
            plain = execute(p, backend, replace=False)
            n_produced = len(plain.hook.produced)
            n_resume = sum(1 for c, _ in plain.hook.produced if c.co_name.startswith(RESUME_PREFIX))
            n_resume_fns = len(plain.hook.resume_functions)
            try:
                rec = execute(p, backend, replace=True)
            except Exception:  # noqa: BLE001 - the table goes on; the trace says what broke
                print("CRASH in %s/%s:\n%s" % (p.name, backend, traceback.format_exc()), file=sys.stderr)
                rows.append((p.name, backend, n_produced, "-", n_resume, n_resume_fns, "-", "-", "crash"))
                continue
            h = rec.hook
            try:
                assert_same(rec.results, plain.results)
                same = "yes" if (rec.stdout, rec.state) == (plain.stdout, plain.state) else "NO"
            except AssertionError:
                same = "NO"
            rows.append((p.name, backend, n_produced, len(h.replaced), n_resume, n_resume_fns,
                         len(h.resume_checked), len(h.failures), same))
            for f in h.failures:
                print("FAILURE in %s/%s: %s" % (p.name, backend, f.report()), file=sys.stderr)
    print("| program | backend | transformed code objects | recompiled and run | transformed code objects of "
          "resume functions | resume functions | recompiled | failures | same results |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s |" % " | ".join(str(c) for c in r))


if __name__ == "__main__":
    main(sys.argv[1:])
