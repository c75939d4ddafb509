// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/scenario_doc.h"

#include <QStringList>

namespace scenario_doc {

JsonValue cellValue(int column, const QString& text) {
    const QString t = text.trimmed();
    if (t.isEmpty()) return JsonValue{};
    bool ok = false;
    if (column == Count || column == Nice || column == Priority) {
        const long long n = t.toLongLong(&ok);
        if (ok) return scen::jsonNumber(n);
    }
    if (column == Cpus) {
        JsonValue list;
        list.type = JsonValue::Type::Array;
        for (const QString& part : t.split(',', Qt::SkipEmptyParts)) {
            const long long c = part.trimmed().toLongLong(&ok);
            if (!ok) return scen::jsonString(t.toStdString());
            list.items.push_back(scen::jsonNumber(c));
        }
        return list;
    }
    return scen::jsonString(t.toStdString());
}

QString cellText(const JsonValue* v) {
    if (!v) return {};
    if (v->isArray()) {
        QStringList parts;
        for (const JsonValue& i : v->items)
            parts << QString::fromStdString(i.text);
        return parts.join(',');
    }
    return QString::fromStdString(v->text);
}

JsonValue* member(JsonValue& object, const char* key) {
    for (auto& [k, v] : object.members)
        if (k == key) return &v;
    return nullptr;
}

JsonValue& machineOf(JsonValue& doc) {
    if (!member(doc, "machine")) scen::setMember(doc, "machine", scen::jsonObject());
    return *member(doc, "machine");
}

JsonValue parsed(const char* text) {
    JsonValue v;
    scen::JsonError e;
    scen::parseJson(text, v, e);
    return v;
}

namespace {

const JsonValue* taskAt(const JsonValue& doc, int row) {
    const JsonValue* tasks = doc.isObject() ? doc.find("tasks") : nullptr;
    if (!tasks || !tasks->isArray() || row < 0 || size_t(row) >= tasks->items.size()) return nullptr;
    const JsonValue& t = tasks->items[size_t(row)];
    return t.isObject() && !t.find("workload") ? &t : nullptr;
}

// The name of the shared program the task runs, or "" when it has its own.
std::string sharedName(const JsonValue& task) {
    const JsonValue* name = task.find("program");
    return name && name->isString() && !task.find("behavior") ? name->text : std::string();
}

} // namespace

const JsonValue* programOf(const JsonValue& doc, int row, QString* shared) {
    const JsonValue* t = taskAt(doc, row);
    if (!t) return nullptr;
    const std::string name = sharedName(*t);
    if (shared) *shared = QString::fromStdString(name);
    if (name.empty()) return t->find("behavior");
    const JsonValue* progs = doc.find("programs");
    return progs && progs->isObject() ? progs->find(name) : nullptr;
}

void setProgramOf(JsonValue& doc, int row, const JsonValue& program) {
    const JsonValue* t = taskAt(doc, row);
    if (!t) return;
    const std::string name = sharedName(*t);
    if (name.empty()) {
        scen::setMember(member(doc, "tasks")->items[size_t(row)], "behavior", program);
        return;
    }
    if (!member(doc, "programs")) scen::setMember(doc, "programs", scen::jsonObject());
    scen::setMember(*member(doc, "programs"), name, program);
}

QString programPrefix(const JsonValue& doc, int row) {
    const JsonValue* t = taskAt(doc, row);
    if (!t) return {};
    const std::string name = sharedName(*t);
    return name.empty() ? QString("tasks[%1].behavior").arg(row) : QString::fromStdString("programs." + name);
}

bool hasComments(const std::string& text) {
    bool inString = false;
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '/' && text[i + 1] == '/') {
            return true;
        }
    }
    return false;
}

} // namespace scenario_doc
