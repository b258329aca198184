# RTL <-> SystemC lockstep tests (harness: tb/rtl/lockstep.hpp). Included by tb/CMakeLists.txt.
#
# sanvp_add_lockstep_test(<name>
#     RTL <top module> SV <file.sv>...
#     MODELS <suffix>:<verilator args>...  one Verilated model each, C++ class V<top>_<suffix>
#                                          (args e.g. "-GN=4"; several separated by spaces)
#     SOURCES <test.cpp>...
#     [MODEL_SOURCES <cpp>...]    code built with the models into the library <name>_rtl (which
#                                 other executables may link, e.g. a command-line runner)
#     [VERILATOR_ARGS <arg>...]   for every model, e.g. -O3 --pins-bv 2
#     [LINT <suffix>:<args>...]   lint-only configurations besides the models
#     [LIBS <lib>...] [LABELS <label>...])
#
# Verilates every model (SystemC mode, VCD trace compiled in, -Wall) with one C++ standard, C++17
# like every target: Debian's SystemC is built as C++17 and does not link across standards. Adds
# the Catch2 test <name> (CTest names <name>:<case>, labels rtl and LABELS) and one lint test per
# model and LINT entry, <name>:lint <suffix> (verilator --lint-only -Wall).
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

function(sanvp_add_lockstep_test name)
  cmake_parse_arguments(L "" "RTL" "SV;MODELS;SOURCES;MODEL_SOURCES;VERILATOR_ARGS;LINT;LIBS;LABELS" ${ARGN})
  if(NOT L_RTL OR NOT L_SV OR NOT L_MODELS OR NOT L_SOURCES)
    message(FATAL_ERROR "sanvp_add_lockstep_test(${name}): RTL, SV, MODELS and SOURCES are required")
  endif()
  set(lib ${name}_rtl)
  add_library(${lib} STATIC ${L_MODEL_SOURCES})
  set_target_properties(${lib} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_include_directories(${lib} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${lib} PUBLIC sanvp_systemc fmt::fmt ${L_LIBS})
  # What verilate() defines for its own sources, for the code of the users that include V*.h.
  target_compile_definitions(${lib} INTERFACE VM_SC=1 VM_TRACE=1 VM_TRACE_VCD=1 VM_COVERAGE=0 VM_TRACE_FST=0)
  foreach(m ${L_MODELS})
    _sanvp_lockstep_split("${m}" suffix args)
    verilate(${lib} SYSTEMC TRACE TRACE_STRUCTS PREFIX V${L_RTL}_${suffix} TOP_MODULE ${L_RTL}
             SOURCES ${L_SV} VERILATOR_ARGS -Wall ${args} ${L_VERILATOR_ARGS} -CFLAGS -std=c++17)
  endforeach()
  # Generated code: keep its style warnings out of ours.
  target_compile_options(${lib} PRIVATE -Wno-unused-variable -Wno-unused-but-set-variable)

  sanvp_add_test(${name} SOURCES ${L_SOURCES} LIBS ${lib} LABELS rtl ${L_LABELS})
  set_target_properties(${name} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  # Verilator 5.006's trace buffer (verilated_trace_imp.h) stores 64-bit values at 4-byte
  # alignment, which UBSan reports for 64-bit ports; harmless on x86 and not our code, so the
  # alignment check alone is off for these targets under the sanitizer preset.
  if(SANVP_SANITIZE)
    target_compile_options(${lib} PRIVATE -fno-sanitize=alignment)
    target_compile_options(${name} PRIVATE -fno-sanitize=alignment)
  endif()

  set(labels rtl ${L_LABELS})
  foreach(m ${L_MODELS} ${L_LINT})
    _sanvp_lockstep_split("${m}" suffix args)
    add_test(NAME "${name}:lint ${suffix}" COMMAND ${VERILATOR_BIN} --lint-only -Wall ${args} ${L_SV})
    set_tests_properties("${name}:lint ${suffix}" PROPERTIES LABELS "${labels}")
  endforeach()
endfunction()

# "<suffix>:<args separated by spaces>" -> suffix, list of args
function(_sanvp_lockstep_split entry out_suffix out_args)
  string(FIND "${entry}" ":" colon)
  if(colon LESS 0)
    set(${out_suffix} "${entry}" PARENT_SCOPE)
    set(${out_args} "" PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${entry}" 0 ${colon} suffix)
  math(EXPR start "${colon} + 1")
  string(SUBSTRING "${entry}" ${start} -1 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  set(${out_suffix} "${suffix}" PARENT_SCOPE)
  set(${out_args} "${args}" PARENT_SCOPE)
endfunction()
