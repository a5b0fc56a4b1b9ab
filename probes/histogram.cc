#include "probes/histogram.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace durprobe::probes {

// Values below kSubBuckets have one bucket each (exact). A value whose top bit is at position
// e >= kSubBucketBits falls in row e - kSubBucketBits + 1, which splits [2^e, 2^(e+1)) into
// kSubBuckets equal buckets of width 2^(e - kSubBucketBits): at most 1/128 of the value.
int Histogram::BucketOf(std::uint64_t value) {
  if (value < kSubBuckets) return static_cast<int>(value);
  int e = static_cast<int>(std::bit_width(value)) - 1;  // top bit position, >= kSubBucketBits
  if (e > kMaxExponent) return kBucketCount - 1;
  int shift = e - kSubBucketBits;
  int row = shift + 1;
  int sub = static_cast<int>((value >> shift) - kSubBuckets);  // 0 .. kSubBuckets-1
  return row * kSubBuckets + sub;
}

std::uint64_t Histogram::BucketLow(int index) {
  int row = index / kSubBuckets;
  int sub = index % kSubBuckets;
  if (row == 0) return static_cast<std::uint64_t>(sub);
  int shift = row - 1;
  return (static_cast<std::uint64_t>(kSubBuckets) + static_cast<std::uint64_t>(sub)) << shift;
}

std::uint64_t Histogram::BucketHigh(int index) {
  int row = index / kSubBuckets;
  if (row == 0) return BucketLow(index) + 1;
  return BucketLow(index) + (std::uint64_t{1} << (row - 1));
}

void Histogram::Record(std::uint64_t value) { Record(value, 1); }

void Histogram::Record(std::uint64_t value, std::uint64_t times) {
  if (times == 0) return;
  buckets_[static_cast<std::size_t>(BucketOf(value))] += static_cast<std::uint32_t>(times);
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = std::max(max_, value);
  sum_ += static_cast<double>(value) * static_cast<double>(times);
  count_ += times;
}

void Histogram::Merge(const Histogram& other) {
  if (other.count_ == 0) return;
  for (std::size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  count_ += other.count_;
}

std::string Histogram::ToBytes() const {
  std::string out(kBytes, '\0');
  char* p = out.data();
  std::memcpy(p, buckets_.data(), kBucketCount * sizeof(std::uint32_t));
  p += kBucketCount * sizeof(std::uint32_t);
  for (const void* field : {static_cast<const void*>(&count_), static_cast<const void*>(&min_),
                            static_cast<const void*>(&max_), static_cast<const void*>(&sum_)}) {
    std::memcpy(p, field, 8);
    p += 8;
  }
  return out;
}

bool Histogram::FromBytes(std::string_view bytes, Histogram* out) {
  if (bytes.size() != kBytes) return false;
  const char* p = bytes.data();
  std::memcpy(out->buckets_.data(), p, kBucketCount * sizeof(std::uint32_t));
  p += kBucketCount * sizeof(std::uint32_t);
  for (void* field : {static_cast<void*>(&out->count_), static_cast<void*>(&out->min_),
                      static_cast<void*>(&out->max_), static_cast<void*>(&out->sum_)}) {
    std::memcpy(field, p, 8);
    p += 8;
  }
  return true;
}

std::uint64_t Histogram::ValueAtRank(std::uint64_t rank) const {
  if (count_ == 0) return 0;
  if (rank >= count_) return max_;
  std::uint64_t seen = 0;
  for (int i = 0; i < kBucketCount; ++i) {
    seen += buckets_[static_cast<std::size_t>(i)];
    if (seen > rank) {
      std::uint64_t low = BucketLow(i);
      std::uint64_t mid = low + (BucketHigh(i) - low) / 2;
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;
}

std::vector<HistogramBucket> NonEmptyBuckets(const Histogram& h) {
  std::vector<HistogramBucket> out;
  if (h.count() == 0) return out;
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    std::uint32_t n = h.CountAt(i);
    if (n != 0) out.push_back({Histogram::BucketHigh(i) - 1, n});
  }
  return out;
}

void AddBuckets(Histogram& h, const std::vector<HistogramBucket>& buckets) {
  for (const HistogramBucket& b : buckets) h.Record(b.upper_bound_ns, b.count);
}

}  // namespace durprobe::probes
