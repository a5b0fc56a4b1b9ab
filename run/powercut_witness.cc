#include "run/powercut_witness.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "platform/interrupt.h"
#include "probes/powercut_protocol.h"

namespace durprobe::run {
namespace {

using probes::Message;
using probes::MessageKind;

constexpr std::uint64_t kGatherNs = 1'000'000;

struct WitnessClient {
  platform::FileHandle socket;
  std::string peer;
  probes::LineBuffer lines;
  std::string run_id;
  bool welcome = false;
  std::optional<std::uint64_t> receipt;
  std::optional<std::uint64_t> last_sequence;  // the run's last ACK, logged or in this batch
  std::vector<Message> gets;
  std::string error;  // sent as ERR, then the connection is closed
  bool closed = false;
};

// Reads the whole log through fd; the bytes.
Result<std::string> ReadWitnessLog(platform::Platform& platform, int fd) {
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    Result<std::size_t> got = platform.PRead(fd, buf, sizeof buf, bytes.size());
    if (!got.ok()) return got.status();
    if (*got == 0) return bytes;
    bytes.append(buf, *got);
  }
}

// One client's new bytes: its lines become log lines (pending) and answers to send after the
// batch's sync. A run belongs to the connection that said its HELLO: another HELLO of it is
// welcomed only with the same secret and parameters (WitnessStore::CheckHello) and while no
// other connection holds it (held_elsewhere); an ACK only on that connection, above its last.
void TakeLines(WitnessClient& c, const std::string& bytes, const probes::WitnessStore& store,
               const std::function<bool(std::string_view)>& held_elsewhere, std::string& log) {
  c.lines.Append(bytes);
  while (std::optional<std::string> line = c.lines.Next()) {
    Result<Message> m = probes::ParseMessage(*line);
    if (!m.ok()) {
      c.error = m.status().message();
      return;
    }
    Message entry = *m;
    switch (m->kind) {
      case MessageKind::kHello: {
        if (!c.run_id.empty()) {
          c.error = "a second HELLO on one connection";
          return;
        }
        if (Status s = store.CheckHello(*m); !s.ok()) {
          c.error = s.message();
          return;
        }
        if (held_elsewhere(m->run_id)) {
          c.error = fmt::format("run {} is held by another connection", m->run_id);
          return;
        }
        c.run_id = m->run_id;
        c.welcome = true;
        if (const probes::WitnessRun* r = store.Find(m->run_id); r != nullptr) {
          if (!r->acks.empty()) c.last_sequence = r->acks.back().sequence;
          break;  // its writer back: already logged
        }
        entry.kind = MessageKind::kLogHello;
        log += probes::FormatMessage(entry);
        break;
      }
      case MessageKind::kAck:
        if (c.run_id.empty()) {
          c.error = "ACK before HELLO";
          return;
        }
        if (c.last_sequence && m->sequence <= *c.last_sequence) {
          c.error =
              fmt::format("ACK {} not above the run's last, {}", m->sequence, *c.last_sequence);
          return;
        }
        entry.kind = MessageKind::kLogAck;
        entry.run_id = c.run_id;
        c.receipt = m->sequence;
        c.last_sequence = m->sequence;
        log += probes::FormatMessage(entry);
        break;
      case MessageKind::kGet:
        c.gets.push_back(*m);
        break;
      default:
        c.error = fmt::format("unexpected '{}'", line->substr(0, 40));
        return;
    }
  }
  if (c.lines.overflowed()) c.error = "line too long";
}

}  // namespace

Result<WitnessSummary> RunWitness(platform::Platform& platform, const WitnessOptions& options,
                                  const std::function<void(const WitnessSummary&)>& on_listening) {
  platform::OpenFlags flags;
  flags.create = true;  // Open never follows a symlink as the last component (O_NOFOLLOW)
  Result<platform::FileHandle> log = platform.Open(options.log_path, flags);
  if (!log.ok()) return log.status();
  Result<std::string> bytes = ReadWitnessLog(platform, log->get());
  if (!bytes.ok()) return bytes.status();
  // A last line without its '\n' was never synced as a whole, so never counted: cut it off.
  const std::size_t whole = bytes->rfind('\n') == std::string::npos ? 0 : bytes->rfind('\n') + 1;
  probes::WitnessStore store;
  if (Status s = store.Load(std::string_view(*bytes).substr(0, whole)); !s.ok()) {
    return Status::InvalidArgument(
        fmt::format("witness log {}: {}", options.log_path, s.message()));
  }
  if (whole < bytes->size()) {
    if (Status s = platform.Truncate(log->get(), whole); !s.ok()) return s;
  }
  std::uint64_t end = whole;
  WitnessSummary summary;
  summary.runs_loaded = store.runs();
  for (std::size_t at = 0; at < whole; at = bytes->find('\n', at) + 1) {
    summary.acks_loaded += (*bytes)[at] == 'A';
  }

  Result<platform::FileHandle> listener = platform::TcpListen(platform, options.listen);
  if (!listener.ok()) return listener.status();
  Result<std::uint16_t> port = platform::TcpLocalPort(listener->get());
  if (!port.ok()) return port.status();
  platform::Endpoint bound = options.listen;
  bound.port = *port;
  summary.listening = bound.Text();
  on_listening(summary);

  std::vector<std::unique_ptr<WitnessClient>> clients;
  const std::uint64_t start = platform.NowNanos();
  while (platform::InterruptSignal() == 0) {
    if (options.duration_ns > 0 && platform.NowNanos() - start >= options.duration_ns) break;
    std::vector<int> fds{listener->get()};
    for (const auto& c : clients) fds.push_back(c->socket.get());
    Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, 200'000'000);
    if (!ready.ok()) return ready.status();
    std::string pending;
    for (std::size_t i : *ready) {
      if (i == 0) {
        std::string peer;
        Result<platform::FileHandle> accepted =
            platform::TcpAccept(platform, listener->get(), peer);
        if (!accepted.ok()) continue;  // the peer gave up before accept: nothing to serve
        auto c = std::make_unique<WitnessClient>();
        c->socket = std::move(*accepted);
        c->peer = peer;
        clients.push_back(std::move(c));
        ++summary.connections;
        continue;
      }
      WitnessClient& c = *clients[i - 1];
      char buf[1 << 16];
      Result<std::size_t> got = platform::TcpReceive(c.socket.get(), buf, sizeof buf);
      if (!got.ok() || *got == 0) {
        c.closed = true;
        continue;
      }
      auto held_elsewhere = [&](std::string_view run) {
        // Every client still listed, closed or not: one closed in this batch may have a HELLO
        // of the run in it, not yet logged.
        return std::any_of(clients.begin(), clients.end(),
                           [&](const auto& o) { return o.get() != &c && o->run_id == run; });
      };
      TakeLines(c, std::string(buf, *got), store, held_elsewhere, pending);
    }
    if (!pending.empty()) {
      // Durable before counted: the batch's lines are appended and synced once.
      if (Status s = platform.PWrite(log->get(), pending.data(), pending.size(), end); !s.ok()) {
        return s;
      }
      if (Status s = platform.Sync(log->get(), platform::SyncCall::kFdatasync); !s.ok()) {
        return s;
      }
      end += pending.size();
      ++summary.syncs;
      std::size_t at = 0;
      while (at < pending.size()) {
        const std::size_t nl = pending.find('\n', at);
        Result<Message> m =
            probes::ParseMessage(std::string_view(pending).substr(at, nl - at), true);
        if (m.ok()) {
          (void)store.Apply(*m);
          summary.acks_logged += m->kind == MessageKind::kLogAck;
        }
        at = nl + 1;
      }
    }
    for (const auto& c : clients) {
      if (c->closed) continue;
      std::string out;
      if (c->welcome) {
        Message w;
        w.kind = MessageKind::kWelcome;
        w.run_id = c->run_id;
        out += probes::FormatMessage(w);
        c->welcome = false;
      }
      if (c->receipt) {
        Message r;
        r.kind = MessageKind::kReceipt;
        r.sequence = *c->receipt;
        out += probes::FormatMessage(r);
        c->receipt.reset();
      }
      for (const Message& get : c->gets) out += probes::AnswerGet(store, get.run_id, get.secret);
      c->gets.clear();
      if (!c->error.empty()) {
        Message e;
        e.kind = MessageKind::kError;
        e.text = c->error;
        out += probes::FormatMessage(e);
        c->closed = true;
      }
      if (!out.empty() && !platform::TcpSend(c->socket.get(), out).ok()) c->closed = true;
    }
    std::erase_if(clients, [](const auto& c) { return c->closed; });
    // After a batch, let the next acks gather for a moment: one wake-up, read, append and sync
    // for several of them instead of one each (a writer never waits for its receipts).
    if (!pending.empty()) platform.SleepNanos(kGatherNs);
  }
  return summary;
}

}  // namespace durprobe::run
