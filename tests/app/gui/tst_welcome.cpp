// SPDX-License-Identifier: GPL-3.0-or-later
// The first minute: the welcome screen's gallery opens a scenario by mouse (its description and
// preview on show first), an experiment opens at its quick size with what the post published, the
// "Show at start" box is remembered, and the tour steps through its pages. Driven through the real
// widgets with QTest mouse events.
#include "app/gui/main_window.h"
#include "app/gui/session.h"
#include "app/gui/tour_dialog.h"
#include "app/gui/welcome_dialog.h"
#include "scenarios/builtin_scenarios.h"
#include "tests/app/gui/gui_test_support.h"

#include <QCheckBox>
#include <QPushButton>
#include <QSettings>
#include <QTreeWidget>
#include <QtTest>

namespace {

QTreeWidgetItem* findEntry(QTreeWidget* tree, const QString& group, const QString& name) {
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* top = tree->topLevelItem(g);
        if (top->text(0) != group) continue;
        for (int i = 0; i < top->childCount(); ++i)
            if (top->child(i)->data(0, Qt::UserRole).toString() == name) return top->child(i);
    }
    return nullptr;
}

void click(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
}

std::string descriptionOf(const std::string& name) {
    scen::Scenario s;
    scen::ScenarioError e;
    return scen::loadScenario(name, s, e) ? s.description : e.text();
}

} // namespace

class TestWelcome : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { useTestSettings("tst_welcome"); }
    void theGalleryOpensAScenarioByMouse() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("kernel-hogs-waker"));
        w.show();
        WelcomeDialog* d = w.showWelcome();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QTreeWidget* tree = d->gallery();
        // Never empty: the first teaching scenario is on show, with its description.
        QCOMPARE(d->shownDescription().toStdString(), descriptionOf("kernel-hogs-waker"));
        QTreeWidgetItem* nice = findEntry(tree, "Nice and weight", "nice-pair");
        QVERIFY(nice);
        click(tree, nice);
        QCOMPARE(tree->currentItem(), nice);
        QCOMPARE(d->shownDescription().toStdString(), descriptionOf("nice-pair"));
        QTRY_VERIFY_WITH_TIMEOUT(d->previewShown(), 20000); // simulated on a worker thread
        QPushButton* open = d->findChild<QPushButton*>("openScenario");
        QVERIFY(open && open->isEnabled());
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(d->choice(), WelcomeDialog::Choice::Scenario);
        QTRY_COMPARE(QString::fromStdString(s.scenario().name), QString("nice-pair"));
        QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), QString("nice-pair"));
    }
    void anExperimentOpensAtItsQuickSizeWithThePublishedNumbers() {
        Session s;
        MainWindow w(&s);
        w.show();
        WelcomeDialog* d = w.showWelcome();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QTreeWidgetItem* x = findEntry(d->gallery(), "The seeds' experiments", "experiments/preempt-short");
        QVERIFY(x);
        click(d->gallery(), x);
        QVERIFY(d->shownDescription().contains("Published: cyclictest avg 0.448-0.475"));
        QTest::mouseDClick(d->gallery()->viewport(), Qt::LeftButton, {},
                           d->gallery()->visualItemRect(x).center());
        QTRY_COMPARE(QString::fromStdString(s.scenario().name), QString("experiments/preempt-short"));
        QCOMPARE(s.scenario().duration, 12 * sched::kNsPerSec);
    }
    void aGroupHeadingIsNotAChoiceAndShowAtStartIsRemembered() {
        Session s;
        MainWindow w(&s);
        w.show();
        WelcomeDialog* d = w.showWelcome();
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QTreeWidgetItem* heading = d->gallery()->topLevelItem(d->gallery()->topLevelItemCount() - 1);
        d->gallery()->setCurrentItem(heading);
        QVERIFY(!d->findChild<QPushButton*>("openScenario")->isEnabled());
        QCheckBox* atStart = d->findChild<QCheckBox*>();
        QVERIFY(atStart && atStart->isChecked() && WelcomeDialog::showAtStart());
        QTest::mouseClick(atStart, Qt::LeftButton, {}, QPoint(5, atStart->height() / 2));
        QVERIFY(!WelcomeDialog::showAtStart());
        d->reject();
    }
    void theTourStepsThroughItsPages() {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openScenario("fair-pair"));
        w.show();
        TourDialog* t = w.showTour();
        QVERIFY(QTest::qWaitForWindowExposed(t));
        QVERIFY(t->pages() >= 5);
        QSignalSpy done(t, &QDialog::accepted);
        for (int i = 0; i < t->pages(); ++i) {
            QCOMPARE(t->page(), i);
            t->next();
        }
        QCOMPARE(done.count(), 1);
    }
};

QTEST_MAIN(TestWelcome)
#include "tst_welcome.moc"
