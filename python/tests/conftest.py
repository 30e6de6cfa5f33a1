"""Fixtures of the icore Python suite. Paths come from the environment (run.sh sets them):
ICORE_BUILD_DIR (a Release build of the repository, default <repo>/build: the `icore` CLI in
tools/ and the bundled example in example/), ICORE_EXAMPLE_DIR (default <build>/example) and
IC_SHARED_DIR (default <repo>/../shared). A missing one fails the tests, never skips them."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("ICORE_BUILD_DIR", REPO / "build"))
EXAMPLE = pathlib.Path(os.environ.get("ICORE_EXAMPLE_DIR", BUILD / "example"))
SHARED = pathlib.Path(os.environ.get("IC_SHARED_DIR", REPO.parent / "shared"))
DATA = REPO / "tests" / "data"


def need(path):
    assert path.exists(), "missing %s (build the repository first: ./run.sh example)" % path
    return path


@pytest.fixture(scope="session")
def cli():
    return need(BUILD / "tools" / "icore")


@pytest.fixture(scope="session")
def example():
    """(model path, the example input)"""
    return need(EXAMPLE / "mlp.pdmodel"), np.load(need(EXAMPLE / "x.npy"))


def run_cli(cli, args, out_dir):
    """`icore run ARGS --out OUT_DIR`; returns {fetch file stem: array}."""
    r = subprocess.run([str(cli), "run", *map(str, args), "--out", str(out_dir)],
                       capture_output=True, text=True)
    assert r.returncode == 0, "icore run failed: %s%s" % (r.stdout, r.stderr)
    return {p.stem: np.load(p) for p in pathlib.Path(out_dir).glob("*.npy")}
