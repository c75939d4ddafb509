// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario editor's document (scenario_editor.h): the scenario file's JSON tree, read and
// changed through the fields the form shows — a task row's cells, the machine object.
#pragma once

#include "scenarios/json_value.h"

#include <QString>
#include <string>

namespace scenario_doc {

using scen::JsonValue;

// The tasks table's columns and the task fields they edit.
enum Column { Comm, Count, Policy, Nice, Priority, Slice, Cpus, Start, Columns };
inline const char* const kKeys[Columns] = {"comm",     "count", "policy", "nice",
                                           "priority", "slice", "cpus",   "start"};

// What a cell's text becomes in the file: a number where it reads as one, a list of CPUs, else a
// string (the loader says what is wrong with it); empty removes the field.
JsonValue cellValue(int column, const QString& text);
// A field as the cell shows it (a list of CPUs as 0,1).
QString cellText(const JsonValue* v);
// An object's member, or nullptr.
JsonValue* member(JsonValue& object, const char* key);
// The document's "machine" object, added when missing.
JsonValue& machineOf(JsonValue& doc);
// A built-in JSON text (an operation template, a new task) as a value.
JsonValue parsed(const char* text);
// The program a task row runs: its own "behavior", or the entry of "programs" its "program" names
// (shared by every task that names it; `shared` is then that name). nullptr for a workload entry,
// a row that is not a task or a name without an entry.
const JsonValue* programOf(const JsonValue& doc, int row, QString* shared = nullptr);
// Sets that program (the shared entry where the task names one, else the task's "behavior").
void setProgramOf(JsonValue& doc, int row, const JsonValue& program);
// What the loader's messages call that program's fields: "tasks[2].behavior" or "programs.worker".
QString programPrefix(const JsonValue& doc, int row);
// Whether the text has // comments outside strings (the editor writes files without them).
bool hasComments(const std::string& text);

} // namespace scenario_doc
