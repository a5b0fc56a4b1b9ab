#include "report/text/utf8.h"

#include <fmt/format.h>

namespace durprobe::report {

std::size_t Utf8SequenceAt(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

bool IsValidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = Utf8SequenceAt(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string ToValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string HexBytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) out += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return out;
}

void PutPath(nlohmann::json& obj, const std::string& key, const std::string& path) {
  if (IsValidUtf8(path)) {
    obj[key] = path;
    return;
  }
  obj[key] = ToValidUtf8(path);
  obj[key + "_bytes"] = HexBytes(path);
}

void PutPaths(nlohmann::json& obj, const std::string& key, const std::vector<std::string>& paths) {
  nlohmann::json text = nlohmann::json::array();
  nlohmann::json bytes = nlohmann::json::array();
  bool any_invalid = false;
  for (const std::string& p : paths) {
    bool valid = IsValidUtf8(p);
    any_invalid = any_invalid || !valid;
    text.push_back(valid ? p : ToValidUtf8(p));
    bytes.push_back(valid ? nlohmann::json(nullptr) : nlohmann::json(HexBytes(p)));
  }
  obj[key] = text;
  if (any_invalid) obj[key + "_bytes"] = bytes;
}

void MakeValidUtf8(nlohmann::json& doc) {
  if (doc.is_string()) {
    const std::string& s = doc.get_ref<const std::string&>();
    if (!IsValidUtf8(s)) doc = ToValidUtf8(s);
    return;
  }
  if (doc.is_array()) {
    for (nlohmann::json& item : doc) MakeValidUtf8(item);
    return;
  }
  if (!doc.is_object()) return;
  bool bad_key = false;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    bad_key = bad_key || !IsValidUtf8(it.key());
    MakeValidUtf8(it.value());
  }
  if (!bad_key) return;
  nlohmann::json fixed = nlohmann::json::object();
  for (auto it = doc.begin(); it != doc.end(); ++it) fixed[ToValidUtf8(it.key())] = it.value();
  doc = std::move(fixed);
}

std::string EscapeControlChars(std::string_view text) {
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace durprobe::report
