#include "text/utf8.h"

#include <fmt/format.h>

namespace durprobe::text {
namespace {

// The code point of one well-formed sequence of two to four bytes (Utf8SequenceAt said so).
char32_t DecodeUtf8(std::string_view seq) {
  auto byte = [&](std::size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(seq[k]));
  };
  char32_t cp = byte(0) & (seq.size() == 2 ? 0x1F : seq.size() == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < seq.size(); ++k) cp = (cp << 6) | (byte(k) & 0x3F);
  return cp;
}

}  // namespace

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

std::string EscapeControlChars(std::string_view text, LineBreaks breaks) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {  // not UTF-8: the byte itself, so the name can still be found
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i++]));
      continue;
    }
    if (n > 1) {
      char32_t cp = DecodeUtf8(text.substr(i, n));
      bool control = cp <= 0x9F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
      out += control ? fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp))
                     : std::string(text.substr(i, n));
      i += n;
      continue;
    }
    char c = text[i++];
    unsigned char u = static_cast<unsigned char>(c);
    bool keep = breaks == LineBreaks::kKeep && (c == '\n' || c == '\t');
    if (keep || (u >= 0x20 && u != 0x7f)) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += fmt::format("\\x{:02x}", u);
    }
  }
  return out;
}

}  // namespace durprobe::text
