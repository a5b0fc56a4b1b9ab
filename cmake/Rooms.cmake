# The rooms (docs/architecture.md): one static library per top-level folder, linking only the
# rooms below it. Each library's only include root for the project is a view of the tree,
# build/rooms/NAME/, holding a symbolic link to its own folder and to each folder below it, so an
# include of a room above or beside fails to compile ("No such file or directory"): the compiler,
# not a test, keeps the includes pointing down. Tests and fuzz targets link durprobe_core, whose
# include root is the whole tree.

# Warnings as Google Benchmark builds with them, on the rooms, cli/ and the tests: -Wshadow, and
# -Wconversion without its sign half (-Wsign-conversion: 82 places, not made clean yet). Clean
# with gcc 12 (docs/testing.md, "Warnings", has the counts found and fixed); not -Werror, since
# clang (build-san/) reads -Wconversion more widely and a CI build must not break on it.
set(DURPROBE_STRICT_WARNINGS -Wshadow -Wconversion -Wno-sign-conversion)

# Third-party libraries every room may use; the others go to the one room that needs them. fmt
# as Debian's shared library: header-only, every object compiled fmt's formatting code again
# (about 3 s of CPU each, a fifth of a cold build). durprobe-static, for which Debian has no
# libfmt.a, links platform/static_fmt.cc instead (cmake/Static.cmake).
add_library(durprobe_deps INTERFACE)
target_link_libraries(durprobe_deps INTERFACE
  $<IF:$<BOOL:$<TARGET_PROPERTY:DURPROBE_STATIC>>,,fmt::fmt> nlohmann_json::nlohmann_json
  Threads::Threads)
target_compile_definitions(durprobe_deps INTERFACE FMT_SHARED)
target_include_directories(durprobe_deps SYSTEM INTERFACE
  $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)

# durprobe_room(NAME [DEPS ROOM...]): the library durprobe_NAME for NAME/ (its sources are listed
# by NAME/CMakeLists.txt), linking the rooms named, each declared before it.
function(durprobe_room name)
  cmake_parse_arguments(R "" "" "DEPS" ${ARGN})
  set(closure ${name})
  foreach(dep IN LISTS R_DEPS)
    get_property(below GLOBAL PROPERTY DURPROBE_ROOM_${dep})
    if(NOT below)
      message(FATAL_ERROR "room ${name}: ${dep} is not a room declared before it")
    endif()
    list(APPEND closure ${below})
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set_property(GLOBAL PROPERTY DURPROBE_ROOM_${name} ${closure})
  set(view ${PROJECT_BINARY_DIR}/rooms/${name})
  file(MAKE_DIRECTORY ${view})
  foreach(room IN LISTS closure)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${room} ${view}/${room} SYMBOLIC)
  endforeach()
  add_library(durprobe_${name} STATIC)
  # A switch over a closed set names every value, with no `default:`: one left out fails the build.
  target_compile_options(durprobe_${name} PRIVATE -Werror=switch)
  target_include_directories(durprobe_${name} PRIVATE ${view} ${PROJECT_BINARY_DIR}/generated)
  list(TRANSFORM R_DEPS PREPEND durprobe_)
  target_link_libraries(durprobe_${name} PUBLIC durprobe_deps ${R_DEPS})
  # Designated initializers leave the members they do not name at their defaults, on purpose.
  target_compile_options(durprobe_${name} PRIVATE -Wall -Wextra -Wno-missing-field-initializers
    ${DURPROBE_STRICT_WARNINGS})
endfunction()
