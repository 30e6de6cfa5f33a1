#!/usr/bin/env python3
"""Write the .npy fixtures of tests/test_npy.c with NumPy itself:

    /usr/bin/python3 tools/gen_npy_fixtures.py [OUTDIR]   (default: tests/data/npy)

The values are simple formulas the test recomputes on its own (see each comment); the
files are whatever this NumPy writes for them, headers included.
"""
import os
import sys

import numpy as np
from numpy.lib import format as npf


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data", "npy")
    os.makedirs(out, exist_ok=True)

    def save(name, a, version=None):
        with open(os.path.join(out, name), "wb") as f:
            if version is None:
                np.save(f, a)
            else:
                npf.write_array(f, a, version=version)

    # f32_2x3: element k is float32(k) / float32(7)
    save("f32_2x3.npy", np.arange(6, dtype=np.float32).reshape(2, 3) / np.float32(7))
    # i64_scalar: a 0-d array holding -(2**40) - 3
    save("i64_scalar.npy", np.array(-(2**40) - 3, dtype=np.int64))
    # bool_5: True False True True False
    save("bool_5.npy", np.array([True, False, True, True, False]))
    # u8_empty: shape (0, 3)
    save("u8_empty.npy", np.zeros((0, 3), dtype=np.uint8))
    # f16_4: 1, -2.5, 65504, 0.0001 as float16
    save("f16_4.npy", np.array([1.0, -2.5, 65504.0, 0.0001], dtype=np.float16))
    # i16_3: -32768, 0, 32767; i8_2x2: -128, -1, 0, 127
    save("i16_3.npy", np.array([-32768, 0, 32767], dtype=np.int16))
    save("i8_2x2.npy", np.array([[-128, -1], [0, 127]], dtype=np.int8))
    # f64_v2: format version 2.0; element k of the (2, 2) array is k * 0.1 - 1
    save("f64_v2.npy", np.arange(4, dtype=np.float64).reshape(2, 2) * 0.1 - 1, version=(2, 0))
    # i32_v3: format version 3.0; element k of the (5,) array is k * k - 3
    save("i32_v3.npy", (np.arange(5, dtype=np.int32) ** 2 - 3), version=(3, 0))
    # refused: Fortran order, big-endian, an unsigned 16-bit type, an object array
    save("fortran.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    save("big_endian.npy", np.arange(3, dtype=">i4"))
    save("u16.npy", np.arange(3, dtype=np.uint16))
    with open(os.path.join(out, "object.npy"), "wb") as f:
        np.save(f, np.array([1, "a"], dtype=object), allow_pickle=True)


if __name__ == "__main__":
    main()
