#include "run/powercut_witness.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "platform/interrupt.h"
#include "platform/owned_file.h"
#include "probes/powercut_protocol.h"
#include "run/witness_client.h"
#include "text/utf8.h"

namespace durprobe::run {
namespace {

using probes::Message;
using probes::MessageKind;

constexpr std::uint64_t kGatherNs = 1'000'000;
constexpr std::uint64_t kPollNs = 200'000'000;
// After accept found no descriptor left: this long before the next try, not a loop at 100% CPU.
constexpr std::uint64_t kAcceptPauseNs = 1'000'000'000;
// At the cap with no connection idle enough to make room: look again after this long.
constexpr std::uint64_t kFullPauseNs = 100'000'000;
// Connections taken per wake-up, so a flood of them cannot starve the ones already served.
constexpr int kAcceptsPerWake = 32;

struct LoadedLog {
  platform::FileHandle file;
  probes::WitnessStore store;
  std::uint64_t end = 0;  // the bytes of whole lines: the next append goes here
  std::uint64_t acks = 0;
};

// Opens and reloads the log. Nothing is changed in a file that is not a witness log; the one
// repair, cutting a last line the witness's own crash left half-appended, is made only when
// every line before it is a witness log's and that end could begin one.
Result<LoadedLog> LoadLog(platform::Platform& platform, const WitnessOptions& options) {
  const std::string shown = text::EscapeControlChars(options.log_path);
  LoadedLog log;
  Result<platform::FileHandle> file =
      platform::OpenOwnedFile(platform, options.log_path, true, options.max_log_bytes);
  if (!file.ok()) {
    return Status::InvalidArgument(
        fmt::format("witness log refused: {}", text::EscapeControlChars(file.status().message())));
  }
  log.file = std::move(*file);
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    Result<std::size_t> got = platform.PRead(log.file.get(), buf, sizeof buf, bytes.size());
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    bytes.append(buf, *got);
    if (bytes.size() > options.max_log_bytes) {
      return Status::InvalidArgument(fmt::format("witness log {} grew past {} bytes while read",
                                                 shown, options.max_log_bytes));
    }
  }
  const std::size_t nl = bytes.rfind('\n');
  const std::size_t whole = nl == std::string::npos ? 0 : nl + 1;
  auto not_a_log = [&](std::string_view why) {
    return Status::InvalidArgument(
        fmt::format("{} is not a witness log ({}): left as it is", shown, why));
  };
  if (Status s = log.store.Load(std::string_view(bytes).substr(0, whole)); !s.ok()) {
    return not_a_log(text::EscapeControlChars(s.message()));
  }
  if (!probes::IsLogLinePrefix(std::string_view(bytes).substr(whole))) {
    return not_a_log("it ends in something other than a witness log line");
  }
  if (whole < bytes.size()) {
    // A last line without its '\n' was never synced as a whole, so never counted.
    if (Status s = platform.Truncate(log.file.get(), whole); !s.ok()) return s;
  }
  log.end = whole;
  for (std::size_t at = 0; at < whole; at = bytes.find('\n', at) + 1) {
    log.acks += bytes[at] == 'A';
  }
  return log;
}

// Appends the batch and syncs it; past the size limit, or when either fails, the log is cut
// back to end (so a line not counted is never reloaded either) and the reason returned.
Status AppendBatch(platform::Platform& platform, LoadedLog& log, const std::string& batch,
                   std::uint64_t max_bytes) {
  if (log.end + batch.size() > max_bytes) {
    return Status::Error(fmt::format("the log reached its limit of {} bytes", max_bytes));
  }
  Status s = platform.PWrite(log.file.get(), batch.data(), batch.size(), log.end);
  if (s.ok()) s = platform.Sync(log.file.get(), platform::SyncCall::kFdatasync);
  if (!s.ok()) {
    (void)platform.Truncate(log.file.get(), log.end);
    return s;
  }
  log.end += batch.size();
  return Status::Ok();
}

std::size_t ClientCap(const WitnessOptions& options) {
  if (options.max_clients > 0) return options.max_clients;
  Result<std::uint64_t> limit = platform::DescriptorLimit();
  if (!limit.ok() || *limit == 0 || *limit >= kWitnessMostClients + kWitnessReservedDescriptors) {
    return kWitnessMostClients;
  }
  return *limit > kWitnessReservedDescriptors + 1 ? *limit - kWitnessReservedDescriptors : 1;
}

}  // namespace

Result<WitnessSummary> RunWitness(platform::Platform& platform, const WitnessOptions& options,
                                  const std::function<void(const WitnessSummary&)>& on_listening) {
  Result<LoadedLog> loaded = LoadLog(platform, options);
  if (!loaded.ok()) return loaded.status();
  LoadedLog& log = *loaded;
  probes::WitnessStore& store = log.store;
  WitnessSummary summary;
  summary.runs_loaded = store.runs();
  summary.acks_loaded = log.acks;
  summary.client_cap = ClientCap(options);

  Result<platform::FileHandle> listener = platform::TcpListen(platform, options.listen);
  if (!listener.ok()) return listener.status();
  if (Status s = platform::SetNonBlocking(listener->get()); !s.ok()) return s;
  Result<std::uint16_t> port = platform::TcpLocalPort(listener->get());
  if (!port.ok()) return port.status();
  platform::Endpoint bound = options.listen;
  bound.port = *port;
  summary.listening = bound.Text();
  on_listening(summary);

  std::vector<std::unique_ptr<WitnessClient>> clients;
  std::vector<platform::PollItem> items;
  const std::uint64_t start = platform.NowNanos();
  std::uint64_t accept_after = 0;  // the listener is not polled before this time
  while (platform::InterruptSignal() == 0) {
    std::uint64_t now = platform.NowNanos();
    if (options.duration_ns > 0 && now - start >= options.duration_ns) break;
    for (const auto& c : clients) {
      const std::uint64_t limit =
          c->run_id().empty() ? options.idle_timeout_ns : options.held_idle_timeout_ns;
      if (!c->closing() && now - c->last_active_ns() >= limit) {
        c->Fail(fmt::format("idle for {} s", limit / 1'000'000'000));
        ++summary.idle_closed;
      }
    }

    items.assign(1, {});
    items[0] = {listener->get(), now >= accept_after, false};
    for (const auto& c : clients) {
      items.push_back({c->fd(), c->WantsInput(), c->HasOutput()});
    }
    const std::uint64_t wait =
        now >= accept_after ? kPollNs : std::min(kPollNs, accept_after - now);
    if (Status s = platform::Poll(items, wait); !s.ok()) return s;
    if (platform::InterruptSignal() != 0) break;
    now = platform.NowNanos();

    for (std::size_t i = 1; i < items.size(); ++i) {
      WitnessClient& c = *clients[i - 1];
      if (items[i].writable) c.Send(now);
      if (!items[i].readable || c.gone()) continue;
      char buf[kWitnessReadBytes];
      Result<platform::Received> got = platform::TcpReceiveNow(c.fd(), buf, sizeof buf);
      if (!got.ok()) {
        c.MarkGone();
        continue;
      }
      if (got->closed) {
        c.EndOfInput();
        continue;
      }
      c.Receive(std::string_view(buf, got->bytes));
    }

    if (items[0].readable) {
      for (int n = 0; n < kAcceptsPerWake; ++n) {
        if (clients.size() >= summary.client_cap) {
          // Room for the newcomer: the connection idle longest, if it has idled long enough.
          auto idlest = std::min_element(clients.begin(), clients.end(), [](auto& a, auto& b) {
            return a->last_active_ns() < b->last_active_ns();
          });
          if (idlest == clients.end() ||
              now - (*idlest)->last_active_ns() < options.evict_idle_ns) {
            accept_after = now + kFullPauseNs;
            break;
          }
          clients.erase(idlest);
          ++summary.evicted;
        }
        std::string peer;
        Result<platform::FileHandle> accepted =
            platform::TcpAcceptNow(platform, listener->get(), peer);
        if (!accepted.ok()) {
          if (platform::OutOfDescriptors(accepted.status())) {
            accept_after = now + kAcceptPauseNs;
            ++summary.accept_pauses;
          }
          break;
        }
        if (!accepted->valid()) break;
        clients.push_back(std::make_unique<WitnessClient>(std::move(*accepted), now));
        ++summary.connections;
      }
      summary.most_clients = std::max(summary.most_clients, clients.size());
    }

    std::string batch;
    for (const auto& c : clients) {
      auto held_elsewhere = [&](std::string_view run) {
        // Every client still listed, closing or not: one closing in this batch may have a
        // HELLO of the run in it, not yet logged.
        return std::any_of(clients.begin(), clients.end(),
                           [&](const auto& o) { return o != c && o->run_id() == run; });
      };
      c->TakeLines(store, held_elsewhere, batch, now);
    }
    if (!batch.empty()) {
      // Durable before counted: the batch's lines are appended and synced once.
      std::string refused;
      if (Status s = AppendBatch(platform, log, batch, options.max_log_bytes); !s.ok()) {
        refused = platform::IsDiskFull(s) ? "the witness's log cannot take more: its disk is full"
                                          : "the witness's log cannot take more: " + s.message();
        ++summary.log_refusals;
      } else {
        ++summary.syncs;
        for (std::size_t at = 0; at < batch.size();) {
          const std::size_t nl = batch.find('\n', at);
          Result<Message> m =
              probes::ParseMessage(std::string_view(batch).substr(at, nl - at), true);
          if (m.ok() && store.Apply(*m).ok()) {
            summary.acks_logged += m->kind == MessageKind::kLogAck;
          }
          at = nl + 1;
        }
      }
      for (const auto& c : clients) {
        if (c->in_batch()) c->Logged(refused);
      }
    }
    for (const auto& c : clients) {
      c->Fill(store);
      summary.most_queued = std::max(summary.most_queued, c->queued());
      c->Send(now);
    }
    std::erase_if(clients, [](const auto& c) { return c->closing(); });
    // After a batch, let the next acks gather for a moment: one wake-up, read, append and sync
    // for several of them instead of one each (a writer never waits for its receipts).
    if (!batch.empty()) platform.SleepNanos(kGatherNs);
  }
  return summary;
}

}  // namespace durprobe::run
