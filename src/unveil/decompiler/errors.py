"""The decompiler's error type."""


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
            where.append("in %s" % function)
        if offset is not None:
            where.append("at offset %d" % offset)
        if instruction is not None:
            where.append("(%s)" % instruction)
        super().__init__(message + (" " + " ".join(where) if where else ""))
