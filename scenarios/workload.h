// SPDX-License-Identifier: GPL-3.0-or-later
// Workload models with the real tools' command lines (massive_intr, cyclictest, perf bench sched
// messaging, hackbench): a scenario task entry
// {"workload": "massive_intr", "args": "8 10 8 1"} becomes the tool's processes and threads, and
// after a run the tool's own output is printed from the engine's state (massive_intr's loop
// counts, cyclictest's per-thread latency lines). Each tool lives in its own file pair.
#pragma once

#include "metrics/latency.h"
#include "scenarios/scenario.h"

#include <string>
#include <vector>

namespace scen {

// A whole-number argument in [lo, hi] (the whole text, no sign tricks).
bool wholeNumber(const std::string& s, long long lo, long long hi, long long& out);

// Operations for the generators, named as the system calls they stand for.
namespace ops {
sched::Op run(sched::Time work, sched::ExecMode mode = sched::ExecMode::User);
sched::Op run(const sched::Distribution& work, sched::ExecMode mode = sched::ExecMode::User);
sched::Op sleep(sched::Time d);
sched::Op channel(sched::OpKind readOrWrite, int32_t ch, sched::Time cost);
sched::Op loop(int32_t target, int64_t count, sched::Time until = 0);
sched::Op fork(int32_t program, int64_t count, bool thread, sched::Time cost);
sched::Op simple(sched::OpKind kind); // WaitChildren, Exit, Yield
} // namespace ops

// Finalizes p and appends it to the scenario's programs; returns its index.
int32_t addProgram(Scenario& s, sched::Program p, const std::string& name);

// The p-quantile (0..1) of samples counted in 1-unit bins: the bin of the sample of rank
// floor(p * (n - 1)) + 1; 0 when empty.
int64_t histogramPercentile(const std::vector<int64_t>& bins, double p);

// Splits a command line at blanks (no quoting: the tools' arguments have none).
std::vector<std::string> splitArgs(const std::string& args);

// Parses the tool's arguments and adds its programs and task groups to s (with the machine of s
// already read). Returns an error naming the argument and what is accepted, empty on success.
// release: the tool's release as major * 100 + minor, for the tools whose model follows it
// (cyclictest); 0 for the current one. An error about it starts with "version".
std::string addWorkload(const std::string& tool, const std::string& args, Scenario& s, Workload& out,
                        int release = 0);
std::vector<std::string> workloadTools();

// The tool's own output for the run the engine holds (at its present). perTask: perf sched
// latency's rows one per task, for the tools that print scheduler delays (schbench); null: read
// from the engine's trace, which a caller that folded and forgot it (LatencyFold) cannot.
std::string workloadReport(const Workload& w, const sched::Engine& e,
                           const std::vector<sched::LatencyRow>* perTask = nullptr);

// Per tool (massive_intr.cpp, cyclictest.cpp).
std::string parseMassiveIntr(const std::vector<std::string>& argv, MassiveIntrArgs& out);
void addMassiveIntr(const MassiveIntrArgs& a, Scenario& s);
std::string massiveIntrReport(const Workload& w, const sched::Engine& e);
std::string parseCyclictest(const std::vector<std::string>& argv, int cpus, int release, CyclictestArgs& out);
void addCyclictest(const CyclictestArgs& a, Scenario& s);
std::string cyclictestReport(const Workload& w, const sched::Engine& e);
std::string parseMessaging(const std::vector<std::string>& argv, bool perf, MessagingArgs& out);
void addMessaging(const MessagingArgs& a, Scenario& s);
std::string messagingReport(const Workload& w, const sched::Engine& e);
std::string parseKernbench(const std::vector<std::string>& argv, int cpus, KernbenchArgs& out);
void addKernbench(const KernbenchArgs& a, Scenario& s);
std::string kernbenchReport(const Workload& w, const sched::Engine& e);
KernbenchNumbers kernbenchNumbers(const Workload& w, const sched::Engine& e);
std::string parseKthreads(const std::vector<std::string>& argv, KthreadsArgs& out);
void addKthreads(const KthreadsArgs& a, Scenario& s);
std::string kthreadsReport(const Workload& w, const sched::Engine& e);
std::string parseBrowser(const std::vector<std::string>& argv, BrowserArgs& out);
void addBrowser(const BrowserArgs& a, Scenario& s);
std::string browserReport(const Workload& w, const sched::Engine& e);
// rt-app: appends the file's tasks to s; errors name the rt-app file, line and field.
bool addRtApp(const std::string& text, const std::string& file, Scenario& s, RtAppArgs& out,
              ScenarioError& err);
bool looksLikeRtApp(const std::string& text); // an object with "tasks" as an object, or "global"
std::string rtAppReport(const Workload& w, const sched::Engine& e);
std::string parseSchbench(const std::vector<std::string>& argv, int cpus, SchbenchArgs& out);
void addSchbench(const SchbenchArgs& a, Scenario& s);
std::string schbenchReport(const Workload& w, const sched::Engine& e,
                           const std::vector<sched::LatencyRow>* perTask);
std::string kernbenchLoadName(const KernbenchArgs& a, int cpus);
// kernbench's "Average <load> Run (std deviation):" block over runs (sample standard deviation).
std::string formatKernbench(const std::string& load, const std::vector<KernbenchNumbers>& runs);

} // namespace scen
