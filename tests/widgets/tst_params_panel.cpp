// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters panel offers every kernel the engine models (kernel_rules.h) and shows the one a
// run uses; a feature bit that kernel does not have (NI_RANDOM before 6.18.5) is greyed out.
#include "tests/test_support.h"
#include "widgets/params_panel.h"

#include <QCheckBox>
#include <QComboBox>

using namespace sched;

namespace {
QCheckBox* featureBox(const view::ParamsPanel& p, const QString& name) {
    for (QCheckBox* b : p.findChildren<QCheckBox*>())
        if (b->text() == name) return b;
    return nullptr;
}
} // namespace

class TestParamsPanel : public QObject {
    Q_OBJECT
  private slots:
    void offersEveryKernelAndGreysFeaturesItLacks() {
        view::ParamsPanel panel;
        QComboBox* kernels = panel.findChild<QComboBox*>();
        QVERIFY(kernels);
        QCOMPARE(kernels->count(), int(kernelSpecs().size()));
        const std::string json = R"J({"machine": {"cpus": 2, "kernel": "KERNEL"},
          "tasks": [{"comm": "t", "behavior": [{"run": "1ms"}]}]})J";
        panel.sync(engineFrom(withModel(json, "6.18.44", "KERNEL")));
        QCOMPARE(kernels->currentData().toString(), QString("6.18.44"));
        QCheckBox* ni = featureBox(panel, "NI_RANDOM");
        QVERIFY(ni);
        QVERIFY(ni->isEnabled());
        panel.sync(engineFrom(withModel(json, "6.18", "KERNEL")));
        QCOMPARE(kernels->currentData().toString(), QString("6.18"));
        QVERIFY(!ni->isEnabled());
        QVERIFY(ni->toolTip().contains("not in kernel"));
        QVERIFY(featureBox(panel, "RUN_TO_PARITY")->isEnabled());
    }
};

QTEST_MAIN(TestParamsPanel)
#include "tst_params_panel.moc"
