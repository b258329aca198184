# add_lanai_firmware(): LANai firmware images from C++ sources, shared by the build tree
# (firmware/CMakeLists.txt) and the installed CMake package (find_package(sanvp)). clang++
# --target=lanai compiles (not a CMake language: custom commands), ld.lld -r merges, and the
# project's linker (sanvp-fwld) lays out, relocates and writes the image + map file.
#
#   add_lanai_firmware(<name> SOURCES a.cpp b.cpp [INCLUDES dir...] [DEFINES X=1...]
#                      [FLAGS -O3 -g...] [SRAM_SIZE bytes] [STACK_SIZE bytes] [BUILTIN id] [PROTOCOL])
#
# produces ${CMAKE_CURRENT_BINARY_DIR}/<name>.img and <name>.map, built by target <name>
# (in ALL). The image path is in the target property LANAI_IMAGE. With -g in FLAGS the image
# carries DWARF and <name>.elf is written beside it (for llvm-dwarfdump and llvm-objdump -l):
# ld.lld -r rejects the Lanai relocations of .debug_* sections, so the objects then go to
# sanvp-fwld one by one and it relocates the debug sections itself. BUILTIN adds the image to
# the simulator's table of built-in firmware (in the build tree only). PROTOCOL marks protocol
# firmware: fw::time_ns() (global simulated time) is deleted from its API.
#
# The includer sets: LANAI_CLANGXX, LANAI_LD_LLD (tools), LANAI_CXX_FLAGS (the firmware flags
# with the runtime's include directories), LANAI_RUNTIME_OBJ (the merged runtime), SANVP_FWLD
# (the linker: a path or $<TARGET_FILE:sanvp-fwld>) and SANVP_FWLD_DEPENDS (targets or files
# a link depends on).
include_guard(GLOBAL)

# lanai_compile(<out_var> <source> <object> [extra flags...])
function(lanai_compile out src obj)
  get_filename_component(src_abs ${src} ABSOLUTE)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${LANAI_CLANGXX} ${LANAI_CXX_FLAGS} ${ARGN} -MD -MF ${obj}.d -c ${src_abs} -o ${obj}
    DEPENDS ${src_abs}
    DEPFILE ${obj}.d
    COMMENT "Lanai C++ ${src}"
    VERBATIM)
  set(${out} ${obj} PARENT_SCOPE)
endfunction()

# True when the flags ask for debug information (-g, -g2, -gdwarf-4, ...; not -g0).
function(_lanai_wants_debug out)
  set(r FALSE)
  foreach(f ${ARGN})
    if(f MATCHES "^-g" AND NOT f STREQUAL "-g0")
      set(r TRUE)
    endif()
  endforeach()
  set(${out} ${r} PARENT_SCOPE)
endfunction()

function(add_lanai_firmware name)
  cmake_parse_arguments(F "PROTOCOL" "SRAM_SIZE;STACK_SIZE;BUILTIN" "SOURCES;INCLUDES;DEFINES;FLAGS" ${ARGN})
  if(NOT F_SOURCES)
    message(FATAL_ERROR "add_lanai_firmware(${name}): no SOURCES")
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}.fw)
  file(MAKE_DIRECTORY ${dir})
  set(flags ${F_FLAGS})
  foreach(i ${F_INCLUDES})
    get_filename_component(i_abs ${i} ABSOLUTE)
    list(APPEND flags -I${i_abs})
  endforeach()
  foreach(d ${F_DEFINES})
    list(APPEND flags -D${d})
  endforeach()
  if(F_PROTOCOL)
    list(APPEND flags -DSANVP_PROTOCOL_FIRMWARE=1)
  endif()
  set(objs)
  foreach(src ${F_SOURCES})
    get_filename_component(base ${src} NAME_WE)
    lanai_compile(o ${src} ${dir}/${base}.o ${flags})
    list(APPEND objs ${o})
  endforeach()
  set(img ${CMAKE_CURRENT_BINARY_DIR}/${name}.img)
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${name}.map)
  set(opts)
  if(F_SRAM_SIZE)
    list(APPEND opts --sram-size ${F_SRAM_SIZE})
  endif()
  if(F_STACK_SIZE)
    list(APPEND opts --stack-size ${F_STACK_SIZE})
  endif()
  _lanai_wants_debug(debug ${F_FLAGS})
  set(outputs ${img} ${map})
  if(debug)
    set(link_inputs ${objs})
    list(APPEND opts --elf ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
    list(APPEND outputs ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
  else()
    set(link_inputs ${dir}/${name}.o)
    add_custom_command(OUTPUT ${dir}/${name}.o
      COMMAND ${LANAI_LD_LLD} -r ${objs} -o ${dir}/${name}.o
      DEPENDS ${objs}
      COMMENT "Lanai ld -r ${name}.o" VERBATIM)
  endif()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${SANVP_FWLD} ${opts} -o ${img} --map ${map} ${link_inputs} ${LANAI_RUNTIME_OBJ}
    DEPENDS ${link_inputs} ${LANAI_RUNTIME_OBJ} ${SANVP_FWLD_DEPENDS}
    COMMENT "Lanai link ${name}.img" VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${img})
  set_target_properties(${name} PROPERTIES LANAI_IMAGE ${img})
  if(F_BUILTIN)
    set_property(GLOBAL APPEND PROPERTY SANVP_BUILTIN_FIRMWARE "${F_BUILTIN}|${name}|${img}")
  endif()
endfunction()
