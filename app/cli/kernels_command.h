// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli kernels: the kernel profiles as the tables of rules they are (kernel_rules.h).
// With --markdown it prints docs/kernels.md; with two profile names, the rules that differ.
#pragma once

#include <ostream>
#include <string>
#include <vector>

struct KernelsOptions {
    bool markdown = false;
    std::vector<std::string> kernels; // none: every profile; two: the rules that differ
};

// Returns an error text (empty on success).
std::string parseKernelsOptions(const std::vector<std::string>& args, KernelsOptions& out);
int kernelsCommand(const KernelsOptions& o, std::ostream& out, std::ostream& err);
