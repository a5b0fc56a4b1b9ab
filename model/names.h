// The one Parse of every closed set the report names: it reads back what the set's NameOf writes,
// so each name is spelt once, in NameOf's switch (which has no `default:`, so -Wswitch finds a
// value without a name) or in its table (platform/enum_table.h, held to the enum by a
// static_assert).
#pragma once

#include <optional>
#include <string_view>

namespace durprobe::model {

// The value NameOf spells as `name`, or nullopt. E's values run from 0 without a gap, and its
// NameOf returns "" for a value past the last (the statement after its switch).
template <typename E>
std::optional<E> ParseName(std::string_view name) {
  for (int i = 0;; ++i) {
    std::string_view spelt = NameOf(static_cast<E>(i));
    if (spelt.empty()) return std::nullopt;
    if (spelt == name) return static_cast<E>(i);
  }
}

}  // namespace durprobe::model
