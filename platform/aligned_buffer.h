// Memory aligned for O_DIRECT transfers.
#pragma once

#include <cstddef>

namespace durprobe::platform {

// A buffer whose address is aligned for O_DIRECT. Owns its memory; data() is null when the
// allocation failed.
class AlignedBuffer {
 public:
  AlignedBuffer(std::size_t size, std::size_t alignment);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace durprobe::platform
