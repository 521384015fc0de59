"""Which raw instructions jump and which never fall through to the next one, from ``dis``'s
tables: the control-flow facts the bytecode check (safety.py) and the walk for hidden stack
entries (slots.py) follow alike."""
import dis

#: instructions after which control never goes on to the next one
NO_FALL_THROUGH = frozenset({
    "JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
    "RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})

#: opcodes whose argument is a jump target (3.14's END_ASYNC_FOR names the loop's SEND for
#: monitoring's branch events; it does not jump there)
JUMP_OPCODES = (frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, "hasjump", ()))) - {
    dis.opmap.get("END_ASYNC_FOR")}
