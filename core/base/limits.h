// SPDX-License-Identifier: GPL-3.0-or-later
// What SchedScope accepts, in one place. Each limit is enforced where its input is read, with a
// message that names the limit and the file; docs/bad-input.md lists them for users. A limit is
// far above any real input (the reason is beside it) and far below what would exhaust the
// machine, so that a user never sees bad_alloc, a signal or a swapping machine.
#pragma once

#include <cstdint>

namespace sched::limits {

// Text traces. A line longer than this is malformed (ftrace prints lines of ~100-300 bytes; a
// file without newlines must not grow one line without end).
constexpr int64_t kMaxTraceLine = 1 << 20; // 1 MiB

// Compressed traces, as they stream out of the decompressor. Real ftrace text compresses 20-40x
// with xz -9 (the three traces in tests/data/traces: 22x, 22x, 40x); a decompression bomb of
// zeros reaches 1,000x (gzip) to 30,000x (zstd). The ratio is checked once 64 MiB came out.
constexpr int64_t kMaxDecompressedBytes = int64_t(8) << 30; // 8 GiB of text
constexpr int64_t kMaxCompressionRatio = 500;
constexpr int64_t kRatioCheckedFrom = int64_t(64) << 20;

// Scenario, experiment and rt-app files (JSON): the built-in ones are a few kB, a scenario derived
// from a long trace a few MB.
constexpr int64_t kMaxScenarioFile = int64_t(64) << 20; // 64 MiB

// Simulations. CPUs: at most kMaxCpus (base/types.h, 256: the bitmasks of the runqueue code), as
// the scenario reader and --cpus say. Tasks, counting those forked while the run goes on: a program that
// forks without end stops here with a message, not in bad_alloc (the largest published workload is 800
// threads; kernbench -j 32 starts about 2,800 compile jobs in 75 s).
constexpr int64_t kMaxTasks = 200000;
// Events at one instant of simulated time: tasks that hand work to each other with zero costs
// (a context switch and a wakeup that take no time) would otherwise spin there for ever, the trace
// growing. All tasks starting at once take a few events each.
constexpr int64_t kMaxEventsPerInstant = 20 * kMaxTasks;

} // namespace sched::limits
