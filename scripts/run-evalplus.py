#!/usr/bin/env python3
"""run-evalplus.py: runs evalplus's evaluator (evalplus.evaluate.main) from a source checkout.

Usage: EVALPLUS_SRC=DIR run-evalplus.py --dataset humaneval --samples S.jsonl --output_file OUT.json

For machines without PyPI: evalplus's evaluation needs numpy, tqdm, psutil, termcolor, appdirs
and fire (Debian: python3-numpy, python3-tqdm, python3-psutil, python3-termcolor, python3-appdirs,
python3-fire). The modules it imports at load time but evaluation never calls (`datasets`,
`wget`, `tempdir` and its own `evalplus.codegen`, which imports model clients) are replaced
by stubs before import; a stub that is called raises. Point HUMANEVAL_OVERRIDE_PATH or
MBPP_OVERRIDE_PATH at a dataset file to make evalplus read it instead of downloading one.
evalplus itself is unmodified.
"""
import os
import sys
import tempfile
import types


def stub(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module


def unavailable(*args, **kwargs):
    raise RuntimeError("not available here: give the dataset file with *_OVERRIDE_PATH")


class TempDir(tempfile.TemporaryDirectory):
    def __enter__(self):
        return self.name


def main():
    src = os.environ.get("EVALPLUS_SRC")
    if not src or not os.path.isdir(os.path.join(src, "evalplus")):
        sys.exit("run-evalplus.py: set EVALPLUS_SRC to an evalplus source checkout")
    sys.path.insert(0, src)
    stub("datasets", load_dataset=unavailable)
    stub("wget", download=unavailable)
    stub("tempdir", TempDir=TempDir)
    stub("evalplus.codegen", run_codegen=unavailable)
    from evalplus.evaluate import main as evaluate

    evaluate()


if __name__ == "__main__":
    main()
