# Layering check (cmake -P): nothing under hw/ or firmware/ includes a header from platform/.
# The hardware models and the firmware build on hw/base only, so they can be reused without the
# command-line tool's code. Prints every offending line and fails.
file(GLOB_RECURSE files LIST_DIRECTORIES false
     "${SRC}/hw/*.hpp" "${SRC}/hw/*.cpp" "${SRC}/hw/*.h" "${SRC}/hw/*.sv" "${SRC}/firmware/*.h" "${SRC}/firmware/*.hpp"
     "${SRC}/firmware/*.cpp" "${SRC}/firmware/*.c")
set(bad "")
foreach(f ${files})
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]platform/")
  foreach(l ${lines})
    file(RELATIVE_PATH rel "${SRC}" "${f}")
    string(APPEND bad "  ${rel}: ${l}\n")
  endforeach()
endforeach()
list(LENGTH files n)
if(bad)
  message(FATAL_ERROR "hw/ and firmware/ must not include platform/ headers:\n${bad}")
endif()
message(STATUS "layers: ${n} files under hw/ and firmware/, none includes platform/")
