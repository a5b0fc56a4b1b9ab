#include "explain/causes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "explain/cause_table.h"
#include "platform/enum_table.h"
#include "text/units.h"

namespace durprobe::explain {

constexpr platform::TextRow<TrialKind> kTrialKindNames[] = {
    {TrialKind::kComparePaths, "compare_paths"},
    {TrialKind::kNocowDir, "nocow_dir"},
    {TrialKind::kSqliteWal, "sqlite_wal"},
};
static_assert(platform::OneRowPerValue(kTrialKindNames, kLastTrialKind), "one name per TrialKind");

std::string_view NameOf(TrialKind k) { return platform::TextIn(kTrialKindNames, k); }

namespace {

// How well one measured ratio (the side with the cause over the other) fits an expectation:
// 1 a clear fit, 0 a contradiction, partial credit for a move too small to count.
double Fit(Expect e, double ratio) {
  double d = std::log(ratio), t = std::log(kMoveRatio);
  switch (e) {
    case Expect::kSame:
      return std::fabs(d) < t ? 1.0 : std::fabs(d) < 2 * t ? 0.3 : 0.0;
    case Expect::kMoves:
      return std::fabs(d) >= t ? 1.0 : 0.3 * std::fabs(d) / t;
    case Expect::kSlower:
      return d >= t ? 1.0 : d > 0 ? 0.3 * d / t : 0.0;
    case Expect::kFaster:
      return -d >= t ? 1.0 : d < 0 ? -0.3 * d / t : 0.0;
  }
  return 0.0;
}

// The ratio as the side with the cause sees it (b over a for a difference of kind).
double AsSeenBy(int side, double ratio_b_over_a) {
  return side == 0 ? 1.0 / ratio_b_over_a : ratio_b_over_a;
}

struct Scored {
  double fit = 0.5;  // no measurement to judge by: neither for nor against
  double weight = 0;
  std::vector<std::string> moved, equal;  // evidence phrases, heaviest expectation first
};

Scored ScoreRow(const Knowledge& k, const CauseMatch& match, const Signature& sig,
                const CauseInputs& in) {
  Scored s;
  double got = 0;
  int seer = match.side < 0 ? 1 : match.side;
  const std::string& other = seer == 0 ? in.name_b : in.name_a;
  std::vector<Expectation> expects = k.expects;
  std::stable_sort(expects.begin(), expects.end(),
                   [](const Expectation& x, const Expectation& y) { return x.weight > y.weight; });
  // Where the sync probes moved with the reference probe, the device's state explains their
  // move: a difference of kind (two filesystems) is judged on what they moved beyond it.
  const std::optional<WithReference>& w = sig.with_reference;
  const bool beyond_state = w && w->proportional && match.side < 0;
  for (const Expectation& e : expects) {
    std::size_t i = static_cast<std::size_t>(e.signal);
    if (!sig.ratio[i]) continue;
    const bool beyond = beyond_state && IsSyncSignal(e.signal);
    double r = AsSeenBy(seer, *sig.ratio[i] / (beyond ? w->reference : 1.0));
    got += e.weight * Fit(e.expect, r);
    s.weight += e.weight;
    bool same = std::fabs(std::log(r)) < std::log(kMoveRatio);
    std::string name = beyond ? fmt::format("{} beyond the reference probe's {}", NameOf(e.signal),
                                            text::FormatRatio(AsSeenBy(seer, w->reference)))
                              : std::string(NameOf(e.signal));
    std::string values = fmt::format("{} vs {}", FormatSignal(e.signal, sig.value[i][seer]),
                                     FormatSignal(e.signal, sig.value[i][1 - seer]));
    (same ? s.equal : s.moved)
        .push_back(
            same ? fmt::format("{} ({}, {})", name, text::FormatRatio(r), values)
                 : fmt::format("{} is {} {}'s ({})", name, text::FormatRatio(r), other, values));
  }
  if (k.voids_durability && match.side >= 0) {
    // The durability verdict is evidence too: a cause that keeps nothing should leave its side
    // not durable and the other durable.
    bool fits = sig.side[match.side].not_durable && !sig.side[1 - match.side].not_durable;
    got += 2 * (fits ? 1.0 : 0.0);
    s.weight += 2;
    // The strongest evidence when it fits, so it comes first.
    if (fits) {
      const std::vector<std::string>& codes = sig.side[match.side].not_durable_codes;
      std::string why = codes.empty() ? std::string("its durability verdict")
                                      : fmt::format("{}", fmt::join(codes, ", "));
      s.moved.insert(s.moved.begin(), fmt::format("syncs do no durable work ({})", why));
    }
  }
  if (s.weight > 0) s.fit = got / s.weight;
  if (!match.against.empty()) s.fit = 0;  // contradicted by what decides it (CauseMatch)
  return s;
}

std::string Evidence(const Knowledge& k, const CauseMatch& match, const Scored& s,
                     const CauseInputs& in) {
  int seer = match.side < 0 ? 1 : match.side;
  const std::string& me = seer == 0 ? in.name_a : in.name_b;
  if (!match.against.empty()) {
    return fmt::format("{}: {}: not what to expect from {}", match.what, match.against, k.title);
  }
  std::string decided =
      match.decided_by.empty()
          ? ""
          : fmt::format("; {}, which ranks it ahead of a difference of kind", match.decided_by);
  if (s.weight == 0) {
    return fmt::format("{}{}; nothing both sides measured tells for or against {}", match.what,
                       decided, k.title);
  }
  std::string line = fmt::format("{}{}: ", match.what, decided);
  auto first_two = [](const std::vector<std::string>& v) {
    return std::vector<std::string>(v.begin(), v.begin() + std::min<std::size_t>(2, v.size()));
  };
  std::vector<std::string> moved = first_two(s.moved), equal = first_two(s.equal);
  if (!moved.empty()) line += fmt::format("{}'s {}", me, fmt::join(moved, ", its "));
  if (!equal.empty()) {
    line += fmt::format("{} {} {} about equal", moved.empty() ? me + "'s" : " while its",
                        fmt::join(equal, " and its "), equal.size() > 1 ? "are" : "is");
  }
  const char* verdict = s.fit >= 0.75  ? "consistent with"
                        : s.fit >= 0.4 ? "partly consistent with"
                                       : "not what to expect from";
  return line + fmt::format(": {} {}", verdict, k.title);
}

std::string Advice(const Knowledge& k, const CauseMatch& match, const CauseInputs& in) {
  if (!match.advice.empty()) return match.advice;
  int side = match.side < 0 ? 1 : match.side;
  return fmt::format(fmt::runtime(k.advice), fmt::arg("side", side == 0 ? in.name_a : in.name_b),
                     fmt::arg("other", side == 0 ? in.name_b : in.name_a));
}

std::vector<std::string> KeysOf(const Knowledge& k, const std::vector<Difference>& differences) {
  std::vector<std::string> out;
  for (const Difference& d : differences) {
    for (const char* key : k.keys) {
      // "mount.fstype" also matches "targets[1].mount.fstype" in a diff of several paths.
      std::string_view name = d.key;
      std::size_t at = name.find(key);
      if (at != std::string::npos && (at == 0 || name[at - 1] == '.')) {
        out.push_back(d.key);
        break;
      }
    }
  }
  return out;
}

// A cause that moves nothing by itself (a bind mount, the commit interval): every signal it
// expects stays the same, so it fits best when nothing moved, and it says to read the causes
// above it.
bool MovesNothing(const Knowledge& k) {
  return !k.expects.empty() &&
         std::all_of(k.expects.begin(), k.expects.end(),
                     [](const Expectation& e) { return e.expect == Expect::kSame; });
}

}  // namespace

std::vector<Cause> RankCauses(const CauseInputs& in) {
  std::vector<Cause> out;
  if (in.a == nullptr || in.b == nullptr) return out;
  Signature sig = MeasureSignature(*in.a, *in.b, in.configs, in.separate_runs);
  CausePair pair;
  pair.in = &in;
  pair.sig = &sig;
  pair.target[0] = in.a;
  pair.target[1] = in.b;
  pair.mount[0] = in.a->mount ? &*in.a->mount : nullptr;
  pair.mount[1] = in.b->mount ? &*in.b->mount : nullptr;
  std::vector<bool> decided, neutral;
  for (const Knowledge& k : KnowledgeTable()) {
    CauseMatch match;
    if (!k.match(pair, match)) continue;
    neutral.push_back(MovesNothing(k));
    Scored s = ScoreRow(k, match, sig, in);
    Cause c;
    c.key = k.key;
    // A cause the measurements contradict keeps a fifth of its weight: it still differs.
    c.score = std::round(k.prior * (0.2 + 0.8 * s.fit) * 100.0) / 100.0;
    c.side = match.side < 0 ? "" : (match.side == 0 ? in.name_a : in.name_b);
    c.what = match.what;
    c.evidence = Evidence(k, match, s, in);
    c.advice = Advice(k, match, in);
    c.differences = KeysOf(k, in.differences);
    c.trial = match.trial;
    decided.push_back(!match.decided_by.empty());
    out.push_back(std::move(c));
  }
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return out[x].score > out[y].score; });
  // A cause its decisive evidence puts first (the device's state, where the sync probes moved
  // with the reference probe) goes ahead of every difference of kind (two filesystems, two
  // kernels), which the state explains; a cause one side has (a rotating disk, a layer) is on
  // the reference probe's path too, so the proportion cannot tell it from the state, and it
  // keeps its place by score.
  auto d = std::find_if(order.begin(), order.end(), [&](std::size_t i) { return decided[i]; });
  if (d != order.end()) {
    auto kind = std::find_if(order.begin(), d, [&](std::size_t i) { return out[i].side.empty(); });
    std::rotate(kind, d, d + 1);
  }
  // It never leads a cause that stands for a cost, however badly the disk's noise fit that one
  // (seen: a bind mount ahead of bindfs's FUSE server when the disk changed state mid-compare).
  std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return !neutral[i]; });
  std::vector<Cause> ranked;
  ranked.reserve(out.size());
  for (std::size_t i : order) ranked.push_back(std::move(out[i]));
  out = std::move(ranked);
  return out;
}

const std::vector<std::string_view>& IdentityKeyEndings() {
  static const auto* endings = new std::vector<std::string_view>{".dev",
                                                                 ".mount_point",
                                                                 ".source",
                                                                 ".root",
                                                                 ".device.name",
                                                                 ".device.disk",
                                                                 ".backing_file",
                                                                 ".backing_mount_point",
                                                                 ".dm_name",
                                                                 ".upper_dir",
                                                                 ".work_dir",
                                                                 ".lower_dirs",
                                                                 ".upper_mount_point",
                                                                 ".upper_source",
                                                                 ".path_role_reason",
                                                                 ".device_note",
                                                                 ".bind_note",
                                                                 ".notes",
                                                                 ".evidence",
                                                                 ".slaves",
                                                                 ".path"};
  return *endings;
}

bool IdentifiesOnly(const std::string& key) {
  std::string dotted = "." + key;
  return std::any_of(IdentityKeyEndings().begin(), IdentityKeyEndings().end(),
                     [&dotted](std::string_view n) { return dotted.ends_with(n); });
}

void DropIdentityKeys(std::vector<Difference>& differences) {
  bool configures = std::any_of(differences.begin(), differences.end(),
                                [](const Difference& d) { return !IdentifiesOnly(d.key); });
  if (!configures) return;
  std::erase_if(differences, [](const Difference& d) { return IdentifiesOnly(d.key); });
}

}  // namespace durprobe::explain
