"""unveil: open up ``torch.compile``.

Decompile any function or code object back to Python source, dump everything
``torch.compile`` produced (cache entries, guards, graphs, kernels) as valid
Python files, and step through them in a debugger.

This module only re-exports the public names; importing it never imports torch.
"""
from .decompiler import DecompilationError, Decompiler, decompile, recompile

__version__ = "0.1.0"

__all__ = [
    "DecompilationError", "Decompiler", "decompile", "recompile",
    "prepare_debug", "debug", "install", "uninstall", "explain",
]


def prepare_debug(dump_src_dir, clean_wild_fx_code=True, log_bytecode=False):
    """Context manager: dump everything ``torch.compile`` does inside it to
    ``dump_src_dir`` and run the dumped code, so breakpoints in it are hit."""
    from .torch.dump import prepare_debug as _prepare_debug
    return _prepare_debug(dump_src_dir, clean_wild_fx_code=clean_wild_fx_code,
                          log_bytecode=log_bytecode)


def debug():
    """Context manager: run already-compiled functions from their dumped files
    and stop in the debugger; no new compilation happens inside."""
    from .torch.debug import debug as _debug
    return _debug()


def explain(fn, *args, **kwargs):
    """Which cache entry of ``fn`` (compiled with ``torch.compile``) the call ``fn(*args, **kwargs)``
    would run and why, or why torch would compile a new one -- without running it. Returns an
    :class:`unveil.torch.explain.Explanation` (``print`` it, or read its fields)."""
    from .torch.explain import explain as _explain
    return _explain(fn, *args, **kwargs)


def install():
    """Show decompiled source next to Dynamo's bytecode in ``TORCH_LOGS=+bytecode``."""
    from .torch.logging import install as _install
    return _install()


def uninstall():
    """Undo :func:`install`."""
    from .torch.logging import uninstall as _uninstall
    return _uninstall()
