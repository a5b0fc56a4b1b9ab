# Detects the sync primitives and file flags this OS offers; results land in durprobe_config.h
# and are tested with `#if HAVE_X` inside platform/ only.
include(CheckSymbolExists)
set(CMAKE_REQUIRED_DEFINITIONS -D_GNU_SOURCE)
check_symbol_exists(fdatasync "unistd.h" HAVE_FDATASYNC)
check_symbol_exists(O_DSYNC "fcntl.h" HAVE_O_DSYNC)
check_symbol_exists(O_SYNC "fcntl.h" HAVE_O_SYNC)
check_symbol_exists(O_DIRECT "fcntl.h" HAVE_O_DIRECT)
check_symbol_exists(F_NOCACHE "fcntl.h" HAVE_F_NOCACHE)
check_symbol_exists(F_FULLFSYNC "fcntl.h" HAVE_F_FULLFSYNC)
check_symbol_exists(F_BARRIERFSYNC "fcntl.h" HAVE_F_BARRIERFSYNC)
check_symbol_exists(sync_file_range "fcntl.h" HAVE_SYNC_FILE_RANGE)
check_symbol_exists(posix_fallocate "fcntl.h" HAVE_POSIX_FALLOCATE)
check_symbol_exists(posix_fadvise "fcntl.h" HAVE_POSIX_FADVISE)
check_symbol_exists(pipe2 "unistd.h" HAVE_PIPE2)
check_symbol_exists(PR_SET_PDEATHSIG "sys/prctl.h" HAVE_PR_SET_PDEATHSIG)
check_symbol_exists(pwritev2 "sys/uio.h" HAVE_PWRITEV2)
unset(CMAKE_REQUIRED_DEFINITIONS)
foreach(cap FDATASYNC O_DSYNC O_SYNC O_DIRECT F_NOCACHE F_FULLFSYNC F_BARRIERFSYNC SYNC_FILE_RANGE
            POSIX_FALLOCATE POSIX_FADVISE PIPE2 PR_SET_PDEATHSIG PWRITEV2)
  if(HAVE_${cap})
    set(HAVE_${cap} 1)
  else()
    set(HAVE_${cap} 0)
  endif()
endforeach()

# io_uring through liburing (Debian: liburing-dev), found with pkg-config; without it the
# io_uring primitives say unsupported with the reason.
set(HAVE_LIBURING 0)
if(NOT APPLE)
  find_package(PkgConfig)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(URING IMPORTED_TARGET liburing)
    if(URING_FOUND)
      set(HAVE_LIBURING 1)
    endif()
  endif()
endif()

# libfuse3 (Debian: libfuse3-dev) for the crash device's FUSE server; without it the crash device
# says unsupported with the reason.
set(HAVE_FUSE3 0)
if(NOT APPLE AND PKG_CONFIG_FOUND)
  pkg_check_modules(FUSE3 IMPORTED_TARGET fuse3)
  if(FUSE3_FOUND)
    set(HAVE_FUSE3 1)
  endif()
endif()
