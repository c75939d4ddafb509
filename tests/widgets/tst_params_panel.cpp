// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters panel offers every kernel the engine models (kernel_rules.h) and shows the one a
// run uses; a feature bit that kernel does not have (NI_RANDOM before 6.18.5) is greyed out.
#include "tests/test_support.h"
#include "widgets/params_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStandardItemModel>

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
        // Every bit says what it changes.
        for (size_t k = 0; k < kFeatureCount; ++k) {
            const QString name = QString::fromUtf8(featureName(Feature(k)).data());
            QVERIFY2(featureBox(panel, name)->toolTip().size() > 40, qPrintable(name));
        }
    }

    // 7.0 builds only full and lazy where lazy preemption exists: the other models are greyed and
    // say why; the architecture chooser shows the run's, and arm keeps voluntary.
    void greysTheModelsAKernelDoesNotBuildAndSaysWhy() {
        view::ParamsPanel panel;
        QComboBox *model = nullptr, *arch = nullptr;
        for (QComboBox* c : panel.findChildren<QComboBox*>()) {
            if (c->findText("lazy") >= 0) model = c;
            if (c->findText("x86_64") >= 0) arch = c;
        }
        QVERIFY(model && arch);
        const auto item = [&](const char* name) {
            return qobject_cast<QStandardItemModel*>(model->model())->item(model->findText(name));
        };
        const std::string json = R"J({"machine": {"cpus": 2, "kernel": "7.0" ARCH},
          "tasks": [{"comm": "t", "behavior": [{"run": "1ms"}]}]})J";
        panel.sync(engineFrom(withModel(json, "", "ARCH")));
        QCOMPARE(arch->currentText(), QString("x86_64"));
        QCOMPARE(model->currentText(), QString("lazy")); // the kernel's default
        QVERIFY(!item("none")->isEnabled() && !item("voluntary")->isEnabled());
        QVERIFY(item("full")->isEnabled() && item("lazy")->isEnabled());
        QVERIFY2(item("none")->toolTip().contains("7dadeaa6e851"), qPrintable(item("none")->toolTip()));
        QVERIFY(item("full")->toolTip().isEmpty());
        panel.sync(engineFrom(withModel(json, R"(, "arch": "arm")", "ARCH")));
        QCOMPARE(arch->currentText(), QString("arm"));
        QCOMPARE(model->currentText(), QString("voluntary"));
        QVERIFY(item("voluntary")->isEnabled() && !item("none")->isEnabled() && !item("lazy")->isEnabled());
        QVERIFY(item("lazy")->toolTip().contains("no lazy preemption"));
    }
};

QTEST_MAIN(TestParamsPanel)
#include "tst_params_panel.moc"
