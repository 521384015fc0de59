"""The structurer: the control-flow graph and the symbolic stack made ``ast`` statements;
:func:`walk.structure` is its entry point (docs/decompiler.md, "The structurer", tells how it
works). Its modules, in layers, each importing only the layers before it:

* vocabulary: regions, condition_parts, statement_parts, state;
* facts, which build no statement: jumps, async_facts, with_facts, legacy_facts,
  finally_copies, loop_facts, branch_facts, match_facts, pattern_nodes (a case's slots made
  its ``ast`` pattern);
* constructs: legacy, conditions, withs, loops, asyncs, branches, exceptstar, tries,
  case_guards (a case's guard), patterns (one case), match, comprehensions;
* walk.
"""
