// Typed, path-aware reads of one JSON object, for the report reader (codec/json_reader.h).
// Every read names the key's JSON path in the first error it meets
// ("targets[0].probes[2].ops: expected a number, got string"); after an error every read returns
// its default, so a reader reads on and checks error() once at the end. Unknown keys are ignored
// and null reads as the default (a newer writer may add keys, and writes null for a value it
// does not know).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/names.h"
#include "text/units.h"

namespace durprobe::codec {

// Times in a report are ns since the run started, written as seconds; the two conversions are
// exact both ways for any run shorter than a day, so a report read back writes the same bytes.
inline double SecondsSinceStart(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }
inline std::uint64_t NanosSinceStart(double seconds) {
  return seconds > 0 ? static_cast<std::uint64_t>(std::llround(seconds * 1e9)) : 0;
}

// Required: absent is an error (null is not: the writer writes null for "not known").
enum class Need { kOptional, kRequired };

class JsonFields {
 public:
  // `object` must outlive this; `error` receives the first error and is shared by every
  // JsonFields made from this one. A null or absent object reads as empty.
  JsonFields(const nlohmann::json* object, std::string path, std::string* error);

  const std::string& path() const { return path_; }
  bool present() const { return object_ != nullptr; }
  bool Has(const char* key) const;  // present and not null
  // Records "PATH.key: message" (or "PATH: message" with no key) unless an error is recorded.
  void Fail(const std::string& message, const char* key = nullptr) const;

  std::string String(const char* key, Need need = Need::kOptional) const;
  double Double(const char* key, Need need = Need::kOptional) const;
  std::uint64_t Uint(const char* key, Need need = Need::kOptional) const;
  std::int64_t Int(const char* key, Need need = Need::kOptional) const;
  bool Bool(const char* key, Need need = Need::kOptional, bool fallback = false) const;
  std::optional<bool> OptionalBool(const char* key, Need need = Need::kOptional) const;
  std::optional<double> OptionalDouble(const char* key, Need need = Need::kOptional) const;
  std::vector<std::string> Strings(const char* key, Need need = Need::kOptional) const;
  std::vector<double> Doubles(const char* key, Need need = Need::kOptional) const;
  // The object under key; empty (present() false) when null or absent.
  JsonFields Object(const char* key, Need need = Need::kOptional) const;
  // Calls read for each element of the array under key, each an object.
  void Each(const char* key, Need need, const std::function<void(const JsonFields&)>& read) const;
  // The value under key as it is, or null (a block read as JSON, not as typed fields).
  nlohmann::json Raw(const char* key) const;
  // The keys of the object (for maps written as objects).
  std::vector<std::string> Keys() const;

  // A name the writer spelled from an enumeration, matched case-insensitively against names
  // (whose keys are lower-case); fallback when null or absent.
  template <typename E>
  E Enum(const char* key, const std::map<std::string, E>& names, E fallback,
         Need need = Need::kOptional) const {
    const nlohmann::json* v = Value(key, need, "a name", &nlohmann::json::is_string);
    if (v == nullptr) return fallback;
    auto it = names.find(text::AsciiLower(v->get<std::string>()));
    if (it != names.end()) return it->second;
    FailUnknownName(v->get<std::string>(), key);
    return fallback;
  }
  // The same for a closed set read with its one Parse (model/names.h), from its NameOf.
  template <typename E>
  E Enum(const char* key, E fallback, Need need = Need::kOptional) const {
    const nlohmann::json* v = Value(key, need, "a name", &nlohmann::json::is_string);
    if (v == nullptr) return fallback;
    if (std::optional<E> e = model::ParseName<E>(text::AsciiLower(v->get<std::string>())))
      return *e;
    FailUnknownName(v->get<std::string>(), key);
    return fallback;
  }
  // The same, unset when null or absent.
  template <typename E>
  std::optional<E> OptionalEnum(const char* key, Need need = Need::kOptional) const {
    if (Has(key)) return Enum(key, E{}, need);
    Value(key, need, "a name", &nlohmann::json::is_string);  // records a required one's absence
    return std::nullopt;
  }

 private:
  // The value under key when it exists, is not null and passes `is`; records an error when it
  // is required and absent, or of the wrong type.
  const nlohmann::json* Value(const char* key, Need need, const char* expected,
                              bool (nlohmann::json::*is)() const noexcept) const;
  std::string PathOf(const char* key) const;
  void FailUnknownName(const std::string& name, const char* key) const;
  const nlohmann::json* object_;
  std::string path_;
  std::string* error_;
};

}  // namespace durprobe::codec
