# Generates a C++ source holding scenario files as strings, so the programs ship them without Qt
# resources. Run as: cmake -DOUT=... -DFILES=a|b -DFUNC=builtinScenarios [-DWITH_DIR=ON] -P this
# A file's name is its base name, or with WITH_DIR its folder and base name ("experiments/x").
string(REPLACE "|" ";" FILES "${FILES}")
set(body "")
foreach(f IN LISTS FILES)
  get_filename_component(name "${f}" NAME_WE)
  if(WITH_DIR)
    get_filename_component(dir "${f}" DIRECTORY)
    get_filename_component(dir "${dir}" NAME)
    set(name "${dir}/${name}")
  endif()
  file(READ "${f}" text)
  string(APPEND body "    {\"${name}\", R\"SSJSON(${text})SSJSON\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from scenarios/ by embed_builtins.cmake. Do not edit.\n#include \"scenarios/builtin_scenarios.h\"\nnamespace scen {\nconst std::vector<BuiltinScenario>& ${FUNC}() {\n  static const std::vector<BuiltinScenario> all{\n${body}  };\n  return all;\n}\n}\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
