"""The decompiler's error types."""


class DecompilationError(Exception):
    """A region of bytecode that unveil cannot turn into equivalent source.

    Carries the function name, the byte offset and the instruction, so the
    message points at the exact place.
    """

    def __init__(self, message, function=None, offset=None, instruction=None):
        self.function = function
        self.offset = offset
        self.instruction = instruction
        where = []
        if function is not None:
            # a crafted code object's name may hold anything: keep the message one line
            where.append("in %s" % (function if _printable(function) else repr(function)))
        if offset is not None:
            where.append("at offset %d" % offset)
        if instruction is not None:
            where.append("(%s)" % instruction)
        super().__init__(message + (" " + " ".join(where) if where else ""))


class NotEquivalent(Exception):
    """The two code objects could not be proved to behave the same (:mod:`.validate`)."""


class UnsafeInput(DecompilationError):
    """The code object holds something that source cannot say as it is - a name that
    is not an identifier, a constant of a type marshal cannot write: the input is
    malformed or crafted, and unveil refuses it rather than write it into the text."""


def _printable(text):
    return isinstance(text, str) and text.isprintable()
