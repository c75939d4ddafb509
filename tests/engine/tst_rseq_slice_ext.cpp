// SPDX-License-Identifier: GPL-3.0-or-later
// 7.0's RSEQ time-slice extension (rseq_slice_ext.cpp; dfb630f548a7 rseq_grant_slice_extension(),
// 0ac3b5c3dc45 the timer, dd0a04606937 the syscall entry work, 7ee58f98b59b the reset at a switch,
// 21c0e92d0681 the 5 us default): granted at an interrupt's return to user mode, ended by
// rseq_slice_yield(), another system call, the timer or a second reschedule.
#include "tests/test_support.h"

using namespace sched;

namespace {

// One CPU, a holder that asks for an extension around a critical section of SECTION, and
// wakers whose timers ask for the CPU; MACHINE is spliced into the machine object.
std::string holderScenario(const std::string& section, const std::string& machine, const std::string& after,
                           int wakers = 1, const std::string& period = "1ms") {
    return R"({"duration": "300ms", "machine": {"cpus": 1, "hz": 250, )" + machine + R"(},
      "tasks": [
        {"comm": "holder", "behavior": [{"repeat": "forever", "body": [
          {"slice_ext": "request"}, {"run": ")" +
           section + R"("}, )" + after + R"(, {"run": "40us"}]}]},
        {"comm": "waker", "count": )" +
           std::to_string(wakers) + R"(, "behavior": [{"repeat": "forever", "body": [
          {"timer": ")" +
           period + R"("}, {"run": "30us"}]}]}]})";
}

const std::string kYield = R"({"slice_ext": "yield"})";
const std::string kLazy70 = R"("kernel": "7.0", "preempt": "lazy")";

std::array<size_t, size_t(SliceExtEnd::Count)> outcomes(const Trace& t) {
    std::array<size_t, size_t(SliceExtEnd::Count)> n{};
    for (uint8_t how : t.sliceExts.how)
        n[how]++;
    return n;
}

size_t clearedBySliceExt(const Trace& t) {
    size_t n = 0;
    for (uint8_t by : t.flags.clearedBy)
        n += by == kClearedBySliceExt;
    return n;
}

// The slice of task p that covers time t (start <= t < end), or nullptr.
const SliceView* sliceAt(const std::vector<SliceView>& v, Time t) {
    for (const SliceView& s : v)
        if (s.start <= t && t < s.end) return &s;
    return nullptr;
}

} // namespace

class TestRseqSliceExt : public QObject {
    Q_OBJECT
  private slots:
    // A reschedule that meets the holder inside its 4 us section is deferred: the interrupt's
    // return clears the bits (the flag interval ends without a switch) and the holder keeps the
    // CPU until its rseq_slice_yield(), where it is switched out at once.
    void aRequestDefersTheRescheduleUntilTheYield() {
        Engine e = engineFrom(holderScenario("4us", kLazy70, kYield));
        e.runUntil(300 * kNsPerMs);
        e.finish();
        const Trace& t = e.trace();
        const auto n = outcomes(t);
        qInfo("%zu extensions: %zu yielded, %zu expired, %zu revoked, %zu aborted", t.sliceExts.size(), n[0],
              n[1], n[2], n[3]);
        QVERIFY(t.sliceExts.size() >= 10);
        QCOMPARE(n[size_t(SliceExtEnd::Yielded)], t.sliceExts.size()); // 4 us < 5 us: every one in time
        QCOMPARE(clearedBySliceExt(t), t.sliceExts.size());
        const TaskId holder = taskByComm(e, "holder");
        const std::vector<SliceView> slices = slicesOf(t, holder);
        for (size_t i = 0; i < t.sliceExts.size(); ++i) {
            QCOMPARE(t.sliceExts.task[i], holder);
            QVERIFY(t.sliceExts.end[i] - t.sliceExts.granted[i] <= 4 * kNsPerUs);
            const SliceView* s = sliceAt(slices, t.sliceExts.granted[i]);
            QVERIFY2(s && s->end == t.sliceExts.end[i], "the holder runs on from the grant to its yield");
            QCOMPARE(s->endPoint, uint8_t(SwitchPoint::PreemptEnable));
        }
    }

    // Without the extension (6.18.44, arm64, or a kernel built without it) the request byte is
    // ignored: no grant, no bit cleared without a switch, and the run is the one of a program
    // without the request.
    void noExtensionWhereTheKernelHasNone() {
        for (const std::string& m : {std::string(R"("kernel": "6.18.44", "preempt": "full")"),
                                     std::string(R"("kernel": "7.0", "preempt": "lazy", "arch": "arm64")"),
                                     kLazy70 + R"(, "rseq_slice_ext": false)"}) {
            Engine e = engineFrom(holderScenario("4us", m, kYield));
            e.runUntil(100 * kNsPerMs);
            QVERIFY2(e.trace().sliceExts.size() == 0, m.c_str());
            QCOMPARE(clearedBySliceExt(e.trace()), size_t(0));
            QVERIFY2(e.trace().slices.size() > 100, m.c_str()); // the wakers did preempt the holder
        }
        const std::string json = holderScenario("4us", kLazy70 + R"(, "rseq_slice_ext": false)", kYield);
        Engine with = engineFrom(json);
        Engine plain =
            engineFrom(withModel(withModel(json, "", R"({"slice_ext": "request"}, )"), "", kYield + ", "));
        with.runUntil(100 * kNsPerMs);
        plain.runUntil(100 * kNsPerMs);
        QVERIFY(with.trace().slices.end == plain.trace().slices.end);
    }

    // A section longer than the extension: rseq_slice_expired() sets TIF_NEED_RESCHED when the
    // timer of slice_ext_nsec fires, and its interrupt's return revokes the grant and switches.
    void theTimerEndsAnExtensionThatIsNotYielded() {
        Engine e = engineFrom(holderScenario("30us", kLazy70 + R"(, "rseq_slice_ext": "10us")", kYield));
        e.runUntil(300 * kNsPerMs);
        const Trace& t = e.trace();
        const auto n = outcomes(t);
        QVERIFY(n[size_t(SliceExtEnd::Expired)] >= 10);
        const Time irq = e.config().costs.timerIrq;
        size_t eagerAtExpiry = 0;
        for (size_t i = 0; i < t.sliceExts.size(); ++i) {
            if (t.sliceExts.how[i] != uint8_t(SliceExtEnd::Expired)) continue;
            QCOMPARE(t.sliceExts.end[i] - t.sliceExts.granted[i], 10 * kNsPerUs + irq);
            for (size_t f = 0; f < t.flags.size(); ++f)
                eagerAtExpiry += t.flags.set[f] == t.sliceExts.end[i] &&
                                 t.flags.reason[f] == uint8_t(ReschedReason::SliceExtExpired) &&
                                 t.flags.bit[f] == uint8_t(ReschedBit::Eager);
        }
        QCOMPARE(eagerAtExpiry, n[size_t(SliceExtEnd::Expired)]);
    }

    // dd0a04606937: any other system call while granted ends the extension at its entry and
    // reschedules; here the section ends in a system call (5 us in the kernel) before the yield,
    // which then only clears the request.
    void anotherSystemCallAbortsTheExtension() {
        Engine e = engineFrom(holderScenario("20us", kLazy70 + R"(, "rseq_slice_ext": "50us")",
                                             R"({"run": "5us", "mode": "kernel"}, )" + kYield));
        e.runUntil(300 * kNsPerMs);
        const Trace& t = e.trace();
        const auto n = outcomes(t);
        QVERIFY(t.sliceExts.size() >= 10);
        QCOMPARE(n[size_t(SliceExtEnd::Aborted)], t.sliceExts.size());
        for (size_t i = 0; i < t.sliceExts.size(); ++i)
            QVERIFY(t.sliceExts.end[i] - t.sliceExts.granted[i] <= 20 * kNsPerUs);
    }

    // The end of a program is exit(), a system call: an extension held there ends as aborted, as
    // at an explicit exit.
    void theProgramsEndAbortsTheExtension() {
        // The waker's one sleep ends at 1 ms + 50 us of slack, 35 us before the holder's work does.
        for (const char* end : {"", R"(, {"exit": true})"}) {
            Engine e = engineFrom(
                std::string(R"({"duration": "5ms", "machine": {"cpus": 1, "hz": 250, "kernel": "7.0",
                "rseq_slice_ext": "50us"}, "tasks": [
                {"comm": "holder", "behavior": [{"sleep": "10us"}, {"slice_ext": "request"}, {"run": "1.02ms"})") +
                end + R"(]},
                {"comm": "waker", "behavior": [{"sleep": "1ms"}, {"run": "5us"}]}]})");
            e.runUntil(5 * kNsPerMs);
            const Trace& t = e.trace();
            QVERIFY2(t.sliceExts.size() == 1, end);
            QCOMPARE(t.sliceExts.how[0], uint8_t(SliceExtEnd::Aborted));
            QCOMPARE(e.tasks()[size_t(taskByComm(e, "holder"))].state, TaskState::Dead);
        }
    }

    // A second reschedule request at an interrupt's return while granted revokes the grant
    // (rseq_grant_slice_extension(): state.granted) and schedules.
    void aSecondRescheduleRevokesTheGrant() {
        Engine e =
            engineFrom(holderScenario("45us", kLazy70 + R"(, "rseq_slice_ext": "50us")", kYield, 4, "0.3ms"));
        e.runUntil(300 * kNsPerMs);
        const Trace& t = e.trace();
        const auto n = outcomes(t);
        qInfo("%zu yielded, %zu expired, %zu revoked", n[0], n[1], n[2]);
        QVERIFY(n[size_t(SliceExtEnd::Revoked)] > 0);
        for (size_t i = 0; i < t.sliceExts.size(); ++i)
            if (t.sliceExts.how[i] == uint8_t(SliceExtEnd::Revoked))
                QVERIFY(t.sliceExts.end[i] - t.sliceExts.granted[i] < 45 * kNsPerUs);
    }

    // 7ee58f98b59b zeroes slice_ctrl after a switch only when rseq_sched_switch_event() raised
    // it: after a user-mode interrupt or a CPU change. A request set before a sleep on the same
    // CPU survives it: the wakers that preempt the 1 ms run after the sleep meet it and grant.
    void aRequestSurvivesASleepOnTheSameCpu() {
        const std::string json = R"({"duration": "100ms", "machine": {"cpus": 1, "hz": 250, "kernel": "7.0"},
          "tasks": [
            {"comm": "holder", "behavior": [{"repeat": "forever", "body": [
              {"slice_ext": "request"}, {"sleep": "100us"}, {"run": "1ms"}, {"slice_ext": "yield"}]}]},
            {"comm": "waker", "behavior": [{"repeat": "forever", "body": [{"timer": "0.3ms"}, {"run": "30us"}]}]}]})";
        Engine e = engineFrom(json);
        e.runUntil(100 * kNsPerMs);
        QVERIFY(e.trace().sliceExts.size() >= 10);
        QCOMPARE(e.tasks()[size_t(taskByComm(e, "holder"))].nrMigrations, int64_t(0));
    }

    // The scenario names the field and what it accepts.
    // Stepping back (Engine::restore()) cuts the extensions recorded since the snapshot: the run
    // from there records the same ones an uninterrupted run does.
    void aRestoredSnapshotReplaysTheSameExtensions() {
        const std::string json = holderScenario("4us", kLazy70, kYield);
        Engine e = engineFrom(json);
        e.runUntil(100 * kNsPerMs);
        const Engine snap = e.snapshot();
        e.runUntil(200 * kNsPerMs);
        const size_t before = e.trace().sliceExts.size();
        e.restore(snap);
        QVERIFY(e.trace().sliceExts.size() < before);
        e.runUntil(200 * kNsPerMs);
        Engine fresh = engineFrom(json);
        fresh.runUntil(200 * kNsPerMs);
        QCOMPARE(e.trace().sliceExts.size(), before);
        QVERIFY(e.trace().sliceExts.granted == fresh.trace().sliceExts.granted &&
                e.trace().sliceExts.end == fresh.trace().sliceExts.end &&
                e.trace().sliceExts.how == fresh.trace().sliceExts.how);
    }

    // 99428157dcf3 (7.1-rc3; 7.0.10 with b9eac6a9d93c): only an rseq area larger than the original 32
    // bytes (the optimized v2 ABI) gets RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE; for a legacy one
    // prctl(PR_RSEQ_SLICE_EXTENSION) fails with -ENOTSUPP, so its requests are never granted.
    void aLegacyRseqAreaGetsNoExtension() {
        const auto granted = [](const std::string& kernel, bool v1, bool ruleOff) {
            scen::Scenario s = scenarioFrom(
                holderScenario("4us", R"("kernel": ")" + kernel + R"(", "preempt": "lazy")", kYield));
            s.tasks[0].rseqV1 = v1;
            if (ruleOff) s.config.rulesOff.set(size_t(Rule::RseqV2SliceExt));
            Engine e = scen::instantiate(s, 1);
            e.runUntil(s.duration);
            return e.trace().sliceExts.size();
        };
        for (const char* k : {"7.0", "7.1", "7.2"}) {
            QVERIFY2(granted(k, false, false) > 20, k);
            QCOMPARE(granted(k, true, false), size_t(0));
            QCOMPARE(granted(k, true, true), granted(k, false, false)); // the rule alone makes the difference
        }
        QVERIFY(scenarioFrom(R"({"machine": {"kernel": "7.1"}, "tasks": [{"comm": "t", "rseq": "v1",
            "behavior": [{"slice_ext": "request"}, {"run": "1ms"}]}]})")
                    .tasks[0]
                    .rseqV1);
        const std::string bad =
            parseError(R"({"machine": {"kernel": "7.1"}, "tasks": [{"comm": "t", "rseq": "v3",
            "behavior": [{"run": "1ms"}]}]})");
        QVERIFY2(bad.find("tasks[0].rseq") != std::string::npos && bad.find("\"v1\"") != std::string::npos &&
                     bad.find("\"v2\"") != std::string::npos,
                 bad.c_str());
    }

    void onlySevenZeroAndLaterOnX86HaveIt() {
        QCOMPARE(ruleInfo(Rule::RseqSliceExt).name, std::string_view("rseq-slice-ext"));
        for (const char* k : {"6.18.44", "6.18.45"}) {
            SchedConfig c;
            QVERIFY(parseKernelSpec(k, c.build, c.profile));
            QVERIFY(!c.sliceExtAvailable());
        }
        for (const char* k : {"7.0", "7.1"}) {
            SchedConfig c;
            QVERIFY(parseKernelSpec(k, c.build, c.profile));
            QVERIFY(c.sliceExtAvailable());
            c.arch = ArchId(findArch("arm64"));
            QVERIFY(!c.sliceExtAvailable()); // GENERIC_ENTRY + HAVE_GENERIC_TIF_BITS not checked there
        }
    }

    void badInputIsRefusedWithTheField() {
        const auto scenario = [](const std::string& machine, const std::string& op) {
            return R"({"machine": {"kernel": "7.0")" + machine +
                   R"(}, "tasks": [{"comm": "t", "behavior": [)" + op + R"(, {"run": "1ms"}]}]})";
        };
        const std::string on =
            parseError(scenario(R"(, "rseq_slice_ext": true)", R"({"slice_ext": "request"})"));
        QVERIFY2(on.find("machine.rseq_slice_ext") != std::string::npos &&
                     on.find("5us to 50us") != std::string::npos,
                 on.c_str());
        const std::string big =
            parseError(scenario(R"(, "rseq_slice_ext": "100us")", R"({"slice_ext": "request"})"));
        QVERIFY2(big.find("machine.rseq_slice_ext") != std::string::npos, big.c_str());
        const std::string op = parseError(scenario("", R"({"slice_ext": "maybe"})"));
        QVERIFY2(op.find("slice_ext") != std::string::npos && op.find("\"request\"") != std::string::npos &&
                     op.find("\"yield\"") != std::string::npos,
                 op.c_str());
        QVERIFY(parseError(scenario(R"(, "rseq_slice_ext": "20us")", R"({"slice_ext": "yield"})")).empty());
    }
};

QTEST_GUILESS_MAIN(TestRseqSliceExt)
#include "tst_rseq_slice_ext.moc"
