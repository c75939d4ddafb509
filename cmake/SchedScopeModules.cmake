# The architecture as CMake sees it: every folder of code is one static library, and a folder may
# include only its own headers and those of the folders it declares (MAY_INCLUDE). Includes are
# spelled from an include root — core/ for the core rooms ("engine/cfs_rq.h"), the project root
# for the rest ("scenarios/scenario.h", "widgets/model/lane_index.h") — so an include names the
# folder it reaches, and cmake/check_includes.cmake (the CTest test "include_layers") refuses one
# that runs the wrong way. NO_QT folders may not include Qt at all.

# schedscope_module(<target> FOLDER <dir> [NO_QT] [MAY_INCLUDE <dir>...] SOURCES <file>...
#                   [LINK <target>...])
# <dir>s are relative to the project root (core/engine, widgets/model, app/common).
function(schedscope_module target)
  cmake_parse_arguments(M "NO_QT" "FOLDER" "MAY_INCLUDE;SOURCES;LINK" ${ARGN})
  add_library(${target} STATIC ${M_SOURCES})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${M_LINK})
  set(noqt)
  if(M_NO_QT)
    set(noqt NO_QT)
  endif()
  schedscope_include_rule(${M_FOLDER} ${noqt} ${M_MAY_INCLUDE})
endfunction()

# Records what <folder> may include, for the check; for folders that are not one library
# (tests/, fuzz/, pgo/). schedscope_include_rule(<folder> [NO_QT] <dir>...)
function(schedscope_include_rule folder)
  set(args ${ARGN})
  set(noqt 0)
  if("NO_QT" IN_LIST args)
    set(noqt 1)
    list(REMOVE_ITEM args NO_QT)
  endif()
  string(REPLACE ";" "," allowed "${args}")
  set_property(GLOBAL APPEND PROPERTY SCHEDSCOPE_INCLUDE_RULES "${folder}:${noqt}:${allowed}")
endfunction()

# Registers the checks as tests (the include check, and cmake/check_writes.sh's: every file
# written through the one save helper) (call once, at the end of the top-level CMakeLists.txt).
function(schedscope_add_include_check)
  get_property(rules GLOBAL PROPERTY SCHEDSCOPE_INCLUDE_RULES)
  string(REPLACE ";" "|" rules_arg "${rules}")
  add_test(NAME include_layers
           COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} "-DRULES=${rules_arg}" -P ${PROJECT_SOURCE_DIR}/cmake/check_includes.cmake)
  set_tests_properties(include_layers PROPERTIES LABELS "house")
  add_test(NAME writes_through_one_helper COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/check_writes.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(writes_through_one_helper PROPERTIES LABELS "house")
endfunction()
