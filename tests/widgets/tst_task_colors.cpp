// SPDX-License-Identifier: GPL-3.0-or-later
// Task colours: a comm has one colour in every trace of the process (whatever order each trace
// lists its comms in), the first seven comms stay apart under the three colour-vision
// deficiencies (simulated with Machado et al.'s matrices, compared in CIELAB), threads of one
// comm are told apart, and the dark theme lifts the darkest colours.
#include "widgets/task_colors.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>

using namespace sched;
using namespace view;

namespace {

Trace traceOf(std::initializer_list<std::pair<int32_t, const char*>> tasks) {
    Trace t;
    t.cpus = 1;
    for (const auto& [pid, comm] : tasks)
        t.tasks.push_back(TraceTask{pid, pid, comm, 120});
    return t;
}

using Lab = std::array<double, 3>;

// sRGB -> linear -> a colour-vision deficiency (3x3 matrix) -> CIELAB (D65).
Lab labSeenAs(const QColor& c, const std::array<std::array<double, 3>, 3>& m) {
    const auto lin = [](int v) {
        const double x = v / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    const std::array<double, 3> in{lin(c.red()), lin(c.green()), lin(c.blue())};
    std::array<double, 3> rgb{};
    for (int i = 0; i < 3; ++i)
        rgb[size_t(i)] =
            std::clamp(m[size_t(i)][0] * in[0] + m[size_t(i)][1] * in[1] + m[size_t(i)][2] * in[2], 0.0, 1.0);
    const double X = 0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2];
    const double Y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double Z = 0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2];
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    const double fx = f(X / 0.95047), fy = f(Y), fz = f(Z / 1.08883);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double deltaE(const Lab& a, const Lab& b) {
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

} // namespace

class TestTaskColors : public QObject {
    Q_OBJECT
  private slots:
    void aCommHasOneColourInEveryTrace() {
        // The simulation lists sender before receiver, the trace the other way round and has a
        // kworker first: each comm still gets the colour it got first.
        const Trace sim = traceOf({{1000, "tc-sender"}, {1001, "tc-receiver"}, {1002, "tc-sender"}});
        const Trace real = traceOf({{17, "tc-kworker"}, {4242, "tc-receiver"}, {4240, "tc-sender"}});
        const int sender = commSlot(sim, "tc-sender"); // the simulation is drawn first
        QCOMPARE(commSlot(sim, "tc-receiver"), sender + 1);
        QCOMPARE(taskColor(real, 2, false), taskColor(sim, 0, false)); // each the first sender: same colour
        QCOMPARE(taskColor(real, 1, false),
                 paletteColor(commSlot(sim, "tc-receiver"), 0, false)); // a lone task
        QCOMPARE(commSlot(real, "tc-receiver"), commSlot(sim, "tc-receiver"));
        QVERIFY(commSlot(sim, "tc-sender") != commSlot(sim, "tc-receiver"));
        QCOMPARE(commSlot(real, "tc-kworker"), commSlot(sim, "tc-receiver") + 1); // new comms come after
    }
    void threadsOfOneCommAreToldApart() {
        const Trace t = traceOf({{2000, "tc-worker"}, {2001, "tc-worker"}, {2002, "tc-worker"}});
        const QColor a = taskColor(t, 0, false), b = taskColor(t, 1, false), c = taskColor(t, 2, false);
        QVERIFY(a != b && b != c && a != c);
        QCOMPARE(a.hsvHue() / 20, b.hsvHue() / 20); // one family: the hue stays
    }
    void theFirstSevenStayApartUnderColourBlindness() {
        using M = std::array<std::array<double, 3>, 3>;
        const std::array<std::pair<const char*, M>, 4> vision{{
            {"normal", M{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
            {"protanopia", M{{{0.152286, 1.052583, -0.204868},
                              {0.114503, 0.786281, 0.099216},
                              {-0.003882, -0.048116, 1.051998}}}},
            {"deuteranopia", M{{{0.367322, 0.860646, -0.227968},
                                {0.280085, 0.672501, 0.047413},
                                {-0.011820, 0.042940, 0.968881}}}},
            {"tritanopia", M{{{1.255528, -0.076749, -0.178779},
                              {-0.078411, 0.930809, 0.147602},
                              {0.004733, 0.691367, 0.303900}}}},
        }};
        for (const auto& [name, m] : vision) {
            double closest = 1e9;
            for (int i = 0; i < 7; ++i)
                for (int j = i + 1; j < 7; ++j)
                    closest = std::min(closest, deltaE(labSeenAs(paletteColor(i, 0, false), m),
                                                       labSeenAs(paletteColor(j, 0, false), m)));
            qInfo("%s: the closest two of the first seven colours are %.1f apart (CIELAB)", name, closest);
            QVERIFY2(closest > 12, name);
        }
    }
    // A trace replaced by another at the same address (a new engine built in the old one's place)
    // is ranked again once forgotten; and colours past the palette's end do not repeat earlier ones.
    void ranksAreForgottenAndRoundsDoNotRepeat() {
        Trace t = traceOf({{1000, "tc-x"}, {1001, "tc-x"}});
        const QColor second = taskColor(t, 1, false);
        t = traceOf({{1000, "tc-y"}, {1001, "tc-z"}}); // same size, same pids, other comms
        forgetTaskRanks(&t);
        QCOMPARE(taskColor(t, 1, false), paletteColor(commSlot(t, "tc-z"), 0, false)); // a lone task again
        QVERIFY(second != paletteColor(commSlot(t, "tc-x"), 0, false));
        std::vector<QRgb> seen;
        for (int slot = 0; slot < 48; ++slot)
            for (int shade = 0; shade < 5; ++shade)
                seen.push_back(paletteColor(slot, shade, false).rgb());
        std::sort(seen.begin(), seen.end());
        QVERIFY(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    }
    void theDarkThemeLiftsTheDarkestColours() {
        for (int slot = 0; slot < 16; ++slot)
            QVERIFY2(paletteColor(slot, 0, true).lightness() >= 90, qPrintable(QString::number(slot)));
    }
};

QTEST_MAIN(TestTaskColors)
#include "tst_task_colors.moc"
