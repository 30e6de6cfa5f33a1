/* PaddlePaddle as the oracle for control flow: programs exported through
 * paddle.static.nn.cond, while_loop and switch_case (tests/data/paddle_ctrl, written by
 * tools/gen_ctrl_oracle.py with Paddle 2.6.2), checked exactly as test_paddle_oracle.c checks
 * its cases: every executor configuration, bitwise agreement, Paddle's values within each
 * case's tolerance; and on the emulated device emu:0, where control-flow ops and their
 * sub-blocks run on the host behind placement copies, bitwise what the host gives. */
#define ORACLE_DIR IC_SOURCE_DIR "/tests/data/paddle_ctrl"
#define ORACLE_SUITE "ctrl_oracle"
#define ORACLE_EMU 1
#include "interp/interp.h" /* ic_executor_emu_testing */
#include "test_paddle_oracle.c"
