// SPDX-License-Identifier: GPL-3.0-or-later
// The welcome screen: what SchedScope is in a few lines, and a gallery of every scenario it ships
// in teaching order (scenarios/gallery.h) plus the recent files, each with its description, its
// machine and a preview of its first moments. Opens at the first start (and until the user
// unticks "Show at start"), and from Help > Welcome.
#pragma once

#include "base/types.h"
#include "scenarios/scenario.h"

#include "app/gui/job_runner.h"
#include <QDialog>

#include <QHash>
#include <QImage>

class QCheckBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

class WelcomeDialog : public QDialog {
    Q_OBJECT
  public:
    enum class Choice { None, Scenario, ScenarioFile, Trace };
    explicit WelcomeDialog(const QStringList& recentFiles, QWidget* parent = nullptr);
    ~WelcomeDialog() override;
    Choice choice() const { return choice_; }
    QString chosenScenario() const { return chosen_; } // a loadScenario() name or a file path
    QTreeWidget* gallery() const { return tree_; }
    QString shownDescription() const; // the description on show (for tests)
    bool previewShown() const;        // its preview has arrived and is on show
    static bool showAtStart();        // the user's "Show at start" setting

  private:
    void showEntry(QTreeWidgetItem* item);
    void requestPreview(const scen::Scenario& s, const QString& name);
    void setPreview(const QImage& img, sched::Time duration);
    void finishWith(Choice c);

    QTreeWidget* tree_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* facts_ = nullptr;
    QLabel* description_ = nullptr;
    QLabel* preview_ = nullptr;
    QLabel* previewCaption_ = nullptr;
    QPushButton* open_ = nullptr;
    QCheckBox* atStart_ = nullptr;
    Choice choice_ = Choice::None;
    QString chosen_;
    QHash<QString, QImage> previews_; // by scenario name, drawn once per dialog
    JobRunner previewJobs_;           // one at a time: a newer selection drops the older preview
};
