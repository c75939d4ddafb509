// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli: the engine without a GUI, for batch experiments, CI and figures.
#include "compare_command.h"
#include "experiment_command.h"
#include "run_command.h"
#include "trace_command.h"

#include <iostream>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kCliHelp;
        return args.empty() ? 2 : 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            std::cout << kCliHelp;
            return 0;
        }
    if (cmd == "run") {
        RunOptions o;
        if (std::string e = parseRunOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli run: " << e << "\n";
            return 2;
        }
        return runCommand(o, std::cout, std::cerr);
    }
    if (cmd == "list") return listCommand(std::cout);
    if (cmd == "bench") {
        BenchOptions o;
        if (std::string e = parseBenchOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli bench: " << e << "\n";
            return 2;
        }
        return benchCommand(o, std::cout, std::cerr);
    }
    if (cmd == "experiment") {
        ExperimentOptions o;
        if (std::string e = parseExperimentOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli experiment: " << e << "\n";
            return 2;
        }
        return experimentCommand(o, std::cout, std::cerr);
    }
    if (cmd == "trace") {
        TraceOptions2 o;
        if (std::string e = parseTraceOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli trace: " << e << "\n";
            return 2;
        }
        return traceCommand(o, std::cout, std::cerr);
    }
    if (cmd == "derive") {
        DeriveCliOptions o;
        if (std::string e = parseDeriveOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli derive: " << e << "\n";
            return 2;
        }
        return deriveCommand(o, std::cout, std::cerr);
    }
    if (cmd == "compare") {
        CompareOptions o;
        if (std::string e = parseCompareOptions(args, o); !e.empty()) {
            std::cerr << "schedscope-cli compare: " << e << "\n";
            return 2;
        }
        return compareCommand(o, std::cout, std::cerr);
    }
    std::cerr << "schedscope-cli: unknown command '" << cmd << "'; accepted: run, list, bench, experiment, trace, compare, derive (see --help)\n";
    return 2;
}
