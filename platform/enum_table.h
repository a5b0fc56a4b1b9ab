// A closed set's text as data: one table row per enumerator, in the enum's order, each row naming
// its enumerator in `value`. A static_assert on OneRowPerValue holds the table to the enum, so an
// enumerator added before the last without its row fails to build, as a switch without a
// `default:` does (one added after the last must move the enum's kLast constant too). It sits in
// the bottom room so that every room's closed sets are read the same way.
#pragma once

#include <cstddef>
#include <string_view>

namespace durprobe::platform {

// The text of one enumerator: a closed set's name (NameOf(value) is TextIn(its table, value)),
// or the phrase a message says for it.
template <typename E>
struct TextRow {
  E value;
  std::string_view text;
};

// The table has a row for each enumerator up to `last`, each in its enumerator's place.
template <typename Row, std::size_t N, typename E>
constexpr bool OneRowPerValue(const Row (&rows)[N], E last) {
  if (N != static_cast<std::size_t>(last) + 1) return false;
  for (std::size_t i = 0; i < N; ++i) {
    if (rows[i].value != static_cast<E>(i)) return false;
  }
  return true;
}

// The row of `value`, or nullptr for a value past the table (one cast from outside the enum).
template <typename Row, std::size_t N, typename E>
constexpr const Row* RowIn(const Row (&rows)[N], E value) {
  auto i = static_cast<std::size_t>(value);
  return i < N ? &rows[i] : nullptr;
}

// The text of `value`, or "" past the table: model/names.h's ParseName stops at the first "".
template <std::size_t N, typename E>
constexpr std::string_view TextIn(const TextRow<E> (&rows)[N], E value) {
  const TextRow<E>* row = RowIn(rows, value);
  return row != nullptr ? row->text : std::string_view();
}

}  // namespace durprobe::platform
