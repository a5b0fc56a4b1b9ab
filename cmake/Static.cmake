# durprobe-static: the same objects as durprobe, linked once more with -static (glibc, libstdc++,
# SQLite, liburing, libfuse3 from their .a archives), a binary that runs on any x86-64 Linux with
# no library installed (scripts/build-static.sh, docs/start.md). An extra link step, not a second
# compile: toml++ is used header-only, and fmt's compiled part, which the objects take from
# libfmt.so, is compiled once for it in platform/static_fmt.cc (Debian ships no libfmt.a and no
# libtomlplusplus.a).
#
# A library whose shared form the rooms link (an imported target naming its .so) is named through
# durprobe_static_alternative: the archive when the target being linked has the DURPROBE_STATIC
# property, the imported target otherwise (its include directories stay with every compile).
function(durprobe_static_alternative out imported archive)
  set(${out} "$<IF:$<BOOL:$<TARGET_PROPERTY:DURPROBE_STATIC>>,-l:${archive},${imported}>"
      PARENT_SCOPE)
endfunction()

# What a static link needs that a build machine may lack; without it durprobe-static is left out
# with one line saying why (the dynamic durprobe is unaffected).
option(DURPROBE_STATIC_BINARY "Also link durprobe-static, a fully static binary" ON)
set(DURPROBE_STATIC_MISSING "")
if(DURPROBE_STATIC_BINARY)
  foreach(archive libc.a libstdc++.a libsqlite3.a)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${archive}
      OUTPUT_VARIABLE found OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${found}" OR NOT EXISTS "${found}")
      find_library(DURPROBE_STATIC_${archive} NAMES ${archive})
      if(NOT DURPROBE_STATIC_${archive})
        list(APPEND DURPROBE_STATIC_MISSING ${archive})
      endif()
    endif()
  endforeach()
  if(DURPROBE_STATIC_MISSING)
    message(STATUS "durprobe-static left out: ${DURPROBE_STATIC_MISSING} not found")
  endif()
endif()

# durprobe_static_executable(NAME): NAME from the objects and rooms a dynamic build already
# compiled, plus platform/static_link.cc (which tells platform/ it was linked statically: numeric
# addresses only, since glibc's name service needs its shared modules). The link warns twice, and
# both are answered: getaddrinfo (given AI_NUMERICHOST there, platform/tcp.cc) and dlopen (in
# libfuse's loader of `-o modules=`, which the crash device never passes).
function(durprobe_static_executable name)
  # Not in the sanitizer builds: their runtimes do not link statically.
  if(NOT DURPROBE_STATIC_BINARY OR DURPROBE_STATIC_MISSING OR DURPROBE_SANITIZE OR DURPROBE_FUZZ)
    return()
  endif()
  add_executable(${name} ${PROJECT_SOURCE_DIR}/platform/static_link.cc
    ${PROJECT_SOURCE_DIR}/platform/static_fmt.cc)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/platform/static_fmt.cc PROPERTIES
    COMPILE_DEFINITIONS FMT_HEADER_ONLY=1 SKIP_UNITY_BUILD_INCLUSION ON)
  set_target_properties(${name} PROPERTIES DURPROBE_STATIC ON)
  target_link_libraries(${name} PRIVATE durprobe_main_object durprobe_cli)
  target_link_options(${name} PRIVATE -static -s)
endfunction()
