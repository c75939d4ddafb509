// SPDX-License-Identifier: GPL-3.0-or-later
// A task's program (its "behavior": a list of operations, repeats holding lists of their own) as
// the structured program editor reads and changes it: an operation is addressed by its path of
// indices through the repeats' bodies; its kind is its first key ("run", "sleep", "repeat", ...),
// its value that key's value and its options every other member but a repeat's body. Every change
// returns a new list and keeps the members it does not touch, so fields the editor does not know
// survive an edit.
#pragma once

#include "scenarios/json_value.h"

#include <QString>
#include <optional>
#include <vector>

namespace program_ops {

using scen::JsonValue;
using OpPath = std::vector<int>; // indices: the top-level list, then each repeat's body

QString kindOf(const JsonValue& op);      // the first key, or "" for what is not an operation object
QString valueText(const JsonValue& op);   // a distribution as "empirical, quantiles (20)"
bool valueIsTyped(const JsonValue& op);   // a scalar value, typed in place (not a distribution or list)
QString optionsText(const JsonValue& op); // "mode=kernel, cond_resched_every=100us"
// What the operation does, in a few words (the tree's last column).
QString describe(const JsonValue& op);

// The operation at a path, or nullptr.
const JsonValue* opAt(const JsonValue& program, const OpPath& path);

// The changes. Each returns false (and leaves the program as it was) where the path does not
// name an operation the change applies to; `error` then says why, for the status line.
// New operations go into the body of a selected repeat, else after the selected operation, else
// at the end; `where` becomes the new operation's path.
bool insert(JsonValue& program, OpPath& where, const JsonValue& op);
bool remove(JsonValue& program, const OpPath& path);
bool move(JsonValue& program, OpPath& path, int by); // within its list; path follows the operation
bool wrapInRepeat(JsonValue& program, const OpPath& path);
bool unwrap(JsonValue& program, const OpPath& path); // a repeat becomes its body's operations
// The value typed into the Value column: a number where it reads as one (a repeat's count), true
// and false, else a string; the loader says what is wrong with it.
bool setValue(JsonValue& program, const OpPath& path, const QString& text, QString* error);
// The options typed as key=value pairs separated by commas; an empty text removes them all.
bool setOptions(JsonValue& program, const OpPath& path, const QString& text, QString* error);

// The operation a loader message points at ("tasks[2].behavior[1].body[0].sleep: ..."), in the
// program the message calls `prefix` ("tasks[2].behavior", or "programs.worker" for a shared
// one); nullopt when the message is about something else.
std::optional<OpPath> pathInMessage(const QString& message, const QString& prefix);

} // namespace program_ops
