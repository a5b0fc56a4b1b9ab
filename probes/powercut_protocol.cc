#include "probes/powercut_protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>

#include "platform/words.h"
#include "probes/powercut_record.h"

namespace durprobe::probes {
namespace {

bool ParseU64(std::string_view s, std::uint64_t& out, int base = 10) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseSum(std::string_view s, std::uint64_t& out) {
  return s.size() == 16 && ParseU64(s, out, 16);
}

}  // namespace

bool IsWord(std::string_view word) {
  return !word.empty() && word.size() <= 64 && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-' || c == ':';
  });
}

bool IsSecret(std::string_view word) {
  return word.size() == 32 && std::all_of(word.begin(), word.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::string FormatMessage(const Message& m) {
  switch (m.kind) {
    case MessageKind::kHello:
      return fmt::format("HELLO {} {} {} {} {} {}\n", m.host, m.run_id, m.mode, m.record_size,
                         m.slots, m.secret);
    case MessageKind::kWelcome:
      return fmt::format("WELCOME {}\n", m.run_id);
    case MessageKind::kAck:
      return fmt::format("ACK {} {:016x}\n", m.sequence, m.checksum);
    case MessageKind::kReceipt:
      return fmt::format("RCPT {}\n", m.sequence);
    case MessageKind::kGet:
      return fmt::format("GET {} {}\n", m.run_id, m.secret);
    case MessageKind::kRun:
      return fmt::format("RUN {} {} {} {} {} {}\n", m.run_id, m.host, m.mode, m.record_size,
                         m.slots, m.count);
    case MessageKind::kAcked:
      return fmt::format("A {} {:016x}\n", m.sequence, m.checksum);
    case MessageKind::kEnd:
      return "END\n";
    case MessageKind::kUnknown:
      return fmt::format("UNKNOWN {}\n", m.run_id);
    case MessageKind::kError:
      return fmt::format("ERR {}\n", m.text);
    case MessageKind::kLogHello:
      if (m.secret.empty()) {  // a run logged before secrets, kept as it was
        return fmt::format("H {} {} {} {} {}\n", m.run_id, m.host, m.mode, m.record_size, m.slots);
      }
      return fmt::format("H {} {} {} {} {} {}\n", m.run_id, m.host, m.mode, m.record_size, m.slots,
                         m.secret);
    case MessageKind::kLogAck:
      return fmt::format("A {} {} {:016x}\n", m.run_id, m.sequence, m.checksum);
  }
  return "\n";
}

Result<Message> ParseMessage(std::string_view line, bool log) {
  const std::vector<std::string_view> w = platform::SplitSpaces(line);
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("powercut protocol: malformed line '{}'", line.substr(0, 80)));
  };
  if (w.empty()) return bad();
  Message m;
  const std::string_view verb = w[0];
  auto run_ok = [](std::string_view r) { return CheckRunId(r).ok(); };
  if (!log && verb == "HELLO" && w.size() == 7 && IsWord(w[1]) && run_ok(w[2]) && IsWord(w[3]) &&
      ParseU64(w[4], m.record_size) && ParseU64(w[5], m.slots) && m.slots > 0 && IsSecret(w[6])) {
    m.kind = MessageKind::kHello;
    m.host = w[1];
    m.run_id = w[2];
    m.mode = w[3];
    m.secret = w[6];
    return m;
  }
  // H with 6 words: a log written before secrets; its run keeps an empty secret.
  if (log && verb == "H" && (w.size() == 6 || (w.size() == 7 && IsSecret(w[6]))) && run_ok(w[1]) &&
      IsWord(w[2]) && IsWord(w[3]) && ParseU64(w[4], m.record_size) && ParseU64(w[5], m.slots) &&
      m.slots > 0) {
    m.kind = MessageKind::kLogHello;
    m.run_id = w[1];
    m.host = w[2];
    m.mode = w[3];
    if (w.size() == 7) m.secret = w[6];
    return m;
  }
  if (log && verb == "A" && w.size() == 4 && run_ok(w[1]) && ParseU64(w[2], m.sequence) &&
      ParseSum(w[3], m.checksum)) {
    m.kind = MessageKind::kLogAck;
    m.run_id = w[1];
    return m;
  }
  if (log) return bad();
  if (verb == "WELCOME" && w.size() == 2 && run_ok(w[1])) {
    m.kind = MessageKind::kWelcome;
    m.run_id = w[1];
    return m;
  }
  if (verb == "ACK" && w.size() == 3 && ParseU64(w[1], m.sequence) && ParseSum(w[2], m.checksum)) {
    m.kind = MessageKind::kAck;
    return m;
  }
  if (verb == "RCPT" && w.size() == 2 && ParseU64(w[1], m.sequence)) {
    m.kind = MessageKind::kReceipt;
    return m;
  }
  if (verb == "GET" && w.size() == 3 && run_ok(w[1]) && IsSecret(w[2])) {
    m.kind = MessageKind::kGet;
    m.run_id = w[1];
    m.secret = w[2];
    return m;
  }
  if (verb == "RUN" && w.size() == 7 && run_ok(w[1]) && IsWord(w[2]) && IsWord(w[3]) &&
      ParseU64(w[4], m.record_size) && ParseU64(w[5], m.slots) && ParseU64(w[6], m.count) &&
      m.slots > 0) {
    m.kind = MessageKind::kRun;
    m.run_id = w[1];
    m.host = w[2];
    m.mode = w[3];
    return m;
  }
  if (verb == "A" && w.size() == 3 && ParseU64(w[1], m.sequence) && ParseSum(w[2], m.checksum)) {
    m.kind = MessageKind::kAcked;
    return m;
  }
  if (verb == "END" && w.size() == 1) {
    m.kind = MessageKind::kEnd;
    return m;
  }
  if (verb == "UNKNOWN" && w.size() == 2) {
    m.kind = MessageKind::kUnknown;
    m.run_id = w[1];
    return m;
  }
  if (verb == "ERR") {
    m.kind = MessageKind::kError;
    m.text = line.size() > 4 ? std::string(line.substr(4)) : "";
    return m;
  }
  return bad();
}

std::optional<std::string> LineBuffer::Next() {
  const std::size_t nl = buffer_.find('\n');
  if (nl == std::string::npos) {
    if (buffer_.size() > kMaxLineBytes) {
      overflowed_ = true;
      buffer_.clear();
    }
    return std::nullopt;
  }
  if (nl > kMaxLineBytes) {  // a whole line arrived at once, still too long
    overflowed_ = true;
    buffer_.clear();
    return std::nullopt;
  }
  std::string line = buffer_.substr(0, nl);
  buffer_.erase(0, nl + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

Status WitnessStore::Load(std::string_view log_bytes) {
  std::size_t at = 0;
  std::size_t number = 0;
  while (at < log_bytes.size()) {
    const std::size_t nl = log_bytes.find('\n', at);
    if (nl == std::string_view::npos) break;  // an append cut short: never counted
    ++number;
    Result<Message> m = ParseMessage(log_bytes.substr(at, nl - at), true);
    if (!m.ok()) {
      return Status::InvalidArgument(fmt::format("line {}: {}", number, m.status().message()));
    }
    if (Status s = Apply(*m); !s.ok()) {
      return Status::InvalidArgument(fmt::format("line {}: {}", number, s.message()));
    }
    at = nl + 1;
  }
  return Status::Ok();
}

Status WitnessStore::CheckHello(const Message& hello) const {
  const WitnessRun* r = Find(hello.run_id);
  if (r == nullptr) return Status::Ok();
  if (r->secret.empty()) {
    return Status::InvalidArgument(
        fmt::format("run {} was logged without a secret: it cannot be reattached", r->run_id));
  }
  if (!SecretMatches(*r, hello.secret)) {
    return Status::InvalidArgument(fmt::format("run {} has another secret", r->run_id));
  }
  if (r->host != hello.host || r->mode != hello.mode || r->record_size != hello.record_size ||
      r->slots != hello.slots) {
    return Status::InvalidArgument(fmt::format(
        "run {} started as {} {} {} {}, not {} {} {} {}", r->run_id, r->host, r->mode,
        r->record_size, r->slots, hello.host, hello.mode, hello.record_size, hello.slots));
  }
  return Status::Ok();
}

Status WitnessStore::Apply(const Message& m) {
  if (m.kind == MessageKind::kLogHello) {
    if (auto it = runs_.find(m.run_id); it != runs_.end()) {
      // A run logged before secrets took whatever came last, as it did then (never read anyway);
      // one with a secret is the first H's for good.
      if (it->second.secret.empty() && m.secret.empty()) {
        it->second.host = m.host;
        it->second.mode = m.mode;
        it->second.record_size = m.record_size;
        it->second.slots = m.slots;
        return Status::Ok();
      }
      return CheckHello(m);
    }
    WitnessRun& r = runs_[m.run_id];
    r.secret = m.secret;
    r.run_id = m.run_id;
    r.host = m.host;
    r.mode = m.mode;
    r.record_size = m.record_size;
    r.slots = m.slots;
    return Status::Ok();
  }
  if (m.kind != MessageKind::kLogAck) {
    return Status::InvalidArgument("not a log line");
  }
  auto it = runs_.find(m.run_id);
  if (it == runs_.end()) {
    return Status::InvalidArgument(fmt::format("an ack of run {} before its hello", m.run_id));
  }
  // One writer per run, acking in order: a sequence not above the last is a repeat.
  std::vector<WitnessAck>& acks = it->second.acks;
  if (acks.empty() || m.sequence > acks.back().sequence) acks.push_back({m.sequence, m.checksum});
  return Status::Ok();
}

const WitnessRun* WitnessStore::Find(std::string_view run_id) const {
  auto it = runs_.find(run_id);
  return it == runs_.end() ? nullptr : &it->second;
}

bool SecretMatches(const WitnessRun& run, std::string_view secret) {
  if (run.secret.empty() || run.secret.size() != secret.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < secret.size(); ++i) {
    differ |= static_cast<unsigned char>(run.secret[i] ^ secret[i]);
  }
  return differ == 0;
}

bool IsLogLinePrefix(std::string_view fragment) {
  if (fragment.empty()) return true;
  if (fragment.size() >= kMaxLineBytes || (fragment[0] != 'H' && fragment[0] != 'A')) return false;
  if (fragment.size() == 1) return true;
  if (fragment[1] != ' ') return false;
  return std::all_of(fragment.begin() + 2, fragment.end(),
                     [](char c) { return c == ' ' || IsWord(std::string_view(&c, 1)); });
}

GetAnswer::GetAnswer(const WitnessStore& store, std::string_view run_id, std::string_view secret)
    : run_(store.Find(run_id)), run_id_(run_id) {
  if (run_ != nullptr && !SecretMatches(*run_, secret)) run_ = nullptr;
  if (run_ != nullptr) count_ = run_->acks.size();
}

bool GetAnswer::More(std::string& out, std::size_t max_lines) {
  if (done_) return false;
  Message m;
  m.run_id = run_id_;
  if (!started_) {
    started_ = true;
    if (run_ == nullptr) {
      m.kind = MessageKind::kUnknown;
      out += FormatMessage(m);
      done_ = true;
      return false;
    }
    m.kind = MessageKind::kRun;
    m.host = run_->host;
    m.mode = run_->mode;
    m.record_size = run_->record_size;
    m.slots = run_->slots;
    m.count = count_;
    out += FormatMessage(m);
  }
  for (std::size_t n = 0; n < max_lines && next_ < count_; ++n, ++next_) {
    const WitnessAck& a = run_->acks[next_];
    fmt::format_to(std::back_inserter(out), "A {} {:016x}\n", a.sequence, a.checksum);
  }
  if (next_ < count_) return true;
  out += "END\n";
  done_ = true;
  return false;
}

std::string AnswerGet(const WitnessStore& store, std::string_view run_id, std::string_view secret) {
  GetAnswer answer(store, run_id, secret);
  std::string out;
  while (answer.More(out, 4096)) {
  }
  return out;
}

}  // namespace durprobe::probes
