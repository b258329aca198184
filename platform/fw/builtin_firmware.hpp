// The table of built-in firmware: images built by this build tree (add_lanai_firmware(...
// BUILTIN id) in firmware/), so commands and scenario files (`firmware: builtin:msg`) need no
// build path. A new protocol's firmware adds itself with its BUILTIN id; nothing here changes.
#pragma once
#include <string>
#include <vector>

namespace sanvp::fw {

struct BuiltinFirmware {
  std::string id;      // as in builtin:<id>
  std::string target;  // the build target that makes the image
  std::string image;   // the image file
};

const std::vector<BuiltinFirmware>& builtin_firmware_table();
// The entry of builtin:<id> (nullptr if there is none).
const BuiltinFirmware* find_builtin_firmware(const std::string& id);
// The image file of builtin:<id> (empty if there is none).
std::string builtin_firmware_image(const std::string& id);
// "builtin:a, builtin:b", for messages.
std::string builtin_firmware_names();

}  // namespace sanvp::fw
