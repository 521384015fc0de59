"""Differential cases: try/except/else/finally in every combination
(with return/break/continue inside), raise, raise from, assert, and with
statements (single and several items, suppressing and not)."""


class Boom(Exception):
    pass


class Other(Exception):
    pass


class Rec:
    """A context manager that records enter/exit into ``log``; suppresses
    the exceptions whose types are in ``suppress``."""

    def __init__(self, log, name, suppress=()):
        self.log = log
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter " + self.name)
        return self.name.upper()

    def __exit__(self, et, ev, tb):
        self.log.append("exit %s %s" % (self.name, et.__name__ if et else None))
        return et is not None and issubclass(et, self.suppress)


def risky(kind):
    """Raise depending on ``kind``: 0 nothing, 1 ValueError, 2 KeyError,
    3 Boom, 4 ZeroDivisionError, other: TypeError."""
    if kind == 0:
        return "fine"
    if kind == 1:
        raise ValueError("v")
    if kind == 2:
        raise KeyError("k")
    if kind == 3:
        raise Boom("b")
    if kind == 4:
        return 1 // 0
    raise TypeError("t")


KINDS = [(0,), (1,), (2,), (3,), (4,), (5,)]


# -------------------------------------------------------------- try/except

def try_except_bare(k):
    try:
        r = risky(k)
    except:
        r = "caught"
    return r


def try_except_typed(k):
    try:
        r = risky(k)
    except ValueError:
        r = "value"
    return r


def try_except_multiple(k):
    try:
        r = risky(k)
    except ValueError:
        r = "value"
    except (KeyError, Boom) as e:
        r = "tuple " + type(e).__name__
    except ZeroDivisionError as e:
        r = "zero " + str(e.args[0][:8])
    return r


def try_except_as_name_cleared(k):
    e = "before"
    try:
        risky(k)
    except Exception as e:
        r = type(e).__name__
    else:
        r = "none"
    try:
        return r, e
    except NameError:
        return r, "cleared"


def try_except_else(k):
    log = []
    try:
        log.append(risky(k))
    except (ValueError, KeyError):
        log.append("except")
    else:
        log.append("else")
    log.append("after")
    return log


def try_finally(k):
    log = []
    try:
        log.append(risky(k))
    finally:
        log.append("finally")
    return log


def try_except_finally(k):
    log = []
    try:
        log.append(risky(k))
    except ValueError:
        log.append("value")
    finally:
        log.append("finally")
    return log


def try_except_else_finally(k):
    log = []
    try:
        log.append(risky(k))
    except ValueError:
        log.append("value")
    except KeyError:
        log.append("key")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log


def try_return_in_try(k):
    try:
        return risky(k)
    except ValueError:
        return "value"


def try_return_in_finally_overrides(k):
    try:
        return risky(k)
    finally:
        if k != 5:
            return "finally"


def try_return_in_except_with_finally(k):
    log = []
    try:
        risky(k)
        log.append("ok")
    except ValueError:
        log.append("value")
        return log
    except KeyError as e:
        return "key", e.args
    finally:
        log.append("fin")
    return log


def try_return_in_else(k):
    try:
        risky(k)
    except Exception:
        pass
    else:
        return "else"
    return "after"


def try_in_loop_break_continue(n):
    log = []
    for k in range(6):
        try:
            if k == n:
                break
            if k % 2:
                continue
            log.append(risky(k))
        except ValueError:
            log.append("v")
            continue
        except ZeroDivisionError:
            log.append("z")
            break
        except Exception:
            log.append("e")
        finally:
            log.append(k)
    else:
        log.append("else")
    return log


def try_break_in_except_with_finally(n):
    # the clause's ``break`` runs the finally, then leaves the loop past its
    # else (3.12+ inlines the return after the loop there)
    log = []
    for k in range(4):
        try:
            log.append(10 // (k - n))
        except ZeroDivisionError:
            log.append("z")
            break
        finally:
            log.append(k)
    else:
        log.append("else")
    return log

def try_elif_in_nested_finally(k):
    # the elif branches reach the finally's inlined copy one by a jump, the
    # other by falling into it (lzma.LZMAFile.close)
    log = []
    if k == 9:
        return log
    try:
        if k == 1:
            log.append("one")
        elif k == 2:
            log.append(risky(k))
    finally:
        if k % 2:
            log.append("odd")
        log.append("fin")
    return log

def try_finally_returns_in_branches(k):
    # returns from both branches of an if inside try/finally: each runs the
    # finally's copy before returning (urllib's FancyURLopener.http_error_302)
    log = []
    try:
        if k > 2:
            if k % 2:
                f = str
            else:
                f = repr
            return f(k), log
        result = risky(k)
        return result, log
    finally:
        log.append("finally")

def try_return_in_nested_try_in_except(k):
    # a bare ``return`` from an if in a try inside an except clause: the
    # clause's POP_EXCEPT and the return lie after the inner try
    # (cmd.Cmd.do_help)
    log = []

    def do_help(arg):
        if arg:
            try:
                f = {1: len, 2: abs}[arg]
            except KeyError:
                try:
                    doc = risky(arg - 3)
                    if doc:
                        log.append(doc)
                        return
                except (ValueError, KeyError):
                    pass
                log.append("nohelp")
                return
            log.append(f(-arg))
        else:
            log.append("list")

    do_help(k)
    return log

def try_break_in_nested_if_in_while(k):
    # ``x = ...; break`` in a nested if inside try, in a while loop: 3.12+
    # inlines the return after the loop there (ntpath._readlink_deep)
    seen = set()
    path = k
    while path not in seen:
        seen.add(path)
        try:
            old = path
            path = abs(path - 3) // 2
            if not divmod(path, 2)[1]:
                if not isinstance(old, int) or old > 8:
                    path = old
                    break
                path = max(old, path) * 3
        except OSError as ex:
            if ex.errno in (1, 2):
                break
            raise
        except ValueError:
            break
    return path

def try_finally_in_elif_branch(k):
    # a try/finally ending an if branch, before an elif: the walk goes on
    # mid-block after the finally's inlined copy (pkgutil.ImpLoader.get_source)
    log = []
    source = None if k < 5 else "cached"
    if source is None:
        if k % 2 == 0:
            log.append("reopen")
            try:
                source = risky(k)
            finally:
                log.append("close")
        elif k == 1:
            source = "compiled"
    return source, log

def try_break_in_except_while_true(k):
    # ``while 1`` left only by breaks, one in an except clause and one in
    # an elif: the loop starts the function (wave.Wave_read.initfp)
    while 1:
        chunks = iter(["fmt", "junk", "data", "tail"][k % 4:])
        try:
            name = next(chunks)
        except StopIteration:
            break
        if name == "fmt":
            k += 1
        elif name == "data":
            if k > 20:
                raise ValueError
            k += 100
            break
        k += 1
    return k

def try_test_not_merged_with_outer_if(k):
    # the test inside the try must stay inside it: merged with the outer
    # if's test it would raise outside the handler (venv's symlink_or_copy)
    log = []
    fallback = k > 4
    if not fallback:
        try:
            if not 10 // (k - 2) > 3:
                if k % 2:
                    log.append("odd")
                else:
                    log.append("even")
        except ZeroDivisionError:
            log.append("caught")
            fallback = True
    if fallback:
        log.append("fallback")
    return log

def try_return_retry_loop(k):
    # ``while True`` of two trys whose clauses fall through: the second
    # try is inside the loop, not a break target (mailbox.MH's
    # _open_mh_sequences_file)
    attempts = []
    while True:
        try:
            attempts.append("first")
            return risky(k % 3 + 2), attempts
        except KeyError:
            pass
        try:
            k += 1
            return risky(k % 4), attempts
        except (ValueError, KeyError):
            pass

def try_finally_break_in_loop(n):
    log = []
    i = 0
    while True:
        try:
            i += 1
            if i > n:
                break
            if i == 2:
                continue
            log.append(i)
        finally:
            log.append("f%d" % i)
    return log


def try_break_in_finally(n):
    log = []
    for i in range(5):
        try:
            risky(i if i == n else 0)
            log.append(i)
        finally:
            if i == n:
                break
    return log


def try_continue_in_except(n):
    out = []
    for k in [0, 1, 2, n]:
        try:
            risky(k)
        except ValueError:
            continue
        except KeyError:
            out.append("key")
            continue
        out.append(k)
    return out


def try_nested(k):
    log = []
    try:
        try:
            risky(k)
        except ValueError:
            log.append("inner value")
            raise KeyError("from inner")
        finally:
            log.append("inner finally")
    except KeyError as e:
        log.append("outer key %s" % e.args)
    finally:
        log.append("outer finally")
    return log


def try_after_early_return(k):
    # 3.10+ copies the final ``return None`` into the if; the code after it
    # is first walked as a possible else branch, then again as what follows
    log = []
    if k == 5:
        return
    saved = len(log)
    try:
        log.append(risky(k))
    except ValueError as e:
        log.append(e.args)
    finally:
        log.append(saved)
    print(log)


def try_after_empty_branch(k):
    # (copyreg._slotnames) the empty branch is a lone jump to the try that
    # the loop in the other branch also reaches
    names = []
    if k == 0:
        pass
    else:
        for c in range(k):
            if c % 2:
                names.append(c)
    try:
        risky(k)
    except:
        pass
    return names


def with_return_in_try_finally(k):
    # the returned value is computed in the with block, the exit call and
    # the finally body run, then the return: the value must not be computed
    # after the with block
    log = []
    try:
        with Rec(log, "a") as a, Rec(log, "b"):
            return [a, risky(k), list(log)]
    finally:
        log.append("finally")


def try_in_except_handler(k):
    try:
        risky(k)
    except Exception as e:
        try:
            risky(k + 1 if k < 5 else 0)
        except Exception as e2:
            return type(e).__name__, type(e2).__name__
        return type(e).__name__, None
    return None


def try_in_else_and_finally(k):
    log = []
    try:
        risky(k % 2)
    except ValueError:
        log.append("v")
    else:
        try:
            risky(k)
        except Exception:
            log.append("else-caught")
    finally:
        try:
            log.append("fin")
        finally:
            log.append("fin2")
    return log


def try_reraise(k):
    try:
        risky(k)
    except (ValueError, KeyError):
        raise
    except Exception:
        return "swallowed"
    return "ok"


def try_except_star_free_raise_new(k):
    try:
        risky(k)
    except ValueError as e:
        raise RuntimeError("wrapped") from e
    except KeyError:
        raise RuntimeError("no cause") from None
    return "ok"


def try_cause_inspection(k):
    try:
        try:
            risky(k)
        except Exception as e:
            raise Other("x") from e
    except Other as o:
        return type(o.__cause__).__name__, o.__suppress_context__
    return None


def try_context_chaining(k):
    try:
        try:
            risky(k)
        except Exception:
            raise Other("during handling")
    except Other as o:
        return type(o.__context__).__name__, o.__cause__
    return "ok"


def try_except_exception_group_free(k):
    results = []
    for kind in (0, k):
        try:
            results.append(risky(kind))
        except ArithmeticError:
            results.append("arith")
        except LookupError:
            results.append("lookup")
    return results


def try_finally_returns_value_modified(k):
    x = [k]
    try:
        return x
    finally:
        x.append("finally")


def try_while_else_in_try(n):
    try:
        i = 0
        while i < n:
            i += 1
            if i == 3:
                raise Boom
        else:
            return "else", i
    except Boom:
        return "boom", i


def try_empty_bodies(k):
    try:
        pass
    except Exception:
        pass
    try:
        risky(k)
    except Exception:
        pass
    finally:
        pass
    return k


def try_except_in_comprehension_func(k):
    def safe(x):
        try:
            return 10 // x
        except ZeroDivisionError:
            return None
    return [safe(x) for x in range(-1, k)]


def try_finally_with_del(k):
    x = "val"
    try:
        if k:
            del x
        return "deleted" if k else x
    finally:
        pass


def try_exc_info_in_handler(k):
    import sys
    try:
        risky(k)
    except Exception:
        return sys.exc_info()[0].__name__
    return sys.exc_info()[0]


def except_falls_into_copied_return(m, k):
    # 3.12+ copies the return after the try into the clause, after its
    # POP_EXCEPT: it runs after the exception is dropped (urllib's thishost)
    import sys
    if m is not None:
        try:
            m = m[k]
        except KeyError:
            m = "key"
    return m, sys.exc_info()[0]


def except_pass_else_returns_then_code(m, k):
    # pty.master_open: only the except clause reaches the code after the try
    import sys
    try:
        p = m[k]
    except (KeyError, TypeError):
        pass
    else:
        return p, sys.exc_info()[0]
    return -1, sys.exc_info()[0]


def except_as_clauses_fall_into_copied_return(m, k):
    import sys
    try:
        r = m[k]
    except KeyError as e:
        r = "key %s" % e
    except TypeError as e:
        r = "type " + type(e).__name__
    return r, sys.exc_info()[0]


def except_branches_fall_into_copied_return(a, b, log):
    # shutil.move: each branch of the clause's if gets its own copy (3.12+)
    import sys
    try:
        log.append(a[0])
    except (IndexError, TypeError):
        if a:
            log.append(2)
        elif b:
            log.append(3)
        else:
            log.append(4)
    return log, sys.exc_info()[0]


# ---------------------------------------------------------------- raise

def raise_simple(k):
    if k > 2:
        raise ValueError("too big")
    return k


def raise_class_not_instance(k):
    if k:
        raise KeyError
    return "none"


def raise_from_exc(k):
    try:
        return [1, 2][k]
    except IndexError as e:
        raise LookupError("wrapped %d" % k) from e


def raise_in_nested_function(k):
    def inner(x):
        if x < 0:
            raise ArithmeticError
        return x
    return inner(k - 3)


def raise_custom_with_attrs(k):
    class MyErr(Exception):
        def __init__(self, code):
            super().__init__(code)
            self.code = code
    try:
        if k % 2:
            raise MyErr(k * 10)
    except MyErr as e:
        return e.code
    return 0


def raise_bad_object(k):
    if k:
        raise 42
    return 0


# --------------------------------------------------------------- assert

def assert_no_msg(k):
    assert k < 3
    return k


def assert_with_msg(k):
    assert k % 2 == 0, "odd value %d" % k
    return k // 2


def assert_complex_condition(k):
    assert 0 <= k < 10 and (k != 4 or False), f"bad {k!r}"
    return k


def assert_catch_message(k):
    try:
        assert k == 0, ("msg", k)
    except AssertionError as e:
        return e.args
    return "passed"


# ----------------------------------------------------------------- with

def with_simple(k):
    log = []
    with Rec(log, "a"):
        log.append("body")
    return log


def with_as(k):
    log = []
    with Rec(log, "a") as name:
        log.append(name)
    return log, name


def with_several_items(k):
    log = []
    with Rec(log, "a") as x, Rec(log, "b"), Rec(log, "c") as z:
        log.append(x + z)
    return log


def with_exception_propagates(k):
    log = []
    try:
        with Rec(log, "a"), Rec(log, "b"):
            log.append(risky(k))
    except Exception as e:
        log.append(type(e).__name__)
    return log


def with_suppressing(k):
    log = []
    with Rec(log, "outer", (KeyError,)):
        with Rec(log, "inner", (ValueError,)):
            log.append(risky(k))
        log.append("after inner")
    log.append("after outer")
    return log


def with_return_inside(k):
    log = []
    with Rec(log, "a"):
        if k:
            return "early", log
        log.append("x")
    return "late", log


def with_if_returns_value(k):
    # the value is returned after the with's exit call, outside the body
    # (zipapp.get_interpreter); the other branch falls off the function
    log = []
    with Rec(log, "a") as name:
        if k > 1:
            return name * k, log

def with_in_loop_break_continue(n):
    log = []
    for i in range(4):
        with Rec(log, str(i)):
            if i == n:
                break
            if i % 2:
                continue
            log.append("body%d" % i)
    return log


def with_as_tuple_target(k):
    class Pair:
        def __enter__(self):
            return (k, k * 2)
        def __exit__(self, *a):
            return False
    with Pair() as (p, q):
        s = p + q
    return s


def with_as_attribute_target(k):
    import types
    o = types.SimpleNamespace()
    log = []
    with Rec(log, "m") as o.name:
        pass
    return o.name, log


def with_try_return_except_then_code(k):
    # ``with: try: return ... except: ...`` and code after the with: the clause goes on
    # with the with's exit still on the stack (the returning body took it along)
    log = []
    with Rec(log, "a"):
        try:
            return risky(k), log
        except ValueError:
            log.append("caught")
    log.append("after")
    return None, log


def with_nested_in_try(k):
    log = []
    try:
        with Rec(log, "a"):
            try:
                risky(k)
            finally:
                log.append("inner finally")
    except (ValueError, Boom):
        log.append("caught")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log


def with_suppress_contextlib(k):
    import contextlib
    r = "start"
    with contextlib.suppress(ValueError, KeyError):
        r = risky(k)
    return r


def with_open_file(k):
    import io
    buf = io.StringIO("line1\nline2\nline3\n")
    with buf as f:
        lines = [l.strip() for l in f if l.strip().endswith(str(k))]
    return lines, buf.closed


# ----------------------------------- except clauses that all raise, then code
# (3.8/3.9 write each clause's exit jump even after its raise: it goes where
# the try body goes, so the code after is not an else clause)

def except_raises_then_loop(m, k):
    out = []
    try:
        p = m[k]
    except KeyError:
        raise ValueError(k)
    for x in p:
        out.append(x)
    return out


def except_as_raises_then_code(m, k):
    try:
        p = m[k]
    except KeyError as e:
        raise ValueError(e)
    except TypeError:
        raise
    p = p * 2
    return p


def except_raises_with_else(m, k):
    try:
        p = m[k]
    except KeyError:
        raise ValueError(k)
    else:
        p = [p]
    p.append(k)
    return p


# ----------------------------------------------- branches in a finally body
# (3.10 copies the code after the statement into each branch of the finally
# body's inlined copy; the handler's copy re-raises at each branch's end)

def finally_with_if(x):
    log = []
    try:
        log.append(x)
    finally:
        if x > 1:
            log.append("big")
    return log


def finally_with_if_else_then_code(x):
    log = []
    try:
        log.append(10 // x)
    finally:
        if x > 1:
            log.append("big")
        else:
            log.append("small")
    log.append("after")
    return log


# ----------------------------------- except clauses that return, then code
# (the code after the try statement and an else clause lie in the same place;
# only an else clause ending the function leaves a dead ``return None``)

def except_returns_then_code(m, k):
    try:
        p = m[k]
    except (KeyError, TypeError):
        return -1
    if p is None:
        return 0
    p = p + 1
    return p


def except_returns_else_ends_function(m, k):
    try:
        m[k]
    except KeyError:
        return False
    else:
        return True

def with_elif_while_not_loops(block, timeout):
    # ``while not c`` loops in the branches of an elif chain inside a with
    # (queue.Queue.get's shape): the loop test jumps back when false
    log = []
    items = []
    with Rec(log, "q"):
        if not block:
            if not items:
                raise Boom
        elif timeout is None:
            while not len(items) > 2:
                items.append(len(items))
        elif timeout < 0:
            raise ValueError("negative")
        else:
            end = timeout * 2
            while not items:
                left = end - len(log)
                if left <= 0:
                    raise Other
                items.append(left)
        item = items.pop()
        log.append(item)
        return log, item

# ---------- a finally body whose branch returns is not run again after the
# try (issue 11: the inlined copy lacks the exceptional copy's POP_EXCEPT)

def finally_if_return_then_code(a):
    log = []
    try:
        x = 1
    finally:
        if a == 5:
            return 4
        log.append(2)
    return log, x


def finally_if_return_after_raising_body(a):
    log = []
    try:
        log.append(1 // a)
    finally:
        if a == 5:
            return 4
        log.append(2)
    log.append(3)
    return log


def finally_break_in_for(a):
    log = []
    for i in range(3):
        try:
            log.append(i)
        finally:
            log.append(9)
            if i == a:
                break
    return log


def finally_return_in_while(a):
    log = []
    while a < 5:
        a += 1
        try:
            log.append(a)
        finally:
            log.append(9)
            if a == 3:
                return log
    return log


def finally_if_elif_return(a):
    log = []
    try:
        log.append(1)
    finally:
        if a == 5:
            return log.append(7)
        elif a == 3:
            log.append(6)
        else:
            log.append(2)
    return log


# a finally body that returns, inlined on a ``return``'s path: the pending
# value is dropped before its own return (its finally ran twice before)

def return_through_finally_that_returns_const(a):
    log = []
    try:
        return 1 // a, log
    finally:
        if a == 5:
            return 4
        log.append(2)


def return_through_finally_that_returns_name(a):
    log = []
    try:
        return 1 // a, log
    finally:
        if a == 5:
            return a
        log.append(2)


def with_return_in_try(kind):
    # the RETURN_VALUE lies past the try's exception table (3.11+): still the with
    # body's return; when __exit__ swallows the error, the function returns None
    log = []
    try:
        with Rec(log, "a", suppress=(ValueError,)):
            return risky(kind), log
    except Exception as e:
        return type(e).__name__, log


def return_reading_clause_name(kind):
    # the returned value reads the clause's name, which the compiler's cleanup clears
    # right after computing it: written as computed, not through a temporary
    log = []
    try:
        got = risky(kind)
    except (ValueError, KeyError) as e:
        return log.append(type(e).__name__) or str(e), log
    else:
        log.append(got)
    return log


CASES = [
    (return_reading_clause_name, KINDS),
    (with_return_in_try, KINDS),
    (try_except_bare, KINDS),
    (try_except_typed, KINDS),
    (try_except_multiple, KINDS),
    (try_except_as_name_cleared, KINDS),
    (try_except_else, KINDS),
    (try_finally, KINDS),
    (try_except_finally, KINDS),
    (try_except_else_finally, KINDS),
    (try_return_in_try, KINDS),
    (try_return_in_finally_overrides, KINDS),
    (try_return_in_except_with_finally, KINDS),
    (try_return_in_else, KINDS),
    (try_in_loop_break_continue, [(n,) for n in range(7)]),
    (try_finally_break_in_loop, [(0,), (1,), (3,), (5,)]),
    (try_break_in_except_with_finally, [(0,), (2,), (9,)]),
    (try_elif_in_nested_finally, KINDS + [(9,)]),
    (try_finally_returns_in_branches, KINDS),
    (try_return_in_nested_try_in_except, KINDS + [(6,), (7,)]),
    (try_break_in_nested_if_in_while, KINDS + [(7,), (9,), (12,)]),
    (try_finally_in_elif_branch, KINDS + [(6,)]),
    (try_break_in_except_while_true, KINDS + [(19,), (21,)]),
    (try_test_not_merged_with_outer_if, KINDS + [(7,)]),
    (try_return_retry_loop, KINDS),
    (try_break_in_finally, [(0,), (1,), (2,), (4,), (9,)]),
    (try_continue_in_except, KINDS),
    (try_nested, KINDS),
    (try_after_early_return, KINDS),
    (try_after_empty_branch, KINDS),
    (with_return_in_try_finally, KINDS),
    (try_in_except_handler, KINDS),
    (try_in_else_and_finally, KINDS),
    (try_reraise, KINDS),
    (try_except_star_free_raise_new, KINDS),
    (try_cause_inspection, KINDS),
    (try_context_chaining, KINDS),
    (try_except_exception_group_free, KINDS),
    (try_finally_returns_value_modified, KINDS),
    (try_while_else_in_try, [(0,), (2,), (3,), (5,)]),
    (try_empty_bodies, KINDS),
    (try_except_in_comprehension_func, [(0,), (1,), (3,)]),
    (try_finally_with_del, [(0,), (1,)]),
    (try_exc_info_in_handler, KINDS),
    (except_falls_into_copied_return, [({1: 2}, 1), ({}, 1), (None, 1)]),
    (except_pass_else_returns_then_code, [({1: 2}, 1), ({}, 1), (None, 1)]),
    (except_as_clauses_fall_into_copied_return, [({1: 2}, 1), ({}, 1), (None, 1)]),
    (except_branches_fall_into_copied_return, [([1], 0, []), (1, 0, []), ([], 1, []), ([], 0, []),
                                               ({}, 0, [])]),
    (raise_simple, [(0,), (2,), (3,)]),
    (raise_class_not_instance, [(0,), (1,)]),
    (raise_from_exc, [(0,), (1,), (2,), (-3,)]),
    (raise_in_nested_function, [(0,), (3,), (5,)]),
    (raise_custom_with_attrs, [(0,), (1,), (7,)]),
    (raise_bad_object, [(0,), (1,)]),
    (assert_no_msg, [(0,), (2,), (3,)]),
    (assert_with_msg, [(0,), (2,), (3,)]),
    (assert_complex_condition, [(0,), (4,), (9,), (10,), (-1,)]),
    (assert_catch_message, [(0,), (1,)]),
    (with_simple, [(0,)]),
    (with_as, [(0,)]),
    (with_several_items, [(0,)]),
    (with_exception_propagates, KINDS),
    (with_suppressing, KINDS),
    (with_return_inside, [(0,), (1,)]),
    (with_if_returns_value, [(0,), (1,), (3,)]),
    (with_in_loop_break_continue, [(0,), (1,), (2,), (9,)]),
    (with_as_tuple_target, [(1,), (3,)]),
    (with_as_attribute_target, [(0,)]),
    (with_nested_in_try, KINDS),
    (with_try_return_except_then_code, KINDS),
    (with_suppress_contextlib, KINDS),
    (with_open_file, [(1,), (3,), (9,)]),
    (except_raises_then_loop, [({1: [1, 2]}, 1), ({}, 1), ([[3]], 0), (None, 0)]),
    (except_as_raises_then_code, [({1: 2}, 1), ({}, 1), (None, 0), ([3], 0)]),
    (except_raises_with_else, [({1: 2}, 1), ({}, 1), (None, 0)]),
    (finally_with_if, [(0,), (1,), (5,)]),
    (finally_with_if_else_then_code, [(0,), (1,), (5,)]),
    (except_returns_then_code, [({1: 2}, 1), ({1: None}, 1), ({}, 1), (None, 0), ({1: "x"}, 1)]),
    (except_returns_else_ends_function, [({1: 2}, 1), ({}, 1), (None, 0)]),
    (with_elif_while_not_loops, [(0, 2), (1, None), (1, -1), (1, 0), (1, 3), (1, 30)]),
    (finally_if_return_then_code, [(5,), (3,), (0,)]),
    (finally_if_return_after_raising_body, [(5,), (3,), (0,)]),
    (finally_break_in_for, [(0,), (1,), (2,), (5,)]),
    (finally_return_in_while, [(0,), (2,), (3,), (5,)]),
    (finally_if_elif_return, [(5,), (3,), (0,)]),
    (return_through_finally_that_returns_const, [(5,), (3,), (0,), (1,)]),
    (return_through_finally_that_returns_name, [(5,), (3,), (0,), (1,)]),
]


# a try/except inside a finally body: its clause that matches nothing
# re-raises (RERAISE 0) before the finally body's own end; taken for that
# end, the inlined copy was not found (3.11+: "finally body's inlined copy
# not found")
def finally_holds_try_except(a, log):
    try:
        log.append(a)
    except ZeroDivisionError:
        log.append(0)
    finally:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            log.append(('z', type(e).__name__))
        log.append(2)
    return log


CASES += [
    (finally_holds_try_except, [(0, []), (5, []), ('x', [])]),
]


# a try/finally inside a finally body, its own finally body an if: 3.12+
# copies the outer body's closing re-raise into both branches of the if,
# so the inner inlined copy ends in two places that are one ("finally
# body's inlined copy not found", 3.11-3.13)
def finally_holds_try_finally_with_if(a, log):
    try:
        log.append(a)
    finally:
        try:
            log.append(10 // a)
        finally:
            if log[-1] == 2:
                log.append(3)
    return log


CASES += [
    (finally_holds_try_finally_with_if, [(0, []), (5, []), (4, []), ('x', [])]),
]


# a while loop as a finally body: 3.12+ copies the re-raise that ends the
# body into both exits of the loop (its entry test and its bottom test),
# which are one place ("finally body re-raises where no branch ends")
def finally_body_while_loop(a, log):
    n = a
    try:
        log.append(10 // a)
    finally:
        while n < 4:
            n += 1
            log.append(n)
    return log


CASES += [
    (finally_body_while_loop, [(0, []), (2, []), (5, [])]),
]


# 3.12+ copies the re-raise that ends a finally body into every branch that
# reaches it: here into each false exit of the loop's ``and`` (entry and
# bottom tests), into each way out of an ``or`` whose second operand is a
# chained comparison (its cleanup has its own copy), and into each exit of a
# loop whose test holds an and/or as a value ("finally body re-raises where
# no branch ends")
def finally_while_and_test(a, b, log):
    n = a
    try:
        log.append(10 // a)
    finally:
        while n < 4 and b:
            n += 1
            log.append(n)
    return log


def finally_while_test_with_or_operand(a, b, log):
    n = a
    try:
        log.append(10 // a)
    finally:
        while n < 4 and 5 == (log.append(n) or b):
            n += 1
    return log


def finally_if_or_chain_returns(a, b, c, log):
    try:
        log.append(10 // a)
    finally:
        if a == 1 or b <= c >= 3:
            log.append(b)
            return


CASES += [
    (finally_while_and_test, [(0, True, []), (2, True, []), (2, False, []), (5, 1, [])]),
    (finally_while_test_with_or_operand, [(0, 5, []), (2, 5, []), (2, 4, []), (5, 5, [])]),
    (finally_if_or_chain_returns, [(0, 1, 3, []), (1, 9, 0, []), (2, 1, 3, []), (2, 1, 2, []), (0, 5, 1, [])]),
]


# ``return`` from a try statement inside an except clause, through an
# enclosing finally: the return follows the finally's inlined copy, outside
# every protected range ("try/else ends in an unexpected place", 3.11-3.13)
def except_clause_try_returns_value_through_finally(a, b, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        try:
            log.append(b + 1)
            return 5
        except TypeError:
            pass
    finally:
        log.append('f')
    return log


CASES += [
    (except_clause_try_returns_value_through_finally, [(0, 1, []), (0, 'x', []), (2, 1, [])]),
]


# ``return value`` in the else clause of a try statement that a try/finally
# holds, inside an except clause: the return follows the finally's inlined
# copy, outside the else clause's range ("try/else ends in an unexpected
# place", 3.11-3.13)
def except_clause_try_else_returns_value_through_finally(a, b, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        try:
            try:
                log.append(b + 1)
            except TypeError:
                log.append('t')
            else:
                return log
        finally:
            log.append('f')
    log.append('after')
    return log


CASES += [
    (except_clause_try_else_returns_value_through_finally, [(0, 1, []), (0, 'x', []), (2, 1, [])]),
]


# a bare ``return`` from a with statement inside a for loop inside a
# try/finally: the way out calls __exit__, drops the loop's iterator, then
# leaves the try through the finally's inlined copy (3.9, 3.10: "with
# block's exits continue differently")
def for_with_return_in_try_finally(xs, log):
    try:
        for x in xs:
            with Rec(log, "w", (ZeroDivisionError,)):
                log.append(10 // x)
                return
    finally:
        log.append("f")
    log.append("after")
    return log


CASES += [
    (for_with_return_in_try_finally, [([], []), ([0], []), ([0, 2], []), ([5], []), (['x'], [])]),
]


# ``return value`` in the body of a try/except whose enclosing finally
# returns: the value is computed, then dropped by the finally's copy, which
# returns its own (3.8-3.10: "try body leaves values on the stack")
def try_except_return_under_returning_finally(a, log):
    try:
        return log.append(10 // a)
    except ValueError as e:
        log.append('v')
    finally:
        log.append('f')
        return log


CASES += [
    (try_except_return_under_returning_finally, [(0, []), (2, []), ('x', [])]),
]


# a try/except holding a comprehension, as a finally body: 3.12+ moves the
# comprehension's cleanup past the inlined copy's end (matched by flow), and
# copies the body's closing re-raise after the except clause's POP_EXCEPT,
# where the inlined copy goes on ("finally body's inlined copy not found")
def finally_holds_try_except_with_comprehension(a, log):
    try:
        log.append(1)
    finally:
        try:
            log.append([10 // x for x in a])
        except ZeroDivisionError:
            log.append('z')
    return log


CASES += [
    (finally_holds_try_except_with_comprehension, [([1, 2], []), ([0], []), (['x'], [])]),
]


# a finally body with an inlined comprehension, in a loop: the exceptional
# copy jumps over the comprehension's cleanup, which was taken for a ``break``
# out of the loop ("stack underflow", 3.12+; fuzz 3200:324)
def finally_comprehension_in_loop(a, b, log):
    n = [0]
    for i in range(a):
        try:
            log.append(10 // (i - b))
        finally:
            n += [x * 2 for x in [i]]
    return n, log


CASES += [
    (finally_comprehension_in_loop, [(0, 0, []), (3, 5, []), (3, 1, []), (2, 0, [])]),
]


# ``return value`` from a try/except/finally inside an except clause: the
# return follows the finally's inlined copy and the clause's POP_EXCEPT,
# outside both protected ranges ("stack underflow", 3.12+; fuzz 3200:878)
def clause_try_except_finally_returns_value(a, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        try:
            return {a + 1}
        except Exception:
            pass
        finally:
            log.append(2)
    return log


CASES += [
    (clause_try_except_finally_returns_value, [(0, []), (1, [])]),
]


# a finally body in a loop whose if tests a chained comparison: the
# exceptional copy's jump over the chain's cleanup was taken for a ``break``
# out of the loop ("stack underflow", 3.12+; fuzz 3200:1381)
def finally_chain_return_in_loop(a, b, c, log):
    n = 0
    while n < a:
        n += 1
        try:
            log.append(10 // (n - c))
        finally:
            if 4 >= b != n:
                return log
    return n, log


CASES += [
    (finally_chain_return_in_loop, [(3, 4, 0, []), (3, 4, 2, []), (3, 1, 2, []), (3, 5, 1, []), (2, 4, 1, [])]),
]


# an augmented assignment of a conditional expression in a finally body: the
# exceptional copy's tail (the operator, the store, the re-raise) is copied
# into both branches ("InPlace used as a value", 3.12+; fuzz 3200:267)
def finally_augmented_conditional(a, b, log):
    n = [10]
    try:
        log.append(n)
        log.append(10 // a)
    finally:
        n += [3] if a else b
    return log


CASES += [
    (finally_augmented_conditional, [(0, [1], []), (1, [2], []), (2, (5,), [])]),
]


# ``return value`` through a finally body that holds a conditional
# expression: the inlined copy returns from each of its branches (3.12+:
# "conditional expression with unbalanced branches", or text that could not
# be proved; fuzz 3200:329)
def return_through_finally_with_conditional(a, b, log):
    try:
        if a:
            return 5 | b
    finally:
        log.append(1 if b else 2)
    return log


def return_value_through_finally_with_conditional(a, b, log):
    try:
        return 5 | a
    finally:
        x = 1 if b else 2
        log.append(x)


CASES += [
    (return_through_finally_with_conditional, [(0, 1, []), (1, 0, []), (2, 3, [])]),
    (return_value_through_finally_with_conditional, [(0, 1, []), (1, 0, []), ('x', 3, [])]),
]


# a try/finally inside an except clause, whose finally body tests a chained
# comparison: the clause's way out (POP_EXCEPT, the return) is copied into each
# branch of the finally's inlined copies (3.12+: "conditional expression with
# unbalanced branches"; fuzz 3200:1309)
def clause_finally_chain_after_return(a, b, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        try:
            if b:
                return b
        finally:
            if 4 >= b >= 2:
                log.append(b)
    return log


CASES += [
    (clause_finally_chain_after_return, [(0, 3, []), (0, 0, []), (0, 5, []), (1, 3, [])]),
]


# ``return x if c else y`` in a try whose finally body holds a conditional
# expression: the walk of the fall-through arm went on into the inlined copy
# of the finally and returned, the other arm stopped where they meet (3.12+:
# "conditional expression with unbalanced branches"; fuzz 3200:175)
def return_conditional_through_finally_conditional(a, b, c, log):
    try:
        return len(b) if a else 0
    finally:
        log.append(1 if c else 0)


CASES += [
    (return_conditional_through_finally_conditional,
     [(0, [1], 0, []), (1, [1, 2], 1, []), (1, 5, 0, []), (0, 5, 1, [])]),
]


# site.execsitecustomize (stdlib, 3.8): ``if c: pass`` / ``else: raise`` in ``except E as
# e``; the body's jump runs into the name's cleanup, whose BEGIN_FINALLY pushes a marker
# that was taken for a conditional expression's value ("unbalanced branches", refused)
def pass_or_reraise_in_named_clause(a, log):
    try:
        try:
            log.append(10 // a)
        except ZeroDivisionError as exc:
            if exc.args:
                pass
            else:
                raise
    except Exception as err:
        log.append(type(err).__name__)
    return log


CASES += [
    (pass_or_reraise_in_named_clause, [(1, []), (0, []), ("x", [])]),
]


# a try/except/else in a try/finally in a loop: the else clause ends in
# ``continue`` (a jump back to the loop's top test through the finally body's
# inlined copy), the except clause falls to the loop's bottom test (3.11+)
def try_else_continues_in_finally_in_loop(a, b, c, log):
    while a < 2:
        a += 1
        try:
            try:
                log.append(b[0])
            except (TypeError, IndexError):
                log.append(-1)
            else:
                if a < b[0] < c:
                    continue
                break
        finally:
            log.append(a)
    return log


CASES += [
    (try_else_continues_in_finally_in_loop,
     [(0, [1], 3, []), (0, [5], 3, []), (0, [], 3, []), (0, None, 3, []), (2, [1], 3, [])]),
]


# the same with break going to the function's end (its ``return None``), the
# except clause's empty: the else clause's continue jumps back to the loop's
# top test, the except clause goes on to the bottom one (3.12+)
def try_else_continues_break_returns(a, b, c, log):
    while a < 1:
        a += 1
        try:
            try:
                log.append(1)
            except AttributeError:
                pass
            else:
                if a < b < c:
                    continue
                break
        finally:
            log.append(2)


CASES += [
    (try_else_continues_break_returns, [(0, 1, 3, []), (0, 0, 3, []), (-1, 0, 3, []), (0, None, 3, None)]),
]


# a try/finally body whose ``while True`` never loops (its break goes to the
# finally body's inlined copy, which ends in a jump to the code after the try
# statement): the body ends where that jump goes (3.11+)
def finally_copy_ends_in_jump(a, b, log):
    for i in a:
        try:
            while True:
                b += 1
                if b > 3:
                    break
                return 0
        finally:
            log.append(i)
        log.append(b)
    return log


CASES += [
    (finally_copy_ends_in_jump, [([1, 2], 0, []), ([1, 2, 3], 3, []), ([], 0, []), ([1], None, [])]),
]


# a loop that ends a finally body and is left only by ``break``: the break
# goes straight to the exceptional copy's re-raise (3.10+ puts no jump there)
def finally_ends_in_loop_left_by_break(a, log):
    try:
        log.append(a[0])
    finally:
        n = 0
        while True:
            n += 1
            log.append(n)
            if n > 1:
                break
    return log


def finally_ends_in_for_left_by_break(a, log):
    try:
        log.append(a[0])
    finally:
        for x in a:
            if x > 1:
                break
            log.append(x)
    return log


CASES += [
    (finally_ends_in_loop_left_by_break, [([1], []), ([], []), (None, [])]),
    (finally_ends_in_for_left_by_break, [([1, 2, 3], []), ([], []), ([0, 1], []), ([5], [])]),
]
