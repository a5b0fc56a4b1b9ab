# BPF programs (platform/bpf/*.bpf.c): compiled by clang -target bpf at build time and embedded
# in the binary (cmake/EmbedFile.cmake). Without clang the observer is left out with one line
# (platform/sync_observer_unsupported.cc then says so at run time).
find_program(DURPROBE_BPF_CLANG NAMES clang clang-16 clang-15 clang-14)
set(HAVE_BPF_OBSERVER 0)
if(NOT APPLE AND DURPROBE_BPF_CLANG AND EXISTS /usr/include/linux/bpf.h)
  set(HAVE_BPF_OBSERVER 1)
else()
  message(STATUS "durprobe watch left out: no clang to compile its BPF program, or no linux/bpf.h")
endif()

# durprobe_bpf_object(SOURCE FUNCTION OUT_CC): compiles SOURCE to an object and writes OUT_CC,
# whose durprobe::platform::FUNCTION() returns the object's bytes.
function(durprobe_bpf_object source function out_cc)
  get_filename_component(name ${source} NAME_WE)
  set(object ${CMAKE_BINARY_DIR}/generated/bpf/${name}.bpf.o)
  set(cc ${CMAKE_BINARY_DIR}/generated/bpf/${name}_bpf_object.cc)
  set(arch_include /usr/include/${CMAKE_LIBRARY_ARCHITECTURE})
  add_custom_command(OUTPUT ${object}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated/bpf
    COMMAND ${DURPROBE_BPF_CLANG} -O2 -target bpf -Wall -I${arch_include}
            -c ${source} -o ${object}
    DEPENDS ${source} ${PROJECT_SOURCE_DIR}/platform/sync_observer_abi.h
    COMMENT "BPF object ${name}.bpf.o" VERBATIM)
  add_custom_command(OUTPUT ${cc}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${object} -DOUTPUT=${cc} -DFUNCTION=${function}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${object} ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake VERBATIM)
  # A generated file cannot join a unity batch: the batch would include it before it exists.
  set_source_files_properties(${cc} DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON GENERATED ON)
  # The rooms' libraries are declared in the top directory: a target here runs the commands.
  add_custom_target(durprobe_bpf_${name} DEPENDS ${cc})
  set(${out_cc} ${cc} PARENT_SCOPE)
endfunction()
