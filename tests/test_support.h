// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the engine tests: build an engine from scenario JSON, find tasks, collect
// one task's slices from the trace.
#pragma once

#include "metrics/latency.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/scenario.h"

#include <QtTest>
#include <string>

inline scen::Scenario scenarioFrom(const std::string& json) {
    scen::Scenario s;
    scen::ScenarioError e;
    if (!scen::parseScenario(json, "test.json", s, e)) qFatal("test scenario invalid: %s", e.text().c_str());
    return s;
}

// The error a scenario text is refused with, empty if it parses.
inline std::string parseError(const std::string& json) {
    scen::Scenario s;
    scen::ScenarioError e;
    if (scen::parseScenario(json, "t.json", s, e)) return {};
    return e.text();
}

inline sched::Engine engineFrom(const std::string& json, uint64_t seed = 1, bool samples = false) {
    return scen::instantiate(scenarioFrom(json), seed, sched::TraceOptions{samples});
}

inline sched::Engine builtinEngine(const std::string& name, uint64_t seed = 1) {
    scen::Scenario s;
    scen::ScenarioError e;
    if (!scen::loadScenario(name, s, e)) qFatal("%s", e.text().c_str());
    return scen::instantiate(s, seed, sched::TraceOptions{false});
}

inline sched::TaskId taskByComm(const sched::Engine& e, const std::string& comm, int nth = 0) {
    for (sched::TaskId t = 0; t < sched::TaskId(e.tasks().size()); ++t)
        if (e.tasks()[size_t(t)].comm == comm && nth-- == 0) return t;
    return sched::kNoTask;
}

// A scenario of built-in workloads: machine and tasks given as JSON text.
inline std::string workloads(const std::string& machine, const std::string& tasks) {
    return R"({"machine": )" + machine + R"(, "tasks": [)" + tasks + "]}";
}

// Replaces the placeholder MODEL in a scenario text.
inline std::string withModel(std::string json, const std::string& model, const std::string& key = "MODEL") {
    for (size_t p = json.find(key); p != std::string::npos; p = json.find(key, p + model.size()))
        json.replace(p, key.size(), model);
    return json;
}

struct SliceView {
    sched::Time start, end;
    int cpu;
    uint8_t endPoint, endReason;
};

inline std::vector<SliceView> slicesOf(const sched::Trace& tr, sched::TaskId t) {
    std::vector<SliceView> v;
    const auto& s = tr.slices;
    for (size_t i = 0; i < s.size(); ++i)
        if (s.task[i] == t) v.push_back({s.start[i], s.end[i], s.cpu[i], s.endPoint[i], s.endReason[i]});
    std::sort(v.begin(), v.end(), [](const SliceView& a, const SliceView& b) { return a.start < b.start; });
    return v;
}

// How many slices of the tasks called comm ended by a reschedule for this reason.
inline int slicesEndingWith(const sched::Engine& e, const std::string& comm, sched::ReschedReason why) {
    int n = 0;
    for (int k = 0;; ++k) {
        const sched::TaskId t = taskByComm(e, comm, k);
        if (t < 0) return n;
        for (const auto& sl : slicesOf(e.trace(), t))
            n += sl.endReason == uint8_t(why);
    }
}

inline const sched::LatencyRow* latencyRow(const std::vector<sched::LatencyRow>& rows,
                                           const std::string& comm) {
    for (const auto& r : rows)
        if (r.comm == comm) return &r;
    return nullptr;
}
