#include "run/witness_client.h"

#include <fmt/format.h>

#include "platform/tcp.h"

namespace durprobe::run {

using probes::Message;
using probes::MessageKind;

bool WitnessClient::WantsInput() const {
  return !closing_ && !input_done_ && out_.size() < kWitnessHighWater &&
         gets_.size() < kWitnessMaxGets && lines_.pending() <= kWitnessReadBytes;
}

void WitnessClient::Fail(std::string why) {
  if (!failed_) error_ = std::move(why);
  failed_ = closing_ = true;
}

void WitnessClient::TakeLines(const probes::WitnessStore& store,
                              const HeldElsewhere& held_elsewhere, std::string& log,
                              std::uint64_t now_ns) {
  // A peer that closed after its last lines still has them taken: a writer's last ACKs count.
  while (!failed_ && gets_.size() < kWitnessMaxGets) {
    std::optional<std::string> line = lines_.Next();
    if (!line) break;
    last_active_ns_ = now_ns;
    Result<Message> m = probes::ParseMessage(*line);
    if (!m.ok()) return Fail(m.status().message());
    Message entry = *m;
    switch (m->kind) {
      case MessageKind::kHello: {
        if (!run_id_.empty()) return Fail("a second HELLO on one connection");
        if (Status s = store.CheckHello(*m); !s.ok()) return Fail(s.message());
        if (held_elsewhere(m->run_id)) {
          return Fail(fmt::format("run {} is held by another connection", m->run_id));
        }
        run_id_ = m->run_id;
        if (const probes::WitnessRun* r = store.Find(m->run_id); r != nullptr) {
          // Its writer back, with the run's secret: logged already, welcomed now.
          if (!r->acks.empty()) last_sequence_ = r->acks.back().sequence;
          welcome_ = true;
          break;
        }
        entry.kind = MessageKind::kLogHello;
        log += probes::FormatMessage(entry);
        in_batch_ = true;
        batch_welcome_ = true;
        break;
      }
      case MessageKind::kAck:
        if (run_id_.empty()) return Fail("ACK before HELLO");
        if (last_sequence_ && m->sequence <= *last_sequence_) {
          return Fail(
              fmt::format("ACK {} is not above the run's last, {}", m->sequence, *last_sequence_));
        }
        entry.kind = MessageKind::kLogAck;
        entry.run_id = run_id_;
        last_sequence_ = m->sequence;
        log += probes::FormatMessage(entry);
        in_batch_ = true;
        batch_receipt_ = m->sequence;
        break;
      case MessageKind::kGet:
        gets_.push_back(*m);
        break;
      default:
        return Fail(fmt::format("unexpected '{}'", line->substr(0, 40)));
    }
  }
  if (lines_.overflowed()) Fail("line too long");
}

void WitnessClient::Logged(const std::string& why) {
  in_batch_ = false;
  if (!why.empty()) {
    batch_welcome_ = false;
    batch_receipt_.reset();
    Fail(why);
    return;
  }
  welcome_ = welcome_ || batch_welcome_;
  batch_welcome_ = false;
  if (batch_receipt_) receipt_ = batch_receipt_;
  batch_receipt_.reset();
}

void WitnessClient::Fill(const probes::WitnessStore& store) {
  if (gone_) return;
  Message m;
  m.run_id = run_id_;
  if (welcome_) {
    m.kind = MessageKind::kWelcome;
    out_ += probes::FormatMessage(m);
    welcome_ = false;
  }
  // A reader that does not take its receipts gets only the latest when it does.
  if (receipt_ && out_.size() < kWitnessHighWater) {
    m.kind = MessageKind::kReceipt;
    m.sequence = *receipt_;
    out_ += probes::FormatMessage(m);
    receipt_.reset();
  }
  while (out_.size() < kWitnessHighWater && !failed_) {
    if (!answer_) {
      if (gets_.empty()) break;
      answer_.emplace(store, gets_.front().run_id, gets_.front().secret);
      gets_.pop_front();
    }
    if (!answer_->More(out_, kWitnessAnswerLines)) answer_.reset();
  }
  if (!error_.empty()) {
    m.kind = MessageKind::kError;
    m.text = error_;
    out_ += probes::FormatMessage(m);
    error_.clear();
  }
}

void WitnessClient::Send(std::uint64_t now_ns) {
  if (gone_ || out_.empty()) return;
  Result<std::size_t> sent = platform::TcpSendNow(socket_.get(), out_);
  if (!sent.ok()) {
    MarkGone();
    return;
  }
  if (*sent > 0) {
    out_.erase(0, *sent);
    last_active_ns_ = now_ns;
  }
}

}  // namespace durprobe::run
