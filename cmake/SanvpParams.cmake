# sanvp_params(<target> <decl.params.yaml>...): generates `<decl>_params.hpp` from each parameter
# declaration file (hw/base/paramgen.cpp) into the build tree, at the same relative path as the
# declaration, so that `#include "hw/nic/oscillator_params.hpp"` finds it. The headers are
# sources of <target>, so they exist before it or anything linking it compiles.
set(SANVP_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/gen)

function(sanvp_params target)
  foreach(decl ${ARGN})
    get_filename_component(abs ${decl} ABSOLUTE)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    string(REGEX REPLACE "\\.params\\.yaml$" "_params.hpp" out_rel ${rel})
    if(out_rel STREQUAL rel)
      message(FATAL_ERROR "sanvp_params: ${decl} does not end in .params.yaml")
    endif()
    set(out ${SANVP_GENERATED_INCLUDE}/${out_rel})
    get_filename_component(out_dir ${out} DIRECTORY)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND sanvp_paramgen ${rel} ${out}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      DEPENDS sanvp_paramgen ${abs}
      COMMENT "Parameters of ${rel}"
      VERBATIM)
    target_sources(${target} PRIVATE ${out})
  endforeach()
  target_include_directories(${target} PUBLIC ${SANVP_GENERATED_INCLUDE})
endfunction()
