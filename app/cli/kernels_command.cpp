// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/kernels_command.h"

#include "engine/kernel_diff.h"
#include "engine/sched_config.h"

#include <string_view>

using namespace sched;

namespace {

// Profiles in the order of the rules' "since": oldest first, the RFC last.
void printMarkdown(std::ostream& out) {
    const auto specs = kernelSpecs();
    out << "# Kernel profiles\n\n"
           "<!-- The output of `schedscope-cli kernels --markdown`; tst_cli fails when this file and the "
           "command differ. The rules live in core/engine/kernel_rules.cpp: change them there, then run "
           "`build/app/schedscope-cli kernels --markdown > docs/kernels.md`. -->\n\n"
           "SchedScope models a kernel as a set of **rules**: each rule is one behaviour of `kernel/sched/` "
           "that some kernels have and others do not, named for what it does and for the commit that "
           "brought it. A profile is a row of switches; the engine asks for a rule where kernels differ, "
           "never for a version number. `--kernel NAME` (or a scenario's `\"kernel\"`) picks a profile; "
           "`schedscope-cli kernels A B` lists the rules that differ between two, and "
           "`schedscope-cli compare S@kernel=A S@kernel=B` prints them above its table.\n\n"
           "## Profiles\n\n"
           "| profile | build | what it is | preemption models | rules |\n"
           "|---|---|---|---|---:|\n";
    for (const KernelSpec& k : specs)
        out << "| `" << k.name << "` | " << kernelBuildName(k.build) << " | " << k.title << " | "
            << kernelModels(k) << " | " << k.rules.count() << " |\n";
    out << "\nThe architecture (`machine.arch`, `--arch`; x86_64 by default) decides the models where "
           "kernels "
           "tie them to it: lazy needs `ARCH_HAS_PREEMPT_LAZY`, and since 7.0 none and voluntary remain only "
           "where it is missing (the table lists x86_64's).\n";
    bool any = false;
    for (const KernelSpec& k : specs)
        if (!k.notModelled.empty()) {
            if (!any) out << "\nWhat a profile does not model yet:\n\n";
            any = true;
            out << "- `" << k.name << "`: " << k.notModelled << ".\n";
        }
    out << "\n## Which profile has which rule\n\n| rule | since |";
    for (const KernelSpec& k : specs)
        out << " " << k.name << " |";
    out << "\n|---|---|";
    for (size_t i = 0; i < specs.size(); ++i)
        out << ":-:|";
    out << "\n";
    for (size_t r = 0; r < kRuleCount; ++r) {
        const RuleInfo& ri = ruleInfo(Rule(r));
        out << "| [" << ri.name << "](#" << ri.name << ") | " << ri.since << " |";
        for (const KernelSpec& k : specs)
            out << (k.rules[r] ? " ✓ |" : " |");
        out << "\n";
    }
    out << "\n## The rules\n";
    for (size_t r = 0; r < kRuleCount; ++r) {
        const RuleInfo& ri = ruleInfo(Rule(r));
        out << "\n### " << ri.name << "\n\n"
            << "Since " << ri.since << ": " << ri.commit << ". In `" << ri.where << "`.\n\n"
            << ri.what << ".\n";
        if (!ri.engine.empty()) out << "\n*The engine:* " << ri.engine << ".\n";
    }
}

void printText(std::ostream& out) {
    for (const KernelSpec& k : kernelSpecs()) {
        out << k.name << "  " << k.title << "  (models: " << kernelModels(k) << "; " << k.rules.count()
            << " rules)\n";
        for (size_t r = 0; r < kRuleCount; ++r)
            if (k.rules[r]) {
                const RuleInfo& ri = ruleInfo(Rule(r));
                out << "    " << ri.name << std::string(ri.name.size() < 32 ? 32 - ri.name.size() : 1, ' ')
                    << ri.since << "  " << commitId(ri) << "\n";
            }
    }
}

} // namespace

std::string parseKernelsOptions(const std::vector<std::string>& args, KernelsOptions& out) {
    for (const std::string& a : args) {
        if (a == "--markdown") {
            out.markdown = true;
            continue;
        }
        if (!a.empty() && a[0] == '-')
            return "unknown option '" + a + "'; accepted: --markdown, KERNEL KERNEL";
        if (!findKernelSpec(a)) return "'" + a + "' is not a kernel; accepted: " + acceptedKernelNames();
        out.kernels.push_back(a);
    }
    if (!out.kernels.empty() && out.kernels.size() != 2)
        return "give two kernels to list the rules that differ (e.g. kernels 6.18 6.18.44), or none";
    if (out.markdown && !out.kernels.empty()) return "--markdown prints every profile; give no kernel names";
    return {};
}

int kernelsCommand(const KernelsOptions& o, std::ostream& out, std::ostream&) {
    if (o.kernels.size() == 2) {
        const std::string d =
            describeKernelDiff(*findKernelSpec(o.kernels[0]), *findKernelSpec(o.kernels[1]));
        out << (d.empty() ? "the two profiles have the same rules\n" : d);
        return 0;
    }
    if (o.markdown)
        printMarkdown(out);
    else
        printText(out);
    return 0;
}
