// The power-cut test's protocol between the host under test and its witness (docs/powercut.md):
// lines of ASCII words over TCP, and the witness's log, which holds the same lines. Pure: the
// sockets are platform/tcp.h's, the loops are the writer's (probes/powercut_writer.h), the
// witness's (run/powercut_witness.h) and verify's.
//   writer  -> witness  HELLO <host> <run> <mode> <size> <slots> <secret>  a run starts (or its
//                       writer comes back: the same secret, host, mode, size and slots)
//   witness -> writer   WELCOME <run>                       ...logged and synced
//   writer  -> witness  ACK <seq> <checksum>                record seq was synced
//   witness -> writer   RCPT <seq>                          acks up to seq logged, synced
//   verify  -> witness  GET <run> <secret>
//   witness -> verify   RUN <run> <host> <mode> <size> <slots> <count>, count x A <seq> <sum>, END
//                       or UNKNOWN <run> (a run it does not know, or the wrong secret: the same)
//   either              ERR <words>                         the other side gave up
// Checksums are 16 hexadecimal digits; a mode is "file:<primitive>" or "sqlite:<journal>:<sync>";
// a secret is 32 lowercase hexadecimal digits the writer makes for its run and keeps where only
// it and verify can read it: without it a run cannot be reattached, acknowledged or read.
// The witness's log: `H <run> <host> <mode> <size> <slots> <secret>` per run, `A <run> <seq>
// <sum>` per ACK. A log written before secrets (H with 6 words) still loads, but its runs have no
// secret: never reattached, never read. Record seq sits in slot seq % slots: a writer goes round
// its file (or table) again.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::probes {

inline constexpr std::size_t kMaxLineBytes = 512;

enum class MessageKind {
  kHello,
  kWelcome,
  kAck,
  kReceipt,
  kGet,
  kRun,
  kAcked,  // "A": one acknowledgement in a GET's answer or the log
  kEnd,
  kUnknown,
  kError,
  kLogHello,  // "H": a HELLO in the witness's log
  kLogAck,    // "A <run> <seq> <sum>": an ACK in the witness's log
};

struct Message {
  MessageKind kind = MessageKind::kAck;
  std::string run_id;
  std::string host;
  std::string mode;
  std::uint64_t record_size = 0;
  std::uint64_t slots = 0;
  std::uint64_t sequence = 0;  // ACK, RCPT, A
  std::uint64_t checksum = 0;  // ACK, A
  std::uint64_t count = 0;     // RUN
  std::string text;            // ERR
  std::string secret;          // HELLO, GET, H (empty: an H from a log written before secrets)
};

// The line for m, ending in '\n'.
std::string FormatMessage(const Message& m);
// The message one line holds (without its '\n'); log lines parse only with log set (an "A" line
// with three words is a log ack, with two a GET answer's). InvalidArgument naming the line.
Result<Message> ParseMessage(std::string_view line, bool log = false);
// A host name or a mode as one protocol word: [A-Za-z0-9._:-], 1 to 64 characters.
bool IsWord(std::string_view word);
// A run's secret: exactly 32 lowercase hexadecimal characters.
bool IsSecret(std::string_view word);

// Bytes in, complete lines out: Append what arrived, then Next until it says none is complete.
class LineBuffer {
 public:
  void Append(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete line without its '\n'; nullopt when none is complete. A line longer than
  // kMaxLineBytes, complete or not, sets overflowed() and drops the buffer.
  std::optional<std::string> Next();
  bool overflowed() const { return overflowed_; }
  std::size_t pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
  bool overflowed_ = false;
};

struct WitnessAck {
  std::uint64_t sequence = 0;
  std::uint64_t checksum = 0;
};

struct WitnessRun {
  std::string run_id;
  std::string host;
  std::string mode;
  std::uint64_t record_size = 0;
  std::uint64_t slots = 0;
  std::string secret;            // empty: logged before secrets, so never reattached or read
  std::vector<WitnessAck> acks;  // in the order received (ascending), each sequence once
};

// What a witness holds: every run it heard of and its acks, rebuilt from the log at start.
class WitnessStore {
 public:
  // Applies the log's lines; a last line without its '\n' (the witness killed while appending
  // it, so never counted) is left out. InvalidArgument naming the first malformed line.
  Status Load(std::string_view log_bytes);
  // A HELLO or an ACK (LogHello / LogAck); an ACK of a run with no HELLO is InvalidArgument, and
  // so is a second H of a run with a secret that does not match its first (CheckHello). An ACK
  // not above the run's last is a repeat and counts once.
  Status Apply(const Message& log_line);
  // Whether a HELLO (or H) may start its run or come back to it: Ok for a run the store does not
  // know, or for one with the same secret, host, mode, size and slots; otherwise
  // InvalidArgument saying why in one line (a run logged without a secret is never reattached).
  // Whether another connection holds the run is the witness's to check.
  Status CheckHello(const Message& hello) const;
  const WitnessRun* Find(std::string_view run_id) const;
  std::size_t runs() const { return runs_.size(); }

 private:
  std::map<std::string, WitnessRun, std::less<>> runs_;
};

// What the witness may take for a last log line its crash cut short: a beginning of an H or A
// line (the verb and a space, then protocol words and spaces), shorter than kMaxLineBytes. A
// file whose unterminated end is anything else is not a witness log.
bool IsLogLinePrefix(std::string_view fragment);

// A GET's answer made a few lines at a time, so a long run's answer never sits whole in memory:
// the RUN line (or UNKNOWN), then the acknowledgements the run had when the answer began, then
// END. The store must outlive it; acknowledgements added meanwhile are not in this answer.
class GetAnswer {
 public:
  GetAnswer(const WitnessStore& store, std::string_view run_id, std::string_view secret);
  // Appends up to max_lines more lines to out; false once the whole answer is out.
  bool More(std::string& out, std::size_t max_lines);

 private:
  const WitnessRun* run_;  // null: UNKNOWN
  std::string run_id_;
  std::size_t next_ = 0;   // the next acknowledgement to send
  std::size_t count_ = 0;  // the acknowledgements in this answer
  bool started_ = false;
  bool done_ = false;
};

// Whether secret is the secret of run (compared in time independent of where they differ); never
// for a run without one.
bool SecretMatches(const WitnessRun& run, std::string_view secret);
// The lines that answer GET run_id secret: RUN, each A, END with the run's secret; UNKNOWN for a
// run the store does not know and for a wrong secret alike.
std::string AnswerGet(const WitnessStore& store, std::string_view run_id, std::string_view secret);

}  // namespace durprobe::probes
