// The knowledge table of cause ranking (explain/causes.h): one entry per cause, saying
// when a pair of paths shows it, which measurements it moves and which way, and what to do.
// Adding a cause is a new row in cause_table.cc (docs/diagnose.md lists them).
#pragma once

#include <string>
#include <vector>

#include "explain/cause_signature.h"
#include "explain/causes.h"

namespace durprobe::explain {

// How a cause moves a signal, on the side that has the cause against the side that does not
// (for a difference of kind, b against a: then only kMoves and kSame are used).
enum class Expect { kSame, kMoves, kSlower, kFaster };

struct Expectation {
  Signal signal;
  Expect expect;
  double weight;  // 3: the cause's mark; 2: a main effect; 1: a side effect
};

// The pair as a matcher sees it.
struct CausePair {
  const CauseInputs* in = nullptr;
  const Signature* sig = nullptr;
  const platform::MountInfo* mount[2] = {nullptr, nullptr};
  const model::Target* target[2] = {nullptr, nullptr};
  const std::string& Name(int side) const { return side == 0 ? in->name_a : in->name_b; }
};

// What a matcher found: which side has the cause (-1: a difference of kind, such as two
// filesystems), the difference in words, the advice's details and the test.
struct CauseMatch {
  int side = -1;
  std::string what;
  std::string advice;  // set by matchers whose advice depends on the pair; else the row's
  Trial trial;
  // The evidence that puts this cause first whatever the scores ("the probes moved with the
  // reference probe (...)"), or that the measurements contradict it (its score then keeps
  // only its floor); each quoted in the cause's evidence.
  std::string decided_by, against;
};

struct Knowledge {
  const char* key;
  const char* title;  // the cause as the evidence names it: "write barriers off"
  double prior;       // how specific the cause is when it fits (1: it names the layer)
  std::vector<Expectation> expects;
  bool voids_durability;  // the side that has it keeps nothing on power loss
  bool (*match)(const CausePair&, CauseMatch&);
  const char* advice;             // {side}: the side that has it, {other}: the other one
  std::vector<const char*> keys;  // report keys it stands for (diff's differences)
};

const std::vector<Knowledge>& KnowledgeTable();

// How a local filesystem makes an fsync durable, for the advice of a filesystem difference.
std::string SyncPathOf(const std::string& fstype);

}  // namespace durprobe::explain
