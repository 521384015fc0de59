"""Decompiled source in torch's ``bytecode`` log (``TORCH_LOGS=+bytecode``).

``install()`` registers a Dynamo bytecode hook. Dynamo calls its bytecode hooks
right after it logs ``MODIFIED BYTECODE``, so the hook's record follows it in
the log: ``DECOMPILED SOURCE <name> <file> line <n>`` and the source. The hook
only observes (it never replaces the code), does nothing unless the bytecode
artifact log is enabled, and never raises into the user's program.
"""
import logging
import threading

_lock = threading.Lock()
# The one registration made by install(); a process has one Dynamo, so one hook.
_handle = None


def _bytecode_logger():
    import torch._logging
    # the same artifact logger Dynamo writes ORIGINAL/MODIFIED BYTECODE to
    return torch._logging.getArtifactLogger("torch._dynamo.convert_frame", "bytecode")


UNVERIFIED = ("# unveil: unverified - this source does not compile back to Dynamo's exact "
              "bytecode; read it as an approximation")


def round_trips(source: str, code) -> bool:
    """Whether ``source`` compiles to a function whose normalized bytecode is
    exactly ``code``'s (the strict round trip of DESIGN.md section 3)."""
    from ..decompiler.measure import find_code, normalized
    try:
        module = compile(source, "<unveil>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    found = find_code(module, code.co_name)
    if found is None:  # the decompiler renames functions whose name is not an identifier
        found = next((c for c in module.co_consts if hasattr(c, "co_code")), None)
    return found is not None and normalized(found) == normalized(code)


def format_decompiled(old_code, new_code) -> str:
    """The log record for ``new_code``, Dynamo's replacement of ``old_code``:
    a header like Dynamo's, the source, and a note if it is not verified."""
    from ..decompiler import decompile
    source = decompile(new_code)
    header = "DECOMPILED SOURCE %s %s line %d" % (
        old_code.co_name, old_code.co_filename, old_code.co_firstlineno)
    text = "%s\n%s" % (header, source.rstrip("\n"))
    if not round_trips(source, new_code):
        text += "\n" + UNVERIFIED
    return text


def _hook(old_code, new_code):
    try:
        log = _bytecode_logger()
        if not log.isEnabledFor(logging.DEBUG):
            return None
        try:
            text = format_decompiled(old_code, new_code)
        except Exception as e:  # any failure is a note in the log, never the user's problem
            first = (str(e).strip().splitlines() or [""])[0]
            text = "unveil: could not decompile the modified bytecode of %s: %s: %s" % (
                old_code.co_name, type(e).__name__, first)
        log.debug("%s", text)
    except Exception:
        pass
    return None


def install() -> None:
    """Log unveil's decompiled source after Dynamo's modified bytecode whenever
    the ``bytecode`` log is on. Installing twice still logs once."""
    global _handle
    with _lock:
        if _handle is not None:
            return
        import torch._dynamo.convert_frame as convert_frame
        _handle = convert_frame.register_bytecode_hook(_hook)


def uninstall() -> None:
    """Undo :func:`install`; a no-op if it is not installed."""
    global _handle
    with _lock:
        if _handle is None:
            return
        _handle.remove()
        _handle = None


def is_installed() -> bool:
    """Whether :func:`install` is in effect."""
    return _handle is not None
