// A path as a POSIX shell word, for the commands durprobe suggests ("run `durprobe sqlite
// PATH`", compare's "test the leading cause"): pasted into a shell, the command names that
// path whatever its bytes, and nothing in it ($(...), `...`, ;, a space) runs or splits.
#pragma once

#include <string>
#include <string_view>

namespace durprobe::text {

// text as it is when every byte is one a shell takes literally (letters, digits and
// _ @ % + : , . / -), so ordinary paths read as typed; otherwise in single quotes, each '
// written as '\'' ("/tmp/my dir" -> '/tmp/my dir', "a'b" -> 'a'\''b', "" -> '').
std::string ShellQuote(std::string_view text);

}  // namespace durprobe::text
