"""Training from Python on Paddle's own training programs (tests/data/train, written by
tools/gen_paddle_train.py; tests/test_train.c runs the same cases from C): the startup program
creates every persistable, then the main program trains on Paddle's batches from Paddle's
initial persistables, and every step's loss and the final persistables match Paddle's within
the case's tolerances (rtol, ptol: test_train.c's). save -> load round-trips bit-exactly in
both of Paddle's layouts."""
import numpy as np
import pytest

import icore
from conftest import DATA

CASES = ["mlp", "attention"]  # Adam; AdamW with clipping, layer_norm, attention


def read_case(name):
    d = DATA / "train" / name
    c = {"dir": d, "feeds": [], "rtol": None, "ptol": None}
    for line in (d / "case.txt").read_text().splitlines():
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] in ("steps", "batch"):
            c[w[0]] = int(w[1])
        elif w[0] in ("rtol", "ptol"):
            c[w[0]] = float(w[1])
        elif w[0] == "loss":
            c["loss"] = w[1]
        elif w[0] == "feed":
            c["feeds"].append((w[1], np.load(d / w[2])))
        elif w[0] in ("lr", "lrfeed"):
            c[w[0]] = w[1]
            c["lrs"] = np.load(d / "lr.npy")
    return c


def close(got, want, ptol):
    return np.all(np.abs(got.astype(np.float64) - want) <= ptol * (np.abs(want) + 0.01))


@pytest.mark.parametrize("name", CASES)
def test_train_matches_paddle(name, tmp_path):
    c = read_case(name)
    d = c["dir"]
    startup = icore.load_program(d / "startup.pdmodel")
    main = icore.load_program(d / "main.pdmodel")
    names = main.param_names
    assert names and names == sorted(names)
    exe = icore.Executor(threads=2, seed=5)
    scope = icore.Scope()
    assert exe.run(startup, scope=scope) == []  # no fetches
    paddle_init = icore.load(main, d / "init.pdiparams")
    for n in names:  # the startup program made every persistable with Paddle's shapes
        assert n in scope, n
        assert scope[n].shape == paddle_init[n].shape and scope[n].dtype == paddle_init[n].dtype
    # icore's initializers draw their own values: start from Paddle's to compare losses
    icore.load(main, d / "init.pdiparams", scope=scope)
    for n in names:
        assert scope[n].tobytes() == paddle_init[n].tobytes()
    want = np.load(d / "loss.npy")
    b = c["batch"]
    losses = []
    for step in range(c["steps"]):
        feed = {fn: a[step * b:(step + 1) * b] for fn, a in c["feeds"]}
        loss, = exe.run(main, feed=feed, fetch_list=[c["loss"]], scope=scope)
        assert loss.size == 1
        losses.append(float(loss.reshape(())))
    losses = np.array(losses, np.float32)
    assert losses.shape == want.shape == (20,)
    assert np.all(np.abs(losses.astype(np.float64) - want) <= c["rtol"] * np.abs(want) + 1e-7), \
        (losses, want)
    final = icore.load(main, d / "final.pdiparams")
    for n in names:
        assert close(scope[n], final[n], c["ptol"]), n

    # save -> load, bit-exact, in both layouts; the combined file re-saves byte for byte
    for fmt, path in (("combined", tmp_path / "p.pdiparams"), ("separate", tmp_path / "sep")):
        icore.save(main, scope, path, format=fmt)
        back = icore.load(main, path)
        assert len(back) == len(names)
        for n in names:
            assert back[n].dtype == scope[n].dtype and back[n].tobytes() == scope[n].tobytes(), n
    icore.save(main, icore.load(main, tmp_path / "p.pdiparams"), tmp_path / "again.pdiparams")
    assert (tmp_path / "again.pdiparams").read_bytes() == (tmp_path / "p.pdiparams").read_bytes()
    assert sorted(p.name for p in (tmp_path / "sep").iterdir()) == names


def test_training_errors_are_clear(tmp_path):
    d = DATA / "train" / "mlp"
    main = icore.load_program(d / "main.pdmodel")
    with pytest.raises(icore.Error) as e:
        icore.load(main, tmp_path / "missing.pdiparams")
    assert "missing.pdiparams" in str(e.value) and e.value.status == "IC_ERR_NOT_FOUND"
    # a parameter file of another program: names the variable
    other = DATA / "train" / "attention" / "init.pdiparams"
    with pytest.raises(icore.Error):
        icore.load(main, other)
    # saving a scope that lacks the parameters names one of them
    with pytest.raises(icore.Error, match=main.param_names[0].replace(".", r"\.")):
        icore.save(main, icore.Scope(), tmp_path / "x.pdiparams")


# Learning-rate schedules: paddle.optimizer.lr.LinearWarmup(CosineAnnealingDecay) (Paddle
# 3.3.1 writes no op for it: feed learning_rate_0 every step, as Paddle's executor sets it
# from program.lr_scheduler) and linear_lr_warmup over a staircase exponential_decay (Paddle
# 2.6.2 writes it into the program: increment on @LR_DECAY_COUNTER@, cond, select_input).
@pytest.mark.parametrize("name", ["lr_scheduler", "lr_warmup"])
def test_learning_rate_schedules(name):
    c = read_case(name)
    d = c["dir"]
    main = icore.load_program(d / "main.pdmodel")
    scope = icore.load(main, d / "init.pdiparams")
    exe = icore.Executor(threads=2)
    b, lr_name = c["batch"], c.get("lr") or c["lrfeed"]
    losses, lrs = [], []
    for step in range(c["steps"]):
        feed = {fn: a[step * b:(step + 1) * b] for fn, a in c["feeds"]}
        if "lrfeed" in c:
            # float32[]: shadows learning_rate_0 for this run only
            feed[lr_name] = np.asarray(c["lrs"][step])
        loss, lr = exe.run(main, feed=feed, fetch_list=[c["loss"], lr_name], scope=scope)
        losses.append(float(loss.reshape(())))
        lrs.append(lr.reshape(-1)[0])
    want = np.load(d / "loss.npy").astype(np.float64)
    assert np.all(np.abs(np.array(losses) - want) <= c["rtol"] * np.abs(want) + 1e-7)
    assert np.array(lrs, np.float32).tobytes() == c["lrs"].reshape(-1).tobytes()
    final = icore.load(main, d / "final.pdiparams")
    for n in main.param_names:
        if n == c.get("lrfeed"):  # the feed shadowed it: the scope keeps the initial value
            assert scope[n].tobytes() == icore.load(main, d / "init.pdiparams")[n].tobytes()
        else:
            assert close(scope[n], final[n], c["ptol"]), n
