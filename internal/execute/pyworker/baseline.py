"""What every process of the sandbox starts from.

Shared by every process; loaded once, in the worker, before the zygote is
forked, so that every process inherits it: the modules candidates commonly
import (PRELOADED), the project's module for `run --spec` (MODULE,
program_globals, which process C calls for each test), and the snapshots
that each test starts from: random's state (RANDOM_STATE) and the builtins
(BUILTINS, restored with restore_builtins; CLEAN_TAG and WORKER_TAG say
whether they were touched since). It holds no request data.
"""

import builtins
import ctypes
import importlib.machinery
import json
import os
import random
import sys

# Modules candidates commonly import, loaded once here so that a forked child
# does not pay for the import again.
import ast, bisect, collections, copy, datetime, decimal, fractions, functools  # noqa: E401
import hashlib, heapq, itertools, math, operator, re, statistics  # noqa: E401
import array, calendar, cmath, numbers, string, textwrap, typing, unicodedata  # noqa: E401

PRELOADED = (ast, bisect, collections, copy, datetime, decimal, fractions, functools,
             hashlib, heapq, itertools, math, operator, re, statistics,
             array, calendar, cmath, numbers, string, textwrap, typing, unicodedata)


# ------------------------------------------------------------ project module
#
# With `ticoder run --spec FILE::NAME` the worker is started with one argument:
# a JSON description of the project's module, {"name": "shop.pricing", "file":
# the module's path, "path": directories that go first on sys.path}. Every
# program is then that module's whole source (the file with the function
# replaced by a candidate) and runs as the module: its globals are a fresh
# module object's, registered in sys.modules under its dotted name, so its
# relative imports work and the project's own modules that import it get the
# program, not the file on disk (which stays untouched, read-only).


def _project_module(argv):
    if len(argv) != 2 or argv[0] != "-c" or not argv[1].startswith("{"):
        return None
    m = json.loads(argv[1])
    if type(m.get("name")) is not str or type(m.get("file")) is not str or type(m.get("path")) is not list:
        raise SystemExit("ticoder: bad module description")
    return m


MODULE = _project_module(sys.argv)
PROGRAM_FILE = "<candidate>" if MODULE is None else MODULE["file"]


def set_path():
    """Puts the project's directories first on sys.path and takes the
    working directory off it. The worker calls it once every module of this
    package is loaded, so that their own imports never see a project's
    files."""
    if MODULE is not None:
        sys.path[:0] = [p for p in MODULE["path"] if type(p) is str and p not in sys.path]
    while "" in sys.path:  # Python < 3.11 has no -P: no working directory on sys.path
        sys.path.remove("")


def program_globals():
    """A program's fresh globals: a plain dict, or the project's module's."""
    if MODULE is None:
        return {}
    name, path = MODULE["name"], MODULE["file"]
    mod = type(sys)(name)
    mod.__file__ = path
    mod.__spec__ = importlib.machinery.ModuleSpec(name, None, origin=path)
    mod.__spec__.has_location = True
    if os.path.basename(path) == "__init__.py":
        mod.__path__ = [os.path.dirname(path)]
        mod.__spec__.submodule_search_locations = mod.__path__
        mod.__package__ = name
    else:
        mod.__package__ = name.rpartition(".")[0]
    sys.modules[name] = mod
    return mod.__dict__


# random's state as every child and every trusted test first sees it.
RANDOM_STATE = random.getstate()
BUILTINS = dict(builtins.__dict__)


def builtins_tag_reader():
    """A function that returns the builtins dict's version tag, which
    CPython changes on every change to a dict, or None where it cannot be
    read (another Python's layout: the probe below fails there, and the
    builtins are then restored before every test). Putting the builtins
    back touches every builtin object, which in a freshly forked process
    copies dozens of pages; the tag says when there is nothing to undo."""
    try:
        d = builtins.__dict__
        used = ctypes.c_ssize_t.from_address(id(d) + 16)  # ma_used, after the object header
        tag = ctypes.c_uint64.from_address(id(d) + 24)  # ma_version_tag
        if used.value != len(d):
            return None
        v0 = tag.value
        d["__ticoder_probe__"] = None
        v1 = tag.value
        del d["__ticoder_probe__"]
        v2 = tag.value
        if v0 == v1 or v1 == v2 or v0 == v2 or used.value != len(d):
            return None
        return lambda: tag.value
    except (AttributeError, TypeError, ValueError, KeyError, OSError):
        return None


BUILTINS_TAG = builtins_tag_reader()


def restore_builtins(clean=None):
    """Gives the builtins back their snapshot (BUILTINS) unless their tag
    is still clean, the one restore_builtins returned last time; returns
    the tag to pass next time."""
    if BUILTINS_TAG is not None and clean is not None and BUILTINS_TAG() == clean:
        return clean
    bdict = builtins.__dict__
    bdict.clear()
    bdict.update(BUILTINS)
    return BUILTINS_TAG() if BUILTINS_TAG is not None else None


CLEAN_TAG = [None]  # the builtins' tag as the zygote leaves them to its children (zygote_main)
WORKER_TAG = [None]  # the builtins' tag after this process last restored them (run_test_code)
