// SPDX-License-Identifier: GPL-3.0-or-later
// schedscope-cli: the engine without a GUI, for batch experiments, CI and figures.
#include "app/cli/compare_command.h"
#include "app/cli/experiment_command.h"
#include "app/cli/image/run_images.h"
#include "app/cli/kernels_command.h"
#include "app/cli/options.h"
#include "app/cli/run_command.h"
#include "app/cli/trace_command.h"

#include <cerrno>
#include <iostream>
#include <system_error>

namespace {
// Every command: parse its options (an error names the command and exits 2), then run it.
template <class Options>
int command(const std::string& name, const std::vector<std::string>& args,
            std::string (*parse)(const std::vector<std::string>&, Options&),
            int (*run)(const Options&, std::ostream&, std::ostream&)) {
    Options o;
    if (std::string e = parse(args, o); !e.empty()) {
        std::cerr << "schedscope-cli " << name << ": " << e << "\n";
        return 2;
    }
    return run(o, std::cout, std::cerr);
}

int runCli(std::vector<std::string> args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kCliHelp;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "-v") { // as schedscope (Qt's addVersionOption)
        std::cout << "schedscope-cli " << PROJECT_VERSION << "\n" << traceDatReaderLine();
        return 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            std::cout << kCliHelp;
            return 0;
        }
    if (cmd == "run")
        return command<RunOptions>(cmd, args, parseRunOptions,
                                   [](const RunOptions& o, std::ostream& out, std::ostream& err) {
                                       return runCommand(o, out, err, writeRunImages);
                                   });
    if (cmd == "list") return listCommand(std::cout);
    if (cmd == "bench") return command(cmd, args, parseBenchOptions, benchCommand);
    if (cmd == "experiment") return command(cmd, args, parseExperimentOptions, experimentCommand);
    if (cmd == "trace") return command(cmd, args, parseTraceOptions, traceCommand);
    if (cmd == "derive") return command(cmd, args, parseDeriveOptions, deriveCommand);
    if (cmd == "compare") return command(cmd, args, parseCompareOptions, compareCommand);
    if (cmd == "kernels") return command(cmd, args, parseKernelsOptions, kernelsCommand);
    std::cerr << "schedscope-cli: unknown command '" << cmd
              << "'; accepted: run, list, bench, experiment, trace, compare, derive, kernels (see --help)\n";
    return 2;
}
} // namespace

int main(int argc, char** argv) {
    const int rc = runCli(std::vector<std::string>(argv + 1, argv + argc));
    // What a command printed went to standard output; a write that failed there (a full disk,
    // /dev/full) must not end as a success. The stream keeps the failure; errno still says why.
    // A write that failed during the command (output longer than the stream's buffer) left errno
    // set, as long as the command wrote last; one that fails at this flush sets it now.
    int e = std::cout ? 0 : errno;
    if (std::cout) {
        errno = 0;
        std::cout.flush();
        e = errno;
    }
    if (!std::cout) {
        std::cerr << "schedscope-cli: cannot write to standard output: "
                  << (e ? std::generic_category().message(e) : std::string("write error")) << "\n";
        return rc != 0 ? rc : 1;
    }
    return rc;
}
