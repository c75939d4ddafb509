// SPDX-License-Identifier: GPL-3.0-or-later
// A program run as a child for `bench --suite`: started without a shell, its standard output kept
// or thrown away, its standard error kept, and measured by the parent - wall time from the
// parent's clock, peak resident memory and CPU time from wait4()'s rusage, which the child cannot
// misreport. The peak also counts the parent's own peak at the spawn (the child shares the parent's
// memory until its exec, and the kernel keeps the larger high-water mark): measure children
// while the parent is small.
#pragma once

#include <string>
#include <vector>

struct ChildRun {
    bool started = false;
    int exitCode = -1;   // the exit status, or -1 (did not start, or killed)
    int signal = 0;      // the signal that ended it, 0 if none
    std::string out;     // standard output (when kept)
    std::string err;     // standard error
    double wallSec = 0;  // start to exit, the parent's steady clock
    double cpuSec = 0;   // user + system
    long maxRssKb = 0;   // ru_maxrss
    bool pinned = false; // it ran on the CPU asked for
    std::string error;   // why it did not start
    bool ok() const { return started && signal == 0 && exitCode == 0; }
};

// argv[0] is a path or a name looked up in PATH. `cpu` >= 0: the child runs on that CPU only.
ChildRun runChild(const std::vector<std::string>& argv, bool keepOut, int cpu = -1);

// A program in PATH ("" if none).
std::string findInPath(const std::string& name);
// This program's own path (/proc/self/exe).
std::string selfPath();
