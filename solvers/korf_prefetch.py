"""A software prefetch for numba kernels: asks the processor to start loading the cache line of
an array element now, so a probe issued later finds it in the cache."""

from __future__ import annotations

import cubelab.tables  # noqa: F401  (numba cache location, before numba)
from llvmlite import binding, ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


# LLVM names the intrinsic by its pointer type: opaque pointers ("p0") from LLVM 15 on.
_NAME = "llvm.prefetch.p0" if binding.llvm_version_info >= (15,) else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, index):
    """prefetch(arr, i): a read hint for arr[i] (no effect on results; never faults)."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, _NAME)
        # read, highest temporal locality, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen
