#include "probes/fsync_errors.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "platform/file_handle.h"

namespace durprobe::probes {
namespace {

using platform::FileHandle;
using platform::OpenFlags;

constexpr std::size_t kPage = 4096;
constexpr std::size_t kPages = 4;  // the file: pages 0-3, of which page 1 fails
constexpr std::uint64_t kFailedAt = kPage;

std::string ErrnoName(int e) {
  switch (e) {
    case EIO:
      return "EIO";
    case ENOSPC:
      return "ENOSPC";
    case EROFS:
      return "EROFS";
    case EUCLEAN:
      return "EUCLEAN";
    case EINVAL:
      return "EINVAL";
    case EBADF:
      return "EBADF";
    case ENOENT:
      return "ENOENT";
    case EEXIST:
      return "EEXIST";
    case EPERM:
      return "EPERM";
    case EACCES:
      return "EACCES";
    case EDQUOT:
      return "EDQUOT";
    case ENOTCONN:
      return "ENOTCONN";
  }
  return fmt::format("errno {}", e);
}

// A page-aligned buffer, as O_DIRECT needs.
struct AlignedPage {
  AlignedPage() : data(static_cast<char*>(std::aligned_alloc(kPage, kPage))) {}
  ~AlignedPage() { std::free(data); }
  AlignedPage(const AlignedPage&) = delete;
  AlignedPage& operator=(const AlignedPage&) = delete;
  char* data;
};

// Whether a new file can be made in dir now: available, read-only (EROFS), or shut down (any
// other error: xfs answers EIO to everything once it has shut down).
FsState StateOf(platform::Platform& platform, const std::string& dir, std::string& error) {
  const std::string probe = dir + "/still-writable";
  Result<FileHandle> f = platform.Open(probe, OpenFlags{.create = true, .exclusive = true});
  if (f.ok()) {
    (void)f->Close();
    (void)platform.Unlink(probe);
    error.clear();
    return FsState::kAvailable;
  }
  error = CallResult(f.status());
  return f.status().error_number() == EROFS ? FsState::kReadOnly : FsState::kShutDown;
}

PageContent ReadPage(platform::Platform& platform, int fd, std::uint64_t at,
                     const std::string& new_page, const std::string& old_page) {
  std::string page(kPage, '\0');
  Result<std::size_t> n = platform.PRead(fd, page.data(), kPage, at);
  if (!n.ok()) return PageContent::kUnreadable;
  page.resize(*n);
  return ClassifyPage(page, new_page, old_page);
}

PageContent ReadPageOf(platform::Platform& platform, const std::string& path, std::uint64_t at,
                       const std::string& new_page, const std::string& old_page) {
  Result<FileHandle> f = platform.Open(path, OpenFlags{.read_only = true});
  if (!f.ok()) return PageContent::kUnreadable;
  return ReadPage(platform, f->get(), at, new_page, old_page);
}

}  // namespace

PageContent ClassifyPage(const std::string& read, const std::string& new_page,
                         const std::string& old_page) {
  if (read.size() < new_page.size()) {
    return read.empty() ? PageContent::kMissing : PageContent::kOther;
  }
  if (read == new_page) return PageContent::kNew;
  if (read == old_page) return PageContent::kOld;
  if (read.find_first_not_of('\0') == std::string::npos) return PageContent::kZeros;
  return PageContent::kOther;
}

Reporting ClassifyReporting(const std::string& write, const std::string& first_sync,
                            const std::string& second_sync) {
  if (first_sync.empty()) return Reporting::kUnknown;
  if (!write.empty() && write != "ok") return Reporting::kReportedByWrite;
  if (first_sync == "ok") return Reporting::kNotReported;
  return second_sync == "ok" ? Reporting::kReportedOnce : Reporting::kReportedEveryTime;
}

std::string CallResult(const Status& status) {
  if (status.ok()) return "ok";
  if (status.error_number() != 0) return ErrnoName(status.error_number());
  return status.message();
}

std::string MarkedPage(const std::string& marker, char fill) {
  std::string page(kPage, fill);
  for (std::size_t at = 0; at + marker.size() <= kPage; at += 512) {
    std::memcpy(page.data() + at, marker.data(), marker.size());
  }
  return page;
}

FsyncErrorOutcome RunFsyncErrorExperiment(platform::Platform& platform,
                                          platform::CrashDevice& device, const platform::FsSpec& fs,
                                          FaultKind fault, platform::SyncCall sync) {
  FsyncErrorOutcome o;
  o.fault = fault;
  o.sync = sync == platform::SyncCall::kFdatasync ? "fdatasync" : "fsync";
  auto stop = [&](const Status& s) {
    o.status = OutcomeOf(s);
    o.reason = s.message();
    (void)device.ClearWriteFaults();
    (void)device.Unmount();
    return o;
  };
  Result<std::string> mnt = device.Mount(fs);
  if (!mnt.ok()) return stop(mnt.status());
  const std::string marker(platform::kFaultMarker);
  const std::string old_page(kPage, 'A');
  const std::string new_page = MarkedPage(marker, 'B');
  const bool metadata = fault == FaultKind::kMetadata;
  // The file, written and made durable before anything fails.
  const std::string path = *mnt + "/data";
  {
    Result<FileHandle> f = platform.Open(path, OpenFlags{.create = true, .truncate = true});
    if (!f.ok()) return stop(f.status());
    for (std::size_t i = 0; i < kPages; ++i) {
      if (Status s = platform.PWrite(f->get(), old_page.data(), kPage, i * kPage); !s.ok()) {
        return stop(s);
      }
    }
    if (Status s = platform.Sync(f->get(), platform::SyncCall::kFsync); !s.ok()) return stop(s);
  }
  if (Status s = platform.SyncDirectory(*mnt); !s.ok()) return stop(s);
  // The page that fails: page 1 of the file, the page after its end for an append, or the first
  // page of a new file for metadata.
  const std::string target = metadata ? *mnt + "/new" : path;
  const std::uint64_t at = metadata                          ? 0
                           : fault == FaultKind::kDataAppend ? kPages * kPage
                                                             : kFailedAt;
  Result<FileHandle> other = platform.Open(path, OpenFlags{});
  if (!other.ok()) return stop(other.status());
  Result<FileHandle> f = platform.Open(
      target, OpenFlags{.create = metadata, .direct = fault == FaultKind::kDataDirect});
  if (!f.ok()) return stop(f.status());
  platform::WriteFault w;
  w.error = fault == FaultKind::kDataNoSpace ? ENOSPC : EIO;
  w.count = fault == FaultKind::kDataPersistent || metadata ? 0 : 1;
  if (!metadata) w.marker = marker;
  // The checkpoint's fault meets the page's write to its home block alone (the journal's copies
  // go elsewhere), and stays until the unmount, which writes the page home if nothing did before:
  // the failure comes as late as the filesystem makes it.
  const bool checkpoint = fault == FaultKind::kDataCheckpoint;
  if (checkpoint) {
    Result<std::uint64_t> home = device.DeviceOffset(f->get(), at);
    if (!home.ok()) return stop(home.status());
    w.offset = *home;
    w.length = kPage;
  }
  if (Status s = device.InjectWriteFault(w); !s.ok()) return stop(s);
  AlignedPage page;
  std::memcpy(page.data, new_page.data(), kPage);
  o.write = CallResult(platform.PWrite(f->get(), page.data, kPage, at));
  o.first_sync = CallResult(platform.Sync(f->get(), sync));
  o.second_sync = CallResult(platform.Sync(f->get(), sync));
  o.other_sync = CallResult(platform.Sync(other->get(), sync));
  if (!checkpoint) {
    if (Status s = device.ClearWriteFaults(); !s.ok()) return stop(s);
  }
  if (fault == FaultKind::kDataPersistent || metadata) {
    o.later_sync = CallResult(platform.Sync(f->get(), sync));
  }
  o.reporting = ClassifyReporting(o.write, o.first_sync, o.second_sync);
  o.cached = ReadPageOf(platform, target, at, new_page, old_page);
  if (Result<std::uint64_t> size = platform.FileSize(target); size.ok()) o.size = *size;
  o.state = StateOf(platform, *mnt, o.state_error);
  // The failed page once the cache lets go of it, without a remount: posix_fadvise drops clean
  // pages only, so a page still dirty (a retry pending) reads as it was.
  if (platform.EvictCache(f->get()).ok()) {
    o.evicted = ReadPageOf(platform, target, at, new_page, old_page);
  }
  (void)f->Close();
  (void)other->Close();
  o.kernel = device.KernelLines();
  Status unmounted = device.Unmount();
  if (checkpoint) {
    if (Status s = device.ClearWriteFaults(); !s.ok()) return stop(s);
    // The lines since the mount, of which the first were taken before the unmount.
    std::vector<std::string> lines = device.KernelLines();
    for (std::size_t i = o.kernel.size(); i < lines.size(); ++i) o.kernel.push_back(lines[i]);
  }
  if (!unmounted.ok()) {
    o.remount_error = "unmount: " + unmounted.message();
    return o;
  }
  Result<std::string> again = device.Mount(fs);
  o.remount_ok = again.ok();
  if (!again.ok()) {
    o.remount_error = again.status().message();
  } else {
    o.remounted = ReadPageOf(platform, target, at, new_page, old_page);
    if (Result<std::uint64_t> size = platform.FileSize(target); size.ok()) {
      o.size_after_remount = *size;
    }
    std::string error;
    o.state_after_remount = StateOf(platform, *again, error);
  }
  for (std::string& line : device.KernelLines()) o.kernel.push_back(std::move(line));
  if (Status s = device.Unmount(); !s.ok() && o.remount_error.empty()) {
    o.remount_error = "unmount: " + s.message();
  }
  return o;
}

}  // namespace durprobe::probes
