// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/kernel_diff.h"

#include "engine/sched_config.h"

namespace sched {

std::string kernelModels(const KernelSpec& k) {
    std::string s;
    for (PreemptModel m :
         {PreemptModel::None, PreemptModel::Voluntary, PreemptModel::Full, PreemptModel::Lazy}) {
        SchedConfig c;
        c.build = k.build;
        c.profile = k.profile;
        c.preempt = m;
        if (!c.validate().empty()) continue;
        if (!s.empty()) s += ", ";
        s += preemptModelName(m);
    }
    return s;
}

KernelDiff diffKernels(const KernelSpec& a, const KernelSpec& b) {
    KernelDiff d;
    for (size_t r = 0; r < kRuleCount; ++r) {
        if (a.rules[r] && !b.rules[r]) d.onlyInA.push_back(Rule(r));
        if (b.rules[r] && !a.rules[r]) d.onlyInB.push_back(Rule(r));
    }
    d.modelsA = kernelModels(a);
    d.modelsB = kernelModels(b);
    return d;
}

namespace {
// "kernel 6.18 -> 7.0: 14 rules differ", the first words of both texts.
std::string headline(const KernelSpec& a, const KernelSpec& b, const KernelDiff& d) {
    return "kernel " + std::string(a.name) + " -> " + std::string(b.name) + ": " +
           std::to_string(d.onlyInA.size() + d.onlyInB.size()) + " rules differ";
}
} // namespace

std::string describeKernelDiff(const KernelSpec& a, const KernelSpec& b) {
    const KernelDiff d = diffKernels(a, b);
    if (d.same()) return {};
    std::string s = headline(a, b, d);
    if (a.build != b.build)
        s += "; build " + std::string(kernelBuildName(a.build)) + " -> " +
             std::string(kernelBuildName(b.build));
    s += "\n";
    if (d.modelsA != d.modelsB) s += "  preemption models: " + d.modelsA + " -> " + d.modelsB + "\n";
    auto line = [&s](char sign, Rule r) {
        const RuleInfo& ri = ruleInfo(r);
        s += "  ";
        s += sign;
        s += " " + std::string(ri.name) + " (" + std::string(ri.since) + ", " + std::string(commitId(ri)) +
             "): " + std::string(ri.what) + "\n";
    };
    for (Rule r : d.onlyInA)
        line('-', r);
    for (Rule r : d.onlyInB)
        line('+', r);
    return s;
}

std::string summarizeKernelDiff(const KernelSpec& a, const KernelSpec& b) {
    const KernelDiff d = diffKernels(a, b);
    if (d.same()) return {};
    std::string s = headline(a, b, d) + ".";
    if (d.modelsA != d.modelsB) s += " Preemption models: " + d.modelsA + " -> " + d.modelsB + ".";
    const auto list = [&s](const char* head, std::string_view kernel, const std::vector<Rule>& rules) {
        if (rules.empty()) return;
        s += std::string(" ") + head + std::string(kernel) + ": ";
        for (size_t i = 0; i < rules.size(); ++i)
            s += (i ? ", " : "") + std::string(ruleInfo(rules[i]).name) + " (" +
                 std::string(ruleInfo(rules[i]).since) + ")";
        s += ".";
    };
    list("Only in ", b.name, d.onlyInB);
    list("Only in ", a.name, d.onlyInA);
    return s;
}

} // namespace sched
