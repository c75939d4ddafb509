// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/welcome_dialog.h"

#include "app/gui/scenario_preview.h"
#include "base/duration.h"
#include "scenarios/builtin_scenarios.h"
#include "scenarios/gallery.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

constexpr int kNameRole = Qt::UserRole;      // the loadScenario() name or file path
constexpr int kBlurbRole = Qt::UserRole + 1; // the group's one line
constexpr QSize kPreviewBox(520, 200);

// "4 CPUs, HZ 250, kernel 6.12, preempt=full, 12 s, 15 tasks"
QString facts(const scen::Scenario& s) {
    int tasks = 0;
    for (const scen::TaskGroupSpec& g : s.tasks)
        tasks += g.count;
    const sched::SchedConfig& c = s.config;
    return QObject::tr("%1 CPU(s), HZ %2, kernel %3, preempt=%4, %5, %6 task(s)")
        .arg(c.cpus)
        .arg(c.hz)
        .arg(QString::fromUtf8(sched::kernelSpecName(c.build, c.profile).data()))
        .arg(QString::fromUtf8(sched::preemptModelName(c.preempt).data()))
        .arg(QString::fromStdString(sched::formatDuration(s.duration)))
        .arg(tasks);
}

} // namespace

WelcomeDialog::WelcomeDialog(const QStringList& recentFiles, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Welcome to SchedScope"));
    auto* lay = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("<h2>SchedScope, a laboratory for the Linux CPU scheduler</h2>"
           "<p>It simulates the kernel's scheduler event by event: EEVDF with its virtual time, lag and "
           "deadlines, the preemption models none, voluntary, full and lazy, and the need-resched bits "
           "TIF_NEED_RESCHED and TIF_NEED_RESCHED_LAZY. Each CPU is a lane of coloured slices; the "
           "chart below it follows each task's vruntime, deadline and lag; real machines' traces open "
           "beside a simulation for comparison.</p>"
           "<p>Pick a scenario and open it, then press <b>Play</b> (Space) or <b>Step</b>; click a "
           "slice to ask the inspector why that task ran. Help &gt; Tour explains what you see.</p>"),
        this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    lay->addWidget(intro);

    auto* split = new QSplitter(Qt::Horizontal, this);
    tree_ = new QTreeWidget(split);
    tree_->setHeaderHidden(true);
    tree_->setColumnCount(1);
    tree_->setObjectName("gallery");
    QFont groupFont = tree_->font();
    groupFont.setBold(true);
    const auto addGroup = [&](const QString& title, const QString& blurb) {
        auto* g = new QTreeWidgetItem(tree_, {title});
        g->setFont(0, groupFont);
        g->setFlags(Qt::ItemIsEnabled); // a heading, not a choice
        g->setToolTip(0, blurb);
        g->setData(0, kBlurbRole, blurb);
        g->setExpanded(true);
        return g;
    };
    if (!recentFiles.isEmpty()) {
        QTreeWidgetItem* g = addGroup(tr("Recent"), tr("Scenarios you opened lately."));
        for (const QString& r : recentFiles) {
            auto* it = new QTreeWidgetItem(g, {QFileInfo(r).isAbsolute() ? QFileInfo(r).fileName() : r});
            it->setData(0, kNameRole, r);
            it->setData(0, kBlurbRole, g->data(0, kBlurbRole));
            it->setToolTip(0, r);
        }
    }
    for (const scen::GalleryGroup& group : scen::galleryGroups()) {
        QTreeWidgetItem* g =
            addGroup(QString::fromStdString(group.title), QString::fromStdString(group.blurb));
        for (const std::string& name : group.names) {
            const QString n = QString::fromStdString(name);
            auto* it = new QTreeWidgetItem(g, {n.section('/', -1)});
            it->setData(0, kNameRole, n);
            it->setData(0, kBlurbRole, g->data(0, kBlurbRole));
            it->setToolTip(0, n);
        }
    }
    tree_->expandAll();

    auto* detail = new QWidget(split);
    auto* dl = new QVBoxLayout(detail);
    title_ = new QLabel(detail);
    QFont tf = title_->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.25);
    title_->setFont(tf);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    facts_ = new QLabel(detail);
    facts_->setWordWrap(true);
    facts_->setForegroundRole(QPalette::PlaceholderText);
    description_ = new QLabel(detail);
    description_->setWordWrap(true);
    description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* scroll = new QScrollArea(detail); // a long description scrolls instead of being cut
    scroll->setWidget(description_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    preview_ = new QLabel(detail);
    preview_->setFixedHeight(kPreviewBox.height()); // the text below does not jump as previews arrive
    preview_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    previewCaption_ = new QLabel(detail);
    previewCaption_->setForegroundRole(QPalette::PlaceholderText);
    dl->addWidget(title_);
    dl->addWidget(facts_);
    dl->addWidget(previewCaption_);
    dl->addWidget(preview_);
    dl->addWidget(scroll, 1);
    split->addWidget(tree_);
    split->addWidget(detail);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({260, 560});
    lay->addWidget(split, 1);

    auto* bottom = new QHBoxLayout;
    atStart_ = new QCheckBox(tr("Show at start"), this);
    atStart_->setChecked(showAtStart());
    connect(atStart_, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue("showWelcome", on); });
    bottom->addWidget(atStart_);
    bottom->addStretch(1);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* trace = buttons->addButton(tr("Open &trace..."), QDialogButtonBox::ActionRole);
    QPushButton* file = buttons->addButton(tr("Open &file..."), QDialogButtonBox::ActionRole);
    open_ = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    open_->setObjectName("openScenario");
    open_->setDefault(true);
    buttons->addButton(QDialogButtonBox::Close);
    connect(trace, &QPushButton::clicked, this, [this] { finishWith(Choice::Trace); });
    connect(file, &QPushButton::clicked, this, [this] { finishWith(Choice::ScenarioFile); });
    connect(open_, &QPushButton::clicked, this, [this] { finishWith(Choice::Scenario); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    bottom->addWidget(buttons);
    lay->addLayout(bottom);

    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) { showEntry(it); });
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* it) {
        if (!it->data(0, kNameRole).toString().isEmpty()) finishWith(Choice::Scenario);
    });
    // The first teaching scenario is on show: the dialog never opens empty.
    for (int g = 0; g < tree_->topLevelItemCount(); ++g)
        if (QTreeWidgetItem* top = tree_->topLevelItem(g); top->text(0) == tr("Preemption models")) {
            tree_->setCurrentItem(top->child(0));
            break;
        }
    resize(920, 640);
}

WelcomeDialog::~WelcomeDialog() = default; // previewJobs_ waits for a preview still drawing
bool WelcomeDialog::showAtStart() {
    return QSettings().value("showWelcome", true).toBool();
}

QString WelcomeDialog::shownDescription() const {
    return description_->text();
}
bool WelcomeDialog::previewShown() const {
    return !preview_->pixmap().isNull();
}

void WelcomeDialog::showEntry(QTreeWidgetItem* item) {
    const QString name = item ? item->data(0, kNameRole).toString() : QString();
    open_->setEnabled(!name.isEmpty());
    if (name.isEmpty()) { // a group heading: its one line
        title_->setText(item ? item->text(0) : QString());
        facts_->clear();
        description_->setText(item ? item->data(0, kBlurbRole).toString() : QString());
        preview_->clear();
        previewCaption_->clear();
        return;
    }
    scen::Scenario s;
    scen::ScenarioError err;
    title_->setText(name);
    if (!scen::loadScenario(name.toStdString(), s, err)) {
        facts_->clear();
        description_->setText(tr("Cannot open: %1").arg(QString::fromStdString(err.text())));
        preview_->clear();
        previewCaption_->clear();
        open_->setEnabled(false);
        return;
    }
    facts_->setText(facts(s));
    description_->setText(QString::fromStdString(s.description));
    if (const auto it = previews_.constFind(name); it != previews_.constEnd()) {
        setPreview(*it, s.duration);
    } else {
        preview_->clear();
        previewCaption_->setText(tr("Simulating a preview..."));
        requestPreview(s, name);
    }
}

void WelcomeDialog::setPreview(const QImage& img, sched::Time duration) {
    preview_->setPixmap(QPixmap::fromImage(img));
    previewCaption_->setText(
        tr("Its first %1, simulated:")
            .arg(QString::fromStdString(sched::formatDuration(std::min(kPreviewSpan, duration)))));
}

// On the JobRunner's worker thread (the preview is a QImage, no widget); a later selection
// cancels it (the run stops within 5 ms of simulated time) and its picture is dropped.
void WelcomeDialog::requestPreview(const scen::Scenario& s, const QString& name) {
    const QPalette pal = palette();
    const QFont font = this->font();
    previewJobs_.start<QImage>(
        [s, pal, font](JobControl& job) {
            return scenarioPreview(s, kPreviewBox, pal, font, [&job] { return job.cancelled(); });
        },
        [this, name, duration = s.duration](QImage img) {
            if (img.isNull()) return; // cancelled: a newer selection's preview is coming
            previews_.insert(name, img);
            const QTreeWidgetItem* cur = tree_->currentItem();
            if (cur && cur->data(0, kNameRole).toString() == name) setPreview(img, duration);
        });
}

void WelcomeDialog::finishWith(Choice c) {
    const QTreeWidgetItem* cur = tree_->currentItem();
    chosen_ = cur ? cur->data(0, kNameRole).toString() : QString();
    if (c == Choice::Scenario && chosen_.isEmpty()) return;
    choice_ = c;
    accept();
}
