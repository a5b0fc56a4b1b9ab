// Log-linear latency histogram in fixed memory (on the heap) (HdrHistogram's idea): each power of
// two is split into kSubBuckets linear buckets, so a recorded value is known to within
// 1/kSubBuckets of itself (under 0.8%), from 1 ns up to 2^kMaxExponent ns (about 18 minutes). Exact
// min, max and sum are kept beside the buckets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::probes {

class Histogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr int kSubBuckets = 1 << kSubBucketBits;  // 128
  static constexpr int kMaxExponent = 40;
  static constexpr int kBucketCount = (kMaxExponent - kSubBucketBits + 2) * kSubBuckets;

  void Record(std::uint64_t value);
  // value recorded `times` times over, at once.
  void Record(std::uint64_t value, std::uint64_t times);
  void Merge(const Histogram& other);
  void Clear() { *this = Histogram(); }

  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ == 0 ? 0 : min_; }
  std::uint64_t max() const { return max_; }
  double mean() const { return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_); }

  // The value of the rank-th smallest recording (0-based), as its bucket's midpoint clamped to
  // [min, max]. rank >= count() returns max().
  std::uint64_t ValueAtRank(std::uint64_t rank) const;

  std::uint32_t CountAt(int index) const { return buckets_[static_cast<std::size_t>(index)]; }

  // The histogram as kBytes bytes and back, for a forked child's pipe (the same binary at both
  // ends, so the layout is this build's own). FromBytes is false on a frame of another size.
  static constexpr std::size_t kBytes = kBucketCount * sizeof(std::uint32_t) + 4 * 8;
  std::string ToBytes() const;
  static bool FromBytes(std::string_view bytes, Histogram* out);

  // Bucket index and bounds, exposed for tests of the error bound and for shape analysis.
  static int BucketOf(std::uint64_t value);
  static std::uint64_t BucketLow(int index);
  static std::uint64_t BucketHigh(int index);  // exclusive

 private:
  // On the heap (18 KiB): outcomes carry histograms by value through the probes' calls, and a
  // few of them in one stack frame overflowed a 128 KiB `ulimit -s`.
  std::vector<std::uint32_t> buckets_ = std::vector<std::uint32_t>(kBucketCount);
  std::uint64_t count_ = 0;
  std::uint64_t min_ = 0;
  std::uint64_t max_ = 0;
  double sum_ = 0.0;
};

// One non-empty bucket of a histogram in the compact form a saved report keeps: the bucket counts
// `count` values v with v <= upper_bound_ns (inclusive, so it reads as a Prometheus `le`), each
// above the previous bucket of the full layout; a value is within 1/128 of its bucket's bound.
struct HistogramBucket {
  std::uint64_t upper_bound_ns = 0;
  std::uint64_t count = 0;
  bool operator==(const HistogramBucket&) const = default;
};

// The non-empty buckets of h, by increasing upper bound.
std::vector<HistogramBucket> NonEmptyBuckets(const Histogram& h);

// Adds saved buckets to h, each value at its bucket's upper bound: the counts and percentiles are
// the original's, min, max and the mean to the buckets' resolution (1/128).
void AddBuckets(Histogram& h, const std::vector<HistogramBucket>& buckets);

}  // namespace durprobe::probes
