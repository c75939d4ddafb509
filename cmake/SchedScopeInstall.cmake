# `cmake --install` and `cpack`: both programs, the scenarios, the desktop entry, its icon, the
# AppStream metainfo and the man pages where a Debian system looks for them, and a .deb of it.
# SPDX-License-Identifier: GPL-3.0-or-later
include(GNUInstallDirs)

set(SCHEDSCOPE_APP_ID io.github.schedscope.SchedScope)
set(linux_dir ${PROJECT_SOURCE_DIR}/resources/linux)

install(TARGETS schedscope schedscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The trace.dat reader both programs run (core/trace/file.cpp finds it here).
install(TARGETS schedscope-dat-reader RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/schedscope)
install(FILES ${linux_dir}/${SCHEDSCOPE_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${linux_dir}/${SCHEDSCOPE_APP_ID}.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${linux_dir}/${SCHEDSCOPE_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
# Every shipped scenario is compiled into both programs (by name: kernel-hogs-waker,
# experiments/preempt-short, real-machine/...); the files are installed as examples to copy and
# change.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/builtin ${PROJECT_SOURCE_DIR}/scenarios/experiments
                  ${PROJECT_SOURCE_DIR}/scenarios/real-machine ${PROJECT_SOURCE_DIR}/scenarios/benchmarks
        DESTINATION ${CMAKE_INSTALL_DATADIR}/schedscope/scenarios FILES_MATCHING PATTERN "*.json")

# Man pages and the changelog (a native package: changelog.gz) compressed as Debian policy asks (gzip -9n: no name, no
# time stamp, so the package is reproducible).
find_program(GZIP_PROGRAM gzip REQUIRED)
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/schedscope)
set(gz_outputs)
foreach(src ${linux_dir}/schedscope.1 ${linux_dir}/schedscope-cli.1 ${linux_dir}/changelog)
  get_filename_component(name ${src} NAME)
  set(gz ${CMAKE_BINARY_DIR}/packaging/${name}.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
    COMMAND ${GZIP_PROGRAM} -9n -c ${src} > ${gz}.tmp
    COMMAND ${CMAKE_COMMAND} -E rename ${gz}.tmp ${gz}
    DEPENDS ${src} VERBATIM)
  list(APPEND gz_outputs ${gz})
endforeach()
add_custom_target(schedscope_packaging_files ALL DEPENDS ${gz_outputs})
install(FILES ${CMAKE_BINARY_DIR}/packaging/schedscope.1.gz ${CMAKE_BINARY_DIR}/packaging/schedscope-cli.1.gz
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz DESTINATION ${doc_dir} RENAME changelog.gz)
install(FILES ${linux_dir}/copyright DESTINATION ${doc_dir})

# cpack -G DEB (from the build folder): the package's dependencies are the libraries the programs
# link (dpkg-shlibdeps) and the font without which Qt draws boxes for every glyph.
set(CPACK_PACKAGE_NAME schedscope)
set(CPACK_PACKAGE_VENDOR "The SchedScope developers")
set(CPACK_PACKAGE_CONTACT "The SchedScope developers <schedscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "laboratory for the Linux CPU scheduler")
# Debian wraps nothing: each line of the extended description at most 79 characters. One string:
# set() with several would make a list, joined by ';'.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "SchedScope simulates the Linux CPU scheduler step by step or at any speed:\n"
    " EEVDF, the preemption models none, voluntary, full and lazy, and the\n"
    " need-resched bits TIF_NEED_RESCHED and TIF_NEED_RESCHED_LAZY. It draws\n"
    " per-CPU timelines, vruntime, deadline and lag, reproduces the workloads of\n"
    " the kernel mailing-list discussions (perf bench sched messaging, kernbench,\n"
    " massive_intr, cyclictest) and compares a simulation with traces of real\n"
    " machines (ftrace, trace.dat, perf script). schedscope-cli runs the same\n"
    " engine without a display.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/schedscope/schedscope")
set(CPACK_STRIP_FILES ON)
set(CPACK_SET_DESTDIR OFF)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
