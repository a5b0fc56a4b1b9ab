# cmake -DINPUT=FILE -DOUTPUT=FILE.cc -DFUNCTION=NAME -P EmbedFile.cmake: writes a C++ file whose
# durprobe::platform::NAME() returns INPUT's bytes (the BPF objects the build compiles), so the
# binary carries them with no file to install beside it.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n"
       bytes "${bytes}")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by cmake/EmbedFile.cmake.
#include <string_view>

namespace durprobe::platform {
namespace {
alignas(8) const unsigned char kBytes[] = {
${bytes}
};
}  // namespace

std::string_view ${FUNCTION}() {
  return std::string_view(reinterpret_cast<const char*>(kBytes), ${size});
}

}  // namespace durprobe::platform
")
