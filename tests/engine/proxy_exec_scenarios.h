// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios shared by the proxy-execution suites (tst_proxy_exec: the single-runqueue rules of
// 6.17 - 7.0; tst_proxy_migration: 7.1's donor migration). The machines have no costs, so that
// times are exact.
#pragma once

#include "tests/test_support.h"

#include <string>

namespace proxytest {

using namespace sched;

// HZ 1000: a slice's end is seen at the next 1 ms tick.
inline std::string scenario(int cpus, const std::string& tasks, bool proxy,
                            const std::string& kernel = "6.18.44", const std::string& mutexes = R"(["m"])") {
    return R"({"duration": "300ms", "machine": {"cpus": )" + std::to_string(cpus) +
           R"(, "hz": 1000, "kernel": ")" + kernel + R"(", "preempt": "full", "proxy_exec": )" +
           (proxy ? "true" : "false") +
           R"(, "costs": {"context_switch": "0us", "wakeup": "0us", "ipi": "0us", "timer_irq": "0us",
           "idle_exit": "0us", "migration": "0us", "timer_slack": "0us"}}, "mutexes": )" +
           mutexes + R"(, "tasks": [)" + tasks + "]}";
}

// A task pinned to cpu that starts at `start` (us) and runs body once.
inline std::string task(const std::string& comm, int cpu, int start, const std::string& body,
                        const std::string& extra = {}) {
    return R"({"comm": ")" + comm + R"(", "cpus": [)" + std::to_string(cpu) + R"(], "start": ")" +
           std::to_string(start) + R"(us", )" + extra + R"("behavior": [)" + body + "]}";
}

inline const std::string kNice19 = R"("nice": 19, )";
inline const std::string kNiceM10 = R"("nice": -10, )";
inline const std::string kHog = R"({"run": "200ms"})";

// The classic inversion on one CPU: a nice-19 owner takes m at 0 and holds it for 3 ms of CPU; a
// nice-0 hog comes at 10 us; a nice -10 task wakes at 120 us and wants m (it runs at the 2 ms tick).
inline std::string inversion(bool proxy,
                             const std::string& lowBody = R"({"lock": "m"}, {"run": "3ms"}, {"unlock": "m"})",
                             const std::string& kernel = "6.18.44") {
    return scenario(1,
                    task("low", 0, 0, lowBody, kNice19) + "," + task("hog", 0, 10, kHog) + "," +
                        task("high", 0, 20,
                             R"({"sleep": "100us"}, {"lock": "m"}, {"run": "10us"}, {"unlock": "m"})",
                             kNiceM10),
                    proxy, kernel);
}

inline Time exitOf(const Engine& e, const std::string& comm) {
    return e.tasks()[size_t(taskByComm(e, comm))].exitedAt;
}

// Runs e in small steps until pred holds (or `until`); true if it did.
template <class P> inline bool runUntilState(Engine& e, Time until, P pred) {
    for (Time t = e.now(); t < until; t += 10 * kNsPerUs) {
        e.runUntil(t);
        if (pred()) return true;
    }
    return false;
}

} // namespace proxytest
