// SPDX-License-Identifier: GPL-3.0-or-later
// A small JSON reader that remembers where every value starts (line, column), so that a
// scenario error can point at the exact field. QJsonDocument reports only the offset of syntax
// errors, not where a well-formed but wrong value sits. Plain C++, no Qt.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scen {

struct JsonPos {
    int line = 1, column = 1;
};

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    JsonPos pos;
    bool boolean = false;
    double number = 0;
    std::string text;                                       // string value, or the number's literal text
    std::vector<JsonValue> items;                           // Array
    std::vector<std::pair<std::string, JsonValue>> members; // Object, in file order
    std::vector<JsonPos> keyPos;                            // Object: where each key starts

    // Defined in the .cpp, where JsonValue is complete: std::pair<std::string, JsonValue> may not
    // be instantiated inside the class (Clang does it for the implicit constexpr destructor).
    JsonValue();
    JsonValue(const JsonValue&);
    JsonValue(JsonValue&&) noexcept;
    JsonValue& operator=(const JsonValue&);
    JsonValue& operator=(JsonValue&&) noexcept;
    ~JsonValue();

    bool isObject() const { return type == Type::Object; }
    bool isArray() const { return type == Type::Array; }
    bool isString() const { return type == Type::String; }
    bool isNumber() const { return type == Type::Number; }
    bool isBool() const { return type == Type::Bool; }
    const JsonValue* find(const std::string& key) const;
    // Integer value if this is a number literal without fraction or exponent.
    std::optional<long long> integer() const;
};

std::string jsonTypeName(JsonValue::Type t);

struct JsonError {
    JsonPos pos;
    std::string message;
};

// Parses UTF-8 JSON text. Duplicate keys are an error (a typo-safe format for humans).
bool parseJson(const std::string& text, JsonValue& out, JsonError& err);

// The value as JSON text: objects and arrays of scalars on one line while they fit in `width`
// columns, else one member or item per line, indented by two spaces per level (how the built-in
// scenarios are written). Numbers keep their literal text; comments are not kept.
std::string writeJson(const JsonValue& v, int width = 100);

// Builders for editing a document (the scenario editor).
JsonValue jsonString(const std::string& s);
JsonValue jsonNumber(long long n);
JsonValue jsonObject();
// Sets key in an object (appended if new); removes it when value is null.
void setMember(JsonValue& object, const std::string& key, JsonValue value);

} // namespace scen
