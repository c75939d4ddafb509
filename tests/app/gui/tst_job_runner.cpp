// SPDX-License-Identifier: GPL-3.0-or-later
// JobRunner, the GUI's one way to run background work: the job runs on a worker thread, its
// result comes back on the runner's thread, a superseded job's result is dropped, cancel reaches
// the job, progress carries the job's id, a job that throws reports failure, and destroying the
// runner waits for a running job.
// Workers and the test meet through atomics; waits spin the event loop (QTest::qWaitFor), never
// a fixed sleep.
#include "app/gui/job_runner.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <new>
#include <stdexcept>
#include <thread>

class TstJobRunner : public QObject {
    Q_OBJECT
  private slots:
    void deliversTheResultOnTheRunnersThread() {
        JobRunner r;
        QSignalSpy busy(&r, &JobRunner::busyChanged);
        std::atomic<QThread*> worker{nullptr};
        QThread* deliveredOn = nullptr;
        int result = 0;
        r.start<int>(
            [&](JobControl&) {
                worker = QThread::currentThread();
                return 42;
            },
            [&](int v) {
                result = v;
                deliveredOn = QThread::currentThread();
            });
        QVERIFY(r.busy());
        QVERIFY(QTest::qWaitFor([&] { return result != 0; }, 10000));
        QCOMPARE(result, 42);
        QVERIFY(worker.load() != QThread::currentThread());
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(!r.busy());
        QCOMPARE(busy.count(), 2); // true, then false
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void aSupersededJobsResultIsDropped() {
        JobRunner r;
        std::atomic<bool> firstAsked{false};
        std::vector<int> delivered;
        const quint64 first = r.start<int>(
            [&](JobControl& job) {
                while (!job.cancelled())
                    std::this_thread::yield(); // runs until a newer job supersedes it
                firstAsked = true;
                return 1;
            },
            [&](int v) { delivered.push_back(v); });
        const quint64 second =
            r.start<int>([](JobControl&) { return 2; }, [&](int v) { delivered.push_back(v); });
        QVERIFY(second > first);
        QCOMPARE(r.currentId(), second);
        QVERIFY(QTest::qWaitFor([&] { return !delivered.empty() && firstAsked; }, 10000));
        QCoreApplication::processEvents(); // the first job's queued result, if any, arrives now
        QCOMPARE(delivered, std::vector<int>{2});
        QVERIFY(!r.busy());
    }

    void cancelReachesTheJobWhichStillDelivers() {
        JobRunner r;
        std::atomic<bool> started{false};
        bool cancelled = false, done = false;
        r.start<bool>(
            [&](JobControl& job) {
                started = true;
                while (!job.cancelled())
                    std::this_thread::yield();
                return true;
            },
            [&](bool c) {
                cancelled = c;
                done = true;
            });
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 10000));
        r.cancel();
        QVERIFY(QTest::qWaitFor([&] { return done; }, 10000));
        QVERIFY(cancelled);
    }

    void progressCarriesTheJobsId() {
        JobRunner r;
        QSignalSpy progress(&r, &JobRunner::progress);
        std::atomic<bool> reported{false};
        bool done = false;
        const quint64 id = r.start<int>(
            [&](JobControl& job) {
                job.setProgress(500);
                reported = true;
                while (!job.cancelled())
                    std::this_thread::yield(); // until the test has seen the progress
                return 0;
            },
            [&](int) { done = true; });
        QVERIFY(QTest::qWaitFor([&] { return reported && progress.count() > 0; }, 10000));
        QCOMPARE(progress.last().at(0).value<quint64>(), id);
        QCOMPARE(progress.last().at(1).toInt(), 500);
        r.cancel();
        QVERIFY(QTest::qWaitFor([&] { return done; }, 10000));
    }

    void aJobThatThrowsReportsFailureInsteadOfAResult() {
        JobRunner r;
        QSignalSpy failed(&r, &JobRunner::failed);
        bool delivered = false;
        const quint64 id =
            r.start<int>([](JobControl&) -> int { throw std::runtime_error("a broken invariant"); },
                         [&](int) { delivered = true; });
        QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
        QCOMPARE(failed.at(0).at(0).value<quint64>(), id);
        QCOMPARE(failed.at(0).at(1).toString(), QString("a broken invariant"));
        QVERIFY(!delivered);
        QVERIFY(!r.busy());
        r.start<int>([](JobControl&) -> int { throw std::bad_alloc(); }, [&](int) { delivered = true; });
        QVERIFY(QTest::qWaitFor([&] { return failed.count() == 2; }, 10000));
        QCOMPARE(failed.at(1).at(1).toString(), QString("out of memory"));
        QVERIFY(!delivered);
    }

    void destroyingTheRunnerWaitsForTheJobAndDropsItsResult() {
        std::atomic<bool> started{false}, finished{false};
        bool delivered = false;
        {
            JobRunner r;
            r.start<int>(
                [&](JobControl& job) {
                    started = true;
                    while (!job.cancelled())
                        std::this_thread::yield();
                    finished = true;
                    return 0;
                },
                [&](int) { delivered = true; });
            QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 10000));
        } // the destructor cancels the job and waits for it
        QVERIFY(finished);
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TstJobRunner)
#include "tst_job_runner.moc"
