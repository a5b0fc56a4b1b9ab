// Failures below the CLI are values: a Status (ok, an errno with its context, or "unsupported")
// and Result<T> (a value or a Status). The CLI turns them into one-line errors and exit codes.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "platform/shown_paths.h"

namespace durprobe {

class [[nodiscard]] Status {
 public:
  enum class Kind { kOk, kError, kUnsupported, kInvalidArgument, kInterrupted };

  Status() = default;
  static Status Ok() { return Status(); }
  // "<context>: <strerror(err)>"; error_number() keeps err for callers that branch on it.
  static Status FromErrno(int err, std::string_view context);
  static Status Error(std::string message) { return Status(Kind::kError, 0, std::move(message)); }
  static Status Unsupported(std::string reason) {
    return Status(Kind::kUnsupported, 0, std::move(reason));
  }
  static Status InvalidArgument(std::string message) {
    return Status(Kind::kInvalidArgument, 0, std::move(message));
  }
  // An invalid argument whose value lies outside its allowed range (a size, a count). Its kind
  // is kInvalidArgument like any other; out_of_range() tells it apart from arguments that do
  // not go together, for callers that skip those but must stop at these.
  static Status OutOfRange(std::string message) {
    Status s(Kind::kInvalidArgument, 0, std::move(message));
    s.out_of_range_ = true;
    return s;
  }
  static Status Interrupted(int signal_number);

  bool ok() const { return kind_ == Kind::kOk; }
  Kind kind() const { return kind_; }
  bool unsupported() const { return kind_ == Kind::kUnsupported; }
  bool out_of_range() const { return out_of_range_; }
  int error_number() const { return errno_; }
  const std::string& message() const { return message_; }

 private:
  Status(Kind kind, int err, std::string message)
      : kind_(kind), errno_(err), message_(platform::ShownPaths(std::move(message))) {}
  Kind kind_ = Kind::kOk;
  int errno_ = 0;
  std::string message_;
  bool out_of_range_ = false;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: must not be ok
  bool ok() const { return std::holds_alternative<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace durprobe
