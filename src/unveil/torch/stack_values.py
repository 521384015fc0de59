"""Dynamo's stack values in the user's terms: ``___stack0`` is "the value of ``m.item()``
at line 7".

When a graph break stops Dynamo in the middle of an expression (``if m.item() > 0.5:``
breaks at ``m.item()``), the values already computed are on the interpreter's stack. The
resume function Dynamo generates takes them as arguments ``___stack0``, ``___stack1``, ...
(bottom of the stack first), and guards of its entries test them (``L['___stack0'] > 0.5``).

Where each came from is in Dynamo's own records: ``ContinueExecutionCache.
generated_code_metadata`` holds, per resume code object, the original function's code and
instructions; the resume code is a prologue that pushes the stack values (``LOAD_FAST
___stack<k>``, ``PUSH_NULL``) and jumps into a copy of those instructions. Torch itself
matches the copy to the original from the end (``generate_based_on_original_code_object``);
so does this module. Then a walk back from the jump target over the original instructions
finds the instruction that pushed each stack slot, and its source position (3.11+: line and
columns) gives the expression's text.
"""
import dis
import linecache
import re

_STACK_NAME = re.compile(r"^___stack\d+$")

# instructions whose walk back cannot be followed (several values, or control flow)
_STOP_PREFIXES = ("RETURN", "RAISE", "RERAISE", "YIELD", "UNPACK", "JUMP", "POP_JUMP", "FOR_ITER",
                  "SEND", "SETUP", "BEFORE", "END_", "WITH_", "PUSH_EXC", "POP_EXCEPT", "POP_BLOCK",
                  "LOAD_SPECIAL", "CHECK_", "CLEANUP", "GET_AWAITABLE", "GET_ANEXT", "DUP_TOP", "ROT_")
# instructions that push no value (their pops follow from dis.stack_effect)
_PUSH_NONE = {"PRECALL", "KW_NAMES", "NOP", "RESUME", "CACHE", "EXTENDED_ARG", "NOT_TAKEN", "POP_TOP",
              "LIST_APPEND", "LIST_EXTEND", "SET_ADD", "SET_UPDATE", "MAP_ADD", "DICT_UPDATE",
              "DICT_MERGE", "COPY_FREE_VARS", "MAKE_CELL", "PRINT_EXPR", "IMPORT_STAR",
              "SETUP_ANNOTATIONS", "POP_ITER"}
# values popped by the instructions that may push two (the low bit of LOAD_GLOBAL's argument
# pushes a NULL from 3.11 on, LOAD_ATTR's a method's self from 3.12 on): pushes = pops + effect
_FIXED_POPS = {"LOAD_GLOBAL": 0, "LOAD_ATTR": 1, "LOAD_METHOD": 1, "LOAD_SUPER_ATTR": 3,
               "LOAD_FAST_LOAD_FAST": 0, "LOAD_FAST_BORROW_LOAD_FAST_BORROW": 0}
# what a resume prologue holds besides the pushes of the stack values
_PROLOGUE_OK = {"RESUME", "COPY_FREE_VARS", "LOAD_CONST", "STORE_FAST", "NOP"}


def of_resume(code) -> dict:
    """``{"___stack0": {"expression": "m.item()", "line": 7}, ...}`` for a resume function's
    code object (``expression`` None when only the line is known); ``{}`` when ``code`` is
    not one Dynamo generated or its prologue is not the plain kind this module reads."""
    try:
        from torch._dynamo.resume_execution import ContinueExecutionCache
        meta = ContinueExecutionCache.generated_code_metadata.get(code)
        if meta is None or not meta.instructions or getattr(meta, "boxed_call", False):
            return {}
        return _describe(code, meta)
    except Exception:  # a description is a nicety: never fail the dump for it
        return {}


def continues_at(code):
    """The line where resume function ``code`` goes on in the user's code (its jump target's
    line), or None. It is the break's line unless the break was a branch Dynamo could not trace
    (``if x.sum() > 0:``): then each branch has a resume function of its own, going on at the
    first line of that branch."""
    try:
        from torch._dynamo.resume_execution import ContinueExecutionCache
        meta = ContinueExecutionCache.generated_code_metadata.get(code)
        found = _resume_target(code, meta) if meta is not None and meta.instructions else None
        if found is None:
            return None
        original, at, _ = found
        # (3.14 marks the way a jump does not take with a NOT_TAKEN on the jump's own line)
        return next((_line_of(ins) for ins in original[at:]
                     if _line_of(ins) and ins.opname not in ("NOT_TAKEN", "NOP", "EXTENDED_ARG", "CACHE")), None)
    except Exception:  # a nicety: never fail the dump for it
        return None


def _resume_target(code, meta):
    """(original instructions, index of the resume target in them, the prologue before the jump)
    of resume function ``code``, or None when its layout is not the one Dynamo writes."""
    resume = _instructions_of(code)
    original = meta.instructions
    tail = len(resume) - len(original)
    if tail <= 0:
        return None
    copied = {id(ins): k for k, ins in enumerate(resume[tail:])}
    jump = next((ins for ins in resume[:tail]
                 if getattr(ins, "target", None) is not None and id(ins.target) in copied), None)
    if jump is None:
        return None
    return original, copied[id(jump.target)], resume[:resume.index(jump)]


def _instructions_of(code) -> list:
    """Dynamo's instruction objects of ``code`` (jump targets resolved), as torch reads them."""
    from torch._dynamo.bytecode_transformation import transform_code_object
    got = []
    transform_code_object(code, lambda instructions, options: got.extend(instructions))
    return got


def _describe(code, meta) -> dict:
    found = _resume_target(code, meta)
    if found is None:
        return {}
    original, at, prologue = found
    layout = _stack_layout(prologue)
    if layout is None:
        return {}
    producers = _producers(original, at, len(layout))
    line = _line_before(original, at)
    out = {}
    for slot, name in enumerate(layout):
        if name is None:
            continue
        ins = producers.get(len(layout) - 1 - slot)
        text = _source_text(meta.code.co_filename, ins) if ins is not None else None
        where = _line_of(ins) if ins is not None else None
        out[name] = {"expression": text, "line": where or line}
    return out


def _stack_layout(prologue):
    """The stack the prologue builds, bottom first: ``___stack<k>`` names and None for a NULL;
    None when the prologue does more than that (a ``with`` block re-entered, nested resume
    functions): then its stack is not read."""
    layout = []
    for ins in prologue:
        if ins.opname == "PUSH_NULL":
            layout.append(None)
        elif ins.opname.startswith("LOAD_FAST") and isinstance(ins.argval, str) and _STACK_NAME.match(ins.argval):
            layout.append(ins.argval)
        elif ins.opname not in _PROLOGUE_OK:
            return None
    return layout


def _producers(instructions, at, depth) -> dict:
    """{depth from the top: instruction that pushed it} for the ``depth`` values on the stack
    before ``instructions[at]``, found walking back through straight-line code."""
    targets = _jump_targets(instructions)
    want = {pos: pos for pos in range(depth)}  # position now -> position at ``at``
    found = {}
    k = at - 1
    while want and k >= 0:
        ins = instructions[k]
        step = _step(ins)
        if step is None:
            break
        nxt = {}
        for pos, slot in want.items():
            moved = step(pos)
            if moved is None:
                found[slot] = ins
            else:
                nxt[moved] = slot
        want = nxt
        if id(ins) in targets:  # other paths reach it: what was before it is not known
            break
        k -= 1
    return found


def _step(ins):
    """A function mapping a stack position after ``ins`` to the position before it (None: ``ins``
    pushed that value), or None when the walk cannot go back through ``ins``."""
    name = ins.opname
    if name.startswith(_STOP_PREFIXES) or getattr(ins, "target", None) is not None:
        return None
    n = ins.arg or 0
    if name == "COPY":
        return lambda pos: n - 1 if pos == 0 else pos - 1
    if name == "SWAP":
        return lambda pos: n - 1 if pos == 0 else 0 if pos == n - 1 else pos
    try:
        net = dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None, jump=False)
    except (ValueError, TypeError):
        return None
    if name in _FIXED_POPS:  # their argument says whether they push a NULL (or self) too
        pushes = _FIXED_POPS[name] + net
    elif name in _PUSH_NONE or name.startswith(("STORE_", "DELETE_")):
        pushes = 0
    else:
        pushes = 1
    pops = pushes - net
    if pops < 0:
        return None
    return lambda pos: None if pos < pushes else pos - pushes + pops


def _jump_targets(instructions) -> set:
    found = set()
    for ins in instructions:
        for target in (getattr(ins, "target", None),
                       getattr(getattr(ins, "exn_tab_entry", None), "target", None)):
            if target is not None:
                found.add(id(target))
    return found


def _line_of(ins):
    pos = getattr(ins, "positions", None)
    if pos is not None and getattr(pos, "lineno", None):
        return pos.lineno
    return getattr(ins, "starts_line", None) if isinstance(getattr(ins, "starts_line", None), int) else None


def _line_before(instructions, at):
    """The line of the instruction that broke the graph (the one before the resume target)."""
    for ins in reversed(instructions[:at]):
        line = _line_of(ins)
        if line:
            return line
    return None


def _source_text(filename, ins):
    """The source text ``ins`` computes, from its position (3.11+), or None."""
    pos = getattr(ins, "positions", None)
    if pos is None or None in (pos.lineno, pos.end_lineno, pos.col_offset, pos.end_col_offset):
        return None
    lines = linecache.getlines(filename)
    if not lines or pos.end_lineno > len(lines):
        return None
    # columns count UTF-8 bytes
    chunk = [l.encode("utf-8") for l in lines[pos.lineno - 1:pos.end_lineno]]
    if len(chunk) == 1:
        text = chunk[0][pos.col_offset:pos.end_col_offset]
    else:
        text = b"".join([chunk[0][pos.col_offset:]] + chunk[1:-1] + [chunk[-1][:pos.end_col_offset]])
    text = " ".join(text.decode("utf-8", "replace").split())
    return text or None
