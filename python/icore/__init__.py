"""icore: run PaddlePaddle programs (ProgramDesc .pdmodel, __model__ directories, PIR .json)
with icore's C executor, shaped like Paddle's static API and paddle.inference.

    import icore, numpy as np
    prog, params = icore.load_inference_model("model.pdmodel")
    exe = icore.Executor(place="cpu", threads=2)
    out, = exe.run(prog, feed={"x": x}, fetch_list=prog.fetch_target_names, scope=params)

Feeds that are C-contiguous, aligned arrays of a supported dtype are run in place (zero copy;
the array is held until the run is over, never written); others are copied once. Fetched
arrays view the executor's output tensors without a copy and stay valid after the executor,
program and scope are gone. Also: training (exe.run(startup, scope=s), then the main program
in a loop; save/load in Paddle's formats), icore.inspect / Executor.inspect (the plan as
Python objects), Executor.bench (latency statistics, a Chrome trace with profile=True). Errors raise icore.Error (a RuntimeError) carrying
icore's message; runs release the GIL, so Python threads can run executors in parallel.
"""
from collections import namedtuple as _namedtuple
from dataclasses import dataclass as _dataclass, field as _field
import statistics as _statistics
import time as _time
from typing import Optional as _Optional

import numpy as _np

from ._icore import (Error, Program, Scope, load_params, program_from_bytes,  # noqa: F401
                     random_params, save_params, __version__)
from . import _icore

__all__ = ["Error", "Executor", "Program", "Scope", "LoDTensor", "load_inference_model",
           "load_program", "load_params", "save_params", "save", "load", "random_params",
           "program_from_bytes", "Config", "Predictor", "create_predictor", "inspect", "Plan",
           "Instruction", "Variable", "SubPlan", "Edge", "BenchResult", "__version__"]


class LoDTensor(_namedtuple("LoDTensor", ["array", "lod"])):
    """An array with Paddle's level-of-detail offsets, e.g. LoDTensor(words, [[0, 3, 7]]).
    A feed value may also be a plain (array, lod) tuple."""
    __slots__ = ()


# ---------------------------------------------------------------------------------------
# Plans as Python objects (icore.inspect, Executor.inspect): ic_plan_desc of the C API
# ---------------------------------------------------------------------------------------
_EDGE_BITS = ((1, "data"), (2, "implicit"), (4, "stream"))


def _edge_kind(bits):
    return "+".join(n for b, n in _EDGE_BITS if bits & b) or "none"


@_dataclass(frozen=True)
class Edge:
    """src must finish before dst starts; kind is "data", "implicit" (program order kept for
    random or stateful ops), "stream" (device stream order) or a "+" combination."""
    src: int
    dst: int
    kind: str


@_dataclass(frozen=True)
class Variable:
    """A variable of a plan: kind is "temp", "param", "external" (read before written),
    "holder" (feed/fetch list) or "cached"; first_write and last_use are instruction
    indexes (-1: none), last_use being where GC frees it; dtype, shape and layout are set
    when the plan comes from a run."""
    index: int
    name: str
    kind: str
    first_write: int
    last_use: int
    n_uses: int
    kept: bool
    on_device: bool
    dtype: _Optional[str] = None
    shape: _Optional[tuple] = None
    layout: _Optional[str] = None


@_dataclass(frozen=True)
class Instruction:
    """One op of a plan: its variables by name, its DAG neighbours (block 0: successors and
    the count of predecessors), the variables it releases (last use), where it runs
    ("host", "device", "h2d", "d2h"), its stream (-1: host), and a control-flow op's
    sub-plan."""
    index: int
    op_type: str
    op_block: int
    op_index: int
    inputs: list
    outputs: list
    n_preds: int
    successors: list
    successor_kinds: list
    releases: list
    priority: int
    where: str
    stream: int
    records_event: bool
    waits_on: list
    sub: "_Optional[SubPlan]" = None


@_dataclass(frozen=True)
class SubPlan:
    """A while / conditional_block's sub-block: instructions in program order; variables by
    name, with outer[name] the index in the parent's variables (None: the block's own)."""
    block: int
    instructions: list
    variables: list
    outer: dict


@_dataclass(frozen=True)
class Plan:
    """A program as the compiled executor analyzed it."""
    instructions: list
    variables: list
    edges: list
    roots: list
    edges_before_pruning: int
    n_edges: int
    implicit_edges: int
    critical_path: int
    max_width: int
    joins: int  # concats whose inputs their producers write in place
    analysis_ms: float
    place: str
    n_streams: int
    n_events: int
    ran: bool
    peak_bytes: int
    _by_name: dict = _field(default=None, repr=False, compare=False)

    def var(self, name):
        """The Variable called name."""
        return self._by_name[name]

    def lifetimes(self):
        """{variable name: (first write, last use)} for the variables instructions use."""
        return {v.name: (v.first_write, v.last_use) for v in self.variables
                if v.first_write >= 0 or v.last_use >= 0}

    def streams(self):
        """{stream: [instruction indexes in program order]} of a device plan."""
        out = {}
        for i in self.instructions:
            if i.stream >= 0:
                out.setdefault(i.stream, []).append(i.index)
        return out

    def op_types(self):
        return [i.op_type for i in self.instructions]


def _instr(k, d, names):
    sub = d["sub"]
    if sub is not None:
        sn = sub["var_names"]
        sub = SubPlan(block=sub["block"],
                      instructions=[_instr(j, x, sn) for j, x in enumerate(sub["instructions"])],
                      variables=list(sn), outer=dict(zip(sn, sub["var_outer"])))
    return Instruction(index=k, op_type=d["op_type"], op_block=d["op_block"],
                       op_index=d["op_index"], inputs=[names[v] for v in d["inputs"]],
                       outputs=[names[v] for v in d["outputs"]], n_preds=d["n_preds"],
                       successors=d["succ"], successor_kinds=[_edge_kind(b) for b in d["succ_kind"]],
                       releases=[names[v] for v in d["releases"]], priority=d["priority"],
                       where=d["where"], stream=d["stream"], records_event=d["records"],
                       waits_on=d["waits"], sub=sub)


def _plan(d):
    variables = [Variable(index=k, **v) for k, v in enumerate(d["variables"])]
    names = [v.name for v in variables]
    instrs = [_instr(k, x, names) for k, x in enumerate(d["instructions"])]
    edges = [Edge(i.index, s, kd) for i in instrs for s, kd in zip(i.successors, i.successor_kinds)]
    return Plan(instructions=instrs, variables=variables, edges=edges, roots=d["roots"],
                edges_before_pruning=d["edges_before_pruning"], n_edges=d["edges"],
                implicit_edges=d["implicit_edges"], critical_path=d["critical_path"],
                max_width=d["max_width"], joins=d["joins"], analysis_ms=d["analysis_ms"],
                place=d["place"],
                n_streams=d["n_streams"], n_events=d["n_events"], ran=d["ran"],
                peak_bytes=d["peak_bytes"], _by_name={v.name: v for v in variables})


def inspect(program, feed=None, fetch_list=None, scope=None, place="cpu", streams="per-operator",
            fuse=True, gc=True, sequential=False, prune=False):
    """The plan of program as icore's compiled executor builds it (`icore inspect`). Without
    feed: analysis only, for the program's feed targets (or the names in feed_names order
    of a list). With feed (name -> array): one run on a compiled, serial executor, so that
    variables carry their dtype and shape and peak_bytes is that run's."""
    fetch = None if fetch_list is None else [f if isinstance(f, str) else f.name for f in fetch_list]
    if feed is None or isinstance(feed, (list, tuple)):
        return _plan(_icore._describe(program, None if feed is None else list(feed), fetch,
                                      place=place, streams=streams, fuse=fuse, gc=gc,
                                      sequential=sequential, prune=prune))
    exe = Executor(place=place, mode="compiled", serial=True, fuse=fuse, gc=gc,
                   sequential=sequential, prune=prune)
    return exe.inspect(program, feed=feed, fetch_list=fetch, scope=scope)


# ---------------------------------------------------------------------------------------
# The executor: the C type plus inspect and bench
# ---------------------------------------------------------------------------------------
@_dataclass(frozen=True)
class BenchResult:
    """Latencies of Executor.bench in milliseconds: every timed run (times_ms, in order),
    their median, p10, p90, mean, min and max, and the first (untimed-warm-up) run."""
    runs: int
    warmup: int
    first_ms: float
    times_ms: list
    median_ms: float
    p10_ms: float
    p90_ms: float
    mean_ms: float
    min_ms: float
    max_ms: float


def _quantile(sorted_v, q):
    # the same nearest-rank rule as `icore bench` (tools/cmd_bench.c)
    i = int(q * (len(sorted_v) - 1) + 0.5)
    return sorted_v[min(i, len(sorted_v) - 1)]


class Executor(_icore.Executor):
    __doc__ = _icore.Executor.__doc__
    __slots__ = ()

    def inspect(self, program, feed=None, fetch_list=None, scope=None):
        """Run program once with this executor (compiled mode) and return that run's Plan,
        variables with their dtype and shape."""
        self.run(program, feed=feed, fetch_list=fetch_list, scope=scope)
        return _plan(self._describe_last())

    def bench(self, program, feed=None, fetch_list=None, scope=None, runs=20, warmup=3,
              trace=None):
        """Time program: one first run, `warmup` untimed runs, then `runs` timed runs of
        exe.run (wall clock, each including the Python call). trace=PATH writes the last
        timed run's per-instruction profile as a Chrome trace (the executor needs
        profile=True)."""
        if runs < 1 or warmup < 0:
            raise ValueError("bench: runs must be >= 1 and warmup >= 0")
        t = _time.perf_counter()
        self.run(program, feed=feed, fetch_list=fetch_list, scope=scope)
        first = (_time.perf_counter() - t) * 1e3
        for _ in range(warmup):
            self.run(program, feed=feed, fetch_list=fetch_list, scope=scope)
        times = []
        for _ in range(runs):
            t = _time.perf_counter()
            self.run(program, feed=feed, fetch_list=fetch_list, scope=scope)
            times.append((_time.perf_counter() - t) * 1e3)
        if trace is not None:
            self.write_profile(str(trace))
        s = sorted(times)
        return BenchResult(runs=runs, warmup=warmup, first_ms=first, times_ms=times,
                           median_ms=_quantile(s, 0.5), p10_ms=_quantile(s, 0.1),
                           p90_ms=_quantile(s, 0.9), mean_ms=_statistics.fmean(times),
                           min_ms=s[0], max_ms=s[-1])


def load_inference_model(path, params_path=None, executor=None):
    """Load a model: X.pdmodel (parameters from X.pdiparams beside it), X.json (Paddle 3's
    PIR program), or a directory holding __model__ plus __params__ or one file per variable.
    Returns (program, params); params is the Scope holding the parameters. `executor` is
    accepted for Paddle compatibility and ignored."""
    return _icore.load_model(str(path), None if params_path is None else str(params_path))


def load_program(path):
    """Load a program alone (no parameters): returns it."""
    return _icore.load_model(str(path), None, True)[0]


def save(program, scope, path, format="combined"):
    """Write the program's persistable variables from scope in Paddle's format ("combined":
    one .pdiparams file, "separate": a directory with one file per variable)."""
    save_params(program, scope, str(path), format)


def load(program, path, scope=None, format="auto"):
    """Read the program's persistable variables (program.param_names) from path, as save
    writes them ("combined" file, "separate" directory, or "auto" by what path is), into scope
    (replacing what it holds under those names) or a new Scope; returns the scope."""
    return load_params(program, str(path), format, scope)


# ---------------------------------------------------------------------------------------
# paddle.inference-shaped predictor
# ---------------------------------------------------------------------------------------
class Config:
    """Config(model_path, params_path=None): what create_predictor loads and how it runs."""

    def __init__(self, model_path=None, params_path=None):
        self.model_path = model_path
        self.params_path = params_path
        self.options = {}

    def set_model(self, model_path, params_path=None):
        self.model_path, self.params_path = model_path, params_path

    def set_cpu_math_library_num_threads(self, n):
        self.options["threads"] = int(n)

    def cpu_math_library_num_threads(self):
        return self.options.get("threads", 0)

    def switch_ir_optim(self, on=True):
        self.options["fuse"] = bool(on)

    def disable_gpu(self):
        self.options.pop("place", None)

    def enable_use_gpu(self, memory_pool_init_size_mb=0, device_id=0):
        self.options["place"] = "cuda:%d" % device_id

    def disable_glog_info(self):
        pass

    def enable_memory_optim(self, on=True):
        self.options["gc"] = bool(on)

    def set_option(self, **options):
        """Any icore.Executor keyword (mode, threads, gc, fuse, seed, check_nan_inf, ...)."""
        self.options.update(options)


class _Handle:
    """An input or output of a Predictor (paddle.inference.Tensor's methods)."""

    def __init__(self, pred, name):
        self._pred, self._name = pred, name

    def name(self):
        return self._name

    def copy_from_cpu(self, array):
        lod = self._pred._lods.get(self._name)
        # Paddle copies here: later writes to `array` do not reach the run
        a = _np.array(array, order="C", copy=True)
        shape = self._pred._shapes.get(self._name)
        if shape is not None and int(_np.prod(shape)) == a.size:
            a = a.reshape(shape)
        self._pred._inputs[self._name] = a if lod is None else (a, lod)

    def reshape(self, shape):
        self._pred._shapes[self._name] = tuple(int(d) for d in shape)
        a = self._pred._inputs.get(self._name)
        if a is not None and not isinstance(a, tuple) and a.size == int(_np.prod(shape)):
            self._pred._inputs[self._name] = a.reshape(shape)

    def set_lod(self, lod):
        self._pred._lods[self._name] = [list(level) for level in lod]
        a = self._pred._inputs.get(self._name)
        if a is not None:
            a = a[0] if isinstance(a, tuple) else a
            self._pred._inputs[self._name] = (a, self._pred._lods[self._name])

    def copy_to_cpu(self):
        out = self._pred._outputs.get(self._name)
        if out is None:
            a = self._pred._inputs.get(self._name)
            if a is None:
                raise Error("'%s' has no value yet: call Predictor.run() first" % self._name)
            return _np.array(a[0] if isinstance(a, tuple) else a)
        return out[0].copy()  # a fresh array per call, as Paddle's

    def lod(self):
        out = self._pred._outputs.get(self._name)
        if out is None:
            return self._pred._lods.get(self._name, [])
        return out[1]

    def shape(self):
        out = self._pred._outputs.get(self._name)
        if out is not None:
            return list(out[0].shape)
        a = self._pred._inputs.get(self._name)
        if a is not None:
            return list((a[0] if isinstance(a, tuple) else a).shape)
        return list(self._pred._shapes.get(self._name, ()))


class Predictor:
    """paddle.inference.Predictor on icore: get_input_handle(name).copy_from_cpu(array),
    run(), get_output_handle(name).copy_to_cpu()."""

    def __init__(self, config):
        if config.model_path is None:
            raise ValueError("Config has no model path")
        self._program, self._params = load_inference_model(config.model_path, config.params_path)
        self._exe = Executor(**config.options)
        self._inputs, self._outputs, self._shapes, self._lods = {}, {}, {}, {}

    @property
    def program(self):
        return self._program

    def get_input_names(self):
        return self._program.feed_target_names

    def get_output_names(self):
        return self._program.fetch_target_names

    def get_input_handle(self, name):
        if name not in self._program.feed_target_names:
            raise ValueError("'%s' is not an input of the model (inputs: %s)"
                             % (name, ", ".join(self._program.feed_target_names)))
        return _Handle(self, name)

    def get_output_handle(self, name):
        if name not in self._program.fetch_target_names:
            raise ValueError("'%s' is not an output of the model (outputs: %s)"
                             % (name, ", ".join(self._program.fetch_target_names)))
        return _Handle(self, name)

    def run(self, inputs=None):
        """Run with the inputs copied in (or `inputs`, a list of arrays in input order, as
        Paddle's run(list) takes); returns the outputs as arrays when `inputs` is given."""
        if inputs is not None:
            names = self._program.feed_target_names
            if len(inputs) != len(names):
                raise ValueError("run() got %d inputs, the model has %d (%s)"
                                 % (len(inputs), len(names), ", ".join(names)))
            for n, a in zip(names, inputs):
                self._inputs[n] = a
        fetch = self._program.fetch_target_names
        outs = self._exe.run(self._program, feed=self._inputs, fetch_list=fetch,
                             scope=self._params, return_lod=True)
        self._outputs = dict(zip(fetch, outs))
        if inputs is not None:
            return [o[0] for o in outs]
        return True

    def clear_intermediate_tensor(self):
        pass

    def try_shrink_memory(self):
        pass


def create_predictor(config):
    """paddle.inference.create_predictor: a Predictor for config."""
    return Predictor(config)
