#include "platform/file_handle.h"

#include <utility>

#include "platform/platform.h"

namespace durprobe::platform {

FileHandle::FileHandle(Platform& platform, int fd) : platform_(&platform), fd_(fd) {}

FileHandle::~FileHandle() { (void)Close(); }

FileHandle::FileHandle(FileHandle&& other) noexcept
    : platform_(other.platform_), fd_(std::exchange(other.fd_, -1)) {}

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept {
  if (this != &other) {
    (void)Close();
    platform_ = other.platform_;
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

int FileHandle::release() { return std::exchange(fd_, -1); }

Status FileHandle::Close() {
  if (fd_ < 0) return Status::Ok();
  return platform_->Close(std::exchange(fd_, -1));
}

}  // namespace durprobe::platform
