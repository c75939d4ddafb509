// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenarios/json_value.h"

#include "base/json_text.h"

#include <cstdint>
#include <cstdio>

#include <cstdlib>

namespace scen {

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(const std::string& key) const {
    for (const auto& m : members)
        if (m.first == key) return &m.second;
    return nullptr;
}

std::optional<long long> JsonValue::integer() const {
    if (type != Type::Number || text.find_first_of(".eE") != std::string::npos) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno || !end || *end) return std::nullopt;
    return v;
}

std::string jsonTypeName(JsonValue::Type t) {
    switch (t) {
    case JsonValue::Type::Null:
        return "null";
    case JsonValue::Type::Bool:
        return "a boolean";
    case JsonValue::Type::Number:
        return "a number";
    case JsonValue::Type::String:
        return "a string";
    case JsonValue::Type::Array:
        return "an array";
    case JsonValue::Type::Object:
        return "an object";
    }
    return "?";
}

namespace {

class Parser {
  public:
    Parser(const std::string& t, JsonError& e) : s_(t), err_(e) {}

    bool document(JsonValue& out) {
        skipWs();
        if (!value(out, 0)) return false;
        skipWs();
        if (i_ < s_.size()) return fail("unexpected text after the end of the document");
        return true;
    }

  private:
    JsonPos here() const { return {line_, int(i_ - lineStart_) + 1}; }
    bool fail(const std::string& m) {
        err_.pos = here();
        err_.message = m;
        return false;
    }
    void skipWs() {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') {
                ++line_;
                lineStart_ = ++i_;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++i_;
            } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
                // // comments are accepted: scenario files are meant to be annotated by hand
                while (i_ < s_.size() && s_[i_] != '\n')
                    ++i_;
            } else {
                break;
            }
        }
    }
    bool literal(const char* word, JsonValue& out, JsonValue::Type t, bool b) {
        size_t n = 0;
        while (word[n])
            ++n;
        if (s_.compare(i_, n, word) != 0)
            return fail("unknown word; expected a value (string, number, object, array, true, false, null)");
        out.type = t;
        out.boolean = b;
        i_ += n;
        return true;
    }
    bool value(JsonValue& out, int depth) {
        if (depth > 64) return fail("nesting deeper than 64 levels");
        out.pos = here();
        if (i_ >= s_.size()) return fail("unexpected end of file; a value was expected");
        const char c = s_[i_];
        if (c == '{') return object(out, depth);
        if (c == '[') return array(out, depth);
        if (c == '"') {
            out.type = JsonValue::Type::String;
            return string(out.text);
        }
        if (c == 't') return literal("true", out, JsonValue::Type::Bool, true);
        if (c == 'f') return literal("false", out, JsonValue::Type::Bool, false);
        if (c == 'n') return literal("null", out, JsonValue::Type::Null, false);
        if (c == '-' || (c >= '0' && c <= '9')) return number(out);
        return fail(std::string("unexpected character '") + c + "'; expected a value");
    }
    bool number(JsonValue& out) {
        const size_t start = i_;
        if (s_[i_] == '-') ++i_;
        auto digits = [&] {
            const size_t b = i_;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9')
                ++i_;
            return i_ > b;
        };
        if (!digits()) return fail("malformed number");
        if (i_ < s_.size() && s_[i_] == '.') {
            ++i_;
            if (!digits()) return fail("malformed number: digits expected after '.'");
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            if (!digits()) return fail("malformed number: digits expected in the exponent");
        }
        out.type = JsonValue::Type::Number;
        out.text = s_.substr(start, i_ - start);
        out.number = std::strtod(out.text.c_str(), nullptr);
        return true;
    }
    bool string(std::string& out) {
        ++i_; // opening quote
        out.clear();
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '"') {
                ++i_;
                return true;
            }
            if (c == '\n') return fail("line break inside a string (a closing '\"' is missing)");
            if (c == '\\') {
                if (++i_ >= s_.size()) break;
                const char e = s_[i_++];
                switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'u': {
                    if (i_ + 4 > s_.size()) return fail("truncated \\u escape");
                    const unsigned cp = unsigned(std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16));
                    i_ += 4;
                    if (cp < 0x80)
                        out += char(cp);
                    else if (cp < 0x800) {
                        out += char(0xC0 | (cp >> 6));
                        out += char(0x80 | (cp & 0x3F));
                    } else {
                        out += char(0xE0 | (cp >> 12));
                        out += char(0x80 | ((cp >> 6) & 0x3F));
                        out += char(0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default:
                    return fail(std::string("unknown escape '\\") + e + "'");
                }
                continue;
            }
            out += c;
            ++i_;
        }
        return fail("unexpected end of file inside a string");
    }
    bool array(JsonValue& out, int depth) {
        out.type = JsonValue::Type::Array;
        ++i_;
        skipWs();
        if (i_ < s_.size() && s_[i_] == ']') {
            ++i_;
            return true;
        }
        for (;;) {
            JsonValue v;
            skipWs();
            if (!value(v, depth + 1)) return false;
            out.items.push_back(std::move(v));
            skipWs();
            if (i_ >= s_.size()) return fail("unexpected end of file in an array; ']' expected");
            if (s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (s_[i_] == ']') {
                ++i_;
                return true;
            }
            return fail("expected ',' or ']' in an array");
        }
    }
    bool object(JsonValue& out, int depth) {
        out.type = JsonValue::Type::Object;
        ++i_;
        skipWs();
        if (i_ < s_.size() && s_[i_] == '}') {
            ++i_;
            return true;
        }
        for (;;) {
            skipWs();
            if (i_ >= s_.size() || s_[i_] != '"') return fail("expected a field name in double quotes");
            const JsonPos kp = here();
            std::string key;
            if (!string(key)) return false;
            if (out.find(key)) {
                err_.pos = kp;
                err_.message = "field '" + key + "' appears twice in the same object";
                return false;
            }
            skipWs();
            if (i_ >= s_.size() || s_[i_] != ':') return fail("expected ':' after field name '" + key + "'");
            ++i_;
            skipWs();
            JsonValue v;
            if (!value(v, depth + 1)) return false;
            out.members.emplace_back(std::move(key), std::move(v));
            out.keyPos.push_back(kp);
            skipWs();
            if (i_ >= s_.size()) return fail("unexpected end of file in an object; '}' expected");
            if (s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (s_[i_] == '}') {
                ++i_;
                return true;
            }
            return fail("expected ',' or '}' in an object");
        }
    }

    const std::string& s_;
    JsonError& err_;
    size_t i_ = 0, lineStart_ = 0;
    int line_ = 1;
};

} // namespace

bool parseJson(const std::string& text, JsonValue& out, JsonError& err) {
    Parser p(text, err);
    return p.document(out);
}

namespace {

std::string scalar(const JsonValue& v) {
    switch (v.type) {
    case JsonValue::Type::Null:
        return "null";
    case JsonValue::Type::Bool:
        return v.boolean ? "true" : "false";
    case JsonValue::Type::Number:
        return v.text;
    case JsonValue::Type::String:
        return sched::jsonQuote(v.text);
    default:
        return {};
    }
}

// The value on one line, or nothing if it does not fit in `room` columns.
std::optional<std::string> oneLine(const JsonValue& v, int room) {
    if (!v.isArray() && !v.isObject()) return scalar(v); // a scalar is written whatever the room
    if (room < 0) return std::nullopt;
    std::string o = v.isArray() ? "[" : "{ ";
    const size_t n = v.isArray() ? v.items.size() : v.members.size();
    for (size_t i = 0; i < n; ++i) {
        if (i) o += ", ";
        if (v.isObject()) o += sched::jsonQuote(v.members[i].first) + ": ";
        const auto inner = oneLine(v.isArray() ? v.items[i] : v.members[i].second, room - int(o.size()));
        if (!inner) return std::nullopt;
        o += *inner;
        if (int(o.size()) > room) return std::nullopt;
    }
    o += v.isArray() ? "]" : (n ? " }" : "}");
    if (v.isObject() && n == 0) o = "{}";
    if (int(o.size()) > room) return std::nullopt;
    return o;
}

void write(const JsonValue& v, int indent, int width, std::string& out) {
    if (const auto line = oneLine(v, width - indent)) {
        out += *line;
        return;
    }
    const std::string pad(size_t(indent + 2), ' ');
    const size_t n = v.isArray() ? v.items.size() : v.members.size();
    out += v.isArray() ? "[\n" : "{\n";
    for (size_t i = 0; i < n; ++i) {
        out += pad;
        if (v.isObject()) out += sched::jsonQuote(v.members[i].first) + ": ";
        write(v.isArray() ? v.items[i] : v.members[i].second, indent + 2, width, out);
        out += i + 1 < n ? ",\n" : "\n";
    }
    out += std::string(size_t(indent), ' ') + (v.isArray() ? "]" : "}");
}

} // namespace

std::string writeJson(const JsonValue& v, int width) {
    std::string out;
    write(v, 0, width, out);
    return out + "\n";
}

JsonValue jsonString(const std::string& s) {
    JsonValue v;
    v.type = JsonValue::Type::String;
    v.text = s;
    return v;
}

JsonValue jsonNumber(long long n) {
    JsonValue v;
    v.type = JsonValue::Type::Number;
    v.number = double(n);
    v.text = std::to_string(n);
    return v;
}

JsonValue jsonObject() {
    JsonValue v;
    v.type = JsonValue::Type::Object;
    return v;
}

void setMember(JsonValue& object, const std::string& key, JsonValue value) {
    for (size_t i = 0; i < object.members.size(); ++i)
        if (object.members[i].first == key) {
            if (value.type == JsonValue::Type::Null) {
                object.members.erase(object.members.begin() + std::ptrdiff_t(i));
                object.keyPos.erase(object.keyPos.begin() + std::ptrdiff_t(i));
            } else {
                object.members[i].second = std::move(value);
            }
            return;
        }
    if (value.type == JsonValue::Type::Null) return;
    object.members.emplace_back(key, std::move(value));
    object.keyPos.push_back(JsonPos{});
}

} // namespace scen
