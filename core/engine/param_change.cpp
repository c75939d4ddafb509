// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/param_change.h"
#include "base/duration.h"
#include "engine/custom_slice.h"

#include <charconv>

namespace sched {

std::string ParamChange::label() const {
    const std::string who = task >= 0 ? "task " + std::to_string(task) : comm;
    switch (kind) {
    case Kind::PreemptModel:
        return "preempt=" + std::string(preemptModelName(model));
    case Kind::BaseSlice:
        return "base_slice=" + formatDuration(value);
    case Kind::Feature:
        return (on ? "" : "NO_") + std::string(featureName(feature));
    case Kind::Hz:
        return "HZ=" + std::to_string(hz);
    case Kind::TaskSlice:
        return who + " slice=" + (value ? formatDuration(value) : std::string("default"));
    case Kind::TaskNice:
        return who + " nice=" + std::to_string(nice);
    case Kind::TaskPolicy:
        return who + " policy=" + std::string(policyName(policy));
    }
    return "?";
}

namespace {
bool parseInt(std::string_view s, int lo, int hi, int& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= lo && out <= hi;
}
} // namespace

// The inverse of label(), so that a change printed anywhere can be typed back in.
std::string parseParamChange(std::string_view spec, ParamChange& out) {
    out = ParamChange{};
    const std::string s(spec);
    const auto eq = s.find('=');
    const auto sp = s.rfind(' ', eq);
    const std::string key = eq == std::string::npos ? s
                                                    : s.substr(sp == std::string::npos ? 0 : sp + 1,
                                                               eq - (sp == std::string::npos ? 0 : sp + 1));
    const std::string value = eq == std::string::npos ? std::string() : s.substr(eq + 1);
    const std::string who =
        sp == std::string::npos || eq == std::string::npos ? std::string() : s.substr(0, sp);
    const std::string accepted =
        "accepted: preempt=MODEL, base_slice=DURATION, HZ=N, FEATURE or NO_FEATURE, "
        "'COMM nice=N', 'COMM slice=DURATION|default', 'COMM policy=POLICY' (or 'task ID ...')";
    if (eq == std::string::npos) { // a feature: NAME or NO_NAME
        const bool off = s.rfind("NO_", 0) == 0;
        const auto f = parseFeature(off ? s.substr(3) : s);
        if (!f) return "'" + s + "' is not a change; " + accepted;
        out = ParamChange::featureChange(*f, !off);
        return {};
    }
    if (who.empty()) {
        if (key == "preempt") {
            PreemptModel m;
            if (!parsePreemptModel(value, m))
                return "preempt: '" + value + "' is not a model; accepted: none, voluntary, full, lazy";
            out = ParamChange::preemptModel(m);
            return {};
        }
        if (key == "base_slice") {
            const auto d = parseDuration(value);
            if (!d || *d < kCustomSliceMin || *d > kCustomSliceMax)
                return "base_slice: '" + value + "' is not a duration of 0.1-100 ms (e.g. 3ms)";
            out.kind = ParamChange::Kind::BaseSlice;
            out.value = *d;
            return {};
        }
        if (key == "HZ" || key == "hz") {
            int hz = 0;
            if (!parseInt(value, 100, 1000, hz) || (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
                return key + ": '" + value + "' is not a kernel HZ; accepted: 100, 250, 300, 1000";
            out = ParamChange::hzChange(hz);
            return {};
        }
        return "'" + s + "' is not a change; " + accepted;
    }
    if (who.rfind("task ", 0) == 0) {
        int id = 0;
        if (!parseInt(std::string_view(who).substr(5), 0, 1 << 30, id))
            return "'" + who + "' is not a task; write 'task ID' or a comm";
        out.task = id;
    } else {
        out.comm = who;
    }
    if (key == "nice") {
        if (!parseInt(value, -20, 19, out.nice))
            return "nice: '" + value + "' is not a nice value; accepted: -20 to 19";
        out.kind = ParamChange::Kind::TaskNice;
    } else if (key == "slice") {
        out.kind = ParamChange::Kind::TaskSlice;
        if (value != "default") {
            const auto d = parseDuration(value);
            if (!d || *d < kCustomSliceMin || *d > kCustomSliceMax)
                return "slice: '" + value + "' is not a duration of 0.1-100 ms or 'default'";
            out.value = *d;
        }
    } else if (key == "policy") {
        if (!parsePolicy(value, out.policy))
            return "policy: '" + value + "' is not a policy; accepted: normal, batch, idle, fifo, rr";
        out.kind = ParamChange::Kind::TaskPolicy;
        out.rtPriority = isRtPolicy(out.policy) ? 50 : 0;
    } else {
        return "'" + s + "' is not a change; " + accepted;
    }
    return {};
}

} // namespace sched
