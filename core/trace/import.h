// SPDX-License-Identifier: GPL-3.0-or-later
// Real traces into the engine's Trace type, so that every view, metric and export works on them:
// ftrace `trace` text, `trace-cmd report` (also -l) and `perf script` output of the sched
// tracepoints. This is the event parser: trace/line_tokenizer.h splits each line into fields by its
// layout, and TraceImporter gives them their meaning — tasks, slices, need-resched intervals,
// wakeups, migrations, markers. Streaming: feed() takes any chunks of the text, lines are parsed
// as they complete, and a malformed line is counted and reported with its number, never fatal.
// Known gaps of real traces (a switch-out or an idle exit that was not recorded) are closed from
// the evidence the trace does hold and counted in the report.
#pragma once

#include "trace/line_tokenizer.h"
#include "trace/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sched {

// TraceDat: a binary trace.dat, whose records schedscope-dat-reader printed as ftrace text.
enum class TraceFormat : uint8_t { Unknown, Ftrace, TraceCmd, PerfScript, TraceDat };
std::string_view traceFormatName(TraceFormat f);

struct ImportProblem {
    int64_t line = 0;
    std::string what;
};

struct ImportReport {
    TraceFormat format = TraceFormat::Unknown;
    int64_t lines = 0, events = 0, malformed = 0;
    int64_t otherEvents = 0;             // well-formed lines of events the importer does not use
    std::vector<ImportProblem> problems; // the first kMaxProblems malformed lines
    static constexpr size_t kMaxProblems = 50;
    // Gaps closed from evidence (tests/data/traces/README.md, "known quirks"):
    int64_t missingSwitchOut =
        0; // a task's switch-out was missing: its slice ends at its last event on that CPU
    int64_t missingSwitchIn =
        0;                  // a task ran on a CPU without a recorded switch-in (e.g. a missing idle exit)
    Time idleExitDelay = 0; // median wakeup -> switch-in on an idle CPU where both were recorded
    // Event lines out of time order, dropped (their numbers are among the problems). The tools print
    // in time order: a few are stray timestamps, many a reversed or shuffled file (refusedWhy()).
    int64_t outOfOrder = 0;
    int64_t unprintableComms = 0; // task names made printable (trace/comm.h)
    int cpus = 0;
    Time first = 0, last = 0;
    std::string summary() const; // a few lines for people
    // Why the whole trace is refused (more than 1 % of its event lines, and more than 10, out of
    // time order: reversed or shuffled), or empty.
    std::string refusedWhy() const;
};

class TraceImporter {
  public:
    void feed(std::string_view data);
    // Ends the input (a last line without a newline counts) and builds the trace.
    Trace finish(ImportReport& report);
    int64_t linesSeen() const { return report_.lines; }
    // The text is a trace.dat's records, printed by schedscope-dat-reader: the report says so.
    void fromTraceDat() { traceDat_ = true; }

  private:
    struct CpuState {
        int32_t curr = -1;  // pid running per the trace; -1 unknown, 0 idle
        int64_t slice = -1; // index of its open slice
        Time lastSeen = 0;  // last event time of curr on this CPU (from the line prefix)
        Time lastTime = INT64_MIN;
        int flagSlot[2] = {-1, -1}; // open need-resched interval per bit (eager, lazy)
    };
    void line(std::string_view l);
    void decideHeld(std::optional<Time> next);
    void event(const TraceLine& f);
    void malformed(std::string what);
    TaskId task(int32_t pid, std::string_view comm, int prio = -1);
    CpuState& cpu(int c);
    void observePrefix(int c, int32_t pid, std::string_view comm, Time t, char needResched);
    void switchEvent(int c, Time t, std::string_view payload);
    void wakeEvent(int c, int32_t wakerPid, Time t, std::string_view payload, bool waking, bool isNew);
    bool inIrq_ = false; // the current line was traced in hard or soft interrupt context (flags column)
    void migrateEvent(int c, Time t, std::string_view payload); // c: the line's CPU
    void forkEvent(std::string_view payload);
    void openSlice(int c, int32_t pid, Time start, bool evidenceOnly);
    void closeSlice(int c, Time end, uint8_t point);
    void flagObservation(int c, Time t, char nr);

    std::string pending_;
    bool overlong_ = false; // inside a line past limits::kMaxTraceLine: skipped to its newline
    int64_t lineNo_ = 0;    // the line being parsed, for its problems (a held line is parsed later)
    // Time order: the event line held until the next one is seen, and the last one kept.
    std::optional<TraceLine> held_;
    std::string heldText_;
    int64_t heldNo_ = 0;
    bool kept_ = false;
    Time lastKept_ = 0;
    ImportReport report_;
    Trace trace_;
    std::vector<TaskId> byPid_;         // pid -> TaskId (-1 none)
    std::vector<char> unprintableTask_; // a task whose comm was made printable, counted once
    std::vector<CpuState> cpus_;
    std::unordered_map<int32_t, size_t>
        pendingWaking_; // wakee pid -> its sched_waking entry awaiting sched_wakeup
    std::unordered_map<int32_t, Time> lastWakeup_; // wakee pid -> its last wakeup (for a missing idle exit)
    std::vector<Time> idleExitDelays_;
    struct EstimatedStart {
        int64_t slice;
        Time wake,
            lowerBound; // start = wake + median idle exit, not before lowerBound nor after the evidence
    };
    std::vector<EstimatedStart> estimatedStarts_;
    bool sawEvent_ = false;
    bool traceDat_ = false;
};

// A whole text in one go (tests, small files).
Trace importTraceText(std::string_view text, ImportReport& report);

} // namespace sched
