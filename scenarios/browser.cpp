// SPDX-License-Identifier: GPL-3.0-or-later
// "browser": the desktop background load of Mike Galbraith's PREEMPT_SHORT runs (set-up and
// per-thread-group numbers from Mike Galbraith, "Re: [PATCH 2/2] sched/eevdf: Use
// sched_attr::sched_runtime to set request/slice suggestion", LKML, 24 Sep 2023), Chromium playing
// a 24 fps video on a Raspberry Pi 4 with Xorg, mutter and PulseAudio. Thread groups with the
// per-thread-group rate, burst and thread count of Mike's perf sched latency table; the video path
// is frame-clock driven (decoder -> media -> frame compositor -> viz compositor -> Xorg -> mutter,
// each stage woken by the one before once per frame and then working in several bursts), the audio
// sink is an RT thread (rtkit) on a ~110 Hz period, the rest wake at random (exponential gaps) and
// run lognormal bursts. `browser [-f FPS]`.
#include "scenarios/workload.h"

#include <algorithm>
#include <cstdio>

namespace scen {

using namespace sched;

namespace {

struct Group {
    const char* comm;
    int threads;
    double burstMs;
    double ratePerSec; // switches per second of the whole group
};

// Mike's stock table in his 24 Sep 2023 mail (rpi4, 6.6.0-rc2, 300 s).
constexpr Group kIndependent[] = {
    {"chromium-browse", 16, 0.43, 462}, {"ThreadPoolForeg", 49, 0.58, 190},
    {"Chrome_ChildIOT", 14, 0.18, 441}, {"ThreadPoolSingl", 6, 0.21, 145},
    {"pulseaudio", 1, 0.15, 145},       {"threaded-ml", 1, 0.18, 97},
};
constexpr Group kVideoChain[] = {
    {"V4L2DecoderThre", 1, 0.15, 210}, {"Media", 1, 0.20, 214}, {"VideoFrameCompo", 1, 0.17, 158},
    {"VizCompositorTh", 1, 0.23, 216}, {"Xorg", 1, 0.22, 225},  {"mutter", 1, 0.48, 174},
};

Op burst(double ms) {
    const Time mean = Time(ms * 1e6);
    Op o = ops::run(mean);
    o.duration = Distribution::lognormal(mean, mean);
    o.duration.min = mean / 20;
    o.duration.max = mean * 40;
    return o;
}

Op gap(Time mean) {
    Op o = ops::sleep(mean);
    o.duration = Distribution::exponential(mean);
    o.duration.min = 10 * kNsPerUs;
    return o;
}

TaskGroupSpec group(const char* comm, int count, int32_t program, int process) {
    TaskGroupSpec g;
    g.comm = comm;
    g.count = count;
    g.threads = count > 1 || process >= 0;
    g.process = process;
    g.program = program;
    return g;
}

} // namespace

std::string parseBrowser(const std::vector<std::string>& argv, BrowserArgs& out) {
    out = BrowserArgs{};
    for (size_t i = 0; i < argv.size(); ++i) {
        long long n = 0;
        if (argv[i] == "-f" && i + 1 < argv.size()) {
            if (!wholeNumber(argv[++i], 1, 240, n))
                return "-f: '" + argv[i] + "' is not a frame rate; accepted: 1 to 240 frames per second";
            out.fps = int(n);
        } else {
            return "unsupported browser option '" + argv[i] + "'; accepted: -f FPS (24 by default)";
        }
    }
    return {};
}

void addBrowser(const BrowserArgs& a, Scenario& s) {
    const int browserGroup = int(s.tasks.size()); // chromium's process: the first group
    for (const Group& g : kIndependent) {
        // Each thread: gap, burst, with the gap that gives the group's rate.
        const double perThread = g.ratePerSec / g.threads;
        const Time mean = std::max<Time>(20 * kNsPerUs, Time(1e9 / perThread - g.burstMs * 1e6));
        const int32_t prog = addProgram(s, Program{"", {gap(mean), burst(g.burstMs), ops::loop(0, 0)}, 0},
                                        std::string("browser.") + g.comm);
        const bool chromium =
            std::string(g.comm).rfind("pulse", 0) != 0 && std::string(g.comm) != "threaded-ml";
        s.tasks.push_back(group(g.comm, g.threads, prog,
                                chromium && int(s.tasks.size()) > browserGroup ? browserGroup : -1));
    }
    // The audio sink: SCHED_RR from rtkit, a period of ~9 ms.
    {
        Op wait;
        wait.kind = OpKind::TimerWait;
        wait.period = Time(1e9 / 110);
        wait.cost = 2 * kNsPerUs;
        TaskGroupSpec g = group(
            "alsa-sink-MAI P", 1,
            addProgram(s, Program{"", {wait, burst(0.42), ops::loop(0, 0)}, 0}, "browser.alsa-sink"), -1);
        g.policy = Policy::RR;
        g.rtPriority = 5;
        s.tasks.push_back(g);
    }
    // The video path: a channel per stage; the decoder runs on the frame clock.
    const Time frame = kNsPerSec / a.fps;
    const int32_t first = int32_t(s.channels.size());
    const int stages = int(std::size(kVideoChain));
    for (int i = 1; i < stages; ++i)
        s.channels.push_back({std::string("browser.frame.") + kVideoChain[i].comm, 64, -1, false});
    for (int i = 0; i < stages; ++i) {
        const Group& g = kVideoChain[i];
        const int rounds = std::max(1, int(g.ratePerSec / a.fps + 0.5));
        Program p{"", {}, 0};
        if (i == 0) {
            Op tick;
            tick.kind = OpKind::TimerWait;
            tick.period = frame;
            tick.cost = 2 * kNsPerUs;
            p.ops.push_back(tick);
        } else {
            p.ops.push_back(ops::channel(OpKind::Read, first + i - 1, 2 * kNsPerUs));
        }
        // The frame's work: bursts separated by short waits (IPC round trips, fences), half a
        // frame in all, then the next stage is woken.
        const Time within = std::max<Time>(20 * kNsPerUs, frame / 2 / rounds);
        p.ops.push_back(burst(g.burstMs));
        if (rounds > 1) {
            p.ops.push_back(gap(within));
            p.ops.push_back(burst(g.burstMs));
            p.ops.push_back(ops::loop(2, rounds - 1));
        }
        if (i + 1 < stages) p.ops.push_back(ops::channel(OpKind::Write, first + i, 2 * kNsPerUs));
        p.ops.push_back(ops::loop(0, 0));
        const bool chromium = i < 4; // decoder, media, frame and viz compositor are Chromium threads
        s.tasks.push_back(group(g.comm, 1, addProgram(s, std::move(p), std::string("browser.") + g.comm),
                                chromium ? browserGroup : -1));
    }
}

std::string browserReport(const Workload& w, const Engine& e) {
    std::string out;
    std::vector<std::pair<std::string, std::pair<Time, int64_t>>> rows;
    for (size_t t = size_t(w.firstTask); t < e.tasks().size(); ++t) {
        const Task& task = e.tasks()[t];
        auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.first == task.comm; });
        if (it == rows.end()) {
            rows.push_back({task.comm, {0, 0}});
            it = rows.end() - 1;
        }
        it->second.first += task.utime + task.stime;
        it->second.second += task.nvcsw + task.nivcsw;
    }
    char b[160];
    for (const auto& [comm, v] : rows) {
        std::snprintf(b, sizeof b, "%-16s %10.3f s CPU %9lld switches\n", comm.c_str(), double(v.first) / 1e9,
                      (long long)v.second);
        out += b;
    }
    return out;
}

} // namespace scen
