# What `cmake --install` and the Debian package (cpack -G DEB, scripts/build-deb.sh) carry: the
# binary, durprobe(1), the bash completion and the docs. The man page and the completion are
# printed by the built binary itself (`durprobe --man`, `--bash-completion`: cli/man_page.h), so
# they say what --help says.
# `cmake --install` and cpack install what is built, without building every target first (the
# tests): scripts/build-deb.sh builds what the package needs.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(DURPROBE_MAN ${PROJECT_BINARY_DIR}/man/durprobe.1)
set(DURPROBE_COMPLETION ${PROJECT_BINARY_DIR}/completion/durprobe)
add_custom_command(OUTPUT ${DURPROBE_MAN} ${DURPROBE_MAN}.gz ${DURPROBE_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory man completion
  COMMAND sh -c "$<TARGET_FILE:durprobe> --man > man/durprobe.1"
  COMMAND sh -c "gzip -9n -c man/durprobe.1 > man/durprobe.1.gz"
  COMMAND sh -c "$<TARGET_FILE:durprobe> --bash-completion > completion/durprobe"
  DEPENDS durprobe WORKING_DIRECTORY ${PROJECT_BINARY_DIR} VERBATIM
  COMMENT "durprobe(1) and the bash completion, from the binary's command line")
add_custom_target(durprobe_manual ALL DEPENDS ${DURPROBE_MAN}.gz ${DURPROBE_COMPLETION})

# Directories as Debian wants them whatever the umask of the machine that packs.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(FILES ${DURPROBE_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${DURPROBE_COMPLETION}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
file(GLOB DURPROBE_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${DURPROBE_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/img DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Debian's package: a changelog and a copyright file in the doc directory (Debian policy 12.5,
# 12.7), the dependencies from the binary's shared libraries (dpkg-shlibdeps).
set(DURPROBE_MAINTAINER "durprobe maintainers <maintainers@users.noreply.a-seed-9c0a3da7.example>"
  CACHE STRING "The Debian package's maintainer")
string(TIMESTAMP DURPROBE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${PROJECT_BINARY_DIR}/debian/changelog
  "durprobe (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
  "  * Packaged by CPack from the durprobe source tree.\n\n"
  " -- ${DURPROBE_MAINTAINER}  ${DURPROBE_DATE}\n")
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
  COMMAND sh -c "gzip -9n -c debian/changelog > debian/changelog.gz"
  DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  VERBATIM)
add_custom_target(durprobe_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/debian/changelog.gz cmake/copyright
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME durprobe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${DURPROBE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "storage durability probe: what a durable write costs")
# The control file's synopsis is the summary, its extended description this (CPack indents it).
set(CPACK_PACKAGE_DESCRIPTION "durprobe measures fsync, fdatasync and the other sync primitives
on a path, says what the path is (filesystem, device, cache, container
layers), counts the device flushes, tests crash states and SQLite commits,
and gates a host against etcd, PostgreSQL or SQLite rules.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
include(CPack)
