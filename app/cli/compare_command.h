// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli compare A B: two runs side by side over one window, per task group. A and B are
// each a scenario (a file or a built-in name) with optional settings after '@'
// (kernel-hogs-waker@preempt=full,feature=PREEMPT_SHORT=off), or a trace file from a real machine.
#pragma once

#include <ostream>
#include <string>
#include <vector>

struct CompareOptions {
    std::string a, b;
    long long from = -1, to = -1; // ns, in A's time; -1: from the start (or, aligned, where both have begun)
                                  // to the shorter run's end
    std::string align;            // an event both runs have (align.h's keys): B is shifted to meet A there
};

std::string parseCompareOptions(const std::vector<std::string>& args, CompareOptions& out);
int compareCommand(const CompareOptions& o, std::ostream& out, std::ostream& err);
