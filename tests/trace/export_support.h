// SPDX-License-Identifier: GPL-3.0-or-later
// What the export suites share: a trace written as ftrace text, its lines of one event, and a
// trace's migrations in a comparable form.
#pragma once

#include "trace/ftrace_text.h"
#include "trace/trace.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

inline std::string exportText(const sched::Trace& t, sched::Time offset) {
    std::string out;
    sched::FtraceExportOptions o;
    o.offset = offset;
    sched::writeFtraceText(
        t, [&](std::string_view s) { out += s; }, o);
    return out;
}

// The lines of one event kind from a text, up to n.
inline std::vector<std::string> linesOf(const std::string& text, const std::string& event, size_t n) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l) && out.size() < n;)
        if (l.find(" " + event + ": ") != std::string::npos) out.push_back(l);
    return out;
}

// Each migration as (task pid, from, to, the CPU whose buffer holds its event), sorted.
inline std::vector<std::array<int, 4>> migrationSet(const sched::Trace& t) {
    std::vector<std::array<int, 4>> v;
    const sched::Migrations& m = t.migrations;
    for (size_t i = 0; i < m.size(); ++i)
        v.push_back({t.tasks[size_t(m.task[i])].pid, m.from[i], m.to[i], m.on[i]});
    std::sort(v.begin(), v.end());
    return v;
}
