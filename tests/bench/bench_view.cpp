// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): timeline paint time at 1920x1080 for a run on 64 CPUs (a slice per CPU
// per 1 ms tick: 17 s simulated, the default, is 1.09 M slices; 153 s is 9.8 M), at full
// zoom-out, 16 slices a pixel column (30 s), mid zoom (1 s) and deep zoom (2 ms), the widget's
// new range, the time to step back 1 s, and the peak resident memory: (peak - peak of
// `bench_view 0`, an empty run) / slices is what the GUI holds per slice (the run, its snapshots,
// one set of lane and flag indexes and the widget; the EEVDF chart's graphs hold only the charted
// tasks' samples).
// Run: build/tests/bench_view [SECONDS]   (the offscreen platform; medians of 15 frames)
#include "app/gui/session.h"
#include "widgets/live_capture.h"
#include "widgets/timeline_painter.h"
#include "widgets/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <sys/resource.h>

using namespace sched;

namespace {
// Resident now (VmRSS), in MB: where the peak comes from.
double residentMb() {
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return 0;
}
} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const double seconds = argc > 1 ? std::atof(argv[1]) : 17.0;
    if (argc > 2 || !(seconds >= 0 && seconds <= 3600)) {
        std::fprintf(stderr, "usage: bench_view [SECONDS]  (simulated seconds, 0 to 3600; 17 by default)\n");
        return 2;
    }
    // An empty run (0) is the baseline for the memory per slice: 1 us, no switch yet.
    const Time T = std::max<Time>(kNsPerUs, Time(seconds * double(kNsPerSec)));
    QTemporaryDir dir;
    const QString path = dir.filePath("bench.json");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return 1;
    // 64 CPUs, 10 always-runnable tasks each, a switch every 1 ms tick on every CPU.
    f.write(("{\"name\": \"bench-view\", \"duration\": \"" + std::to_string(T) + "ns\"," + R"J(
      "machine": {"cpus": 64, "hz": 1000, "preempt": "full", "sysctl_base_slice": "100us"},
      "tasks": [{"comm": "hog", "count": 640, "behavior": [{"repeat": "forever", "body": [{"run": "10ms"}]}]}]})J")
                .c_str());
    f.close();
    Session s;
    QString err;
    if (!s.load(path, &err)) {
        std::fprintf(stderr, "%s\n", qPrintable(err));
        return 1;
    }
    s.setBackgroundThreshold(kNever); // measure the run in this thread
    QElapsedTimer t;
    t.start();
    s.runTo(T);
    const double runSec = t.nsecsElapsed() / 1e9;
    const Engine& e = s.engine();
    std::printf("run: %zu slices on %d CPUs, %.1f s simulated in %.2f s wall; resident %.1f MB\n",
                e.trace().slices.size(), e.config().cpus, double(T) / 1e9, runSec, residentMb());

    // The painter's own indexes, freed before the widget builds its: the GUI holds one set.
    auto lanesOwned = std::make_unique<view::LaneIndex>();
    auto flagsOwned = std::make_unique<view::FlagIndex>();
    view::LaneIndex& lanes = *lanesOwned;
    view::FlagIndex& flags = *flagsOwned;
    t.restart();
    lanes.update(e.trace());
    flags.update(e.trace());
    std::printf(
        "indexing the trace: %.1f ms, resident %.1f MB; the indexes hold %.1f MB (lanes %.1f, flags %.1f), "
        "the trace's columns %.1f MB (reserved)\n",
        t.nsecsElapsed() / 1e6, residentMb(), double(lanes.memoryBytes() + flags.memoryBytes()) / 1e6,
        double(lanes.memoryBytes()) / 1e6, double(flags.memoryBytes()) / 1e6,
        double(e.trace().memoryBytes()) / 1e6);
    const EevdfSamples& samples = e.trace().samples;
    t.restart();
    int64_t onRq = 0; // what the chart does when its tasks change: read every sample once
    samples.forEach(0, samples.size(), [&](size_t, const EevdfSample& x) { onRq += x.onRq; });
    const double readMs = t.nsecsElapsed() / 1e6;
    std::printf("EEVDF samples: %zu (%lld on the runqueue), read once in %.1f ms, packed in %.1f MB (%.2f "
                "bytes each)\n",
                samples.size(), (long long)onRq, readMs, double(samples.packedBytes()) / 1e6,
                double(samples.packedBytes()) / double(std::max<size_t>(1, samples.size())));
    view::TimelineData d;
    d.trace = &e.trace();
    d.lanes = &lanes;
    d.flags = &flags;
    d.live = view::captureLive(e);
    view::TimelineLayout layout;
    layout.lane = 10;
    layout.flagLane = 4;
    layout.gap = 2;
    QImage img(1920, std::max(1080, layout.height(64)), QImage::Format_ARGB32_Premultiplied);
    struct Zoom {
        const char* name;
        Time a, b;
    };
    const Time mid = T / 2;
    const std::string full = "full zoom-out (" + std::to_string(int(seconds + 0.5)) + " s)";
    // Between the two: 16 of a lane's 1 ms slices to a pixel column, zoomed out too little for the
    // lanes' time buckets (a column spans fewer than eight) and too far for few slices a column.
    const Time between = std::min<Time>(T, 16 * kNsPerMs * (1920 - layout.gutter));
    const Zoom zooms[] = {{full.c_str(), 0, T},
                          {"16 slices a column", T - between, T},
                          {"mid zoom (1 s)", mid, mid + kNsPerSec},
                          {"deep zoom (2 ms)", mid, mid + 2 * kNsPerMs}};
    for (const Zoom& z : zooms) {
        view::TimeAxis axis{z.a, z.b, 1920 - layout.gutter};
        std::vector<double> ms;
        for (int i = 0; i < 15; ++i) {
            QPainter p(&img);
            t.restart();
            view::TimelinePainter::paint(p, img.rect(), axis, d, layout, app.palette(), app.font());
            ms.push_back(t.nsecsElapsed() / 1e6);
        }
        std::sort(ms.begin(), ms.end());
        t.restart();
        for (int c = 0; c < 64; ++c) {
            auto cols = lanes.columns(c, z.a, z.b, axis.width);
            auto f0 = flags.columns(c, 0, z.a, z.b, axis.width);
            auto f1 = flags.columns(c, 1, z.a, z.b, axis.width);
        }
        const double summaries = t.nsecsElapsed() / 1e6;
        std::printf("paint 1920x%d, %-22s median %6.2f ms  (min %.2f, max %.2f; summaries alone %.2f ms)\n",
                    img.height(), z.name, ms[ms.size() / 2], ms.front(), ms.back(), summaries);
    }
    lanesOwned.reset();
    flagsOwned.reset();
    // The widget caches its picture without the cursor: a mouse move repaints with one blit.
    {
        view::TimelineView v;
        v.resize(1920, 1080);
        v.setFollow(false);
        v.setRun(&e.trace(), d.live);
        v.setRange(0, T);
        QImage target(v.size(), QImage::Format_ARGB32_Premultiplied);
        std::vector<double> first, moved;
        for (int i = 0; i < 9; ++i) {
            v.setRange(0, T - i); // a new zoom: summaries are recomputed
            t.restart();
            v.render(&target);
            first.push_back(t.nsecsElapsed() / 1e6);
            QMouseEvent move(QEvent::MouseMove, QPointF(300 + 10 * i, 200), QPointF(300 + 10 * i, 200),
                             Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(&v, &move);
            t.restart();
            v.render(&target);
            moved.push_back(t.nsecsElapsed() / 1e6);
        }
        std::sort(first.begin(), first.end());
        std::sort(moved.begin(), moved.end());
        std::printf("widget 1920x1080 full zoom-out: new range median %.2f ms, cursor move (cached picture) "
                    "median %.2f ms; resident %.1f MB\n",
                    first[first.size() / 2], moved[moved.size() / 2], residentMb());
    }
    t.restart();
    s.stepBack(kNsPerSec);
    std::printf("step back 1 s: %.1f ms (restore the nearest snapshot, replay)\n", t.nsecsElapsed() / 1e6);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("peak resident: %.1f MB (ru_maxrss)\n", double(ru.ru_maxrss) / 1024.0);
    return 0;
}
