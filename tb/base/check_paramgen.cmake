# Bad parameter declarations: sanvp_paramgen must refuse each with its file, line, column and the
# problem, and write no header; a good declaration must give a header with the declared default.
#   cmake -DGEN=<sanvp_paramgen> -DWORK=<scratch dir> -P check_paramgen.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(head "struct: P\nnamespace: sanvp\nscope: s\nparams:\n")

function(expect_refused name body must_contain)
  file(WRITE ${WORK}/${name}.params.yaml "${head}${body}")
  execute_process(COMMAND ${GEN} ${name}.params.yaml ${name}_params.hpp WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: accepted")
  endif()
  string(FIND "${err}" "${must_contain}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: message '${err}' lacks '${must_contain}'")
  endif()
  if(EXISTS ${WORK}/${name}_params.hpp)
    message(FATAL_ERROR "${name}: wrote a header")
  endif()
endfunction()

expect_refused(default_out_of_range
  "  - {name: q, type: int, default: 300, range: [1, 256], meaning: m}\n"
  "default_out_of_range.params.yaml:5:35: default of s.q: 300 is outside 1..256")
expect_refused(unknown_type
  "  - {name: q, type: float, default: 1, meaning: m}\n"
  "unknown_type.params.yaml:5:21: unknown type 'float'")
expect_refused(unknown_key
  "  - {name: q, type: int, default: 1, meaning: m, unit_: ns}\n"
  "unknown_key.params.yaml:5:50: unknown key 'unit_'")
expect_refused(range_too_wide
  "  - {name: q, type: int, ctype: std::uint8_t, default: 1, range: [0, 300], meaning: m}\n"
  "range 0..300 does not fit the field type std::uint8_t")
expect_refused(bad_time
  "  - {name: t, type: time, default: 5 parsecs, meaning: m}\n"
  "default of s.t")
expect_refused(twice
  "  - {name: q, type: int, default: 1, meaning: m}\n  - {name: q, type: int, default: 2, meaning: m}\n"
  "'q' is declared twice")
expect_refused(choice_default
  "  - {name: c, type: string, default: red, choices: [green, blue], meaning: m}\n"
  "'red' is not one of green,blue")

file(WRITE ${WORK}/good.params.yaml "${head}  - {name: t, type: time, default: 3.26ns, range: [1ps, ~], meaning: m}\n")
execute_process(COMMAND ${GEN} good.params.yaml good_params.hpp WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc)
file(READ ${WORK}/good_params.hpp hpp)
string(FIND "${hpp}" "Time t = 3260;" at)
if(NOT rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "good declaration: rc ${rc}, header:\n${hpp}")
endif()
