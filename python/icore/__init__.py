"""icore: run PaddlePaddle programs (ProgramDesc .pdmodel, __model__ directories, PIR .json)
with icore's C executor, shaped like Paddle's static API and paddle.inference.

    import icore, numpy as np
    prog, params = icore.load_inference_model("model.pdmodel")
    exe = icore.Executor(place="cpu", threads=2)
    out, = exe.run(prog, feed={"x": x}, fetch_list=prog.fetch_target_names, scope=params)

Fetched arrays view the executor's output tensors without a copy and stay valid after the
executor, program and scope are gone. Errors raise icore.Error (a RuntimeError) carrying
icore's message; runs release the GIL, so Python threads can run executors in parallel.
"""
from collections import namedtuple as _namedtuple

import numpy as _np

from ._icore import (Error, Executor, Program, Scope, load_params, program_from_bytes,  # noqa: F401
                     random_params, save_params, __version__)
from . import _icore

__all__ = ["Error", "Executor", "Program", "Scope", "LoDTensor", "load_inference_model",
           "load_program", "load_params", "save_params", "save", "load", "random_params",
           "program_from_bytes", "Config", "Predictor", "create_predictor", "__version__"]


class LoDTensor(_namedtuple("LoDTensor", ["array", "lod"])):
    """An array with Paddle's level-of-detail offsets, e.g. LoDTensor(words, [[0, 3, 7]]).
    A feed value may also be a plain (array, lod) tuple."""
    __slots__ = ()


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
