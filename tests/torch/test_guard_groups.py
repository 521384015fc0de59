"""guard_groups.arrange: headings and a summary of what differs, never a line moved or lost."""
from unveil.torch.guard_groups import arrange, variable_of
from unveil.torch.guards import Heading, guard_function

PARTS = ["___check_global_state()",
         "check_tensor(L['a'], Tensor, torch.float32, size=[2], stride=[1])",
         "hasattr(L['a'], '_dynamo_dynamic_indices') == False",
         "L['b'] == 3  # return a + b  # seed.py:19 in f",
         "___check_obj_id(G['torch'], 1234)",
         "___check_type_id(L['c'], 99), type=<class 'int'>",
         "L['c'] == 4",
         "hasattr(L['a'], '_dynamo_static_indices') == False",
         "2 <= L['a'].size()[0]"]


def test_lines_keep_torch_order_and_all_are_there():
    items = arrange(PARTS, [PARTS[:3] + ["L['b'] == 2"] + PARTS[4:]])
    assert [p for p in items if not isinstance(p, Heading)] == PARTS


def test_summary_names_what_the_other_entries_do_not_share():
    other = PARTS[:3] + ["L['b'] == 2"] + PARTS[4:]
    items = arrange(PARTS, [other])
    first = items[0]
    assert isinstance(first, Heading) and "1 of 9" in first and "L['b'] == 3" in first
    assert "L['c']" not in first  # shared by every entry


def test_a_heading_where_the_variable_changes():
    items = arrange(PARTS)
    headings = [p for p in items if isinstance(p, Heading)]
    assert headings[:3] == ["global state", "conditions on L['a']", "conditions on L['b']"]
    assert variable_of("___check_obj_id(G['torch'], 1)") == "G['torch']"


def test_the_guard_function_still_compiles_and_checks_every_line():
    text = guard_function("g", arrange(PARTS, [PARTS[1:]]))
    compile(text, "<guard>", "exec")
    assert text.count("__guard_hit = __guard_hit and") == len(PARTS)
