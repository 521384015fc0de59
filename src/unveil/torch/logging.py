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


UNVERIFIED = ("# unveil: unverified - this source could not be proved to do what Dynamo's "
              "bytecode does; read it as an approximation")


def proved(text, code) -> bool:
    """Whether ``text``, decompiled from Dynamo's ``code``, is proved equivalent to it
    (the dump's proof: :func:`unveil.torch.hook.prove_same`)."""
    from ..decompiler.recompile import compile_back
    from .hook import prove_same
    try:
        new, _ = compile_back(text, code, "<unveil>", None, text.consts)
        prove_same(new, code)
        return True
    except Exception:  # noqa: BLE001 - anything: not proved
        return False


def format_decompiled(old_code, new_code) -> str:
    """The log record for ``new_code``, Dynamo's replacement of ``old_code``:
    a header like Dynamo's, the source, and a note if it is not proved equivalent."""
    from .hook import decompile_as
    source = decompile_as(new_code, None)
    header = "DECOMPILED SOURCE %s %s line %d" % (
        old_code.co_name, old_code.co_filename, old_code.co_firstlineno)
    text = "%s\n%s" % (header, source.rstrip("\n"))
    if not proved(source, new_code):
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
