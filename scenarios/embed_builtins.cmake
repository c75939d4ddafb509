# Generates a C++ source holding every built-in scenario file as a string, so the programs
# ship their scenarios without Qt resources. Run as: cmake -DOUT=... -DFILES=a;b -P this
string(REPLACE "|" ";" FILES "${FILES}")
set(body "")
foreach(f IN LISTS FILES)
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(APPEND body "    {\"${name}\", R\"SSJSON(${text})SSJSON\"},\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from scenarios/builtin/*.json by embed_builtins.cmake. Do not edit.\n#include \"scenarios/builtin_scenarios.h\"\nnamespace scen {\nconst std::vector<BuiltinScenario>& builtinScenarios() {\n  static const std::vector<BuiltinScenario> all{\n${body}  };\n  return all;\n}\n}\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
