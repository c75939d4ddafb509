// SPDX-License-Identifier: GPL-3.0-or-later
// "browser": the desktop background load of Mike Galbraith's PREEMPT_SHORT runs (set-up and
// per-thread-group numbers from Mike Galbraith, "Re: [PATCH 2/2] sched/eevdf: Use
// sched_attr::sched_runtime to set request/slice suggestion", LKML, 24 Sep 2023), Chromium playing
// a 24 fps video on a Raspberry Pi 4 with Xorg, mutter and PulseAudio. `browser [-f FPS]`.
//
// Who wakes whom is Chromium's (upstream source of 2021 - 2023, read for this model; the files are
// named where they act below): a message between processes is written to a socket by the sending
// thread and read by the receiving process's IO thread (Chrome_ChildIOT), which posts it to the
// thread it is for (mojo/core/channel_posix.cc) - two wake-ups, the first a socket's (WF_SYNC),
// the second a futex's. Every process's main thread keeps the comm chromium-browse
// (base/threading/platform_thread_linux.cc does not rename a main thread). The display loop is a
// timer on VizCompositorThread at the display's 60 Hz (DelayBasedBeginFrameSource,
// root_compositor_frame_sink_impl.cc); each BeginFrame reaches the renderer's VideoFrameCompositor,
// which posts a read to Media and answers with a frame or DidNotProduceFrame (video_frame_submitter.cc,
// video_renderer_impl.cc); each video frame is decoded through the GPU process (its IO thread, the
// media service's ThreadPoolSingleThread, the GPU main thread, V4L2DecoderThread and back) and drawn
// by the GPU main thread, which hands the swap to Xorg, whose damage mutter composites. Threads of
// those comms outside the video path (the other processes' main and IO threads, the thread pool,
// PulseAudio) wake at random (exponential gaps). Every comm keeps the rate, burst and thread count of
// Mike's perf sched latency table: a thread of the video path that wakes more often than the path
// wakes it works in several bursts with short waits between them (fences, IPC round trips), and a
// comm's threads outside the path take the rest of its rate. Simplification: a thread with two roles
// in the path (the GPU process's IO and main threads, the renderer's IO thread) is two tasks of
// that comm, one per role, so the two roles may run at once.
#include "scenarios/workload.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

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
constexpr Group kChromiumBrowse{"chromium-browse", 16, 0.43, 462};
constexpr Group kChildIo{"Chrome_ChildIOT", 14, 0.18, 441};
constexpr Group kPoolSingle{"ThreadPoolSingl", 6, 0.21, 145};
constexpr Group kOthers[] = {
    {"ThreadPoolForeg", 49, 0.58, 190},
    {"pulseaudio", 1, 0.15, 145},
    {"threaded-ml", 1, 0.18, 97},
};
constexpr Group kViz{"VizCompositorTh", 1, 0.23, 216};
constexpr Group kVfc{"VideoFrameCompo", 1, 0.17, 158};
constexpr Group kMedia{"Media", 1, 0.20, 214};
constexpr Group kDecoder{"V4L2DecoderThre", 1, 0.15, 210};
constexpr Group kXorg{"Xorg", 1, 0.22, 225};
constexpr Group kMutter{"mutter", 1, 0.48, 174};
constexpr int kDisplayHz = 60;

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

namespace {

// One thread's program, op by op.
struct ProgramBuilder {
    Program p{"", {}, 0};
    void read(int32_t ch) { p.ops.push_back(ops::channel(OpKind::Read, ch, 2 * kNsPerUs)); }
    void write(int32_t ch) { p.ops.push_back(ops::channel(OpKind::Write, ch, 2 * kNsPerUs)); }
    // What a wake-up starts: `rounds` bursts, short waits between them.
    void work(const Group& g, int rounds, Time within) {
        p.ops.push_back(burst(g.burstMs));
        if (rounds < 2) return;
        const int32_t again = int32_t(p.ops.size());
        p.ops.push_back(gap(within));
        p.ops.push_back(burst(g.burstMs));
        p.ops.push_back(ops::loop(again, rounds - 1));
    }
    void forever() { p.ops.push_back(ops::loop(0, 0)); }
};

// Bursts after the wake-up a thread of the video path gets `firstPerSec` times a second (its first
// in a frame), so that with its `perSec` wake-ups from the path in all it switches at its comm's
// rate; the waits between them split half the time between those wake-ups.
int roundsFor(const Group& g, double perSec, double firstPerSec) {
    return std::max(1, 1 + int((g.ratePerSec - perSec) / firstPerSec + 0.5));
}
Time withinFor(double perSec, int rounds) {
    return std::max<Time>(20 * kNsPerUs, Time(1e9 / perSec / 2 / rounds));
}

// A comm's threads outside the video path: each wakes at random, at the rate the path leaves.
void addIndependent(Scenario& s, const Group& g, int threads, double ratePerSec, int process) {
    if (threads <= 0) return;
    const double perThread = std::max(1.0, ratePerSec) / threads;
    const Time mean = std::max<Time>(20 * kNsPerUs, Time(1e9 / perThread - g.burstMs * 1e6));
    const int32_t prog = addProgram(s, Program{"", {gap(mean), burst(g.burstMs), ops::loop(0, 0)}, 0},
                                    std::string("browser.") + g.comm);
    s.tasks.push_back(group(g.comm, threads, prog, process));
}

} // namespace

void addBrowser(const BrowserArgs& a, Scenario& s) {
    const double vsync = kDisplayHz;
    const double frames = std::min(a.fps, kDisplayHz); // a faster video drops frames at the display
    // Which vsyncs carry a video frame: the display's 60 passes and the video's frames in their
    // smallest cycle (24 fps: 2 frames in 5 vsyncs), spread evenly.
    const int common = std::gcd(kDisplayHz, int(frames));
    const int passes = kDisplayHz / common, framePasses = int(frames) / common;
    const auto framePass = [&](int k) { return (k + 1) * framePasses / passes != k * framePasses / passes; };

    // The wake-ups the video path gives each role a second, and the threads it takes.
    const double ioWakes = 2 * vsync + 2 * frames; // BeginFrame, submit; decode request, reply
    const double mainWakes = 3 * frames;           // GPU main: decode hop, picture back; the draw
    const double poolWakes = 2 * frames;           // the media service: request, picture
    const int browserGroup = int(s.tasks.size());  // chromium's process: the first group
    addIndependent(s, kChromiumBrowse, kChromiumBrowse.threads - 2, kChromiumBrowse.ratePerSec - mainWakes,
                   -1);
    addIndependent(s, kChildIo, kChildIo.threads - 4, kChildIo.ratePerSec - ioWakes, browserGroup);
    addIndependent(s, kPoolSingle, kPoolSingle.threads - 1, kPoolSingle.ratePerSec - poolWakes, browserGroup);
    for (const Group& g : kOthers)
        addIndependent(s, g, g.threads, g.ratePerSec,
                       std::string(g.comm) == "ThreadPoolForeg" ? browserGroup : -1);

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

    // The video path's channels: a socket into an IO thread (its writer wakes it with WF_SYNC, as
    // unix_stream_sendmsg() does), a posted task into any other thread (a futex wake, not sync).
    const auto channel = [&](const char* name, bool socket) {
        s.channels.push_back({std::string("browser.") + name, 64, -1, socket});
        return int32_t(s.channels.size()) - 1;
    };
    const int32_t rendererIoBeginFrame = channel("renderer-io.begin-frame", true);
    const int32_t frameCompositor = channel("video-frame-compositor", false);
    const int32_t media = channel("media", false);
    const int32_t gpuIoSubmit = channel("gpu-io.submit", true);
    const int32_t vizAck = channel("viz.submitted", false);
    const int32_t gpuDraw = channel("gpu-main.draw", false);
    const int32_t vizSwap = channel("viz.swap-done", false);
    const int32_t xorg = channel("xorg.swap", true);
    const int32_t mutter = channel("mutter.damage", true);
    const int32_t xorgFlip = channel("xorg.composited", true);
    const int32_t gpuIoDecode = channel("gpu-io.decode", true);
    const int32_t mediaService = channel("media-service.decode", false);
    const int32_t gpuDecode = channel("gpu-main.decode", false);
    const int32_t decoder = channel("v4l2-decoder", false);
    const int32_t gpuPicture = channel("gpu-main.picture", false);
    const int32_t mediaServiceReply = channel("media-service.picture", false);
    const int32_t rendererIoDecoded = channel("renderer-io.decoded", true);

    const auto add = [&](const Group& g, ProgramBuilder& b, const char* role, bool chromium) {
        b.forever();
        s.tasks.push_back(group(g.comm, 1, addProgram(s, std::move(b.p), std::string("browser.") + role),
                                chromium ? browserGroup : -1));
    };
    // A thread woken by `in` that then wakes `out`; one the path wakes `perSec` times a second
    // works in the bursts its comm's rate asks for (roundsFor()), a thread of a shared comm in one.
    const auto relay = [&](const Group& g, const char* role, int32_t in, int32_t out, double perSec = 0,
                           bool chromium = true) {
        const int r = perSec > 0 ? roundsFor(g, perSec, perSec) : 1;
        ProgramBuilder b;
        b.read(in);
        b.work(g, r, r > 1 ? withinFor(perSec, r) : 0);
        b.write(out);
        add(g, b, role, chromium);
    };
    // A thread that passes a request on and, later, its answer back: (in, out) twice.
    const auto relayBoth = [&](const Group& g, const char* role, std::pair<int32_t, int32_t> request,
                               std::pair<int32_t, int32_t> answer) {
        ProgramBuilder b;
        for (const auto& [in, out] : {request, answer}) {
            b.read(in);
            b.work(g, 1, 0);
            b.write(out);
        }
        add(g, b, role, true);
    };

    // VizCompositorThread: the BeginFrame timer; the renderer's answer; on a video frame, the draw.
    {
        const int r = roundsFor(kViz, 2 * vsync + frames, vsync);
        const Time w = withinFor(vsync, r);
        ProgramBuilder b;
        for (int k = 0; k < passes; ++k) {
            Op tick;
            tick.kind = OpKind::TimerWait;
            tick.period = Time(1e9 / vsync);
            tick.cost = 2 * kNsPerUs;
            b.p.ops.push_back(tick);
            b.work(kViz, r, w);
            b.write(rendererIoBeginFrame);
            b.read(vizAck);
            b.work(kViz, 1, 0);
            if (!framePass(k)) continue;
            b.write(gpuDraw);
            b.read(vizSwap);
            b.work(kViz, 1, 0);
        }
        add(kViz, b, "viz", true);
    }
    relay(kChildIo, "renderer-io.begin-frame", rendererIoBeginFrame, frameCompositor);
    // VideoFrameCompositor: every BeginFrame posts a read to Media (VideoRendererImpl::Render())
    // and answers viz, with a frame or without.
    {
        const int r = roundsFor(kVfc, vsync, vsync);
        ProgramBuilder b;
        b.read(frameCompositor);
        b.work(kVfc, r, withinFor(vsync, r));
        b.write(media);
        b.write(gpuIoSubmit);
        add(kVfc, b, "video-frame-compositor", true);
    }
    relay(kChildIo, "gpu-io.submit", gpuIoSubmit, vizAck);
    // Media: its task runner gets the reads VideoFrameCompositor posts and the decoded pictures;
    // on a video frame it asks for the next decode (MojoVideoDecoder), without waiting for it.
    {
        const int r = roundsFor(kMedia, vsync + frames, vsync);
        const Time w = withinFor(vsync, r);
        ProgramBuilder b;
        for (int k = 0; k < passes + framePasses; ++k) {
            b.read(media);
            b.work(kMedia, k < passes ? r : 1, w);
            if (k < passes && framePass(k)) b.write(gpuIoDecode);
        }
        add(kMedia, b, "media", true);
    }
    relay(kChildIo, "gpu-io.decode", gpuIoDecode, mediaService);
    // The media service's thread: the request to the GPU main thread, the picture back.
    relayBoth(kPoolSingle, "media-service", {mediaService, gpuDecode},
              {mediaServiceReply, rendererIoDecoded});
    // The GPU main thread's decode role: VdaVideoDecoder hands the buffer to V4L2DecoderThread and
    // the decoded picture back to the media service.
    relayBoth(kChromiumBrowse, "gpu-main.decode", {gpuDecode, decoder}, {gpuPicture, mediaServiceReply});
    relay(kDecoder, "v4l2-decoder", decoder, gpuPicture, frames);
    relay(kChildIo, "renderer-io.decoded", rendererIoDecoded, media);
    // The GPU main thread's draw: SkiaOutputSurface's draw and swap, then swap-complete to viz.
    {
        ProgramBuilder b;
        b.read(gpuDraw);
        b.work(kChromiumBrowse, 1, 0);
        b.write(xorg);
        b.write(vizSwap);
        add(kChromiumBrowse, b, "gpu-main.draw", true);
    }
    // Xorg takes the swap and tells mutter of the damage; mutter composites; Xorg flips.
    {
        const int r = roundsFor(kXorg, 2 * frames, frames);
        const Time w = withinFor(frames, r);
        ProgramBuilder b;
        b.read(xorg);
        b.work(kXorg, r, w);
        b.write(mutter);
        b.read(xorgFlip);
        b.work(kXorg, 1, 0);
        add(kXorg, b, "xorg", false);
    }
    relay(kMutter, "mutter", mutter, xorgFlip, frames, false);
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
