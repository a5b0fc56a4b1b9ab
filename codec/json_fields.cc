#include "codec/json_fields.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace durprobe::codec {

using nlohmann::json;

JsonFields::JsonFields(const json* object, std::string path, std::string* error)
    : object_(object != nullptr && !object->is_null() ? object : nullptr),
      path_(std::move(path)),
      error_(error) {
  if (object_ != nullptr && !object_->is_object()) {
    Fail(fmt::format("expected an object, got {}", object_->type_name()));
    object_ = nullptr;
  }
}

std::string JsonFields::PathOf(const char* key) const {
  if (key == nullptr) return path_;
  return path_.empty() ? key : path_ + "." + key;
}

void JsonFields::Fail(const std::string& message, const char* key) const {
  if (!error_->empty()) return;
  std::string where = PathOf(key);
  *error_ = where.empty() ? message : where + ": " + message;
}

void JsonFields::FailUnknownName(const std::string& name, const char* key) const {
  Fail(fmt::format("'{}' is not a known value", name), key);
}

bool JsonFields::Has(const char* key) const {
  if (object_ == nullptr) return false;
  auto it = object_->find(key);
  return it != object_->end() && !it->is_null();
}

const json* JsonFields::Value(const char* key, Need need, const char* expected,
                              bool (json::*is)() const noexcept) const {
  if (!error_->empty()) return nullptr;
  auto it = object_ == nullptr ? json::const_iterator() : object_->find(key);
  if (object_ == nullptr || it == object_->end()) {
    // An absent parent object was already reported if it was required.
    if (need == Need::kRequired && object_ != nullptr) Fail("missing required key", key);
    return nullptr;
  }
  if (it->is_null()) return nullptr;
  if (!((*it).*is)()) {
    Fail(fmt::format("expected {}, got {}", expected, it->type_name()), key);
    return nullptr;
  }
  return &*it;
}

std::string JsonFields::String(const char* key, Need need) const {
  const json* v = Value(key, need, "a string", &json::is_string);
  return v ? v->get<std::string>() : std::string();
}

double JsonFields::Double(const char* key, Need need) const {
  const json* v = Value(key, need, "a number", &json::is_number);
  return v ? v->get<double>() : 0.0;
}

std::optional<double> JsonFields::OptionalDouble(const char* key, Need need) const {
  const json* v = Value(key, need, "a number", &json::is_number);
  return v ? std::optional<double>(v->get<double>()) : std::nullopt;
}

std::uint64_t JsonFields::Uint(const char* key, Need need) const {
  const json* v = Value(key, need, "a number", &json::is_number);
  if (v == nullptr) return 0;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>();
  double d = v->get<double>();
  if (d < 0) {
    Fail(fmt::format("expected a count, got {}", v->dump()), key);
    return 0;
  }
  return static_cast<std::uint64_t>(std::llround(d));
}

std::int64_t JsonFields::Int(const char* key, Need need) const {
  const json* v = Value(key, need, "a number", &json::is_number);
  if (v == nullptr) return 0;
  if (v->is_number_integer()) return v->get<std::int64_t>();
  return static_cast<std::int64_t>(std::llround(v->get<double>()));
}

bool JsonFields::Bool(const char* key, Need need, bool fallback) const {
  const json* v = Value(key, need, "true or false", &json::is_boolean);
  return v ? v->get<bool>() : fallback;
}

std::optional<bool> JsonFields::OptionalBool(const char* key, Need need) const {
  const json* v = Value(key, need, "true or false", &json::is_boolean);
  return v ? std::optional<bool>(v->get<bool>()) : std::nullopt;
}

std::vector<std::string> JsonFields::Strings(const char* key, Need need) const {
  std::vector<std::string> out;
  const json* v = Value(key, need, "an array", &json::is_array);
  if (v == nullptr) return out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      std::string element = fmt::format("{}[{}]", key, i);
      Fail(fmt::format("expected a string, got {}", (*v)[i].type_name()), element.c_str());
      return {};
    }
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::vector<double> JsonFields::Doubles(const char* key, Need need) const {
  std::vector<double> out;
  const json* v = Value(key, need, "an array", &json::is_array);
  if (v == nullptr) return out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_number()) {
      std::string element = fmt::format("{}[{}]", key, i);
      Fail(fmt::format("expected a number, got {}", (*v)[i].type_name()), element.c_str());
      return {};
    }
    out.push_back((*v)[i].get<double>());
  }
  return out;
}

JsonFields JsonFields::Object(const char* key, Need need) const {
  const json* v = Value(key, need, "an object", &json::is_object);
  return JsonFields(v, PathOf(key), error_);
}

void JsonFields::Each(const char* key, Need need,
                      const std::function<void(const JsonFields&)>& read) const {
  const json* v = Value(key, need, "an array", &json::is_array);
  if (v == nullptr) return;
  for (std::size_t i = 0; i < v->size() && error_->empty(); ++i) {
    std::string path = fmt::format("{}[{}]", PathOf(key), i);
    if (!(*v)[i].is_object()) {
      JsonFields(nullptr, path, error_)
          .Fail(fmt::format("expected an object, got {}", (*v)[i].type_name()));
      return;
    }
    read(JsonFields(&(*v)[i], path, error_));
  }
}

json JsonFields::Raw(const char* key) const {
  if (object_ == nullptr) return nullptr;
  auto it = object_->find(key);
  return it == object_->end() ? json(nullptr) : *it;
}

std::vector<std::string> JsonFields::Keys() const {
  std::vector<std::string> keys;
  if (object_ == nullptr) return keys;
  for (auto it = object_->begin(); it != object_->end(); ++it) keys.push_back(it.key());
  return keys;
}

}  // namespace durprobe::codec
