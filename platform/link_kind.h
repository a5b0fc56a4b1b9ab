// How this binary was linked: durprobe-static (cmake/Static.cmake) links platform/static_link.cc,
// which says so; every other binary (durprobe, the tests) is dynamic.
#pragma once

namespace durprobe::platform {

// True in durprobe-static. glibc's name service (host names, users) loads shared modules that a
// static binary cannot count on, so its callers take numeric addresses only there.
bool StaticBinary();

}  // namespace durprobe::platform
