// Linked into durprobe-static alone (cmake/Static.cmake): platform::StaticBinary() reads it.
extern "C" {
extern const bool durprobe_static_binary;
const bool durprobe_static_binary = true;
}
