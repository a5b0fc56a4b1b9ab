// Linked into durprobe-static alone (cmake/Static.cmake), compiled with FMT_HEADER_ONLY: the part
// of fmt that the other objects take from Debian's libfmt.so, which has no static archive. In
// header-only mode these functions are inline, so each is named here once, which makes the
// compiler emit it: the templates by explicit instantiation, the others by taking their address.
// The list is what the static link reported undefined without this file (fmt 9); a newer fmt
// that needs another function fails that link, naming it.
#include <fmt/format.h>

#include <string>

namespace fmt::detail {
template char decimal_point_impl<char>(locale_ref);
template thousands_sep_result<char> thousands_sep_impl<char>(locale_ref);
template dragonbox::decimal_fp<float> dragonbox::to_decimal<float>(float) noexcept;
template dragonbox::decimal_fp<double> dragonbox::to_decimal<double>(double) noexcept;
}  // namespace fmt::detail

namespace {
[[gnu::used]] const void* const kEmitted[] = {
    reinterpret_cast<const void*>(static_cast<bool (*)(std::uint32_t)>(&fmt::detail::is_printable)),
    reinterpret_cast<const void*>(&fmt::detail::throw_format_error),
    reinterpret_cast<const void*>(
        static_cast<std::string (*)(fmt::string_view, fmt::format_args)>(&fmt::vformat)),
};
}  // namespace
