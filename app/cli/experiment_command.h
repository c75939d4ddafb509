// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli experiment FILE [--quick] [--repeat N] [--json | --csv] [--jobs N] [--output FILE]
#pragma once

#include <ostream>
#include <string>
#include <vector>

struct ExperimentOptions {
    std::string file;
    bool quick = false;
    int repeat = 0; // 0 = the file's
    bool json = false, csv = false;
    int jobs = 0; // worker threads; 0 = one per core
    std::string output;
};

std::string parseExperimentOptions(const std::vector<std::string>& args, ExperimentOptions& out);
int experimentCommand(const ExperimentOptions& o, std::ostream& out, std::ostream& err);
