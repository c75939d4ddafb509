// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/program_ops.h"

#include "app/gui/scenario_doc.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

using scen::JsonValue;

namespace program_ops {

namespace {

QString tr(const char* s, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("ProgramOps", s, disambiguation, n);
}

QString scalarText(const JsonValue& v) {
    switch (v.type) {
    case JsonValue::Type::Null:
        return "null";
    case JsonValue::Type::Bool:
        return v.boolean ? "true" : "false";
    case JsonValue::Type::Number:
    case JsonValue::Type::String:
        return QString::fromStdString(v.text);
    case JsonValue::Type::Array:
    case JsonValue::Type::Object:
        return QString::fromStdString(scen::writeJson(v, 1 << 20));
    }
    return {};
}

// A typed value: a number where it reads as one, true / false, JSON where it looks like it, else
// the text as a string.
JsonValue valueOf(const QString& text) {
    const QString t = text.trimmed();
    bool ok = false;
    if (const long long n = t.toLongLong(&ok); ok) return scen::jsonNumber(n);
    JsonValue v;
    if (t == "true" || t == "false") {
        v.type = JsonValue::Type::Bool;
        v.boolean = t == "true";
        return v;
    }
    scen::JsonError e;
    if ((t.startsWith('[') || t.startsWith('{')) && scen::parseJson(t.toStdString(), v, e)) return v;
    return scen::jsonString(t.toStdString());
}

const JsonValue* member(const JsonValue& o, const char* key) {
    return o.isObject() ? o.find(key) : nullptr;
}

// The list holding the operation at `path` (the top level or a repeat's body), or nullptr.
JsonValue* listOf(JsonValue& program, const OpPath& path) {
    if (path.empty() || !program.isArray()) return nullptr;
    JsonValue* list = &program;
    for (size_t i = 0; i + 1 < path.size(); ++i) {
        const int k = path[i];
        if (k < 0 || size_t(k) >= list->items.size()) return nullptr;
        JsonValue* body = scenario_doc::member(list->items[size_t(k)], "body");
        if (!body || !body->isArray()) return nullptr;
        list = body;
    }
    return path.back() >= 0 && size_t(path.back()) < list->items.size() ? list : nullptr;
}

JsonValue* mutableOpAt(JsonValue& program, const OpPath& path) {
    JsonValue* list = listOf(program, path);
    return list ? &list->items[size_t(path.back())] : nullptr;
}

bool fail(QString* error, const QString& why) {
    if (error) *error = why;
    return false;
}

} // namespace

// The member naming the operation: one of the loader's kinds wherever it stands in the object
// (scenario_reader_ops.cpp), else the first; -1 for what is not an object with members.
static int kindMember(const JsonValue& op) {
    static const char* const kinds[] = {"run",    "sleep", "cycle", "timer", "write",     "read",   "lock",
                                        "unlock", "fork",  "wait",  "yield", "slice_ext", "repeat", "exit"};
    if (!op.isObject() || op.members.empty()) return -1;
    for (size_t i = 0; i < op.members.size(); ++i)
        for (const char* k : kinds)
            if (op.members[i].first == k) return int(i);
    return 0;
}

QString kindOf(const JsonValue& op) {
    const int k = kindMember(op);
    return k < 0 ? QString() : QString::fromStdString(op.members[size_t(k)].first);
}

QString valueText(const JsonValue& op) {
    if (kindMember(op) < 0) return scalarText(op);
    const JsonValue& v = op.members[size_t(kindMember(op))].second;
    if (kindOf(op) == "cycle" && v.isArray()) return tr("%n class(es)", nullptr, int(v.items.size()));
    if (v.isArray()) return tr("%n value(s)", nullptr, int(v.items.size()));
    if (v.isObject()) { // a distribution: its kind and its scalar parameters
        QStringList parts;
        for (const auto& [key, m] : v.members) {
            if (key == "dist")
                parts.prepend(scalarText(m));
            else
                parts << QString::fromStdString(key) + " " +
                             (m.isArray() ? tr("(%n)", nullptr, int(m.items.size())) : scalarText(m));
        }
        return parts.join(", ");
    }
    return scalarText(v);
}

bool valueIsTyped(const JsonValue& op) {
    const int k = kindMember(op);
    return k >= 0 && !op.members[size_t(k)].second.isArray() && !op.members[size_t(k)].second.isObject();
}

QString optionsText(const JsonValue& op) {
    QStringList parts;
    const int kind = kindMember(op);
    for (size_t i = 0; kind >= 0 && i < op.members.size(); ++i) {
        const auto& [key, v] = op.members[i];
        if (int(i) == kind || key == "body") continue; // the value; the repeat's children in the tree
        parts << QString::fromStdString(key) + "=" + scalarText(v);
    }
    return parts.join(", ");
}

QString describe(const JsonValue& op) {
    const QString kind = kindOf(op);
    const JsonValue* first = kindMember(op) >= 0 ? &op.members[size_t(kindMember(op))].second : nullptr;
    const QString v = !first             ? QString()
                      : valueIsTyped(op) ? scalarText(*first)
                                         : tr("a drawn time (%1)").arg(valueText(op));
    const auto opt = [&](const char* key) {
        const JsonValue* m = member(op, key);
        return m ? scalarText(*m) : QString();
    };
    if (kind == "run") {
        const QString mode = opt("mode");
        if (mode == "kernel" || mode == "kernel-nopreempt") {
            QString s = mode == "kernel" ? tr("a system call: %1 of CPU in the kernel").arg(v)
                                         : tr("%1 in the kernel with preemption disabled").arg(v);
            if (!opt("cond_resched_every").isEmpty())
                s += tr(", cond_resched() every %1").arg(opt("cond_resched_every"));
            else if (!opt("might_resched_every").isEmpty())
                s += tr(", might_resched() every %1").arg(opt("might_resched_every"));
            else
                s += tr(", no cond_resched()");
            return s;
        }
        return tr("compute for %1 in user mode").arg(v);
    }
    if (kind == "sleep") {
        if (opt("jiffies") == "true")
            return (opt("idle") == "true"
                        ? tr("schedule_timeout_idle(): sleep %1 in TASK_IDLE, woken at a tick")
                        : tr("schedule_timeout(): sleep %1, woken at a tick"))
                .arg(v);
        return opt("idle") == "true" ? tr("sleep %1 in TASK_IDLE (prev_state=I)").arg(v)
                                     : tr("nanosleep() for %1").arg(v);
    }
    if (kind == "repeat") {
        if (v == "forever") return tr("repeat for ever:");
        bool ok = false;
        const long long n = v.toLongLong(&ok);
        return ok ? tr("repeat %n time(s):", nullptr, int(n))
                  : tr("repeat while the task is younger than %1:").arg(v);
    }
    if (kind == "timer") return tr("clock_nanosleep() to the next multiple of %1 (cyclictest)").arg(v);
    if (kind == "write") return tr("write a message to %1, blocking while it is full").arg(v);
    if (kind == "read") return tr("read a message from %1, blocking while it is empty").arg(v);
    if (kind == "fork") {
        const QString n = opt("count");
        return n.isEmpty() ? tr("fork a child running %1").arg(v)
                           : tr("fork %1 children running %2").arg(n, v);
    }
    if (kind == "wait") return v == "child" ? tr("reap one exited child") : tr("wait until no child is left");
    if (kind == "yield") return tr("sched_yield()");
    if (kind == "lock") return tr("mutex_lock(%1)").arg(v);
    if (kind == "unlock") return tr("mutex_unlock(%1)").arg(v);
    if (kind == "slice_ext")
        return v == "request" ? tr("ask for an RSEQ time-slice extension") : tr("rseq_slice_yield()");
    if (kind == "cycle") return tr("run, then sleep, with lengths drawn from classes (edit as JSON)");
    if (kind == "exit") return tr("exit");
    return tr("(see scenarios/README.md)");
}

const JsonValue* opAt(const JsonValue& program, const OpPath& path) {
    return mutableOpAt(const_cast<JsonValue&>(program), path);
}

bool insert(JsonValue& program, OpPath& where, const JsonValue& op) {
    if (program.type == JsonValue::Type::Null) program.type = JsonValue::Type::Array;
    if (!program.isArray()) return false;
    if (where.empty() || !listOf(program, where)) { // nothing selected: at the end
        program.items.push_back(op);
        where = {int(program.items.size()) - 1};
        return true;
    }
    JsonValue& sel = *mutableOpAt(program, where);
    if (kindOf(sel) == "repeat") {
        JsonValue* body = scenario_doc::member(sel, "body");
        if (!body) {
            JsonValue a;
            a.type = JsonValue::Type::Array;
            scen::setMember(sel, "body", a);
            body = &sel.members.back().second;
        }
        if (body->isArray()) {
            body->items.push_back(op);
            where.push_back(int(body->items.size()) - 1);
            return true;
        }
    }
    JsonValue* list = listOf(program, where);
    list->items.insert(list->items.begin() + where.back() + 1, op);
    ++where.back();
    return true;
}

bool remove(JsonValue& program, const OpPath& path) {
    JsonValue* list = listOf(program, path);
    if (!list) return false;
    list->items.erase(list->items.begin() + path.back());
    return true;
}

bool move(JsonValue& program, OpPath& path, int by) {
    JsonValue* list = listOf(program, path);
    if (!list) return false;
    const int to = path.back() + by;
    if (to < 0 || size_t(to) >= list->items.size()) return false;
    std::swap(list->items[size_t(path.back())], list->items[size_t(to)]);
    path.back() = to;
    return true;
}

bool wrapInRepeat(JsonValue& program, const OpPath& path) {
    JsonValue* op = mutableOpAt(program, path);
    if (!op) return false;
    JsonValue body;
    body.type = JsonValue::Type::Array;
    body.items.push_back(*op);
    JsonValue r = scen::jsonObject();
    scen::setMember(r, "repeat", scen::jsonNumber(2));
    scen::setMember(r, "body", body);
    *op = r;
    return true;
}

bool unwrap(JsonValue& program, const OpPath& path) {
    JsonValue* list = listOf(program, path);
    if (!list) return false;
    const JsonValue& op = list->items[size_t(path.back())];
    const JsonValue* body = member(op, "body");
    if (kindOf(op) != "repeat" || !body || !body->isArray()) return false;
    const std::vector<JsonValue> items = body->items;
    list->items.erase(list->items.begin() + path.back());
    list->items.insert(list->items.begin() + path.back(), items.begin(), items.end());
    return true;
}

bool setValue(JsonValue& program, const OpPath& path, const QString& text, QString* error) {
    JsonValue* op = mutableOpAt(program, path);
    if (!op || !op->isObject() || op->members.empty())
        return fail(error, tr("not an operation: edit it in the program's JSON"));
    if (!valueIsTyped(*op))
        return fail(error, tr("a distribution or a list of classes is edited in the program's JSON"));
    if (text.trimmed().isEmpty()) return fail(error, tr("an operation needs its value (e.g. 1ms)"));
    op->members[size_t(kindMember(*op))].second = valueOf(text);
    return true;
}

bool setOptions(JsonValue& program, const OpPath& path, const QString& text, QString* error) {
    JsonValue* op = mutableOpAt(program, path);
    if (!op || !op->isObject() || op->members.empty())
        return fail(error, tr("not an operation: edit it in the program's JSON"));
    std::vector<std::pair<std::string, JsonValue>> options;
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf('=');
        const QString key = part.left(eq).trimmed();
        if (eq <= 0 || key.isEmpty())
            return fail(
                error,
                tr("'%1' is not key=value (e.g. mode=kernel, cond_resched_every=100us)").arg(part.trimmed()));
        if (key == kindOf(*op) || key == "body")
            return fail(error, tr("'%1' is not an option of this operation").arg(key));
        for (const auto& o : options)
            if (o.first == key.toStdString()) return fail(error, tr("'%1' is given twice").arg(key));
        options.emplace_back(key.toStdString(), valueOf(part.mid(eq + 1)));
    }
    // Keep the kind first and the body last; replace the rest.
    std::vector<std::pair<std::string, JsonValue>> members{op->members[size_t(kindMember(*op))]};
    members.insert(members.end(), options.begin(), options.end());
    for (auto& m : op->members)
        if (m.first == "body") members.push_back(m);
    op->members = std::move(members);
    op->keyPos.assign(op->members.size(), scen::JsonPos{});
    return true;
}

std::optional<OpPath> pathInMessage(const QString& message, const QString& prefix) {
    if (prefix.isEmpty()) return std::nullopt;
    // The prefix at the start of the message's field, or after its "file:line:column: ".
    const QRegularExpression head("(?:^|: )" + QRegularExpression::escape(prefix) +
                                  R"(((?:\[\d+\](?:\.body)?)*))");
    const QRegularExpressionMatch m = head.match(message);
    if (!m.hasMatch()) return std::nullopt;
    OpPath path;
    static const QRegularExpression index(R"(\[(\d+)\])");
    for (auto it = index.globalMatch(m.captured(1)); it.hasNext();)
        path.push_back(it.next().captured(1).toInt());
    if (path.empty()) return std::nullopt;
    return path;
}

} // namespace program_ops
