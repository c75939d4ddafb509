// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/experiment.h"

#include "scenarios/builtin_scenarios.h"
#include "scenarios/json_value.h"

#include <filesystem>

namespace scen {

namespace {

using JT = JsonValue::Type;

// Merge patch: objects merge by key, arrays by position (a patch element merges into the base
// element at its index; extra elements are appended), anything else replaces. Values keep the
// positions they were read at, so an error in a patched field points at the patch.
void merge(JsonValue& base, const JsonValue& patch) {
    if (base.isObject() && patch.isObject()) {
        for (size_t i = 0; i < patch.members.size(); ++i) {
            const auto& [key, value] = patch.members[i];
            bool found = false;
            for (auto& [k, v] : base.members)
                if (k == key) {
                    merge(v, value);
                    found = true;
                    break;
                }
            if (!found) {
                base.members.emplace_back(key, value);
                base.keyPos.push_back(patch.keyPos[i]);
            }
        }
        return;
    }
    if (base.isArray() && patch.isArray()) {
        for (size_t i = 0; i < patch.items.size(); ++i) {
            if (i < base.items.size())
                merge(base.items[i], patch.items[i]);
            else
                base.items.push_back(patch.items[i]);
        }
        return;
    }
    base = patch;
}

struct Reader {
    std::string file;
    ScenarioError& err;

    bool fail(const JsonPos& p, const std::string& field, const std::string& msg) {
        err = ScenarioError{file, p.line, p.column, field, msg};
        return false;
    }
    bool expect(const JsonValue& v, JT t, const std::string& field) {
        if (v.type == t) return true;
        return fail(v.pos, field, "expected " + jsonTypeName(t) + ", found " + jsonTypeName(v.type));
    }
    bool keys(const JsonValue& obj, const std::string& field, std::initializer_list<const char*> allowed,
              bool others = false) {
        if (others) return true;
        for (size_t i = 0; i < obj.members.size(); ++i) {
            bool ok = false;
            for (const char* a : allowed)
                ok = ok || obj.members[i].first == a;
            if (!ok) {
                std::string list;
                for (const char* a : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(a);
                return fail(obj.keyPos[i], (field.empty() ? "" : field + ".") + obj.members[i].first,
                            "unknown field; accepted here: " + list);
            }
        }
        return true;
    }
    bool repeat(const JsonValue& v, const std::string& f, int& out) {
        if (!expect(v, JT::Number, f)) return false;
        const auto n = v.integer();
        if (!n || *n < 1 || *n > 1000)
            return fail(v.pos, f, "'" + v.text + "' is not a run count; accepted: 1 to 1000");
        out = int(*n);
        return true;
    }
    bool strings(const JsonValue& v, const std::string& f, std::vector<std::string>& out) {
        if (!expect(v, JT::Array, f)) return false;
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (!expect(v.items[i], JT::String, f + "[" + std::to_string(i) + "]")) return false;
            out.push_back(v.items[i].text);
        }
        return true;
    }

    bool read(const JsonValue& root, bool quick, Experiment& x) {
        if (!expect(root, JT::Object, "(top level)")) return false;
        if (!keys(root, "",
                  {"name", "title", "description", "report", "repeat", "rows", "reference", "scenario",
                   "configurations", "quick"}))
            return false;
        for (auto [key, dst] :
             {std::pair{"name", &x.name}, {"title", &x.title}, {"description", &x.description}})
            if (auto* v = root.find(key)) {
                if (!expect(*v, JT::String, key)) return false;
                *dst = v->text;
            }
        const JsonValue* report = root.find("report");
        if (!report)
            return fail(
                root.pos, "report",
                "an experiment needs a \"report\": \"perf-stat\", \"kernbench\" or \"perf-sched-latency\"");
        if (!expect(*report, JT::String, "report")) return false;
        if (report->text == "perf-stat")
            x.report = ExperimentReport::PerfStat;
        else if (report->text == "kernbench")
            x.report = ExperimentReport::Kernbench;
        else if (report->text == "perf-sched-latency")
            x.report = ExperimentReport::PerfSchedLatency;
        else
            return fail(report->pos, "report",
                        "'" + report->text +
                            "' is not a report layout; accepted: perf-stat, kernbench, perf-sched-latency");
        if (auto* v = root.find("repeat"); v && !repeat(*v, "repeat", x.repeat)) return false;
        if (auto* v = root.find("rows"); v && !strings(*v, "rows", x.rows)) return false;
        if (auto* v = root.find("reference"); v && !strings(*v, "reference", x.reference)) return false;
        const JsonValue* base = root.find("scenario");
        if (!base)
            return fail(root.pos, "scenario",
                        "an experiment needs a \"scenario\" object (the workload and machine both "
                        "configurations share)");
        if (!expect(*base, JT::Object, "scenario")) return false;
        JsonValue sized = *base;
        if (quick) {
            const JsonValue* q = root.find("quick");
            if (!q)
                return fail(root.pos, "quick",
                            "this experiment has no \"quick\" size; run it without --quick");
            if (!expect(*q, JT::Object, "quick") || !keys(*q, "quick", {"repeat", "scenario"})) return false;
            if (auto* v = q->find("repeat"); v && !repeat(*v, "quick.repeat", x.repeat)) return false;
            if (auto* v = q->find("scenario")) {
                if (!expect(*v, JT::Object, "quick.scenario")) return false;
                merge(sized, *v);
            }
            x.quick = true;
        }
        const JsonValue* configs = root.find("configurations");
        if (!configs)
            return fail(root.pos, "configurations",
                        "an experiment needs \"configurations\": at least two patches of the scenario, each "
                        "with a \"label\"");
        if (!expect(*configs, JT::Array, "configurations")) return false;
        if (configs->items.size() < 2 || configs->items.size() > 8)
            return fail(configs->pos, "configurations",
                        "accepted: 2 to 8 configurations; found " + std::to_string(configs->items.size()));
        for (size_t i = 0; i < configs->items.size(); ++i) {
            const JsonValue& c = configs->items[i];
            const std::string f = "configurations[" + std::to_string(i) + "]";
            if (!expect(c, JT::Object, f)) return false;
            const JsonValue* label = c.find("label");
            if (!label)
                return fail(c.pos, f + ".label", "each configuration needs a \"label\" (the column title)");
            if (!expect(*label, JT::String, f + ".label")) return false;
            for (const auto& other : x.configs)
                if (other.label == label->text)
                    return fail(label->pos, f + ".label", "label '" + label->text + "' is used twice");
            JsonValue patch = c;
            for (size_t k = 0; k < patch.members.size(); ++k)
                if (patch.members[k].first == "label") {
                    patch.members.erase(patch.members.begin() + long(k));
                    patch.keyPos.erase(patch.keyPos.begin() + long(k));
                    break;
                }
            JsonValue doc = sized;
            merge(doc, patch);
            ExperimentConfig ec;
            ec.label = label->text;
            if (!parseScenarioJson(doc, file, "scenario (with " + f + ")", ec.scenario, err)) return false;
            if (const std::string why = placementError(ec.scenario); !why.empty()) return fail(c.pos, f, why);
            x.configs.push_back(std::move(ec));
        }
        return true;
    }
};

} // namespace

bool parseExperiment(const std::string& text, const std::string& fileName, bool quick, Experiment& out,
                     ScenarioError& err) {
    JsonValue root;
    JsonError je;
    if (!parseJson(text, root, je)) {
        err = ScenarioError{fileName, je.pos.line, je.pos.column, "", "JSON syntax: " + je.message};
        return false;
    }
    Experiment x;
    x.source = fileName;
    Reader r{fileName, err};
    if (!r.read(root, quick, x)) return false;
    if (x.name.empty()) x.name = fileName;
    out = std::move(x);
    return true;
}

bool loadExperimentFile(const std::string& path, bool quick, Experiment& out, ScenarioError& err) {
    std::error_code ec;
    // A file first; else an experiment the programs ship, by name ("experiments/preempt-short").
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        for (const auto& b : libraryScenarios())
            if (path == b.name && path.starts_with("experiments/"))
                return parseExperiment(b.text, std::string("builtin:") + b.name, quick, out, err);
    std::string text;
    return readTextFile(path, text, err) && parseExperiment(text, path, quick, out, err);
}

} // namespace scen
