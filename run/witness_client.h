// One connection of the power-cut witness (run/powercut_witness.h): the lines it sent, what it is
// owed, and the limits that keep it from holding up anyone else. Its socket is non-blocking: what
// its reader does not take stays queued, never more than kWitnessMaxQueuedBytes, and while it is
// over the high-water mark nothing more is read from it or made for it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "platform/file_handle.h"
#include "probes/powercut_protocol.h"

namespace durprobe::run {

// Bytes read from one connection per wake-up.
inline constexpr std::size_t kWitnessReadBytes = 16 * 1024;
// Past this much queued output the connection is neither read nor given more answer lines.
inline constexpr std::size_t kWitnessHighWater = 64 * 1024;
// A lines made at a time for a GET's answer (each at most 40 bytes: "A", a 20-digit sequence, 16
// hexadecimal digits, two spaces and a newline).
inline constexpr std::size_t kWitnessAnswerLines = 512;
// GETs a connection may have waiting behind the one being answered; its further lines wait in
// its line buffer, unread, until the queue empties.
inline constexpr std::size_t kWitnessMaxGets = 16;
// The most one connection can have queued: below the high-water mark, plus one chunk of A lines,
// and a RUN (or UNKNOWN), WELCOME, RCPT and ERR line.
inline constexpr std::size_t kWitnessMaxQueuedBytes =
    kWitnessHighWater + kWitnessAnswerLines * 40 + 4 * probes::kMaxLineBytes;

class WitnessClient {
 public:
  // Whether a connection other than the asking one holds a run (its HELLO was taken).
  using HeldElsewhere = std::function<bool(std::string_view run_id)>;

  WitnessClient(platform::FileHandle socket, std::uint64_t now_ns)
      : socket_(std::move(socket)), last_active_ns_(now_ns) {}

  int fd() const { return socket_.get(); }
  const std::string& run_id() const { return run_id_; }
  // When it last sent a complete line or took some of its output.
  std::uint64_t last_active_ns() const { return last_active_ns_; }
  // Whether to read from it now: not closing, its output under the high-water mark, its GET
  // queue with room, and no more than one read's worth of bytes waiting in its line buffer.
  bool WantsInput() const;
  bool HasOutput() const { return !out_.empty(); }
  std::size_t queued() const { return out_.size(); }
  // When the connection failed, it was sent ERR, or its peer closed its side and everything it
  // asked for was sent: dropped after this round's send.
  bool closing() const {
    return closing_ || (input_done_ && !in_batch_ && !welcome_ && !receipt_ && gets_.empty() &&
                        !answer_ && out_.empty());
  }
  bool gone() const { return gone_; }
  void MarkGone() { gone_ = closing_ = true; }
  // The peer will send nothing more (it shut its side): its lines already here are still taken
  // and answered.
  void EndOfInput() { input_done_ = true; }

  // Bytes that arrived.
  void Receive(std::string_view bytes) { lines_.Append(bytes); }
  // Turns its complete lines into log lines (appended to log) and work, while its GET queue has
  // room. A run belongs to the connection that said its HELLO: another HELLO of it is welcomed
  // only with the same secret and parameters (WitnessStore::CheckHello) and while no other
  // connection holds it; an ACK only on that connection, above the run's last. Anything else,
  // and a malformed or overlong line, queues ERR and closes it.
  void TakeLines(const probes::WitnessStore& store, const HeldElsewhere& held_elsewhere,
                 std::string& log, std::uint64_t now_ns);
  // Whether lines of its are in the batch being logged.
  bool in_batch() const { return in_batch_; }
  // The batch was synced (why empty): its WELCOME and receipt are owed. Or it was not, and why
  // says so: ERR, and the connection is closed (the writer must not go on without a witness).
  void Logged(const std::string& why);
  // Queues what it is owed (WELCOME, the latest receipt, answer lines, ERR) up to the high-water
  // mark.
  void Fill(const probes::WitnessStore& store);
  // Sends what its socket takes now; a failed send marks it gone.
  void Send(std::uint64_t now_ns);
  // Queues ERR why (after what it is already owed) and closes it after the next send.
  void Fail(std::string why);

 private:
  platform::FileHandle socket_;
  probes::LineBuffer lines_;
  std::string run_id_;
  std::optional<std::uint64_t> last_sequence_;  // the run's last ACK, logged or in the batch
  bool in_batch_ = false;
  bool welcome_ = false;        // owed now
  bool batch_welcome_ = false;  // owed once the batch with its HELLO is synced
  std::optional<std::uint64_t> receipt_;
  std::optional<std::uint64_t> batch_receipt_;  // the receipt the batch being logged would give
  std::deque<probes::Message> gets_;
  std::optional<probes::GetAnswer> answer_;
  std::string error_;  // queued as ERR after what is owed, then the connection closes
  std::string out_;
  bool input_done_ = false;
  bool failed_ = false;  // ERR owed or sent: no further line is taken
  bool closing_ = false;
  bool gone_ = false;
  std::uint64_t last_active_ns_;
};

}  // namespace durprobe::run
