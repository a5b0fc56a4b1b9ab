#include "platform/aligned_buffer.h"

#include <cstdlib>

namespace durprobe::platform {

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment) : size_(size) {
  void* p = nullptr;
  std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  if (posix_memalign(&p, alignment, rounded == 0 ? alignment : rounded) == 0) {
    data_ = static_cast<std::byte*>(p);
  }
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

}  // namespace durprobe::platform
